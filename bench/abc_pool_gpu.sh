#!/usr/bin/env bash
# abc_pool_gpu.sh — device calls for the pinned a, b, c pool (start.h groth16_abc_pool): builds only
# what it runs (proofmill, test_gpu_groth16, test_gpu_setup, test_gpu_copy), then
#   0. test_gpu_copy (whole copies from and into memory pinned in 64 MiB pieces);
#   1. RUN_2K=1 (default): tests/gpu/porep_gpu.sh BUILD_DIR 2KiB, every tier's proof bytes against the
#      CPU prover (tiers 2-5 take a, b, c from the pool);
#   2. SETUP32=1 (default): bench/porep_gpu_32g.sh setup (our 32 GiB test parameters, ~90 s);
#   3. RUNS (default "24G:2:2:3"; set and empty: none): for each CAP:J:WORKERS:COUNT, bench/porep_gpu_32g.sh caps CAP J
#      WORKERS COUNT (every proof verified by the engine), once per value of PINS (default "1":
#      gpu.abc_pinned; "1 0" adds the malloc'd pool, the upload rate before the pool, for the
#      comparison in the same lease) and of LANES (default "1": gpu.two_lanes; "1 0" adds one lane,
#      the form before the two MSM rooms, for the comparison). A run is skipped when less than MIN_LEFT_S (default 150) of
#      DEADLINE_S (default 580, counted from the script's start) is left: the device's 600 s limit.
# A later call on the same warm machine may pass RUN_2K=0 SETUP32=0 (the build and /tmp/porep-32g
# survive while it stays warm). Predictions and results: docs/perf/devplan.md, seventh session.
# Usage: bench/abc_pool_gpu.sh [BUILD_DIR (/tmp/b)]. Output under $OUT.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-/tmp/b}
OUT=${OUT:-$SRC/abc-pool-out}
# shellcheck disable=SC1091
source "$SRC/tests/gpu/device_call.sh"
device_build proofmill test_gpu_groth16 test_gpu_setup test_gpu_copy || exit 1
"$B/test_gpu_copy" > "$OUT/test_gpu_copy.txt" 2>&1; echo "test_gpu_copy rc=$?" | tee -a "$OUT/summary.txt"
grep -E "pieces|FAIL" "$OUT/test_gpu_copy.txt" | tee -a "$OUT/summary.txt"
if [ "${RUN_2K:-1}" = 1 ]; then
  OUT="$OUT/porep" bash tests/gpu/porep_gpu.sh "$B" 2KiB > "$OUT/porep_gpu.txt" 2>&1; echo "porep_gpu 2KiB rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "^(PASS|FAIL)" "$OUT/porep/summary.txt" | tee -a "$OUT/summary.txt"
fi
if [ "${SETUP32:-1}" = 1 ]; then
  OUT="$OUT/32g" bash bench/porep_gpu_32g.sh "$B" setup > "$OUT/setup32.txt" 2>&1; echo "32 GiB setup rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
fi
for run in ${RUNS-24G:2:2:3}; do
  IFS=: read -r cap j w n <<< "$run"
  for pin in ${PINS:-1}; do
  for ln in ${LANES:-1}; do
    l=$(left)
    if [ "$l" -lt "$MIN_LEFT" ]; then echo "skip $run pin $pin lanes $ln: $l s left" | tee -a "$OUT/summary.txt"; continue; fi
    echo "== cap $cap j $j workers $w count $n gpu.abc_pinned=$pin gpu.two_lanes=$ln ($l s left)" | tee -a "$OUT/summary.txt"
    d="$OUT/$cap-j$j-w$w-pin$pin-lanes$ln"
    PROOFMILL_GPU_TWO_LANES=$ln PROOFMILL_GPU_ABC_PINNED=$pin OUT="$d" timeout "$l" bash bench/porep_gpu_32g.sh "$B" caps "$cap" "$j" "$w" "$n" > "$d.txt" 2>&1
    echo "rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
    grep -hE "start ops|s/proof|steady|peak|FAIL" "$d.txt" "$d"/bench-32GiB.txt 2>/dev/null | tail -8 | tee -a "$OUT/summary.txt"
    tail -1 "$d"/porep-gpu.tsv 2>/dev/null | tee -a "$OUT/summary.txt"
  done
  done
done
