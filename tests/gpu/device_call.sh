# shellcheck shell=bash
# device_call.sh — sourced by the device scripts under bench/ that build and run within one call of the
# device tool (abc_pool_gpu.sh, cpu_load_gpu.sh): from the repository root SRC, with the build
# directory B and the output folder OUT set by the caller, it
#   - starts the call's clock: T0, DEADLINE (DEADLINE_S, default 580 s: the device's 600 s limit),
#     MIN_LEFT (MIN_LEFT_S, default 150) and left (seconds of DEADLINE still left);
#   - loads the carried dependencies (.device-deps/deps.sh, device_env.sh) and their libraries;
#   - writes the date, the card and the CPU count to OUT/summary.txt;
#   - device_build TARGET...: configures B once (Release, sm_90, gRPC when the machine has it) and
#     builds the targets, logging to OUT/configure.log and OUT/build.log; returns 1 with the errors.
# shellcheck disable=SC2034 # MIN_LEFT: read by the callers
T0=$(date +%s); DEADLINE=${DEADLINE_S:-580}; MIN_LEFT=${MIN_LEFT_S:-150}
left() { echo $(( DEADLINE - ($(date +%s) - T0) )); }
cd "$SRC" || exit 1
# shellcheck disable=SC1091
source .device-deps/deps.sh || exit 1
# shellcheck disable=SC1091
source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT"
{ date -u '+date: %Y-%m-%d %H:%M UTC'; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; echo "cpus: $(nproc)"; } | tee -a "$OUT/summary.txt"
device_build() {
  local grpc=()
  pkg-config --exists grpc++ 2>/dev/null || grpc=(-DPROOFMILL_GRPC=OFF)
  if [ ! -f "$B/CMakeCache.txt" ]; then
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${grpc[@]}" \
      "${PM_CMAKE_ARGS[@]}" > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; return 1; }
  fi
  cmake --build "$B" --target "$@" -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head; return 1; }
  echo "build done at $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
}
