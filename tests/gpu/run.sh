#!/usr/bin/env bash
# run.sh — build, check and time the CUDA backend in one go on a GPU machine (one device call).
#
# Usage: tests/gpu/run.sh [test|bench|all] (default all). Logs go to $OUT (or ./gpu-out).
#   PM_MSM_TEST_LOG (default 20)   largest MSM test size 2^k
#   PM_NTT_TEST_LOG (default 24)   largest NTT test size 2^k
#   PM_MSM_BENCH    (default "20 24 26")  PM_NTT_BENCH (default "24 26 27")
#   PM_TREE=work|head (default head when git works): build from `git archive HEAD` plus this
#   checkout's GPU files (src/gpu, tests/gpu, bench/gpu_*, cmake/cuda.cmake), so other layers'
#   uncommitted work in progress cannot break the build; `work` builds the tree as it is.
# The build is standalone (gcc for the CPU layers the tests compare against, nvcc -arch=sm_90 for
# src/gpu), so the device image needs no cmocka/GMP/jansson; the CMake fragment cmake/cuda.cmake
# builds the same targets in a normal tree (ctest label `gpu`).
set -u
MODE=${1:-all}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$SRC/gpu-out}
mkdir -p "$OUT"
B=${PM_BUILD:-/tmp/pmgpu-build}
rm -rf "$B"; mkdir -p "$B/obj"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
JOBS=$(nproc)
SUM="$OUT/summary.txt"
: > "$SUM"
log() { echo "$*" | tee -a "$SUM"; }

# ---- the tree to build ----
T="$B/tree"
if [ "${PM_TREE:-head}" = head ] && git -C "$SRC" rev-parse HEAD > /dev/null 2>&1; then
  mkdir -p "$T"
  git -C "$SRC" archive HEAD | tar -x -C "$T"
  rm -rf "$T/src/gpu" "$T/tests/gpu"
  cp -r "$SRC/src/gpu" "$T/src/gpu"; cp -r "$SRC/tests/gpu" "$T/tests/gpu"
  mkdir -p "$T/bench" "$T/cmake"; cp "$SRC"/bench/gpu_* "$T/bench/"; cp "$SRC/cmake/cuda.cmake" "$T/cmake/"
  log "tree: HEAD $(git -C "$SRC" rev-parse --short HEAD) + working GPU files"
else
  T="$SRC"
  log "tree: working tree as is"
fi
log "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv 2>&1 | tee -a "$SUM"
"$NVCC" --version | tail -1 | tee -a "$SUM"

