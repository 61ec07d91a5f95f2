#!/usr/bin/env bash
# mul_and_cpu_h.sh — one device call (H200 machine, <= ~6 min) for issue #14's multiplier and CPU H probes:
#   1. builds (CMake, CUDA on) bench_gpu_msm, test_gpu_field_f64_host, bench_ntt_h, test_ntt_h, test_fr_bfly;
#   2. the host tests of the FP64 multiplier (drop-in and native 52-bit chains) and of the NTT/butterflies;
#   3. bench_gpu_msm --field-only, REPS_FIELD times: fe_mul, fe_mul_f64, the mixed int + FP64 chains, the native form;
#   4. bench_gpu_ntt NTT_LOGS (the NTT at this commit; the mixed int + FP64 twiddle products it once compared were
#      measured slower and removed: commit ad30838, docs/perf/gpu.md "Two pipes at once");
#   5. bench_ntt_h at 2^CPU_LOG on CPU_THREADS threads for every pass shape in SHAPES (ntt_set_pass_shape), then for
#      every CPU_VARIANTS entry (NAME:VAR=V,... sets PROOFMILL_VAR=V; e.g. "ifma2:FR_BFLY_STEP2=1 adx:FR_BFLY_BACKEND=adx"),
#      each followed by bench_field's row-butterfly lines (FIELD_ROWS=0 skips them); BASE_REF=commit runs the same
#      CPU benches at that commit first (built CPU-only in /tmp/base-b), the same-call baseline.
# Usage (repo root on the device, .device-deps carried): bash bench/mul_and_cpu_h.sh
# Env: B (build dir, /tmp/b), CPU_LOG (23), CPU_THREADS (16), SHAPES (e.g. "0:0,15:14"; none by default), REPS (3),
#      REPS_FIELD (2), NTT_LOGS ("24 27"), SKIP_GPU=1 (CPU parts only), PM_COMMIT (the commit).
# Output: $OUT/mul_and_cpu_h.log (or ./mul_and_cpu_h.log), everything printed as well.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
B=${B:-/tmp/b}
LOG=${OUT:-$ROOT}/mul_and_cpu_h.log
exec > >(tee -a "$LOG") 2>&1
echo "mul_and_cpu_h: commit ${PM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}, $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.total --format=csv,noheader 2>/dev/null
lscpu | grep -E "Model name|^CPU\(s\)|L2 cache|L3 cache" 2>/dev/null
# shellcheck disable=SC1091
source .device-deps/deps.sh >/dev/null && source tests/gpu/device_env.sh
cuda=ON; [ "${SKIP_GPU:-0}" = 1 ] && cuda=OFF
t0=$(date +%s)
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=$cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null || exit 1
targets="bench_ntt_h test_ntt_h test_ntt_basic test_fr_bfly bench_field"
[ $cuda = ON ] && targets="$targets bench_gpu_msm test_gpu_field_f64_host bench_gpu_ntt"
# shellcheck disable=SC2086
cmake --build "$B" -j "$(nproc)" --target $targets -- -k 2>&1 | grep -E "error:|Error [0-9]|No rule" | head -20
echo "build: $(( $(date +%s) - t0 )) s"
rc=0
for t in test_fr_bfly test_ntt_basic test_ntt_h; do
  "$B/$t" > "/tmp/$t.log" 2>&1 && echo "$t: passed" || { echo "$t: FAILED"; tail -20 "/tmp/$t.log"; rc=1; }
done
grep -iE "ifma|rows OK|SKIPPED|backend" /tmp/test_fr_bfly.log | head -12 # the real IFMA path must say OK, not SKIPPED
if [ $cuda = ON ]; then
  "$B/test_gpu_field_f64_host" | tail -12 || rc=1
  for r in $(seq 1 "${REPS_FIELD:-2}"); do
    echo "== bench_gpu_msm --field-only, run $r"
    "$B/bench_gpu_msm" --field-only || rc=1
  done
  echo "== bench_gpu_ntt ${NTT_LOGS:-24 27}"
  # shellcheck disable=SC2086
  PROOFMILL_BENCH_REPS=5 "$B/bench_gpu_ntt" ${NTT_LOGS:-24 27} || rc=1
fi
if [ -n "${SHAPES:-}" ]; then
  echo "== bench_ntt_h --log ${CPU_LOG:-23} --threads ${CPU_THREADS:-16} --shapes $SHAPES"
  "$B/bench_ntt_h" --log "${CPU_LOG:-23}" --threads "${CPU_THREADS:-16}" --reps "${REPS:-3}" --no-seq --shapes "$SHAPES" || rc=1
fi
# the same bench at BASE_REF (another commit, built CPU-only beside): the same-call baseline of the CPU variants
if [ -n "${BASE_REF:-}" ]; then
  rm -rf /tmp/base-src && mkdir -p /tmp/base-src &&
  if git archive "$BASE_REF" | tar -x -C /tmp/base-src; then
    cmake -S /tmp/base-src -B /tmp/base-b -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=OFF -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null &&
      cmake --build /tmp/base-b -j "$(nproc)" --target bench_ntt_h bench_field >/dev/null 2>&1 &&
      { echo "== baseline $BASE_REF: bench_ntt_h --log ${CPU_LOG:-23} --threads ${CPU_THREADS:-16}"
        /tmp/base-b/bench_ntt_h --log "${CPU_LOG:-23}" --threads "${CPU_THREADS:-16}" --reps "${REPS:-3}" --no-seq
        [ "${FIELD_ROWS:-1}" = 1 ] && /tmp/base-b/bench_field 0.3 2>&1 | grep -iE "bfly|row|backend" | head -12; } ||
      echo "baseline $BASE_REF: build failed"
  else
    echo "baseline $BASE_REF: not in this copy's .git"
  fi
fi
# CPU row-butterfly variants: each entry NAME:VAR=V[,VAR=V] sets PROOFMILL_VAR=V for bench_ntt_h (and bench_field's rows)
for v in ${CPU_VARIANTS:-}; do
  envs=()
  if [[ $v == *:* ]]; then IFS=',' read -r -a kv <<< "${v#*:}"; for x in "${kv[@]}"; do envs+=("PROOFMILL_$x"); done; fi
  echo "== CPU variant ${v%%:*} (${envs[*]}): bench_ntt_h --log ${CPU_LOG:-23} --threads ${CPU_THREADS:-16}"
  env "${envs[@]}" "$B/bench_ntt_h" --log "${CPU_LOG:-23}" --threads "${CPU_THREADS:-16}" --reps "${REPS:-3}" --no-seq || rc=1
  if [ "${FIELD_ROWS:-1}" = 1 ]; then
    env "${envs[@]}" "$B/bench_field" 0.3 2>&1 | grep -iE "bfly|row|backend" | head -12
  fi
done
echo "mul_and_cpu_h: done in $(( $(date +%s) - t0 )) s, rc $rc"
exit $rc
