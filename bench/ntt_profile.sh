#!/usr/bin/env bash
# ntt_profile.sh — Nsight Compute counters of the GPU NTT's pass kernel (issue #14: the H pipelines' passes run at ~63 %
# of the Fr product rate, and a fused pass that moved 8.6 GB less was slower: docs/perf/gpu.md). One device call:
# builds bench_gpu_ntt in B (CMake, CUDA on; reused when present), then ncu on the first COUNT launches of k_pass
# (the warm-up forward transform's DIT passes of bench_gpu_ntt L) with speed of light, warp states (stall reasons),
# scheduler statistics, occupancy, launch statistics, instruction statistics, memory workload and source counters.
# Usage (repo root on the device, .device-deps carried): bash bench/ntt_profile.sh [L (27)] [COUNT (3)]
# Writes $OUT/ncu-k_pass.txt (default OUT ./gpu-out) and prints its summary lines. ncu runs with --clock-control none.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
L=${1:-27}; COUNT=${2:-3}
B=${B:-/tmp/b}
OUT=${OUT:-$ROOT/gpu-out}; mkdir -p "$OUT"
# shellcheck disable=SC1091
source .device-deps/deps.sh >/dev/null && source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
t0=$(date +%s)
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null || exit 1
cmake --build "$B" -j "$(nproc)" --target bench_gpu_ntt > /tmp/np-build.log 2>&1 || { grep -E "error" /tmp/np-build.log | head; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "ntt_profile.sh: no ncu on this machine" >&2; exit 2; }
PROOFMILL_BENCH_REPS=1 timeout 400 "$NCU" --clock-control none --kernel-name-base demangled -k "regex:k_pass" \
  --launch-count "$COUNT" --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section LaunchStats --section InstructionStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  "$B/bench_gpu_ntt" "$L" > "$OUT/ncu-k_pass.txt" 2>&1
r=$?
echo "ncu k_pass at 2^$L: exit $r ($(grep -c 'Section: ' "$OUT/ncu-k_pass.txt") sections), $(( $(date +%s) - t0 )) s"
grep -E "k_pass|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|DRAM Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Memory Throughput|Executed Ipc A" "$OUT/ncu-k_pass.txt" | head -90
grep -iE "stall|warp was stalled" "$OUT/ncu-k_pass.txt" | head -30
exit $r