# ---- CPU layers (reference side) ----
t0=$(date +%s)
DEFS=""
ASM=""
if [ -f "$T/src/field/mont_x86_64.S" ] && grep -q mont_x86_64 "$T/src/field/cpu_x86.h" 2>/dev/null; then ASM=1; fi
CFLAGS="-O2 -std=c17 -D_GNU_SOURCE -fopenmp -I$T/src -w ${ASM:+-DPROOFMILL_USE_ASM=1}"
compile_set() { # compile_set NAME files... ; prints objects, returns 1 if any fails
  local name=$1; shift; local ok=0
  for f in "$@"; do
    o="$B/obj/$name-$(basename "$f").o"
    gcc $CFLAGS -c "$f" -o "$o" >> "$B/cc.log" 2>&1 || { echo "compile failed: $f" >> "$B/cc.log"; ok=1; }
  done
  return $ok
}
CORE=("$T"/src/util/error.c "$T"/src/field/*.c)
[ -n "$ASM" ] && CORE+=("$T/src/field/mont_x86_64.S")
compile_set core "${CORE[@]}" || log "WARNING: core field/util compile errors (see build.log)"
if ls "$T"/src/ntt/*.c > /dev/null 2>&1 && compile_set ntt "$T"/src/ntt/*.c; then DEFS="$DEFS -DPM_HAVE_CPU_NTT=1"; fi
if [ -f "$T/src/msm/msm_g1.c" ] && compile_set msm "$T"/src/curve/*.c "$T"/src/msm/*.c; then DEFS="$DEFS -DPM_HAVE_CPU_MSM=1"; fi
rm -f "$B/libcore.a"; ar rcs "$B/libcore.a" "$B"/obj/*.o
log "CPU references: ${DEFS:-none (self-contained checks only)}"

# ---- GPU library, tests, benches ----
NVFLAGS="-arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -I$T/src -Xcompiler=-fopenmp,-w"
GPUOBJ=()
pids=()
for f in "$T"/src/gpu/*.cu; do
  o="$B/gpu-$(basename "$f" .cu).o"; GPUOBJ+=("$o")
  ( "$NVCC" $NVFLAGS --split-compile=$JOBS -Xptxas=-v -c "$f" -o "$o" > "$B/nvcc-$(basename "$f").log" 2>&1 || echo "nvcc failed: $f" >> "$B/fail" ) &
  pids+=($!)
done
for f in "$T"/bench/gpu_*.cu; do
  ( "$NVCC" $NVFLAGS -c "$f" -o "$B/bench-$(basename "$f" .cu).o" > "$B/nvcc-bench-$(basename "$f").log" 2>&1 || echo "nvcc failed: $f" >> "$B/fail" ) &
  pids+=($!)
done
for t in "$T"/tests/gpu/test_*.c; do
  gcc $CFLAGS $DEFS -c "$t" -o "$B/$(basename "$t" .c).o" >> "$B/cc.log" 2>&1 || echo "gcc failed: $t" >> "$B/fail"
done
for p in "${pids[@]}"; do wait "$p"; done
LIBS=("${GPUOBJ[@]}" "$B/libcore.a" -lgomp -lpthread -lm)
for t in "$T"/tests/gpu/test_*.c; do
  n=$(basename "$t" .c)
  "$NVCC" -arch=sm_90 -o "$B/$n" "$B/$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 || {
    # the CPU MSM may be declared but not (yet) linkable: retry without it
    gcc $CFLAGS -c "$t" -o "$B/$n.o" >> "$B/cc.log" 2>&1 && "$NVCC" -arch=sm_90 -o "$B/$n" "$B/$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 \
      && log "note: $n linked without the CPU references" || echo "link failed: $n" >> "$B/fail"; }
done
for f in "$T"/bench/gpu_*.cu; do
  n=$(basename "$f" .cu)
  "$NVCC" -arch=sm_90 -o "$B/bench_$n" "$B/bench-$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 || echo "link failed: bench_$n" >> "$B/fail"
done
cat "$B/cc.log" "$B"/nvcc-*.log "$B/link.log" > "$OUT/build.log" 2>/dev/null
grep -h -A1 "Function properties" "$B"/nvcc-*.log 2>/dev/null | grep -v "^--" | paste - - | \
  sed 's/ptxas info    : Function properties for //' | awk '{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11}' > "$OUT/ptxas.txt" 2>/dev/null
grep -h "registers" "$B"/nvcc-*.log >> "$OUT/ptxas.txt" 2>/dev/null
log "build: $(( $(date +%s) - t0 )) s"
if [ -f "$B/fail" ]; then log "BUILD FAILED:"; cat "$B/fail" | tee -a "$SUM"; tail -40 "$OUT/build.log"; exit 2; fi

rc=0
if [ "$MODE" = test ] || [ "$MODE" = all ]; then
  t1=$(date +%s)
  "$B/test_gpu_msm" "${PM_MSM_TEST_LOG:-20}" > "$OUT/test_msm.log" 2>&1; r1=$?
  log "test_gpu_msm: exit $r1 ($(tail -1 "$OUT/test_msm.log")) $(( $(date +%s) - t1 )) s"
  t1=$(date +%s)
  "$B/test_gpu_ntt" "${PM_NTT_TEST_LOG:-24}" > "$OUT/test_ntt.log" 2>&1; r2=$?
  log "test_gpu_ntt: exit $r2 ($(tail -1 "$OUT/test_ntt.log")) $(( $(date +%s) - t1 )) s"
  grep -h "FAIL\|MISMATCH" "$OUT/test_msm.log" "$OUT/test_ntt.log" | head -20 | tee -a "$SUM"
  [ $r1 -ne 0 ] || [ $r2 -ne 0 ] && rc=1
fi
if [ "$MODE" = bench ] || [ "$MODE" = all ]; then
  t1=$(date +%s)
  "$B/bench_gpu_msm" ${PM_MSM_BENCH:-20 24 26} > "$OUT/bench_msm.log" 2>&1 || log "bench_gpu_msm failed"
  log "bench_gpu_msm: $(( $(date +%s) - t1 )) s"
  t1=$(date +%s)
  "$B/bench_gpu_ntt" ${PM_NTT_BENCH:-24 26 27} > "$OUT/bench_ntt.log" 2>&1 || log "bench_gpu_ntt failed"
  log "bench_gpu_ntt: $(( $(date +%s) - t1 )) s"
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader >> "$SUM" 2>&1
fi
echo "==== summary ===="; cat "$SUM"
[ -f "$OUT/test_msm.log" ] && { echo "==== msm test (tail) ===="; tail -25 "$OUT/test_msm.log"; }
[ -f "$OUT/test_ntt.log" ] && { echo "==== ntt test (tail) ===="; grep -v " ok " "$OUT/test_ntt.log" | tail -12; }
[ -f "$OUT/bench_msm.log" ] && { echo "==== msm bench ===="; tail -12 "$OUT/bench_msm.log"; }
[ -f "$OUT/bench_ntt.log" ] && { echo "==== ntt bench ===="; cat "$OUT/bench_ntt.log"; }
exit $rc
