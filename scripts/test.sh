#!/usr/bin/env bash
# Runs proofmill's whole test suite on a fresh Debian 12 machine: installs what is missing
# (scripts/install-deps.sh), builds everything (CUDA sources too when nvcc is present; GPU tests
# then report SKIPPED without a GPU), runs ctest, then rebuilds with AddressSanitizer + UBSan
# and runs the tests labelled `hostile` (malformed, truncated and mutated inputs) under it.
# Both passes always run; the exit status is non-zero when either failed. Skipped tests are
# listed with their reason at the end.
# Environment: BUILD_DIR (default build), JOBS (default nproc), PROOFMILL_SEED (reproduce a run),
# PROOFMILL_SHARED_FIXTURES (the snarkjs fixtures; default ../shared/fixtures beside the
# checkout, used when present), PROOFMILL_SLOW=1 (also the slow tests), SKIP_ASAN=1,
# CUDA_ARCHS (default "89;90": the CUDA sources are compiled for one Ada card and the H100/H200 only,
# which keeps the CUDA part of the build at about 2/5 of the default five architectures; the README's
# build compiles all of them, cmake/cuda.cmake).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh || exit 2
build=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
status=0
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-89;90}" >/dev/null || exit 2
cmake --build "$build" -j"$jobs" || exit 2
if [ -d ../shared/fixtures ] || [ -n "${PROOFMILL_SHARED_FIXTURES:-}" ]; then
  echo "test.sh: using the shared snarkjs fixtures as well as tests/data"
else
  echo "test.sh: NOTE: ../shared/fixtures is absent: fixture tests use the repository's tests/data only"
fi
(cd "$build" && ctest --output-on-failure -j"$jobs" --timeout 1500) || status=1
if [ "${SKIP_ASAN:-0}" != 1 ]; then
  asan="$build-asan"
  if cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROOFMILL_SANITIZE=ON -DPROOFMILL_CUDA=OFF >/dev/null &&
     cmake --build "$asan" -j"$jobs"; then
    echo "test.sh: AddressSanitizer + UBSan pass over the hostile-input tests"
    (cd "$asan" && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs" -L hostile --timeout 1500) || status=1
  else
    status=1
  fi
fi
# Skipped tests and why (ctest prints only failures' output).
log="$build/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
  skipped=$(grep -iE "skip(ped)?: |NOTE:" "$log" | sort | uniq -c | sort -rn | head -n 40) # lines that give a reason
  [ -n "$skipped" ] && { echo "test.sh: skip notes from the main pass:"; echo "$skipped" | sed 's/^/  /'; }
fi
exit $status
