#!/usr/bin/env bash
# kinds_gpu.sh — issue #16's speed goals on the device: WinningPoSt, WindowPoSt and SnapDeals proved
# on the GPU through the embedded engine (`proofmill bench --kind K --request REQ.json --gpu`), with
# our own seeded TEST parameters made in the same call (`<kind> params-setup --gpu`).
#
# Usage: bench/kinds_gpu.sh BUILD_DIR KIND SIZE [COUNT (4)] [J (1)]
#   KIND winning-post | window-post | snapdeals; SIZE 2KiB | 8MiB | 32GiB | 64GiB
#   e.g. bench/kinds_gpu.sh /tmp/b window-post 32GiB 3 1
# Steps (each timed, in $OUT/kinds-gpu.txt): `<kind> gen` (WindowPoSt: a full partition, 2349
# sectors at 32 GiB / 2300 at 64 GiB; synthetic sectors above 8 MiB), `params-setup --seed 7 --gpu`
# into $PM_SCRATCH (default /tmp/kinds-gpu; nothing else large on the device's 64 GiB disk: the 32 GiB
# WindowPoSt .params is ≈ 61 GB and its .csr ≈ 12 GB, 480 and 98 bytes per constraint as at 8 MiB, so
# there, and at 64 GiB, setup runs with --no-csr and the prover records the circuit in memory at key
# load, inside cold_s; the first try without it filled the disk), `bench single` (cold: key load + device upload + one proof), then `bench batch -c
# COUNT -j J` on the warm engine (the goal's figure: WinningPoSt ≤ 0.5 s submit → verified proof,
# WindowPoSt one partition ≤ 10 s, SnapDeals 16 partitions ≤ 15 s). Every proof is verified by the
# engine. One TSV row per run in $OUT/kinds-gpu.tsv (kind, sector_size, j, proofs, s_per_proof,
# min_wall_s, cold_s, setup_s, peak_rss_gib, peak_device_gib, gpu_busy, date, commit).
# CAPS="24G -": after the one setup, the bench (single and batch) once per device-memory cap
# (PROOFMILL_GPU_MEMORY, a smaller card emulated; "-" = no cap, the card's own memory as by default),
# each with the key's device-memory plan and the partitions' start-phase times (gpu.verbose) in the
# log; the rows carry device_cap_gib and card (issue #37: WindowPoSt and SnapDeals at a 24 GB cap
# against resident). CAPS unset: one run under the caller's environment as it is.
# BENCH_ARGS: more arguments for `bench batch` (e.g. "--budget 107374182400": a 100 GiB host budget).
# NO_COLD=1 skips `bench single` (the batch's first proof then carries the key load).
# PM_NO_GPU=1: the same steps on the CPU (no --gpu, no nvidia-smi) to check the script anywhere.
# Expected on the H200 host: 32 GiB WindowPoSt setup ≈ 2.5 min (like PoRep's 130 M constraints);
# WinningPoSt / SnapDeals a few seconds / ≈ 2 min. Exit 0 when every step passed, 77 without a GPU.
set -u
B=${1:?usage: kinds_gpu.sh BUILD_DIR KIND SIZE [COUNT] [J]}
K=${2:?KIND}; S=${3:?SIZE}; N=${4:-4}; J=${5:-1}
PM="$B/proofmill"
OUT=${OUT:-$PWD/kinds-gpu-out}
W=${PM_SCRATCH:-/tmp/kinds-gpu}/$K-$S
mkdir -p "$OUT"
rm -rf "$W"; mkdir -p "$W"
SUM="$OUT/kinds-gpu.txt"; TSV="$OUT/kinds-gpu.tsv"
# the steps' log stays on the scratch disk; its tail comes back under $OUT whatever the exit
trap 'tail -n 200 "$W/log.txt" > "$OUT/log-$K-$S.txt" 2>/dev/null' EXIT
[ -f "$TSV" ] || printf 'kind\tsector_size\tj\tproofs\ts_per_proof\tmin_wall_s\tcold_s\tsetup_s\tpeak_rss_gib\tpeak_device_gib\tgpu_busy\tdate\tcommit\tdevice_cap_gib\tcard\n' > "$TSV"
. "$(dirname "$0")/../tests/gpu/device_lib.sh"
pm_gpu_flag
fails=0
step() { # label cmd...: run, log, PASS/FAIL with the time
  local label=$1; shift
  local a; a=$(now)
  echo "+ $*" >> "$W/log.txt"
  "$@" >> "$W/log.txt" 2>&1
  local rc=$?
  T_LAST=$(sub "$(now)" "$a")
  if [ $rc = 0 ]; then say "PASS $K $S $label ($T_LAST s)"; else say "FAIL $K $S $label (rc $rc, $T_LAST s)"; fails=$((fails + 1)); fi
  return $rc
}
commit=$(pm_commit "$(dirname "$0")/..")
card=$(pm_card)
say "kinds_gpu.sh $K $S: commit $commit, $card, $(nproc) cores, $(date -u +%FT%TZ)"

GEN=()
if [ "$K" = window-post ]; then
  case $S in 32GiB) GEN=(--sectors 2349) ;; 64GiB) GEN=(--sectors 2300) ;; *) GEN=(--sectors 2) ;; esac
