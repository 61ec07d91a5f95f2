#!/usr/bin/env bash
# run.sh — build, check and time the CUDA backend in one go on a GPU machine (one device call).
#
# Usage: tests/gpu/run.sh [test|bench|all] (default all). Logs go to $OUT (or ./gpu-out).
#   PM_MSM_TEST_LOG (default 20)   largest MSM test size 2^k
#   PM_NTT_TEST_LOG (default 24)   largest NTT test size 2^k; PM_NTT_TEST_EXTRA (default 27) one more
#                                  size spot-checked against the CPU (0 = none)
#   PM_H_TEST_LOG (default 22)     largest bellperson-H test size; PM_SPMV_TEST_LOG (default 20) rows
#                                  of the big SpMV case; PM_SPMV_BENCH (default 24) rows of bench_gpu_spmv
#   PM_CPU_H_BENCH (default unset)  arguments of bench/ntt_h.c (the CPU H phase, 1..16 threads), e.g.
#                                  "--log 23 --reps 1"; unset: not run
#   PM_MSM_BENCH    (default "20 24 26")  PM_NTT_BENCH (default "24 26 27")
#   PM_TREE=work|head (default head when git works): build from `git archive HEAD` plus this
#   checkout's GPU files (src/gpu, tests/gpu, bench/gpu_*, cmake/cuda.cmake), so other layers'
#   uncommitted work in progress cannot break the build; `work` builds the tree as it is.
#   PM_GPU_ARCH (default: the first card's, from nvidia-smi's compute_cap, e.g. 89; 90 when it cannot
#                tell)  the one architecture nvcc compiles for (sm_90 on the device machine's H100/H200)
# The build is standalone (gcc for the CPU layers the tests compare against, nvcc -arch=sm_$PM_GPU_ARCH
# for src/gpu), so the device image needs no cmocka/GMP/jansson; the CMake fragment cmake/cuda.cmake
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
ARCH=${PM_GPU_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '. ')}
case "$ARCH" in '' | *[!0-9]*) ARCH=90 ;; esac
log "arch: sm_$ARCH"

