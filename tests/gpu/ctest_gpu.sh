#!/usr/bin/env bash
# ctest_gpu.sh — one device call: build proofmill with CUDA by CMake (the project's own build, with the
# Debian libraries carried in .device-deps: tests/gpu/device_deps.sh fills it) and run the GPU-labelled ctests (kernels against the CPU,
# the Groth16/engine/daemon GPU paths). Logs under $OUT (or ./gpu-out).
#   tests/gpu/ctest_gpu.sh [BUILD_DIR] [ctest -L regex]   (defaults /tmp/b, "^gpu$": the tests that need the card.
#   "gpu" also matches label gpu-host: the kernels' bodies run on the CPU, single-threaded, which CI runs
#   anyway; test_gpu_msm_host alone takes 5-12 minutes there, past this script's 300 s per test.)
# The build directory is reused when it exists (a warm machine keeps /tmp between calls). Compiled for
# sm_90 only (the device machine's H100/H200): the default five architectures (cmake/cuda.cmake) would
# multiply the device build's CUDA time by about five; the bench/ scripts that configure do the same.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$SRC/gpu-out}; mkdir -p "$OUT"
B=${1:-/tmp/b}; LABEL=${2:-^gpu\$}
cd "$SRC"
{ date -u '+date: %Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "tree: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) (working tree as sent)"; } | tee "$OUT/summary.txt"
# shellcheck disable=SC1091
source .device-deps/deps.sh || exit 1
# shellcheck disable=SC1091
source tests/gpu/device_env.sh
# the device image has no gRPC C++ / protobuf packages: build the daemon without its gRPC API there
GRPC=(); pkg-config --exists grpc++ 2>/dev/null || GRPC=(-DPROOFMILL_GRPC=OFF)
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${GRPC[@]}" "${PM_CMAKE_ARGS[@]}" > "$OUT/configure.log" 2>&1 \
    || { tail -30 "$OUT/configure.log"; exit 1; }
fi
t0=$(date +%s)
cmake --build "$B" -j "$(nproc)" -- -k > "$OUT/build.log" 2>&1; brc=$?
echo "build rc=$brc in $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
[ $brc -ne 0 ] && grep -E "error|Error" "$OUT/build.log" | head -30
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(cd "$B" && ctest -L "$LABEL" --output-on-failure --timeout 300 -j 2) > "$OUT/ctest.log" 2>&1; rc=$?
grep -E "tests passed|Passed|Failed|\*\*\*|Skipped|Not Run" "$OUT/ctest.log" | tail -40 | tee -a "$OUT/summary.txt"
exit $rc