fi
step "gen ${GEN[*]}" "$PM" "$K" gen --sector-size "$S" --out "$W/req.json" "${GEN[@]}" || exit 1
NOCSR=
[ "$K" = window-post ] && case $S in 32GiB|64GiB) NOCSR=--no-csr ;; esac
df -h "$W" >> "$W/log.txt" 2>&1
step "params-setup --seed 7 $GPU $NOCSR" "$PM" "$K" params-setup --sector-size "$S" --dir "$W/p" --seed 7 $GPU $NOCSR
rc_setup=$?
ls -la "$W/p" >> "$W/log.txt" 2>&1; df -h "$W" >> "$W/log.txt" 2>&1
grep -E "constraints \+|cannot|error" "$W/log.txt" | tail -3 | tee -a "$SUM"
[ $rc_setup = 0 ] || exit 1
setup_s=$T_LAST

card_short=$(echo "$card" | grep -oE 'H100|H200|A100|L40S?|RTX ?[0-9]+' | head -1); [ -n "$card_short" ] || card_short=$card
for cap in ${CAPS:-env}; do
  # env (CAPS unset): the caller's environment as it is; -: no cap at all; else that cap
  case $cap in
    env) ;;
    -) unset PROOFMILL_GPU_MEMORY PROOFMILL_GPU_BUDGET ;;
    *) unset PROOFMILL_GPU_BUDGET; export PROOFMILL_GPU_MEMORY=$cap ;;
  esac
  capcol=$(pm_cap_gib)
  export PROOFMILL_GPU_VERBOSE=1
  say "== $K $S cap $cap"
  smi="$W/smi.csv"; : > "$smi"; smi_pid=
  if [ -n "$GPU" ]; then
    nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader,nounits -lms 200 > "$smi" 2>/dev/null &
    smi_pid=$!
  fi
  TIMECMD=(); [ -x /usr/bin/time ] && TIMECMD=(/usr/bin/time -v -o "$W/time.txt")
  cold_s=NA
  if [ "${NO_COLD:-0}" != 1 ]; then
    step "bench single (cold: key load, upload, one proof)" "$PM" bench single --kind "$K" --params "$W/p" --request "$W/req.json" $GPU
    cold_s=$T_LAST
  fi
  # the warm figure: one engine, the first proof of the batch loads the key, the rest find it resident
  "${TIMECMD[@]}" "$PM" bench batch --kind "$K" --params "$W/p" --request "$W/req.json" -c $((N + 1)) -j "$J" $GPU ${BENCH_ARGS:-} \
    --timeline "$OUT/timeline-$K-$S-j$J-cap$capcol.svg" > "$W/bench.txt" 2>&1
  rc=$?
  [ -n "$smi_pid" ] && { kill "$smi_pid" 2>/dev/null; wait "$smi_pid" 2>/dev/null; }
  cat "$W/bench.txt" >> "$SUM"
  [ $rc = 0 ] || { say "FAIL $K $S bench batch (rc $rc)"; fails=$((fails + 1)); }
  # steady state: the proofs after the first (their walls), from the per-proof lines "[k/n] done X s"
  read -r spp minw < <(awk '/^\[[0-9]+\/[0-9]+\] done/ { n++; if (n > 1) { s += $3; if (!m || $3 < m) m = $3; k++ } }
    END { if (k) printf "%.3f %.3f\n", s / k, m; else print "NA NA" }' "$W/bench.txt")
  if [ "$J" != 1 ]; then # at j > 1 the per-proof walls overlap: the bench's steady rate (after the first j)
    spp=$(sed -n 's/^steady: \([0-9.]*\) s\/proof.*/\1/p' "$W/bench.txt" | head -1)
    [ -n "$spp" ] || spp=$(sed -n 's/^summary:.*, \([0-9.]*\) s\/proof.*/\1/p' "$W/bench.txt" | head -1)
  fi
  rss=NA; [ -s "$W/time.txt" ] && rss=$(awk -F: '/Maximum resident/ {printf "%.2f", $2 / 1048576}' "$W/time.txt")
  dev=NA; busy=NA
  if [ -s "$smi" ]; then
    dev=$(awk -F, '{ if ($1 + 0 > m) m = $1 + 0 } END { printf "%.2f", m / 1024 }' "$smi")
    busy=$(awk -F, '{ s += $2; n++ } END { if (n) printf "%.2f", s / n / 100; else print "NA" }' "$smi")
  fi
  [ $rc = 0 ] || spp=FAILED
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$K" "$S" "$J" "$N" "$spp" "$minw" "$cold_s" \
    "$setup_s" "$rss" "$dev" "$busy" "$(date -u +%F)" "$commit" "$capcol" "$card_short" >> "$TSV"
  grep -A16 "^gpu key" "$W/bench.txt" | head -17 >> "$SUM"
  pm_start_ops "$W/bench.txt" | tee -a "$SUM"
  grep "^gpu alloc" "$W/bench.txt" | head -150 > "$OUT/allocs-$K-$S-cap$capcol.txt" # gpu.verbose: each device allocation
  say "$K $S j=$J cap $cap: warm $spp s/proof (min $minw s) over $N proofs; cold $cold_s s; setup $setup_s s; peak RSS $rss GiB, device $dev GiB, GPU busy $busy"
done
rm -rf "$W/p" # the disk is needed by the next kind
say "kinds_gpu.sh $K $S: $fails failure(s)"
[ $fails = 0 ]
