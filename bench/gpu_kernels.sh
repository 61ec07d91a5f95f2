#!/usr/bin/env bash
# gpu_kernels.sh — the kernel benchmarks of one H200 device call, after `tests/gpu/run.sh test`
# (or `build`) left its binaries in /tmp/pmgpu-build: the same-run comparison with sppark (G1/G2 MSM,
# NTT; bench/gpu_vs_sppark.sh), the H pipelines, the device SpMV and the CPU H phase on 1..16 threads.
# Usage (repo root, on the GPU machine; .anchors holds the unpacked sppark and blst sources):
#   bash bench/gpu_kernels.sh [SPPARK_SRC BLST_SRC]     logs and TSV rows under $OUT (default ./gpu-out)
# Env: MSM_LOGS (default "24 26 27"), G2_LOGS ("20 25"), NTT_LOGS ("24 26 27"), REPS (5),
#      SPMV_LOG (24), CPU_H ("--log 23 --reps 1"; "" = skip), PM_BUILD (/tmp/pmgpu-build).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-out}; mkdir -p "$OUT"
B=${PM_BUILD:-/tmp/pmgpu-build}
SP=${1:-$ROOT/.anchors/sppark}; BL=${2:-$ROOT/.anchors/blst}
[ -x "$B/bench_gpu_msm" ] || { echo "gpu_kernels.sh: run tests/gpu/run.sh build first ($B)" >&2; exit 2; }
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC') commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv,noheader
MSM_LOGS=${MSM_LOGS-24 26 27} G2_LOGS=${G2_LOGS-20 25} NTT_LOGS=${NTT_LOGS-24 26 27} REPS=${REPS:-5} \
  timeout 420 bash "$ROOT/bench/gpu_vs_sppark.sh" "$SP" "$BL" "$B" "$OUT/gpu-vs-sppark.tsv" > "$OUT/vs_sppark.log" 2>&1
echo "gpu_vs_sppark: exit $?"
timeout 60 "$B/bench_gpu_spmv" "${SPMV_LOG:-24}" > "$OUT/bench_spmv.log" 2>&1; echo "bench_gpu_spmv: exit $?"
if [ -n "${CPU_H---log 23 --reps 1}" ] && [ -f "$B/libcore.a" ]; then
  gcc -O2 -std=c17 -D_GNU_SOURCE -fopenmp -I"$ROOT/src" -I"$ROOT/tests/common" -w "$ROOT/bench/ntt_h.c" "$B/libcore.a" -lm \
    -o "$B/bench_ntt_h" && timeout 90 "$B/bench_ntt_h" ${CPU_H---log 23 --reps 1} > "$OUT/bench_ntt_h.log" 2>&1
  echo "bench_ntt_h: exit $?"
fi
echo "==== same-run table"; sed -n '/^impl /,$p' "$OUT/vs_sppark.log"
grep -hE "MISMATCH|WRONG|FAIL" "$OUT/vs_sppark.log" | head -5
echo "==== NTT and H pipelines (bench_gpu_ntt)"; grep -E "^\| (n|2\^)" "$OUT/vs_ntt.log" 2>/dev/null
echo "==== spmv"; tail -8 "$OUT/bench_spmv.log"
[ -f "$OUT/bench_ntt_h.log" ] && { echo "==== CPU H"; tail -12 "$OUT/bench_ntt_h.log"; }
