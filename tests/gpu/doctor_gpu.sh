#!/usr/bin/env bash
# doctor_gpu.sh — one device call for issue #39's GPU part: build (tests/gpu/ctest_gpu.sh, reusing
# BUILD_DIR), then `proofmill doctor` on the device machine (its GPU lines, the calibration and the
# predicted s/proof per 32 GiB kind beside the H200's figure), its ctest (cli_test_doctor takes its
# GPU branch there) and test_predict, then the GPU-labelled ctests within what is left of the call.
#   tests/gpu/doctor_gpu.sh [BUILD_DIR] [GPU_CTEST_SECONDS]     (defaults /tmp/b, 230)
# Output under $OUT: summary.txt, doctor.txt, doctor.json, doctor_ctest.log, gpu_ctest.log.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$SRC/gpu-out}; mkdir -p "$OUT"
B=${1:-/tmp/b}; SECS=${2:-230}
OUT=$OUT bash "$SRC/tests/gpu/ctest_gpu.sh" "$B" NO_LABEL_BUILD_ONLY >/dev/null 2>&1
cat "$OUT/summary.txt"
[ -x "$B/proofmill" ] || { echo "doctor_gpu.sh: no proofmill built at $B"; tail -30 "$OUT/build.log"; exit 1; }
"$B/proofmill" doctor /tmp >"$OUT/doctor.txt" 2>&1; echo "doctor rc=$?"; cat "$OUT/doctor.txt"
"$B/proofmill" doctor --json /tmp >"$OUT/doctor.json" 2>&1
(cd "$B" && ctest -R "cli_test_doctor|test_predict" --output-on-failure --timeout 200) >"$OUT/doctor_ctest.log" 2>&1; rc=$?
grep -E "tests passed|Failed|\*\*\*|predicted" "$OUT/doctor_ctest.log" | tail -12
(cd "$B" && timeout "$SECS" ctest -L gpu --timeout 200 -j 2) >"$OUT/gpu_ctest.log" 2>&1
grep -E "tests passed|Failed|\*\*\*|Skipped|Not Run" "$OUT/gpu_ctest.log" | tail -20
exit $rc
