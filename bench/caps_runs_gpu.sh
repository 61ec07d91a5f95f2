#!/usr/bin/env bash
# caps_runs_gpu.sh — one device call: 32 GiB PoRep C2 runs at chosen device-memory caps, each with its own
# settings, every proof verified by the engine (bench/porep_gpu_32g.sh). Needs the build (device_build)
# and, unless SETUP32=1, /tmp/porep-32g from an earlier call on the same warm machine.
#   RUNS: "CAP:J:WORKERS:COUNT[:VAR=VALUE,VAR=VALUE...]" items, CAP a size (24G) or "none" (the card's
#         own memory, the default plan); e.g. "24G:2:2:3 24G:2:2:3:PROOFMILL_GPU_ABC_BUFFERS=2 none:2:2:3"
#   SETUP32=1: make the 32 GiB C1 and test parameters first (~100-150 s)
#   PM_COMMIT: the commit to record (the device copy's git HEAD is stale)
#   MSM_AB=VAR: first, bench_gpu_msm (bench/gpu_msm.cu) twice in this call, with PROOFMILL_VAR=1 and then 0:
#         G1 2^MSM_LOG (27) and G2 2^MSM_G2 (25), the real witness's distribution ("porep"), resident in one
#         piece and in chunks of MSM_CHUNKS points (default 7208535 4730326: the 24 GB plan's G1 and G2
#         chunks) resident and streamed with the scalars on the device (PM_MSM_MODES "0 3"), 2 reps
# A run is skipped when less than MIN_LEFT_S (default 150) of DEADLINE_S (default 580) is left.
# Usage: bench/caps_runs_gpu.sh [BUILD_DIR (/tmp/b)]. Output under $OUT: summary.txt, one folder per run.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-/tmp/b}
OUT=${OUT:-$SRC/caps-runs-out}
# shellcheck disable=SC1091
source "$SRC/tests/gpu/device_call.sh"
if [ -n "${MSM_AB:-}" ]; then device_build proofmill bench_gpu_msm || exit 1; else device_build proofmill || exit 1; fi
if [ -n "${MSM_AB:-}" ]; then
  for v in 1 0; do
    env "PROOFMILL_$MSM_AB=$v" PM_MSM_FIELD=0 PM_MSM_DISTS=porep PROOFMILL_BENCH_REPS=2 PROOFMILL_GPU_MSM_TIMES=1 PM_MSM_MODES="0 3" \
      PM_MSM_G2="${MSM_G2:-25}" PM_MSM_CHUNKS="${MSM_CHUNKS:-7208535 4730326}" timeout 150 "$B/bench_gpu_msm" "${MSM_LOG:-27}" \
      > "$OUT/msm-$MSM_AB-$v.txt" 2>&1
    echo "bench_gpu_msm $MSM_AB=$v rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
    grep -E "^msm_g[12] " "$OUT/msm-$MSM_AB-$v.txt" | cut -c1-330 | tee -a "$OUT/summary.txt"
  done
fi
if [ "${SETUP32:-0}" = 1 ] && [ "$(left)" -lt $((MIN_LEFT + 110)) ]; then
  echo "skip the 32 GiB setup and the runs: $(left) s left" | tee -a "$OUT/summary.txt"
  exit 0
fi
if [ "${SETUP32:-0}" = 1 ]; then
  OUT="$OUT/32g" bash bench/porep_gpu_32g.sh "$B" setup > "$OUT/setup32.txt" 2>&1
  echo "32 GiB setup rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
fi
n=0
for run in ${RUNS:-24G:2:2:3}; do
  n=$((n + 1))
  IFS=: read -r cap j w c envs <<< "$run"
  l=$(left)
  if [ "$l" -lt "$MIN_LEFT" ]; then echo "skip $run: $l s left" | tee -a "$OUT/summary.txt"; continue; fi
  echo "== $run ($l s left)" | tee -a "$OUT/summary.txt"
  d="$OUT/run$n-$cap-j$j-w$w"
  envv=()
  [ -n "${envs:-}" ] && IFS=, read -r -a envv <<< "$envs"
  if [ "$cap" = none ]; then
    env "${envv[@]}" PROOFMILL_GPU_VERBOSE=1 OUT="$d" timeout "$l" bash bench/porep_gpu_32g.sh "$B" bench "$j" "$w" "$c" > "$d.txt" 2>&1
  else
    env "${envv[@]}" OUT="$d" timeout "$l" bash bench/porep_gpu_32g.sh "$B" caps "$cap" "$j" "$w" "$c" > "$d.txt" 2>&1
  fi
  echo "rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
  grep -hE "start ops|s/proof|steady|peak|FAIL|host a,b,c|waited" "$d.txt" "$d"/bench-32GiB.txt 2>/dev/null | tail -10 | tee -a "$OUT/summary.txt"
  # the lines a call may not bring back otherwise (it returns a limited number of files: the first run's folder)
  grep -hE "^kernel region:|^  (start|finalize|synthesis) +avg" "$d"/bench-32GiB.txt 2>/dev/null | tee -a "$OUT/summary.txt"
  tail -1 "$d"/porep-gpu.tsv 2>/dev/null | tee -a "$OUT/summary.txt"
done
