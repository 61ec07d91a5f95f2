#!/usr/bin/env bash
# gpu_round2.sh — issue #14, round 2, in ONE device call of <= 7 minutes on the H200: every run-time
# variant of the MSM and the NTT (docs/perf/gpu.md, "Round 2") checked on the device, then timed against
# the baseline and sppark in the same call; the H pipelines at 2^27; the CPU H phase on 1, 4, 16 threads.
#
# Usage (repo root, on the GPU machine; .anchors/ holds the unpacked sppark and blst sources, or pass them):
#   bash bench/gpu_round2.sh [SPPARK_SRC BLST_SRC]
# Builds with tests/gpu/run.sh (standalone nvcc + gcc, /tmp/pmgpu-build) unless $PM_BUILD already holds
# bench_gpu_msm (e.g. a CMake build dir with the gpu benches and tests). Writes 8 files under $OUT (default
# ./gpu-out; a device call brings back 8 at most), the rest in a scratch folder:
#   summary.txt   phase times, test results, the table with ratios against sppark and against the baseline
#   round2.tsv    impl op log2n dist median_ms min_ms date commit (impl proofmill, proofmill:VARIANT, sppark)
#   tests.log     the device tests of every variant; vs_ours.log / vs_ntt.log / vs_sppark.log  bench_gpu_msm,
#   bench_gpu_ntt and sppark_bench output; kernels.txt  ptxas registers/stack; other.log  build, NTT tiles, CPU H
# Env: MSM_VARIANTS   the MSM variants timed (bench/gpu_msm.cu PM_MSM_VARIANTS syntax; first = baseline)
#      TEST_VARIANTS  the MSM variants the device tests run (same syntax)
#      NTT_TILES      extra PROOFMILL_GPU_NTT_TILE values timed at 2^27 (default "10 9")
#      REPS (3), MSM_LOGS ("20 24 26 27"), G2_LOGS ("20 25"), NTT_LOGS ("24 26 27"), CPU_H_LOG (22; "" = skip)
#      BUDGET_S (420): a phase that would start after this many seconds is skipped (and said so);
#      TEST_UNTIL_S (120): no new test variant after this many seconds
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-out}; mkdir -p "$OUT"
W=$(mktemp -d /tmp/round2.XXXXXX) # everything but the 8 files that come back
B=${PM_BUILD:-/tmp/pmgpu-build}
SP=${1:-$ROOT/.anchors/sppark}; BL=${2:-$ROOT/.anchors/blst}
MSM_VARIANTS=${MSM_VARIANTS:-"base R1:ACC=1 CX:XINLINE=1 X:ACC=1,TAIL=1000000000,XINLINE=1"}
TEST_VARIANTS=${TEST_VARIANTS:-"base R1:ACC=1 X:ACC=1,TAIL=1000000000,XINLINE=1 A1:PREFETCH=1,XINLINE=1,TAIL=1,KMIN=2"}
NTT_TILES=${NTT_TILES-10 9}
REPS=${REPS:-3}
BUDGET_S=${BUDGET_S:-420}
TEST_UNTIL_S=${TEST_UNTIL_S:-120} # no new MSM test variant after this many seconds (NTT tiles: 30 s more)
CPU_H_LOG=${CPU_H_LOG-22}
SUM="$OUT/summary.txt"
COMMIT=${PM_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)} # the device copy's .git can be stale: pass PM_COMMIT
DATE=$(date -u '+%Y-%m-%d')
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
say() { echo "[$(el) s] $*" | tee -a "$SUM"; }
left() { echo $(( BUDGET_S - $(el) )); }
# phase NAME SECONDS_NEEDED: true when the phase fits the budget
phase() { if [ "$(left)" -lt "$2" ]; then say "SKIPPED $1: $(left) s left of the budget, needs ~$2 s"; return 1; fi; say "== $1"; }
# run the command with the variant's PROOFMILL_GPU_MSM_* set (variant syntax NAME[:VAR=V,...])
with_variant() {
  local spec=$1; shift
  local envs=()
  if [[ $spec == *:* ]]; then
    IFS=',' read -r -a kv <<< "${spec#*:}"
    for x in "${kv[@]}"; do envs+=("PROOFMILL_GPU_MSM_$x"); done
  fi
  env -u PROOFMILL_GPU_MSM_ACC -u PROOFMILL_GPU_MSM_PREFETCH -u PROOFMILL_GPU_MSM_XINLINE -u PROOFMILL_GPU_MSM_TAIL \
      -u PROOFMILL_GPU_MSM_KMIN -u PROOFMILL_GPU_MSM_PARTS "${envs[@]}" "$@"
}

