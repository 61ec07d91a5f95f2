#!/usr/bin/env bash
# ntt_occ.sh — one device call (H200) for issue #14's NTT pass occupancy variants (docs/perf/gpu.md, "The NTT
# pass at more warps per scheduler"): builds the NTT targets with CUDA in $B, runs the device NTT and H tests and
# bench_gpu_ntt NTT_LOGS for each variant of VARIANTS (NAME or NAME:VAR=V,...: PROOFMILL_VAR=V; "base" = the
# defaults, measured in the same call), then Nsight Compute stall reasons of the first PROFILE_COUNT k_pass launches
# (the warm-up forward transform's DIT passes at 2^PROFILE_LOG) for each variant in PROFILE_VARIANTS.
# FULL=1: instead, every target and the GPU-labelled ctests (call 1 of a lease); SPPARK=1 (with .anchors carried: the
# anchor harness of ../shared/anchors and sppark + blst sources, see there): sppark's NTT at NTT_LOGS in the same call.
# Usage (repo root on the device, .device-deps carried): [FULL=1] [SPPARK=1] bash bench/ntt_occ.sh
# Output: $OUT/ntt-occ.log (everything printed as well), $OUT/ntt-occ.tsv (gpu-vs-sppark.tsv rows), $OUT/ncu-*.txt.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
B=${B:-/tmp/b}
O=${OUT:-$ROOT/gpu-out}; mkdir -p "$O"
exec > >(tee -a "$O/ntt-occ.log") 2>&1
echo "ntt_occ: tree ${PM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}, $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.total --format=csv,noheader 2>/dev/null
# shellcheck disable=SC1091
source .device-deps/deps.sh >/dev/null && source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
t0=$(date +%s)
rc=0
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null || exit 1
if [ "${FULL:-0}" = 1 ]; then
  # FULL=1: every target, then the GPU-labelled ctests (the engine, PoRep, MSM and NTT tests at the defaults)
  cmake --build "$B" -j "$(nproc)" -- -k > /tmp/occ-build.log 2>&1 || { grep -E "error|Error" /tmp/occ-build.log | head -30; exit 1; }
  echo "build (all targets): $(( $(date +%s) - t0 )) s"
  (cd "$B" && ctest -L gpu --output-on-failure --timeout 300 -j 2) > /tmp/occ-ctest.log 2>&1 || rc=1
  grep -E "tests passed|Passed|Failed|\*\*\*|Skipped|Not Run" /tmp/occ-ctest.log | tail -30
  [ $rc -ne 0 ] && grep -B5 -A30 -m3 "Failed\|FAIL" /tmp/occ-ctest.log | head -80
  echo "ntt_occ FULL: done in $(( $(date +%s) - t0 )) s, rc $rc"
  exit $rc
fi
cmake --build "$B" -j "$(nproc)" --target bench_gpu_ntt test_gpu_ntt test_gpu_h test_gpu_ntt_host > /tmp/occ-build.log 2>&1 ||
  { grep -E "error" /tmp/occ-build.log | head -20; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
"$B/test_gpu_ntt_host" 14 | grep -E "radix|PASSED|FAIL" || rc=1
if [ -f .anchors/build.sh ] && [ "${SPPARK:-0}" = 1 ]; then
  # SPPARK=1: sppark's NTT (the anchor harness, .anchors carried) in the same call, NTT_LOGS, REPS runs
  rm -f /tmp/occ-sppark.tsv
  SPPARK=.anchors/sppark BLST=.anchors/blst BUILD=/tmp/anchor-build bash .anchors/build.sh > /tmp/occ-anchor.log 2>&1 &&
    OUT_TSV=/tmp/occ-sppark.tsv /tmp/anchor-build/sppark_bench -r "${REPS:-5}" -p -c 0 -n "$(echo ${NTT_LOGS:-24 27} | tr ' ' ',')" none 2>&1 | grep -iE "ntt|device" ||
    { echo "sppark anchor: failed"; tail -5 /tmp/occ-anchor.log; }
  # the harness's rows (impl log2n n op dist reps median min notes) in gpu-vs-sppark.tsv's columns; the forward NN
  # transform is the one bench_gpu_ntt's "forward" column times
  [ -f /tmp/occ-sppark.tsv ] && awk -F'\t' -v d="$(date -u +%Y-%m-%d)" -v c="${PM_COMMIT:-work}" '$1 == "sppark" && $4 == "ntt_fwd_NN" {
      printf "sppark\tntt\t%s\tuniform\t%s\t%s\t%s\t%s\n", $2, $7, $8, d, c }' /tmp/occ-sppark.tsv >> "$O/ntt-occ.tsv"
  echo "sppark: $(( $(date +%s) - t0 )) s"
