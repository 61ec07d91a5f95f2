#!/usr/bin/env bash
# cpu_load_gpu.sh — device calls for the CPU load beside the kernel region (engine synthesis.nice):
# builds only what it runs (proofmill, bench_gpu_msm, test_gpu_msm), then
#   0. TEST=1 (default): test_gpu_msm (every MSM form against the oracle on the card);
#   1. MSM=1 (default): bench_gpu_msm at 2^27 (G1) and 2^25 (G2), real-witness scalars ("porep": 51.6 %
#      zero, 46.8 % one), streamed from a pinned host copy in the 24 GB plan's G1 chunks (6085347
#      points), scalars on the device (mode 3, as the prover's witness MSMs) and on the host (mode 1),
#      each timed under PM_MSM_LOAD (default "0 s32 s32n10 m16 m16n10": none, 32 spinning threads at
#      nice 0 and 10, 16 threads copying memory at nice 0 and 10; bench/gpu_msm.cu); once per SYNC:TIMES of
#      SYNCS (default "auto:0 auto:1 blocking:0": gpu.sync, how the waiting thread waits, gpu.msm_times,
#      1 = the per-group waits of the timed form, and an optional third field, gpu.msm_tail_bounds, default 1);
#   2. SETUP32=1 (default): bench/porep_gpu_32g.sh setup (our 32 GiB test parameters, ~100 s);
#   3. RUNS (default "24G:2:2:3"; set and empty: none): for each CAP:J:WORKERS:COUNT and each NICE:SYNC:TIMES[:BOUNDS]
#      of VARIANTS (default "0:auto:0 10:auto:0 10:blocking:0": synthesis.nice, gpu.sync, gpu.msm_times; times 1
#      waits for every window group as the MSM did before 2026-12-07), bench/porep_gpu_32g.sh
#      caps CAP J WORKERS COUNT
#      (every proof verified by the engine). A run is skipped when less than MIN_LEFT_S (default 150) of
#      DEADLINE_S (default 580, from the script's start) is left: the device's 600 s limit.
# A later call on the same warm machine may pass MSM=0 SETUP32=0 (the build and /tmp/porep-32g survive
# while it stays warm). Predictions and results: docs/perf/devplan.md, tenth session.
# Usage: bench/cpu_load_gpu.sh [BUILD_DIR (/tmp/b)]. Output under $OUT.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-/tmp/b}
OUT=${OUT:-$SRC/cpu-load-out}
# shellcheck disable=SC1091
source "$SRC/tests/gpu/device_call.sh"
device_build proofmill bench_gpu_msm test_gpu_msm || exit 1
if [ "${TEST:-1}" = 1 ]; then
  "$B/test_gpu_msm" > "$OUT/test_gpu_msm.txt" 2>&1; echo "test_gpu_msm rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
  grep -E "FAIL|MISMATCH" "$OUT/test_gpu_msm.txt" | head -5 | tee -a "$OUT/summary.txt"
fi
if [ "${MSM:-1}" = 1 ]; then
  for st in ${SYNCS:-auto:0 auto:1 blocking:0}; do
    IFS=: read -r sy tm tb <<< "$st"
    tm=${tm:-0}; tb=${tb:-1}
    PROOFMILL_GPU_MSM_TAIL_BOUNDS=$tb PROOFMILL_GPU_MSM_TIMES=$tm PROOFMILL_GPU_SYNC=$sy PM_MSM_FIELD=0 PM_MSM_DISTS=porep PROOFMILL_BENCH_REPS=2 PM_MSM_G2=25 PM_MSM_CHUNKS=6085347 PM_MSM_MODES="3 1" \
      PM_MSM_LOAD="${PM_MSM_LOAD:-0 s32 s32n10 m16 m16n10}" timeout "$(left)" "$B/bench_gpu_msm" 27 > "$OUT/bench_gpu_msm-$sy-t$tm-b$tb.txt" 2>&1
    echo "bench_gpu_msm gpu.sync=$sy gpu.msm_times=$tm gpu.msm_tail_bounds=$tb rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
    grep -E "^msm_g[12] " "$OUT/bench_gpu_msm-$sy-t$tm-b$tb.txt" | cut -c1-200 | tee -a "$OUT/summary.txt"
  done
fi
if [ "${SETUP32:-1}" = 1 ]; then
  OUT="$OUT/32g" bash bench/porep_gpu_32g.sh "$B" setup > "$OUT/setup32.txt" 2>&1; echo "32 GiB setup rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
fi
for run in ${RUNS-24G:2:2:3}; do
  IFS=: read -r cap j w n <<< "$run"
  for v in ${VARIANTS:-0:auto:0 10:auto:0 10:blocking:0}; do
    IFS=: read -r nc sy tm tb <<< "$v"
    tm=${tm:-0}; tb=${tb:-1}
    l=$(left)
    if [ "$l" -lt "$MIN_LEFT" ]; then echo "skip $run $v: $l s left" | tee -a "$OUT/summary.txt"; continue; fi
    echo "== cap $cap j $j workers $w count $n synthesis.nice=$nc gpu.sync=$sy gpu.msm_times=$tm gpu.msm_tail_bounds=$tb ($l s left)" | tee -a "$OUT/summary.txt"
    d="$OUT/$cap-j$j-w$w-nice$nc-$sy-t$tm-b$tb"
    PROOFMILL_SYNTHESIS_NICE=$nc PROOFMILL_GPU_SYNC=$sy PROOFMILL_GPU_MSM_TIMES=$tm PROOFMILL_GPU_MSM_TAIL_BOUNDS=$tb OUT="$d" timeout "$l" bash bench/porep_gpu_32g.sh "$B" caps "$cap" "$j" "$w" "$n" > "$d.txt" 2>&1
    echo "rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
    grep -hE "start ops|s/proof|steady|peak|FAIL" "$d.txt" "$d"/bench-32GiB.txt 2>/dev/null | tail -8 | tee -a "$OUT/summary.txt"
    tail -1 "$d"/porep-gpu.tsv 2>/dev/null | tee -a "$OUT/summary.txt"
  done
done