: > "$SUM"
say "gpu_round2: commit $COMMIT, $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv,noheader 2>&1 | tee -a "$SUM"

# ---- 0. build ----
if [ ! -x "$B/bench_gpu_msm" ]; then
  say "== build (tests/gpu/run.sh build)"
  OUT="$W/build" PM_BUILD="$B" bash "$ROOT/tests/gpu/run.sh" build > "$W/build.log" 2>&1 || {
    say "BUILD FAILED"; tail -40 "$W/build.log" | tee "$OUT/other.log"; exit 2; }
  cp "$W/build/kernels.txt" "$OUT/kernels.txt" 2>/dev/null
fi
say "build ready: $B"

# ---- 1. device tests: every MSM variant (G1 to 2^16 incl. the edge cases, G2), NTT/H for every tile ----
rc_tests=0; skipped=
if phase "tests" 60; then
  : > "$OUT/tests.log"
  for v in $TEST_VARIANTS; do
    [ "$(el)" -gt "$TEST_UNTIL_S" ] && { say "  tests: past $TEST_UNTIL_S s, variant $v and later skipped (not run, so not failed)"; skipped=1; break; }
    for t in "test_gpu_msm 16" "test_gpu_msm_g2"; do
      set -- $t
      [ -x "$B/$1" ] || { say "  $1: NOT BUILT"; rc_tests=1; continue; }
      echo "==== [$v] $t" >> "$OUT/tests.log"
      with_variant "$v" timeout 45 "$B/$1" ${2:-} >> "$OUT/tests.log" 2>&1; r=$?
      say "  [$v] $t: exit $r$([ $r -eq 77 ] && echo ' (skipped: no device)')"
      [ $r -ne 0 ] && rc_tests=1
    done
  done
  for tile in 11 $NTT_TILES; do
    [ "$(el)" -gt $(( TEST_UNTIL_S + 30 )) ] && { say "  tests: past $(( TEST_UNTIL_S + 30 )) s, tile $tile and later skipped"; rc_tests=1; break; }
    for t in "test_gpu_ntt 21 0" "test_gpu_h 20"; do
      set -- $t
      echo "==== [tile $tile] $t" >> "$OUT/tests.log"
      PROOFMILL_GPU_NTT_TILE=$tile timeout 45 "$B/$1" ${2:-} ${3:-} >> "$OUT/tests.log" 2>&1; r=$?
      say "  [tile $tile] $t: exit $r"
      [ $r -ne 0 ] && rc_tests=1
    done
  done
  grep -hE "FAIL|MISMATCH|differs" "$OUT/tests.log" | head -10 | tee -a "$SUM"
fi

# ---- 2. MSM (baseline + variants) and NTT/H (default tile) against sppark, one script, one card ----
TSV="$OUT/round2.tsv"
printf "impl\top\tlog2n\tdist\tmedian_ms\tmin_ms\tdate\tcommit\n" > "$TSV"
if phase "MSM variants + NTT + H vs sppark (bench/gpu_vs_sppark.sh)" 200; then
  PM_MSM_VARIANTS="$MSM_VARIANTS" MSM_LOGS=${MSM_LOGS-20 24 26 27} G2_LOGS=${G2_LOGS-20 25} NTT_LOGS=${NTT_LOGS-24 26 27} REPS=$REPS \
    OUT_TSV="$W/ntt_h.tsv" PM_BENCH_COMMIT=$COMMIT COMMIT=$COMMIT OUT="$W" timeout $(( $(left) - 50 > 150 ? $(left) - 50 : 150 )) \
    bash "$ROOT/bench/gpu_vs_sppark.sh" "$SP" "$BL" "$B" "$W/vs.tsv" > "$W/vs_sppark_run.log" 2>&1
  say "gpu_vs_sppark.sh: exit $?"
  for f in vs_ours.log vs_ntt.log vs_sppark.log; do [ -f "$W/$f" ] && cp "$W/$f" "$OUT/$f"; done
  [ -f "$W/vs.tsv" ] && tail -n +2 "$W/vs.tsv" >> "$TSV"
  [ -f "$W/ntt_h.tsv" ] && grep -v "^proofmill"$'\t'"ntt"$'\t' "$W/ntt_h.tsv" >> "$TSV" # the H rows (ntt rows came with vs.tsv)
  grep -hE "MISMATCH|WRONG" "$W/vs_sppark_run.log" "$W"/vs_ours.log 2>/dev/null | grep -v "NTT spot" | head -5 | tee -a "$SUM"
