#!/usr/bin/env bash
# device_deps.sh — on this (Debian 12) machine, once per session: fill .device-deps/ with the Debian
# packages proofmill's build needs on the device machine (which has none of them and reaches no
# registry): ../shared/device/packages.txt plus what that list lacks (SQLite, for the daemon's
# journal), and ../shared/device/deps.sh. Then every device call carries ".device-deps" and starts
# with tests/gpu/ctest_gpu.sh (or sources .device-deps/deps.sh itself, then tests/gpu/device_env.sh).
#   tests/gpu/device_deps.sh [SHARED_DIR (default ../shared)]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${1:-$ROOT/../shared}
D="$ROOT/.device-deps"
mkdir -p "$D"
cp "$SHARED/device/deps.sh" "$D/"
EXTRA="libsqlite3-dev libsqlite3-0"
(cd "$D" && apt-get download $(cat "$SHARED/device/packages.txt") $EXTRA > /dev/null 2>&1) \
  || { echo "device_deps.sh: apt-get download failed in $D" >&2; exit 1; }
mkdir -p "$ROOT/.git/info"
grep -qx '/.device-deps/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.device-deps/' >> "$ROOT/.git/info/exclude"
echo "device_deps.sh: $(ls "$D"/*.deb | wc -l) packages in $D ($(du -sh "$D" | cut -f1))"
