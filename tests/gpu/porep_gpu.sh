#!/usr/bin/env bash
# porep_gpu.sh — PoRep C2 on the GPU against the CPU prover, one device call (issue #13).
#
# Usage: tests/gpu/porep_gpu.sh BUILD_DIR [SIZES]   (SIZES default "2KiB 8MiB")
# BUILD_DIR is a CUDA build made beforehand (this script builds nothing), e.g.
#   source .device-deps/deps.sh && cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
#     "${PM_CMAKE_ARGS[@]}" && cmake --build /tmp/b -j 15
# For each size, with our own seeded TEST parameters in a scratch directory (never a Filecoin
# parameter directory): seal a zero sector (its C1), params-setup on the CPU and with --gpu (the
# .params and .vk must be identical), then `prove --kind porep-c2` with
# the same seeded r, s on the CPU and with --gpu, and compares the proof bytes; the same with the
# device budget capped (PROOFMILL_GPU_BUDGET: bases streamed from host memory in chunks), at every
# tier of the device-memory plan (PROOFMILL_GPU_MIN_TIER=0..5: streamed bases, the SpMV, one NTT buffer and then H on
# the CPU), with gpu.h_preload at tiers 2 and 3 (and gpu.h_c_product), gpu.h_swap at tier 4, and with forced 2^16-point chunks
# (PROOFMILL_GPU_CHUNK_POINTS); `porep verify-proof` on the GPU proof; a
# C1 with one label changed must be refused by the GPU prover (no proof file); then
# bench/porep_gpu.sh (`bench batch --type porep --gpu`, -c 4 -j 2, 2 GPU workers, nvidia-smi sampling
# device memory and utilisation), and the same bench at tier 3 with gpu.h_preload. Also runs test_gpu_groth16 (fixtures and synthetic circuits, bad
# witness, chunked path) and test_gpu_setup (GPU setup = CPU setup, byte for byte).
# Output under $OUT (default ./porep-gpu-out): log.txt, summary.txt (PASS/FAIL lines, times),
# porep-gpu.tsv, bench-SIZE.txt and timeline SVGs (bench/porep_gpu.sh).
# Expected runtime on the H200 host (16 cores): ≈ 1.5 min at 2 KiB + 8 MiB (setup ≈ 35 s + 20 s).
# Exit: 0 when every comparison passed, 1 otherwise, 77 without a usable GPU.
set -u
B=${1:?usage: porep_gpu.sh BUILD_DIR [SIZES]}
SIZES=${2:-"2KiB 8MiB"}
PM="$B/proofmill"
OUT=${OUT:-$PWD/porep-gpu-out}
W=${PM_SCRATCH:-/tmp/porep-gpu}
mkdir -p "$OUT" "$W"
LOG="$OUT/log.txt"; SUM="$OUT/summary.txt"
: > "$LOG"; : > "$SUM"
fails=0
say() { echo "$*" | tee -a "$SUM"; }
run() { echo "+ $*" >> "$LOG"; "$@" >> "$LOG" 2>&1; }
check() { if [ "$1" = 0 ]; then say "PASS $2"; else say "FAIL $2"; fails=$((fails + 1)); fi; }
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no usable GPU"; exit 77
fi
commit=${PM_COMMIT:-$(git -C "$(dirname "$0")/../.." rev-parse --short HEAD 2>/dev/null || echo unknown)}
say "porep_gpu.sh: commit $commit, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(nproc) cores, $(date -u +%FT%TZ)"

for t in test_gpu_groth16 test_gpu_setup; do
  T=$(ls "$B/$t" "$B/tests/groth16/$t" 2>/dev/null | head -1)
  if [ -n "$T" ]; then
    a=$(now); PROOFMILL_SOURCE_DIR="$(cd "$(dirname "$0")/../.." && pwd)" run "$T"; check $? "$t ($(sub "$(now)" "$a") s)"
  else
    say "FAIL $t: not in $B"; fails=$((fails + 1))
  fi
done