fi

# ---- 3. CPU H phase (bench/ntt_h.c), 2^CPU_H_LOG, 1, 4, 16 threads, one rep ----
if [ -n "$CPU_H_LOG" ] && phase "CPU H 2^$CPU_H_LOG (threads 1,4,16)" 35; then
  if [ ! -x "$B/bench_ntt_h" ]; then
    gcc -O2 -std=c17 -D_GNU_SOURCE -fopenmp -I"$ROOT/src" -I"$ROOT/tests/common" -w "$ROOT/bench/ntt_h.c" "$B/libcore.a" -lm -o "$B/bench_ntt_h" \
      >> "$W/cpu_h.log" 2>&1 || say "  bench_ntt_h: build failed"
  fi
  [ -x "$B/bench_ntt_h" ] && { timeout $(( $(left) > 30 ? $(left) : 30 )) "$B/bench_ntt_h" --log "$CPU_H_LOG" --threads 1,4,16 --reps 1 --no-seq >> "$W/cpu_h.log" 2>&1
                               say "  bench_ntt_h: exit $?"; }
fi

# ---- 4. NTT tile variants at 2^27 (forward, inverse, coset, snarkjs H, bellperson H) ----
if [ -n "$NTT_TILES" ] && phase "NTT tiles $NTT_TILES at 2^27" 40; then
  : > "$W/ntt_tiles.log"
  for tile in $NTT_TILES; do
    PROOFMILL_GPU_NTT_TILE=$tile PM_BENCH_IMPL=proofmill:T$tile OUT_TSV="$W/ntt_tiles.tsv" PM_BENCH_COMMIT=$COMMIT PROOFMILL_BENCH_REPS=5 \
      timeout 40 "$B/bench_gpu_ntt" 27 >> "$W/ntt_tiles.log" 2>&1
    say "  bench_gpu_ntt tile $tile: exit $?"
  done
  [ -f "$W/ntt_tiles.tsv" ] && cat "$W/ntt_tiles.tsv" >> "$TSV"
fi

# ---- 5. the table: every row with its ratio to sppark and to the baseline (impl proofmill) ----
{
  echo
  printf "%-18s %-13s %-5s %-8s %11s %11s %9s %9s\n" impl op log2n dist median_ms min_ms "/sppark" "/base"
  awk -F'\t' 'NR > 1 { key = $2" "$3" "$4; row[NR] = $0; k[NR] = key; if ($1 == "sppark") sp[key] = $5; if ($1 == "proofmill") bs[key] = $5; n = NR }
    END { for (i = 2; i <= n; i++) { split(row[i], f, "\t"); a = ""; b = ""
            if (f[1] != "sppark" && (k[i] in sp) && sp[k[i]] > 0) a = sprintf("%.3f", f[5] / sp[k[i]])
            if (f[1] ~ /^proofmill:/ && (k[i] in bs) && bs[k[i]] > 0) b = sprintf("%.3f", f[5] / bs[k[i]])
            printf "%-18s %-13s %-5s %-8s %11.3f %11.3f %9s %9s\n", f[1], f[2], f[3], f[4], f[5], f[6], a, b } }' "$TSV"
  echo
  echo "MSM phases per variant (last run's CUDA events):"
  grep -hE "^msm_g[12] 2\^" "$W/vs_ours.log" 2>/dev/null | sed -E 's/; last run.s events:/ |/; s/ general=[^;]*; check/ check/'
  grep -hE "^field:" "$W/vs_ours.log" 2>/dev/null
  echo "NTT / H (default tile, then the tiles):"
  grep -hE "^\| (n|2\^)" "$W/vs_ntt.log" "$W/ntt_tiles.log" 2>/dev/null
  [ -f "$W/cpu_h.log" ] && { echo "CPU H:"; grep -E "^\||bench_ntt_h" "$W/cpu_h.log"; }
} >> "$SUM"
{ echo "==== vs_sppark_run.log"; cat "$W/vs_sppark_run.log"; echo "==== NTT tiles"; cat "$W/ntt_tiles.log"; echo "==== CPU H"; cat "$W/cpu_h.log"
  echo "==== build.log (tail)"; tail -100 "$W/build.log"; } > "$OUT/other.log" 2>/dev/null
rm -rf "$W"
say "done: tests $([ $rc_tests -eq 0 ] && echo passed || echo FAILED)${skipped:+ (some variants skipped for time)}"
cat "$SUM"
exit $rc_tests
