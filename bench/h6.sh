#!/usr/bin/env bash
# h6.sh — device calls (H200 machine) for issue #14's H pipelines (the bellperson H in 6 transforms),
# against a baseline commit built beside in the same call.
#   PHASE=test  (call 1, ~5 min): the CMake build with CUDA in $B (all targets), the GPU-labelled ctests,
#               test_gpu_ntt_host and test_ntt_h (the CPU H against bellperson's sequence).
#   PHASE=bench (call 2, ~4 min; $B from call 1 when the machine stayed warm, else rebuilt):
#               BASE_REF (default 239aade; or BASE_TGZ, its git archive) built beside in /tmp/base-b;
#               bench_gpu_ntt NTT_LOGS for base and this tree, then VARIANTS (NAME:VAR=V,...: PROOFMILL_VAR=V
#               for this tree's bench_gpu_ntt; none by default);
#               bench_ntt_h --log CPU_LOG (n = 2^CPU_LOG, default 22) on CPU_THREADS (16) for base and this tree.
#   PHASE=cpu   (~2 min): a CPU-only build of bench_ntt_h in /tmp/bc, then bench_ntt_h --log L for each L in CPU_LOGS
#               ("22 23") on CPU_THREADS (16) WITH the sequence column: the fused H (what the CPU prover runs since
#               2026-12-03) against bellperson's 7-transform sequence (what it ran before), same process; with
#               BASE_TGZ (a carried `git archive BASE_REF | gzip`) that tree's bench_ntt_h is built beside and
#               run alternately with this one's (--no-seq, two rounds).
# Usage (repo root on the device, .device-deps carried): PHASE=test bash bench/h6.sh; PHASE=bench bash bench/h6.sh
# Output: $OUT/h6-$PHASE.log (everything printed as well); $OUT/h6.tsv (bench rows, gpu-vs-sppark.tsv format).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
B=${B:-/tmp/b}
PHASE=${PHASE:-test}
O=${OUT:-$ROOT}
LOG=$O/h6-$PHASE.log
exec > >(tee -a "$LOG") 2>&1
echo "h6 $PHASE: tree ${PM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}, $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.total --format=csv,noheader 2>/dev/null
lscpu | grep -E "Model name|^CPU\(s\)" 2>/dev/null
# shellcheck disable=SC1091
source .device-deps/deps.sh >/dev/null && source tests/gpu/device_env.sh
export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
t0=$(date +%s)
rc=0
if [ "$PHASE" = cpu ]; then
  cmake -S . -B /tmp/bc -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=OFF -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null &&
    cmake --build /tmp/bc -j "$(nproc)" --target bench_ntt_h > /tmp/h6-build.log 2>&1 || { grep -E "error" /tmp/h6-build.log | head; exit 1; }
  if [ -n "${BASE_TGZ:-}" ]; then
    # BASE_TGZ (a `git archive BASE_REF | gzip`, carried): its bench_ntt_h built beside in /tmp/bc-base, run
    # alternately with this tree's (--no-seq), each L twice, so host drift shows as disagreeing pairs
    rm -rf /tmp/bc-src && mkdir -p /tmp/bc-src && tar -xzf "$BASE_TGZ" -C /tmp/bc-src &&
      cmake -S /tmp/bc-src -B /tmp/bc-base -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=OFF -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null &&
      cmake --build /tmp/bc-base -j "$(nproc)" --target bench_ntt_h > /tmp/h6-build-base.log 2>&1 || { echo "baseline build failed"; exit 1; }
  fi
  echo "build: $(( $(date +%s) - t0 )) s"
  for l in ${CPU_LOGS:-22 23}; do
    if [ -n "${BASE_TGZ:-}" ]; then
      for r in 1 2; do
        for v in base new; do
          bin=/tmp/bc/bench_ntt_h; [ $v = base ] && bin=/tmp/bc-base/bench_ntt_h
          tree=${PM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo work)}; [ $v = base ] && tree=${BASE_REF:-base}
          echo "== bench_ntt_h --log $l --threads ${CPU_THREADS:-16} --no-seq: $v ($tree), round $r"
          "$bin" --log "$l" --threads "${CPU_THREADS:-16}" --reps "${REPS:-3}" --no-seq || rc=1
        done
      done
    else
      /tmp/bc/bench_ntt_h --log "$l" --threads "${CPU_THREADS:-16}" --reps "${REPS:-3}" || rc=1
    fi
  done
  echo "h6 cpu: done in $(( $(date +%s) - t0 )) s, rc $rc"
  exit $rc