# ---- CPU layers (reference side) ----
t0=$(date +%s)
DEFS=""
ASM=""
if [ -f "$T/src/field/mont_x86_64.S" ] && grep -q mont_x86_64 "$T/src/field/cpu_x86.h" 2>/dev/null; then ASM=1; fi
CFLAGS="-O2 -std=c17 -D_GNU_SOURCE -fopenmp -I$T/src -w ${ASM:+-DPROOFMILL_USE_ASM=1}"
compile_one() { # compile_one NAME FILE: object in $B/obj, failure noted in $B/obj/NAME.failed
  local o="$B/obj/$1-$(basename "$2").o"
  gcc $CFLAGS -c "$2" -o "$o" > "$o.log" 2>&1 || { echo "compile failed: $2" >> "$B/obj/$1.failed"; rm -f "$o"; }
}
# every CPU layer the GPU code or its tests may reach, in parallel; a file that does not compile
# (missing optional library, work in progress) only removes what depends on it
for layer in util field curve pairing msm ntt r1cs groth16; do
  for f in "$T"/src/$layer/*.c; do [ -f "$f" ] && compile_one "$layer" "$f" & done
done
[ -n "$ASM" ] && compile_one field "$T/src/field/mont_x86_64.S" &
wait
cat "$B"/obj/*.log >> "$B/cc.log" 2>/dev/null; cat "$B"/obj/*.failed >> "$B/cc.log" 2>/dev/null
[ -f "$B/obj/field.failed" ] && log "WARNING: field layer compile errors (see build.log)"
[ -f "$T/src/ntt/ntt.c" ] && [ ! -f "$B/obj/ntt.failed" ] && DEFS="$DEFS -DPM_HAVE_CPU_NTT=1"
[ -f "$T/src/msm/msm_g1.c" ] && [ ! -f "$B/obj/msm.failed" ] && [ ! -f "$B/obj/curve.failed" ] && DEFS="$DEFS -DPM_HAVE_CPU_MSM=1"
cat "$B"/obj/*.failed 2>/dev/null | sed 's/^/  /' | tee -a "$SUM"
rm -f "$B/libcore.a"; ar rcs "$B/libcore.a" "$B"/obj/*.o
log "CPU references: ${DEFS:-none (self-contained checks only)}"

# ---- GPU library, tests, benches ----
NVFLAGS="-arch=sm_$ARCH -O3 -std=c++17 --expt-relaxed-constexpr -I$T/src -Xcompiler=-fopenmp,-w"
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
# host tests of the device logic (tests/gpu/test_*_host.cu: the kernels' phases run on the CPU)
for t in "$T"/tests/gpu/test_*_host.cu; do
  [ -f "$t" ] || continue
  ( "$NVCC" -O2 -std=c++17 --expt-relaxed-constexpr -I"$T/src" -Xcompiler=-fopenmp,-w "$t" "$B/libcore.a" -lgomp -lm -o "$B/$(basename "$t" .cu)" \
      > "$B/nvcc-host-$(basename "$t").log" 2>&1 || true ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
GOOD=(); for o in "${GPUOBJ[@]}"; do [ -f "$o" ] && GOOD+=("$o"); done
ar rcs "$B/libpmgpu.a" "${GOOD[@]}"
LIBS=("$B/libpmgpu.a" "$B/libcore.a" -lgomp -lpthread -lm)
for t in "$T"/tests/gpu/test_*.c; do
  n=$(basename "$t" .c)
  if [ "$n" = test_gpu_groth16 ]; then # needs the whole prover: optional
    "$NVCC" -arch=sm_$ARCH -o "$B/$n" "$B/$n.o" "${LIBS[@]}" "$B/libcore.a" >> "$B/link.log" 2>&1 || log "note: $n not built (prover layers do not link here)"
    continue
  fi
  "$NVCC" -arch=sm_$ARCH -o "$B/$n" "$B/$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 || {
    # the CPU MSM may be declared but not (yet) linkable: retry without it
    gcc $CFLAGS -c "$t" -o "$B/$n.o" >> "$B/cc.log" 2>&1 && "$NVCC" -arch=sm_$ARCH -o "$B/$n" "$B/$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 \
      && log "note: $n linked without the CPU references" || echo "link failed: $n" >> "$B/fail"; }
done
for f in "$T"/bench/gpu_*.cu; do
  n=$(basename "$f" .cu)
  "$NVCC" -arch=sm_$ARCH -o "$B/bench_$n" "$B/bench-$n.o" "${LIBS[@]}" >> "$B/link.log" 2>&1 || echo "link failed: bench_$n" >> "$B/fail"
done
cat "$B/cc.log" "$B"/nvcc-*.log "$B/link.log" > "$OUT/build.log" 2>/dev/null
grep -h -A1 "Function properties" "$B"/nvcc-*.log 2>/dev/null | grep -v "^--" | paste - - | \
  sed 's/ptxas info    : Function properties for //' | awk '{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11}' > "$OUT/kernels.txt" 2>/dev/null
grep -h "registers" "$B"/nvcc-*.log >> "$OUT/kernels.txt" 2>/dev/null
log "build: $(( $(date +%s) - t0 )) s"
# instruction mix of the accumulation kernel (what the Fp multiplications compile to)
if command -v cuobjdump > /dev/null; then
  for k in f_round k_stages; do
    for o in "$B"/gpu-*.o; do
      cuobjdump -sass "$o" 2>/dev/null | awk -v k="$k" '/Function : /{f = ($0 ~ k)} f' | \
        grep -oE '^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z0-9_]+(\.[A-Z0-9_.]+)?' | awk '{print $NF}' | sort | uniq -c | sort -rn | head -25 | \
        sed "s|^|$k $(basename "$o") |"
    done
  done >> "$OUT/kernels.txt" 2>&1
fi
if [ -f "$B/fail" ]; then log "BUILD FAILED:"; cat "$B/fail" | tee -a "$SUM"; tail -40 "$OUT/build.log"; exit 2; fi

rc=0
if [ "$MODE" = test ] || [ "$MODE" = all ]; then
  t1=$(date +%s)
  "$B/test_gpu_msm" "${PM_MSM_TEST_LOG:-20}" > "$OUT/test_msm.log" 2>&1; r1=$?
  log "test_gpu_msm: exit $r1 ($(tail -1 "$OUT/test_msm.log")) $(( $(date +%s) - t1 )) s"
  for tm in "$B"/test_gpu_msm_*; do # G2, fixed base, ...: test_gpu_msm_<x>.c
    [ -x "$tm" ] || continue
    x=$(basename "$tm"); t1=$(date +%s)
    echo "==== $x" >> "$OUT/test_msm.log" # one log: $OUT brings back 8 files at most
    "$tm" >> "$OUT/test_msm.log" 2>&1; r=$?
    log "$x: exit $r ($(tail -1 "$OUT/test_msm.log")) $(( $(date +%s) - t1 )) s"
    [ $r -ne 0 ] && r1=1
  done
  t1=$(date +%s)
  "$B/test_gpu_ntt" "${PM_NTT_TEST_LOG:-24}" "${PM_NTT_TEST_EXTRA:-27}" > "$OUT/test_ntt.log" 2>&1; r2=$?
  log "test_gpu_ntt: exit $r2 ($(tail -1 "$OUT/test_ntt.log")) $(( $(date +%s) - t1 )) s"
  for x in "test_gpu_ntt_host:" "test_gpu_h:${PM_H_TEST_LOG:-22}" "test_gpu_spmv:${PM_SPMV_TEST_LOG:-20}"; do
    n=${x%%:*}; a=${x#*:}
    if [ ! -x "$B/$n" ]; then log "$n: NOT BUILT"; r2=1; continue; fi
    t1=$(date +%s)
    "$B/$n" $a > "$OUT/$n.log" 2>&1; rx=$?
    log "$n: exit $rx ($(tail -1 "$OUT/$n.log")) $(( $(date +%s) - t1 )) s"
    [ $rx -ne 0 ] && r2=1
  done
  if [ -x "$B/test_gpu_groth16" ]; then
    t1=$(date +%s)
    PROOFMILL_SOURCE_DIR="$T" "$B/test_gpu_groth16" > "$OUT/test_groth16.log" 2>&1; r3=$?
    log "test_gpu_groth16: exit $r3 ($(tail -1 "$OUT/test_groth16.log")) $(( $(date +%s) - t1 )) s"
    [ $r3 -ne 0 ] && rc=1
  fi
  grep -h "FAIL\|MISMATCH" "$OUT"/test_*.log | head -20 | tee -a "$SUM"
  [ $r1 -ne 0 ] || [ $r2 -ne 0 ] && rc=1
fi
if [ "$MODE" = bench ] || [ "$MODE" = all ]; then
  t1=$(date +%s)
  "$B/bench_gpu_msm" ${PM_MSM_BENCH:-20 24 26} > "$OUT/bench_msm.log" 2>&1 || log "bench_gpu_msm failed"
  log "bench_gpu_msm: $(( $(date +%s) - t1 )) s"
  t1=$(date +%s)
  PM_BENCH_COMMIT=${PM_BENCH_COMMIT:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)} OUT_TSV="$OUT/gpu_ntt.tsv" \
    "$B/bench_gpu_ntt" ${PM_NTT_BENCH:-24 26 27} > "$OUT/bench_ntt.log" 2>&1 || log "bench_gpu_ntt failed"
  log "bench_gpu_ntt: $(( $(date +%s) - t1 )) s"
  t1=$(date +%s)
  "$B/bench_gpu_spmv" ${PM_SPMV_BENCH:-24} > "$OUT/bench_spmv.log" 2>&1 || log "bench_gpu_spmv failed"
  log "bench_gpu_spmv: $(( $(date +%s) - t1 )) s"
  if [ -n "${PM_CPU_H_BENCH:-}" ]; then # e.g. "--log 23 --reps 1": the CPU H phase on 1..16 threads
    t1=$(date +%s)
    gcc $CFLAGS -I"$T/tests/common" "$T/bench/ntt_h.c" "$B/libcore.a" -lm -o "$B/bench_ntt_h" >> "$B/cc.log" 2>&1 &&
      "$B/bench_ntt_h" $PM_CPU_H_BENCH > "$OUT/bench_ntt_h.log" 2>&1 || log "bench_ntt_h failed"
    log "bench_ntt_h: $(( $(date +%s) - t1 )) s"
  fi
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader >> "$SUM" 2>&1
fi
echo "==== summary ===="; cat "$SUM"
[ -f "$OUT/test_msm.log" ] && { echo "==== msm test (tail) ===="; tail -25 "$OUT/test_msm.log"; }
[ -f "$OUT/test_ntt.log" ] && { echo "==== ntt test (tail) ===="; grep -v " ok " "$OUT/test_ntt.log" | tail -12; }
[ -f "$OUT/bench_msm.log" ] && { echo "==== msm bench ===="; tail -12 "$OUT/bench_msm.log"; }
[ -f "$OUT/bench_ntt.log" ] && { echo "==== ntt bench ===="; cat "$OUT/bench_ntt.log"; }
[ -f "$OUT/bench_spmv.log" ] && { echo "==== spmv bench ===="; cat "$OUT/bench_spmv.log"; }
[ -f "$OUT/bench_ntt_h.log" ] && { echo "==== CPU H bench ===="; cat "$OUT/bench_ntt_h.log"; }
for n in test_gpu_ntt_host test_gpu_h test_gpu_spmv; do
  [ -f "$OUT/$n.log" ] && { echo "==== $n (failures, tail) ===="; grep -E "FAIL|MISMATCH" "$OUT/$n.log" | head -5; tail -3 "$OUT/$n.log"; }
done
exit $rc
