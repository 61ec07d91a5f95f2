#!/usr/bin/env bash
# abc_pool_gpu.sh — one device call for the pinned a, b, c pool (start.h groth16_abc_pool): builds
# only what it runs (proofmill, test_gpu_groth16, test_gpu_setup), then
#   1. tests/gpu/porep_gpu.sh BUILD_DIR 2KiB: every tier's proof bytes against the CPU prover (tiers
#      2-5 take a, b, c from the pool; the copies from its piecewise-pinned buffers are cut at the
#      64 MiB pieces);
#   2. with STEP32=1 (default): bench/porep_gpu_32g.sh setup, then caps "${CAPS:-24G}" j 2, 2 workers,
#      3 proofs: the 24 GB plan's H phase uploads a, b, c pinned (predicted: H 1.23 -> ~0.5 s per
#      partition; s/proof 47.4 -> ~40 s on the H100).
#   3. PINS="1 0": the same 32 GiB caps run with gpu.abc_pinned on, then off (the pool malloc'd: the
#      upload rate before the pool), COUNT proofs each (default 3).
# STEP=setup stops after the 32 GiB setup; STEP=caps runs only step 3 (on a warm machine whose /tmp
# has the build and the 32 GiB files): two calls under the device's 600 s limit.
# Usage: bench/abc_pool_gpu.sh [BUILD_DIR (/tmp/b)]. Output under $OUT.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-/tmp/b}
OUT=${OUT:-$SRC/abc-pool-out}; mkdir -p "$OUT"
cd "$SRC"
# shellcheck disable=SC1091
source .device-deps/deps.sh || exit 1
# shellcheck disable=SC1091
source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{ date -u '+date: %Y-%m-%d %H:%M UTC'; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } | tee "$OUT/summary.txt"
GRPC=(); pkg-config --exists grpc++ 2>/dev/null || GRPC=(-DPROOFMILL_GRPC=OFF)
t0=$(date +%s)
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${GRPC[@]}" \
  "${PM_CMAKE_ARGS[@]}" > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
if [ "${STEP:-all}" != caps ]; then
cmake --build "$B" --target proofmill test_gpu_groth16 test_gpu_setup -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head; exit 1; }
echo "build $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
OUT="$OUT/porep" bash tests/gpu/porep_gpu.sh "$B" 2KiB > "$OUT/porep_gpu.txt" 2>&1; echo "porep_gpu 2KiB rc=$?" | tee -a "$OUT/summary.txt"
grep -E "^(PASS|FAIL)" "$OUT/porep/summary.txt" | sort | uniq -c | sort -rn | head -40 | tee -a "$OUT/summary.txt"
[ "${STEP32:-1}" = 1 ] || exit 0
OUT="$OUT/32g" bash bench/porep_gpu_32g.sh "$B" setup > "$OUT/setup32.txt" 2>&1; echo "32 GiB setup rc=$?" | tee -a "$OUT/summary.txt"
fi
[ "${STEP:-all}" = setup ] && exit 0
for pin in ${PINS:-1}; do
  echo "== gpu.abc_pinned=$pin" | tee -a "$OUT/summary.txt"
  PROOFMILL_GPU_ABC_PINNED=$pin OUT="$OUT/32g-pin$pin" bash bench/porep_gpu_32g.sh "$B" caps "${CAPS:-24G}" 2 2 "${COUNT:-3}" > "$OUT/caps32-pin$pin.txt" 2>&1; echo "caps rc=$?" | tee -a "$OUT/summary.txt"
  grep -hE "start ops|s/proof|steady|peak" "$OUT/caps32-pin$pin.txt" "$OUT"/32g-pin$pin/bench-32GiB.txt 2>/dev/null | tail -8 | tee -a "$OUT/summary.txt"
  tail -2 "$OUT"/32g-pin$pin/porep-gpu.tsv 2>/dev/null | tee -a "$OUT/summary.txt"
done