fi
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null || exit 1
fi
if [ "$PHASE" = test ]; then
  cmake --build "$B" -j "$(nproc)" -- -k > /tmp/h6-build.log 2>&1 || { grep -E "error|Error" /tmp/h6-build.log | head -30; rc=1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  "$B/test_gpu_ntt_host" 14 | grep -v "^SpMV" | tail -8 || rc=1
  "$B/test_ntt_h" > /tmp/test_ntt_h.log 2>&1 && echo "test_ntt_h: passed" || { echo "test_ntt_h: FAILED"; tail -20 /tmp/test_ntt_h.log; rc=1; }
  (cd "$B" && ctest -L gpu --output-on-failure --timeout 300 -j 2) > /tmp/h6-ctest.log 2>&1 || rc=1
  grep -E "tests passed|Passed|Failed|\*\*\*|Skipped|Not Run" /tmp/h6-ctest.log | tail -30
  [ $rc -ne 0 ] && grep -B5 -A30 -m3 "Failed\|FAIL" /tmp/h6-ctest.log | head -80
  echo "h6 test: done in $(( $(date +%s) - t0 )) s, rc $rc"
  exit $rc
fi
# PHASE=bench
cmake --build "$B" -j "$(nproc)" --target bench_gpu_ntt bench_ntt_h > /tmp/h6-build.log 2>&1 || { grep -E "error" /tmp/h6-build.log | head; exit 1; }
BASE_REF=${BASE_REF:-239aade}
rm -rf /tmp/base-src && mkdir -p /tmp/base-src
# BASE_TGZ (a `git archive BASE_REF | gzip` carried with the tree) when the device copy's .git lacks BASE_REF
if { [ -n "${BASE_TGZ:-}" ] && tar -xzf "$BASE_TGZ" -C /tmp/base-src; } || git archive "$BASE_REF" | tar -x -C /tmp/base-src; then
  cmake -S /tmp/base-src -B /tmp/base-b -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null &&
    cmake --build /tmp/base-b -j "$(nproc)" --target bench_gpu_ntt bench_ntt_h >/dev/null 2>&1 || { echo "baseline build failed"; exit 1; }
else
  echo "baseline $BASE_REF: not in this copy's .git"; exit 1
fi
echo "builds: $(( $(date +%s) - t0 )) s"
export PROOFMILL_BENCH_REPS=${REPS:-5} OUT_TSV=$O/h6.tsv PM_BENCH_DATE=$(date -u +%Y-%m-%d)
for v in base new ${VARIANTS:-}; do
  case $v in
    base) bin=/tmp/base-b/bench_gpu_ntt; envs=(PM_BENCH_IMPL=proofmill:base PM_BENCH_COMMIT="$BASE_REF") ;;
    new) bin=$B/bench_gpu_ntt; envs=(PM_BENCH_IMPL=proofmill PM_BENCH_COMMIT="${PM_COMMIT:-work}") ;;
    *) bin=$B/bench_gpu_ntt; envs=(PM_BENCH_IMPL="proofmill:${v%%:*}" PM_BENCH_COMMIT="${PM_COMMIT:-work}")
       if [[ $v == *:* ]]; then IFS=',' read -r -a kv <<< "${v#*:}"; for x in "${kv[@]}"; do envs+=("PROOFMILL_$x"); done; fi ;;
  esac
  echo "== bench_gpu_ntt ${NTT_LOGS:-24 27}: $v"
  # shellcheck disable=SC2086
  env "${envs[@]}" "$bin" ${NTT_LOGS:-24 27} || rc=1
done
for v in base new; do
  bin=$B/bench_ntt_h; [ $v = base ] && bin=/tmp/base-b/bench_ntt_h
  echo "== bench_ntt_h --log ${CPU_LOG:-22} --threads ${CPU_THREADS:-16}: $v"
  "$bin" --log "${CPU_LOG:-22}" --threads "${CPU_THREADS:-16}" --reps "${REPS:-5}" --no-seq || rc=1
done
echo "h6 bench: done in $(( $(date +%s) - t0 )) s, rc $rc"
exit $rc