for S in $SIZES; do
  D="$W/$S"; rm -rf "$D"; mkdir -p "$D"
  t0=$(now); run "$PM" porep seal --sector-size "$S" --zero --out "$D/s"; check $? "$S seal"
  t1=$(now); run "$PM" porep params-setup --sector-size "$S" --dir "$D/p" --seed 7; check $? "$S params-setup"
  t2=$(now)
  run "$PM" porep params-setup --sector-size "$S" --dir "$D/pg" --seed 7 --gpu; check $? "$S params-setup --gpu"
  t3=$(now)
  say "$S: seal $(sub "$t1" "$t0") s, params-setup $(sub "$t2" "$t1") s (CPU points), $(sub "$t3" "$t2") s (--gpu)"
  for f in "$D"/p/*.params "$D"/p/*.vk; do
    cmp "$f" "$D/pg/$(basename "$f")" >> "$LOG" 2>&1; check $? "$S params-setup --gpu: $(basename "$f" | sed 's/.*\.//') identical"
  done
  rm -rf "$D/pg"
  C1="$D/s/c1.json"
  prove() { # label out [env...]
    local label=$1 out=$2; shift 2
    local a=$(now)
    env "$@" "$PM" prove --kind porep-c2 --params "$D/p" --seed 11 --threads "$(nproc)" --out "$out" \
      $( [ "$label" = cpu ] || echo --gpu ) "$C1" >> "$LOG" 2>&1
    local rc=$?
    say "$S prove $label: rc $rc, $(sub "$(now)" "$a") s (process: params + circuit load, setup of the device copy, prove, verify)"
    return $rc
  }
  prove cpu "$D/cpu.bin"; check $? "$S prove cpu"
  prove gpu "$D/gpu.bin"; check $? "$S prove gpu"
  cmp "$D/cpu.bin" "$D/gpu.bin" >> "$LOG" 2>&1; check $? "$S gpu proof bytes = cpu proof bytes"
  vk=$(ls "$D"/p/*.vk | head -1)
  run "$PM" porep verify-proof --c1 "$C1" --vk "$vk" --proof "$D/gpu.bin"; check $? "$S verify-proof (gpu)"
  prove gpu-budget "$D/gpu_budget.bin" PROOFMILL_GPU_VERBOSE=1 PROOFMILL_GPU_BUDGET=${PM_CAP_BUDGET:-1536M}; check $? "$S prove gpu, PROOFMILL_GPU_BUDGET=${PM_CAP_BUDGET:-1536M}"
  cmp "$D/cpu.bin" "$D/gpu_budget.bin" >> "$LOG" 2>&1; check $? "$S capped budget: same bytes"
  grep -A12 "^gpu key" "$LOG" | tail -13 | sed "s/^/$S capped: /" | tee -a "$SUM"
  grep -A12 "^gpu key" "$LOG" | tail -13 | grep -q "streamed"; check $? "$S capped budget streamed some bases"
  # every tier of the device-memory plan (groth16/devplan.h), forced with gpu.min_tier: the same bytes
  # (tier 4 here with gpu.h_swap off; with it on, its default, in its own check below)
  for t in 0 1 2 3 4 5; do
    prove "gpu-tier$t" "$D/gpu_t$t.bin" PROOFMILL_GPU_VERBOSE=1 PROOFMILL_GPU_MIN_TIER=$t PROOFMILL_GPU_H_SWAP=0
    check $? "$S prove gpu, tier $t"
    grep "^gpu key" "$LOG" | tail -1 | sed "s/^/$S tier $t: /" | tee -a "$SUM"
    grep "^gpu key" "$LOG" | tail -1 | grep -q "tier $t "; check $? "$S tier $t planned"
    cmp "$D/cpu.bin" "$D/gpu_t$t.bin" >> "$LOG" 2>&1; check $? "$S tier $t: same bytes"
  done
  # gpu.h_preload at tiers 2 and 3 (a and b sent into the domain's idle buffers before the H phase
  # that reads them), with c uploaded and with c = a o b on the card: the same bytes, and the path ran
  for t in 2 3; do
    for cp in 0 1; do
      n0=$(grep -c "a, b preloaded" "$LOG")
      prove "gpu-tier$t-preload-c$cp" "$D/gpu_pl_t${t}_c$cp.bin" PROOFMILL_GPU_VERBOSE=1 PROOFMILL_GPU_MIN_TIER=$t \
        PROOFMILL_GPU_H_PRELOAD=1 PROOFMILL_GPU_H_C_PRODUCT=$cp; check $? "$S prove gpu, tier $t, gpu.h_preload, gpu.h_c_product=$cp"
      [ "$(grep -c "a, b preloaded" "$LOG")" -gt "$n0" ]; check $? "$S tier $t, gpu.h_preload: the H read preloaded a, b"
      cmp "$D/cpu.bin" "$D/gpu_pl_t${t}_c$cp.bin" >> "$LOG" 2>&1; check $? "$S tier $t, gpu.h_preload, gpu.h_c_product=$cp: same bytes"
    done
  done
  # gpu.h_swap at tier 4 (the one-buffer H's downloads beside its uploads): the same bytes
  n0=$(grep -c "swaps down and up at once" "$LOG")
  prove "gpu-tier4-swap" "$D/gpu_t4_swap.bin" PROOFMILL_GPU_VERBOSE=1 PROOFMILL_GPU_MIN_TIER=4 PROOFMILL_GPU_H_SWAP=1
  check $? "$S prove gpu, tier 4, gpu.h_swap"
  grep "^gpu key" "$LOG" | tail -1 | grep -q "tier 4 "; check $? "$S tier 4 planned (gpu.h_swap)"
  [ "$(grep -c "swaps down and up at once" "$LOG")" -gt "$n0" ]; check $? "$S tier 4: the swaps ran down and up at once"
  cmp "$D/cpu.bin" "$D/gpu_t4_swap.bin" >> "$LOG" 2>&1; check $? "$S tier 4, gpu.h_swap: same bytes"
  prove gpu-chunks "$D/gpu_chunks.bin" PROOFMILL_GPU_CHUNK_POINTS=65536; check $? "$S prove gpu, 2^16-point chunks"
  cmp "$D/cpu.bin" "$D/gpu_chunks.bin" >> "$LOG" 2>&1; check $? "$S chunked bases: same bytes"
  # a witness that does not satisfy the circuit: one label of the C1 changed
  /usr/bin/python3 - "$C1" "$D/bad.json" >> "$LOG" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
proofs = next(iter(d["vanilla_proofs"].values()))
lp = proofs[0][0]["labeling_proofs"][0]  # partition 0, challenge 0, first labeling proof
lp["parents"][0][5] ^= 1                  # one byte of one parent label
json.dump(d, open(sys.argv[2], "w"))
EOF
  rm -f "$D/bad.bin"
  "$PM" prove --kind porep-c2 --params "$D/p" --seed 11 --out "$D/bad.bin" --gpu "$D/bad.json" >> "$LOG" 2>&1
  rc=$?
  [ $rc != 0 ] && [ ! -e "$D/bad.bin" ]; check $? "$S changed label refused on the GPU (rc $rc, no proof)"
  # the bench: -c 4 proofs at j = 2 with 2 GPU workers (bench/porep_gpu.sh: one TSV row)
  OUT="$OUT" bash "$(dirname "$0")/../../bench/porep_gpu.sh" "$PM" "$C1" "$D/p" "$S" 2 2 4 2>> "$LOG" | sed "s/^/$S bench: /" | tee -a "$SUM"
  check "${PIPESTATUS[0]}" "$S bench batch --type porep --gpu"
  # the handover between the two GPU workers: tier 3 with gpu.h_preload, every proof verified
  PROOFMILL_GPU_VERBOSE=1 PROOFMILL_GPU_MIN_TIER=3 PROOFMILL_GPU_H_PRELOAD=1 OUT="$OUT/preload" \
    bash "$(dirname "$0")/../../bench/porep_gpu.sh" "$PM" "$C1" "$D/p" "$S" 2 2 4 2>> "$LOG" | sed "s/^/$S bench tier 3 preload: /" | tee -a "$SUM"
  check "${PIPESTATUS[0]}" "$S bench batch --gpu, tier 3, gpu.h_preload"
  used=$(grep -c "a, b preloaded" "$OUT/preload/bench-$S.txt"); queued=$(grep -c "^gpu preload .*queued" "$OUT/preload/bench-$S.txt")
  say "$S bench tier 3 preload: $used H phases read preloaded a, b; $queued preloads queued"
  [ "$used" -gt 0 ]; check $? "$S bench tier 3: the H phases read preloaded a, b"
  rm -rf "$D/p" # the next size's parameters need the disk
done
say "porep_gpu.sh: $fails failure(s)"
[ $fails = 0 ]