fi
VARIANTS=${VARIANTS:-base R8:GPU_NTT_LR=3 R4:GPU_NTT_LR=2,GPU_NTT_MINB=1 R8x3:GPU_NTT_LR=3,GPU_NTT_MINB=3}
envs_of() { # NAME[:VAR=V,...] -> the env assignments in ENVS
  ENVS=(PM_BENCH_IMPL="proofmill:${1%%:*}" PM_BENCH_COMMIT="${PM_COMMIT:-work}")
  [ "${1%%:*}" = base ] && ENVS[0]=PM_BENCH_IMPL=proofmill
  if [[ $1 == *:* ]]; then IFS=',' read -r -a kv <<< "${1#*:}"; for x in "${kv[@]}"; do ENVS+=("PROOFMILL_$x"); done; fi
}
for v in $VARIANTS; do
  envs_of "$v"
  echo "== tests: $v"
  env "${ENVS[@]}" "$B/test_gpu_ntt" "${TEST_NTT_LOG:-22}" > /tmp/occ-t1.log 2>&1 && echo "test_gpu_ntt ${TEST_NTT_LOG:-22}: passed" ||
    { echo "test_gpu_ntt: FAILED"; tail -15 /tmp/occ-t1.log; rc=1; }
  env "${ENVS[@]}" "$B/test_gpu_h" "${TEST_H_LOG:-21}" > /tmp/occ-t2.log 2>&1 && echo "test_gpu_h ${TEST_H_LOG:-21}: passed" ||
    { echo "test_gpu_h: FAILED"; tail -15 /tmp/occ-t2.log; rc=1; }
done
export PROOFMILL_BENCH_REPS=${REPS:-5} OUT_TSV=$O/ntt-occ.tsv PM_BENCH_DATE=$(date -u +%Y-%m-%d)
for v in $VARIANTS; do
  envs_of "$v"
  echo "== bench_gpu_ntt ${NTT_LOGS:-24 27}: $v"
  # shellcheck disable=SC2086
  env "${ENVS[@]}" "$B/bench_gpu_ntt" ${NTT_LOGS:-24 27} || rc=1
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ "${PROFILE_VARIANTS:-}" = "-" ]; then
  echo "ncu: skipped"
elif [ -n "$NCU" ]; then
  for v in ${PROFILE_VARIANTS:-base R8:GPU_NTT_LR=3}; do
    envs_of "$v"
    f="$O/ncu-k_pass-${v%%:*}.txt"
    env "${ENVS[@]}" PROOFMILL_BENCH_REPS=1 OUT_TSV=/dev/null timeout 300 "$NCU" --clock-control none --kernel-name-base demangled -k "regex:k_pass" \
      --launch-count "${PROFILE_COUNT:-3}" --section SpeedOfLight --section SchedulerStats --section Occupancy --section LaunchStats \
      --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active" \
      "$B/bench_gpu_ntt" "${PROFILE_LOG:-27}" > "$f" 2>&1
    echo "== ncu $v: exit $? ($(( $(date +%s) - t0 )) s)"
    grep -E "k_pass|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Eligible Warps" "$f" | head -24
    # the largest stall reasons and pipes per launch
    awk '/k_pass/ {print "  " $0} /issue_stalled_.*ratio/ && $NF+0 > 0.3 {print "    " $1, $NF} /inst_executed_pipe_/ && $NF+0 > 5 {print "    " $1, $NF}' "$f" | head -60
  done
else
  echo "no ncu on this machine"
fi
echo "ntt_occ: done in $(( $(date +%s) - t0 )) s, rc $rc"
exit $rc
