#!/usr/bin/env bash
# skip_zero_gpu.sh — one device call for the zero scalars' points left off the bus (msm_stream.cuh,
# gpu.msm_skip_zero): builds only what it runs (proofmill, bench_gpu_msm, test_gpu_msm), then
#   1. test_gpu_msm (streamed gathered and dense device scalars, skip 0/1/2, against the oracle);
#   2. bench_gpu_msm at 2^LOG (default 27) with the real witness's distribution ("porep": 51.6 % zero,
#      46.8 % one) and PM_MSM_CHUNKS chunks (default 6317293, the 24 GB plan's G1 chunk): rows
#      streamdev (scalars on the device, every point sent) against streamskip (only the non-zero
#      scalars' points sent), same process; uniform scalars beside as the control;
#   3. tests/gpu/porep_gpu.sh BUILD_DIR 2KiB (every tier's proof bytes against the CPU prover).
# Usage: bench/skip_zero_gpu.sh [BUILD_DIR (/tmp/b)] [LOG (27)]. Output under $OUT.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-/tmp/b}; L=${2:-27}
OUT=${OUT:-$SRC/skip-zero-out}; mkdir -p "$OUT"
cd "$SRC"
# shellcheck disable=SC1091
source .device-deps/deps.sh || exit 1
# shellcheck disable=SC1091
source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{ date -u '+date: %Y-%m-%d %H:%M UTC'; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) (working tree as sent)"; } | tee "$OUT/summary.txt"
GRPC=(); pkg-config --exists grpc++ 2>/dev/null || GRPC=(-DPROOFMILL_GRPC=OFF)
t0=$(date +%s)
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${GRPC[@]}" \
  "${PM_CMAKE_ARGS[@]}" > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
cmake --build "$B" --target proofmill bench_gpu_msm test_gpu_msm test_gpu_groth16 test_gpu_setup -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head; exit 1; }
echo "build $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
"$B/test_gpu_msm" > "$OUT/test_gpu_msm.txt" 2>&1; echo "test_gpu_msm rc=$?" | tee -a "$OUT/summary.txt"
grep -E "streamed|FAIL" "$OUT/test_gpu_msm.txt" | tee -a "$OUT/summary.txt"
PM_MSM_FIELD=0 PM_MSM_DISTS="${PM_MSM_DISTS:-porep uniform}" PROOFMILL_BENCH_REPS=${PROOFMILL_BENCH_REPS:-2} \
  PM_MSM_CHUNKS="${PM_MSM_CHUNKS:-6317293}" "$B/bench_gpu_msm" "$L" > "$OUT/bench_gpu_msm.txt" 2>&1
echo "bench_gpu_msm rc=$?" | tee -a "$OUT/summary.txt"
grep -E "^msm_g1 2\^$L " "$OUT/bench_gpu_msm.txt" | cut -c1-260 | tee -a "$OUT/summary.txt"
OUT="$OUT/porep" bash tests/gpu/porep_gpu.sh "$B" 2KiB > "$OUT/porep_gpu.txt" 2>&1; echo "porep_gpu 2KiB rc=$?" | tee -a "$OUT/summary.txt"
tail -5 "$OUT/porep_gpu.txt" | tee -a "$OUT/summary.txt"
