#!/usr/bin/env bash
# gpu_vs_sppark.sh — proofmill's GPU MSM/NTT against the sppark anchor, measured in one call on one
# card, printed as one table and appended in docs/perf/gpu-vs-sppark.tsv's format.
#
# Usage: bench/gpu_vs_sppark.sh SPPARK_SRC BLST_SRC OUR_BUILD_DIR [TSV_OUT]
#   SPPARK_SRC, BLST_SRC  unpacked sppark and blst sources (e.g. .anchors/sppark .anchors/blst)
#   OUR_BUILD_DIR         a build holding bench_gpu_msm (and bench_gpu_ntt, optional): a CMake build
#                         dir, or tests/gpu/run.sh's /tmp/pmgpu-build
#   TSV_OUT               file the rows are appended to (header written when new); default
#                         $OUT/gpu-vs-sppark.tsv when $OUT is set, else ./gpu-vs-sppark.tsv
# Env: MSM_LOGS (G1 sizes, default "24 26 27"), G2_LOGS (default "20 25"; "" = none),
#      PM_MSM_VARIANTS (bench/gpu_msm.cu: run-time MSM variants; their rows have impl proofmill:NAME),
#      NTT_LOGS (default "24 26 27"; "" = none), REPS (default 5), HARNESS (the anchor harness dir
#      holding build.sh and sppark_bench.cu; default .anchors/ of the checkout if it has build.sh,
#      else ../shared/anchors beside it), ANCHOR_BUILD (default /tmp/anchor-build), COMMIT (default
#      git HEAD).
# Both sides time the same way: bases resident on the device, scalars from pinned host memory,
# wall time per call, median and min of REPS after one warm-up; NTTs on device data, CUDA events.
# Columns: impl op log2n dist median_ms min_ms date commit (impl proofmill|sppark; op
# msm_g1|msm_g2|ntt; dist uniform|witness). The printed table adds proofmill/sppark per row.
set -uo pipefail
if [ $# -lt 3 ]; then sed -n '2,22p' "$0"; exit 2; fi
SPPARK=$(cd "$1" && pwd) || exit 2
BLST=$(cd "$2" && pwd) || exit 2
OURS=$(cd "$3" && pwd) || exit 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${4:-}" ]; then TSV=$4; elif [ -n "${OUT:-}" ]; then TSV=$OUT/gpu-vs-sppark.tsv; else TSV=./gpu-vs-sppark.tsv; fi
MSM_LOGS=${MSM_LOGS-24 26 27}
G2_LOGS=${G2_LOGS-20 25}
NTT_LOGS=${NTT_LOGS-24 26 27}
REPS=${REPS:-5}
HARNESS=${HARNESS:-}
if [ -z "$HARNESS" ]; then
  if [ -f "$ROOT/.anchors/build.sh" ]; then HARNESS=$ROOT/.anchors; else HARNESS=$ROOT/../shared/anchors; fi
fi
[ -f "$HARNESS/build.sh" ] || { echo "gpu_vs_sppark.sh: no anchor harness at $HARNESS (set HARNESS)" >&2; exit 2; }
[ -x "$OURS/bench_gpu_msm" ] || { echo "gpu_vs_sppark.sh: $OURS/bench_gpu_msm not built" >&2; exit 2; }
ABUILD=${ANCHOR_BUILD:-/tmp/anchor-build}
COMMIT=${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}
DATE=$(date -u '+%Y-%m-%d')
TMP=$(mktemp -d)
# keep the full logs where the caller collects them (also when a timeout stops the script)
keep_logs() { if [ -n "${OUT:-}" ]; then for f in sppark ours ntt; do [ -f "$TMP/$f.log" ] && cp "$TMP/$f.log" "$OUT/vs_$f.log"; done; fi; }
trap 'keep_logs; rm -rf "$TMP"' EXIT

echo "== building the sppark anchor ($HARNESS)"
SPPARK="$SPPARK" BLST="$BLST" BUILD="$ABUILD" bash "$HARNESS/build.sh" > "$TMP/anchor-build.log" 2>&1 \
  || { tail -30 "$TMP/anchor-build.log"; echo "gpu_vs_sppark.sh: anchor build failed" >&2; exit 2; }

rc=0
echo "== sppark"
ntt_arg=none
[ -n "$NTT_LOGS" ] && ntt_arg=$(echo $NTT_LOGS | tr ' ' ',')
OUT_TSV="$TMP/sppark.tsv" "$ABUILD/sppark_bench" -r "$REPS" -p -n "$ntt_arg" ${MSM_LOGS:-none} > "$TMP/sppark.log" 2>&1 || rc=1
grep -E "^ +(msm|ntt)|check|MISMATCH|rror" "$TMP/sppark.log"
[ -f "$TMP/sppark.tsv" ] || { echo "gpu_vs_sppark.sh: sppark_bench wrote no table" >&2; rc=1; }

echo "== proofmill MSM"
if [ -n "$MSM_LOGS$G2_LOGS" ]; then
  PM_MSM_TSV="$TMP/ours.tsv" PM_MSM_G2="$G2_LOGS" PROOFMILL_BENCH_REPS="$REPS" "$OURS/bench_gpu_msm" ${MSM_LOGS:-} > "$TMP/ours.log" 2>&1 \
    || { echo "gpu_vs_sppark.sh: bench_gpu_msm failed or a result was WRONG" >&2; rc=1; }
  grep -E "^(msm|field|G[12] )" "$TMP/ours.log"
fi
if [ -n "$NTT_LOGS" ] && [ -x "$OURS/bench_gpu_ntt" ]; then
  echo "== proofmill NTT"
  PROOFMILL_BENCH_REPS="$REPS" "$OURS/bench_gpu_ntt" $NTT_LOGS > "$TMP/ntt.log" 2>&1 || rc=1
  # rows "| 2^L | forward median (min) ms | ...": the forward transform on device data
  sed -nE 's/^\| 2\^([0-9]+) \| ([0-9.]+) \(([0-9.]+)\) ms \|.*/proofmill\tntt\t\1\tuniform\t\2\t\3/p' "$TMP/ntt.log" >> "$TMP/ours.tsv"
fi

keep_logs

# one table: proofmill rows first, sppark's matching row and the ratio beside
{
  [ -f "$TMP/ours.tsv" ] && awk -F'\t' '$1 ~ /^proofmill/ { print $1"\t"$2"\t"$3"\t"$4"\t"$5"\t"$6 }' "$TMP/ours.tsv"
  [ -f "$TMP/sppark.tsv" ] && awk -F'\t' 'NR > 1 {
      op = $4; dist = $5
      if (op ~ /^ntt_fwd_NN/) { op = "ntt"; dist = "uniform" } else if (op ~ /^ntt/) next
      print "sppark\t"op"\t"$2"\t"dist"\t"$7"\t"$8 }' "$TMP/sppark.tsv"
} > "$TMP/all.tsv"
printf "\n%-16s %-7s %-6s %-8s %12s %12s %18s\n" impl op log2n dist median_ms min_ms "proofmill/sppark"
awk -F'\t' '{ key = $2" "$3" "$4; if ($1 == "sppark") sp[key] = $5; row[NR] = $0; k[NR] = key; impl[NR] = $1 }
  END { for (i = 1; i <= NR; i++) { split(row[i], f, "\t"); r = ""
          if (impl[i] ~ /^proofmill/ && (k[i] in sp) && sp[k[i]] > 0) r = sprintf("%.2f", f[5] / sp[k[i]])
          printf "%-16s %-7s %-6s %-8s %12.3f %12.3f %18s\n", f[1], f[2], f[3], f[4], f[5], f[6], r } }' "$TMP/all.tsv"

mkdir -p "$(dirname "$TSV")"
[ -s "$TSV" ] || printf "impl\top\tlog2n\tdist\tmedian_ms\tmin_ms\tdate\tcommit\n" > "$TSV"
awk -F'\t' -v d="$DATE" -v c="$COMMIT" '{ printf "%s\t%s\t%s\t%s\t%.3f\t%.3f\t%s\t%s\n", $1, $2, $3, $4, $5, $6, d, c }' "$TMP/all.tsv" >> "$TSV"
echo "appended $(wc -l < "$TMP/all.tsv") rows to $TSV"
grep -h "MISMATCH\|WRONG" "$TMP"/*.log 2>/dev/null | head -5
exit $rc
