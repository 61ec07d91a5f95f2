#!/usr/bin/env bash
# Runs proofmill's whole test suite on a fresh Debian 12 machine: installs what is missing
# (scripts/install-deps.sh), builds everything (CUDA sources too when nvcc is present; GPU tests
# then report SKIPPED without a GPU), runs ctest, then rebuilds with AddressSanitizer + UBSan
# and runs the tests labelled `hostile` (malformed and truncated inputs) again under it.
# Environment: BUILD_DIR (default build), JOBS (default nproc), PROOFMILL_SEED (reproduce a run),
# SKIP_ASAN=1 to skip the sanitizer pass.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
build=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$jobs"
(cd "$build" && ctest --output-on-failure -j"$jobs" --timeout 1500)
if [ "${SKIP_ASAN:-0}" != 1 ]; then
  asan="$build-asan"
  cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROOFMILL_SANITIZE=ON -DPROOFMILL_CUDA=OFF >/dev/null
  cmake --build "$asan" -j"$jobs"
  (cd "$asan" && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs" -L hostile --timeout 1500)
fi
