# device_env.sh — source after .device-deps/deps.sh on the device machine: what deps.sh leaves out.
# Some Debian .pc files name their directories literally (cmocka.pc: "-L/usr/lib/x86_64-linux-gnu"),
# which deps.sh's prefix rewrite does not reach, so the linker is also told where the unpacked
# libraries are; and a prefix unpacked by an earlier call without a package that was added since
# (its .done mark present) is unpacked again.
if [ -n "${PM_LD_LIBRARY_PATH:-}" ]; then
  for _pm_pkg in sqlite3 cmocka; do
    pkg-config --exists "$_pm_pkg" 2>/dev/null && continue
    echo "device_env.sh: pkg-config has no $_pm_pkg: unpacking .device-deps again (run tests/gpu/device_deps.sh here first?)" >&2
    rm -f /opt/pmdeps/.done
    # shellcheck disable=SC1091
    source "$(dirname "${BASH_SOURCE[0]}")/../../.device-deps/deps.sh"
    break
  done
  export LIBRARY_PATH="$PM_LD_LIBRARY_PATH${LIBRARY_PATH:+:$LIBRARY_PATH}"
  unset _pm_pkg
fi
