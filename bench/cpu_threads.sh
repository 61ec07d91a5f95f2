#!/usr/bin/env bash
# cpu_threads.sh — issue #14's CPU item: the snarkjs-convention CPU prover stage by stage at several
# thread counts on one circuit, with the proof bytes compared across the counts (they must not change).
#
# Usage: bench/cpu_threads.sh BUILD_DIR [LOG2_CONSTRAINTS (22)] [THREADS ("16 8 4 2 1")]
#   e.g. on the H200 host: bench/cpu_threads.sh /tmp/b 22 "16 8 4 2 1"
# Steps: `proofmill r1cs synth` (2^LOG2 constraints, the synthetic circuit's default shape: 2 terms per
# A/B row, 90 % of the witness 0/1), `proofmill setup --seed 1` (--gpu when the binary and a device have
# CUDA: a 2^22 setup takes minutes on the CPU), then for each thread count, largest first,
# `proofmill groth16 prove --cpu --threads T --seed 3 -v` (fixed r, s). Reported in $OUT/cpu-threads.txt:
# each stage's seconds per thread count, its speedup against the smallest count run and the parallel
# efficiency (speedup / thread ratio); $OUT/cpu-threads.tsv has one row per (threads, stage). A proof
# that differs between thread counts fails the script. CAP_S (default 400): no new thread count is
# started after CAP_S seconds of proving (the 1-thread run of 2^22 is the longest, ~1-2 min on the H200
# host). Exit 0 when every run proved the same bytes.
# Prediction for 2^22 on the H200 host's 16 cores (docs/perf/cpu-ntt.md, cpu-groth16.md): H phase
# (6 NTTs of 2^23) 0.9-1.1 s at 16 threads, ~10 s at 1; the H MSM (2^23 dense) ~4.5-5 s at 16.
set -u
B=${1:?usage: cpu_threads.sh BUILD_DIR [LOG2_CONSTRAINTS] [THREADS]}
L=${2:-22}
TLIST=${3:-16 8 4 2 1}
CAP=${CAP_S:-400}
PM="$B/proofmill"
OUT=${OUT:-$PWD/cpu-threads-out}
W=${PM_SCRATCH:-/tmp/cpu-threads}
mkdir -p "$OUT" "$W"
SUM="$OUT/cpu-threads.txt"; TSV="$OUT/cpu-threads.tsv"
: > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
[ -x "$PM" ] || { echo "cpu_threads.sh: no proofmill at $PM" >&2; exit 2; }
commit=${PM_COMMIT:-$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)}
say "cpu_threads.sh: 2^$L constraints, threads $TLIST, commit $commit, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(date -u +%FT%TZ)"
N=$((1 << L))
"$PM" r1cs synth --constraints "$N" --out "$W/c.r1cs" --wtns "$W/c.wtns" >> "$W/log.txt" 2>&1 || { tail -5 "$W/log.txt"; exit 2; }
SETUP_GPU=
if [ -z "${PM_NO_GPU:-}" ] && "$PM" version 2>/dev/null | grep -qi cuda && nvidia-smi -L > /dev/null 2>&1; then SETUP_GPU=--gpu; fi
t0=$(date +%s.%N)
"$PM" setup "$W/c.r1cs" --out "$W/c.zkey" --seed 1 $SETUP_GPU >> "$W/log.txt" 2>&1 || { tail -5 "$W/log.txt"; exit 2; }
say "setup $SETUP_GPU: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
printf 'threads\tstage\tseconds\tdate\tcommit\n' > "$TSV"
ran=()
ref=
rc=0
start=$(date +%s)
for t in $TLIST; do
  if [ $(( $(date +%s) - start )) -gt "$CAP" ]; then say "threads $t: skipped (past CAP_S = $CAP s)"; continue; fi
  "$PM" groth16 prove "$W/c.zkey" "$W/c.wtns" "$W/p$t.json" "$W/pub$t.json" --cpu --threads "$t" --seed 3 -v \
    > "$W/prove$t.txt" 2>&1 || { say "threads $t: prove failed"; tail -5 "$W/prove$t.txt" | tee -a "$SUM"; rc=1; continue; }
  # the -v stage lines: "  <stage>   <seconds> s" (the stage name may hold spaces and parentheses)
  sed -n 's/^  \(.*[^ ]\)  *\([0-9][0-9.]*\) s$/\1\t\2/p' "$W/prove$t.txt" | grep -v "^backend" |
    awk -F'\t' -v t="$t" -v d="$(date -u +%F)" -v c="$commit" '{ printf "%s\t%s\t%s\t%s\t%s\n", t, $1, $2, d, c }' >> "$TSV"
  if [ -z "$ref" ]; then ref=$t
  elif ! cmp -s "$W/p$ref.json" "$W/p$t.json" || ! cmp -s "$W/pub$ref.json" "$W/pub$t.json"; then
    say "FAIL: the proof at $t threads differs from the one at $ref threads"; rc=1
  fi
  ran+=("$t")
done
[ ${#ran[@]} -gt 0 ] || { say "no run"; exit 1; }
# the table: stages in the order the prover prints them, one column per thread count
awk -F'\t' -v list="${ran[*]}" '
  NR == 1 { next }
  { if (!(($2) in seen)) { seen[$2] = 1; order[++n] = $2 } v[$1, $2] = $3 }
  END {
    k = split(list, T, " "); lo = T[1]; for (i = 1; i <= k; i++) if (T[i] + 0 < lo + 0) lo = T[i]
    printf "%-20s", "stage (s)"; for (i = 1; i <= k; i++) printf " %9s", T[i] " thr"; printf "   speedup / efficiency vs %s thr\n", lo
    for (s = 1; s <= n; s++) {
      st = order[s]; printf "%-20s", st
      for (i = 1; i <= k; i++) printf " %9.3f", v[T[i], st]
      for (i = 1; i <= k; i++) if (T[i] != lo && v[T[i], st] > 0)
        printf "   %s: %.2fx / %.0f%%", T[i], v[lo, st] / v[T[i], st], 100 * v[lo, st] / v[T[i], st] / (T[i] / lo)
      printf "\n"
    }
  }' "$TSV" | tee -a "$SUM"
[ $rc = 0 ] && say "the same proof bytes at every thread count (${ran[*]}), r, s fixed by --seed 3"
rm -f "$W/c.zkey" "$W/c.r1cs" "$W/c.wtns"
exit $rc
