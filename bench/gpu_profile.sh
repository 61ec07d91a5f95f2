#!/usr/bin/env bash
# gpu_profile.sh — Nsight Compute counters of the MSM's accumulation kernels on the device (issue #14: the round
# kernel runs its Fp products at ~60 % of bench_gpu_msm's multiplier rate, and neither software pipelining of its
# loads (round 3) nor L2 prefetch (round 2) helped: docs/perf/gpu.md). One G1 MSM of 2^L uniform scalars
# (bench_gpu_msm, one rep after its warm-up); ncu replays the first launches of the kernels named by KERNELS
# (a regex over the demangled names) and reports speed of light, warp states (stall reasons), scheduler
# statistics, occupancy, launch statistics, instruction statistics and the memory workload.
# Usage: bench/gpu_profile.sh BUILD_DIR [L (24)] [KERNELS ("f_round2" "f_xtask" "f_red_seg")]
# Writes $OUT/ncu-<kernel>.txt (default OUT ./gpu-out). ncu runs with --clock-control none (the card's clocks are
# left alone). Needs hardware counters: on a runtime without them ncu says so and the script exits 3.
set -u
B=${1:?usage: gpu_profile.sh BUILD_DIR [L] [KERNELS...]}
L=${2:-24}
shift $(( $# >= 2 ? 2 : $# ))
KS=("$@"); [ ${#KS[@]} -gt 0 ] || KS=(f_round2 f_xtask f_red_seg)
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "gpu_profile.sh: no ncu on this machine" >&2; exit 2; }
[ -x "$B/bench_gpu_msm" ] || { echo "gpu_profile.sh: no $B/bench_gpu_msm" >&2; exit 2; }
rc=0
for k in "${KS[@]}"; do
  PM_MSM_DISTS=uniform PM_MSM_FIELD=0 PM_MSM_G2= PROOFMILL_BENCH_REPS=1 timeout 240 "$NCU" --clock-control none \
    --kernel-name-base demangled -k "regex:$k" --launch-count 2 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    "$B/bench_gpu_msm" "$L" > "$OUT/ncu-$k.txt" 2>&1
  r=$?
  echo "ncu $k at 2^$L: exit $r ($(grep -c 'Section: ' "$OUT/ncu-$k.txt") sections)"
  if grep -qE "LibraryNotLoaded|ERR_NVGPUCTRPERM|Failed to initialize the profiler" "$OUT/ncu-$k.txt"; then
    echo "gpu_profile.sh: no hardware counters here:"; grep -m3 -E "==ERROR==|==WARNING==" "$OUT/ncu-$k.txt"; exit 3
  fi
  [ $r -ne 0 ] && rc=1
done
exit $rc
