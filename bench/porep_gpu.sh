#!/usr/bin/env bash
# porep_gpu.sh — the storage provider's bench: `proofmill bench batch --type porep --gpu` over a sweep of
# concurrency (j) and GPU workers, one TSV row per configuration (docs/perf/porep-gpu.tsv's columns).
#
# Usage: bench/porep_gpu.sh PROOFMILL C1.json PARAMS_DIR SECTOR_SIZE [J_LIST] [WORKERS_LIST] [COUNT]
#   defaults: J_LIST "1 2 3", WORKERS_LIST "1 2", COUNT 4 (proofs per configuration)
#   BENCH_ARGS: more `bench batch` arguments for every run (e.g. "--budget 103079215104"), logged
#   e.g. bench/porep_gpu.sh /tmp/b/proofmill /tmp/s/c1.json /tmp/p 8MiB "1 2" "2" 4
# Each run's output (s/proof over the whole batch, the steady s/proof after the first j completions,
# wall / gpu / queue time per proof) is appended to $OUT/bench-SIZE.txt, its timeline to
# $OUT/timeline-SIZE-jJ-wW.svg. Columns measured outside the engine: peak_rss_gib from
# /usr/bin/time -v when present (else NA); peak_device_gib and gpu_busy (mean utilisation, 0..1) from
# nvidia-smi sampled every 200 ms during the run. With gpu.verbose (PROOFMILL_GPU_VERBOSE=1, as the caps
# step of porep_gpu_32g.sh sets) each partition's start-phase times are averaged ("start ops, mean").
# Exit: 1 when a run failed.
set -u
PM=${1:?usage: porep_gpu.sh PROOFMILL C1 PARAMS_DIR SECTOR_SIZE [J_LIST] [WORKERS_LIST] [COUNT]}
C1=${2:?C1}; P=${3:?PARAMS_DIR}; S=${4:?SECTOR_SIZE}
JS=${5:-"1 2 3"}; WS=${6:-"1 2"}; N=${7:-4}
OUT=${OUT:-$PWD/porep-gpu-out}
mkdir -p "$OUT"
TSV="$OUT/porep-gpu.tsv"
[ -f "$TSV" ] || printf 'sector_size\tj\tgpu_workers\tproofs\ts_per_proof\tpeak_rss_gib\tpeak_device_gib\tgpu_busy\tdate\tcommit\tsteady_s_per_proof\tdevice_cap_gib\tcard\n' > "$TSV"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -oE 'H100|H200|A100|L40S?|RTX [0-9A-Z]+' | head -1)
# shellcheck disable=SC1091
. "$(dirname "$0")/../tests/gpu/device_lib.sh" # pm_start_ops, pm_cap_gib
commit=${PM_COMMIT:-$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)}
tmp=$(mktemp -d)
rc_all=0
for w in $WS; do
  for j in $JS; do
    smi="$tmp/smi.csv"; : > "$smi"
    nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader,nounits -lms 200 > "$smi" 2>/dev/null &
    smi_pid=$!
    TIMECMD=(); [ -x /usr/bin/time ] && TIMECMD=(/usr/bin/time -v -o "$tmp/time.txt")
    echo "== $S j=$j gpu_workers=$w proofs=$N ${BENCH_ARGS:-}" >> "$OUT/bench-$S.txt"
    "${TIMECMD[@]}" "$PM" bench batch --type porep --gpu --gpu-workers "$w" -c "$N" -j "$j" --c1 "$C1" --params "$P" \
      --timeline "$OUT/timeline-$S-j$j-w$w.svg" ${BENCH_ARGS:-} > "$tmp/bench.txt" 2>&1
    rc=$?
    kill "$smi_pid" 2>/dev/null; wait "$smi_pid" 2>/dev/null
    cat "$tmp/bench.txt" >> "$OUT/bench-$S.txt"
    [ $rc = 0 ] || rc_all=1
    spp=$(sed -n 's/^summary:.*, \([0-9.]*\) s\/proof.*/\1/p' "$tmp/bench.txt" | head -1)
    steady=$(sed -n 's/^steady: \([0-9.]*\) s\/proof.*/\1/p' "$tmp/bench.txt" | head -1)
    rss=NA; [ -s "$tmp/time.txt" ] && rss=$(awk -F: '/Maximum resident/ {printf "%.2f", $2 / 1048576}' "$tmp/time.txt")
    dev=$(awk -F, '{ if ($1 + 0 > m) m = $1 + 0 } END { printf "%.2f", m / 1024 }' "$smi")
    busy=$(awk -F, '{ s += $2; n++ } END { if (n) printf "%.2f", s / n / 100; else print "NA" }' "$smi")
    [ $rc = 0 ] || spp=FAILED
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$S" "$j" "$w" "$N" "${spp:-NA}" "$rss" "$dev" "$busy" \
      "$(date -u +%F)" "$commit" "${steady:-NA}" "$(pm_cap_gib)" "${card:-NA}" | tee -a "$TSV"
    grep -E "^summary|^steady|^ *(wall|gpu|queue)" "$tmp/bench.txt"
    pm_start_ops "$tmp/bench.txt" | tee -a "$OUT/bench-$S.txt"
    rm -f "$tmp/time.txt"
  done
done
rm -rf "$tmp"
exit $rc_all
