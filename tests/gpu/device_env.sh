# device_env.sh — source after .device-deps/deps.sh on the device machine: what deps.sh leaves out.
# Some Debian .pc files name their directories literally (cmocka.pc: "-L/usr/lib/x86_64-linux-gnu"),
# which deps.sh's prefix rewrite does not reach, so the linker is also told where the unpacked
# libraries are; and a prefix unpacked by an earlier call of the lease without a package that was
# carried since (deps.sh's .done mark present, e.g. SQLite) is unpacked again.
if [ -n "${PM_LD_LIBRARY_PATH:-}" ]; then
  if ! pkg-config --exists sqlite3 2>/dev/null; then
    echo "device_env.sh: pkg-config has no sqlite3: unpacking .device-deps again (tests/gpu/device_deps.sh carries it)" >&2
    # in a subshell without the prefix on PKG_CONFIG_PATH, so that deps.sh sees the libraries missing
    (unset PKG_CONFIG_PATH; rm -f /opt/pmdeps/.done
     # shellcheck disable=SC1091
     source "$(dirname "${BASH_SOURCE[0]}")/../../.device-deps/deps.sh")
  fi
  export LIBRARY_PATH="$PM_LD_LIBRARY_PATH${LIBRARY_PATH:+:$LIBRARY_PATH}"
fi
