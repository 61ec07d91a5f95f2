#!/usr/bin/env bash
# kinds_gpu.sh — WinningPoSt, WindowPoSt and SnapDeals on the GPU against the CPU prover, one device
# call (issue #16: "the GPU start phase ... works for every kind").
#
# Usage: tests/gpu/kinds_gpu.sh BUILD_DIR [SIZES ("2KiB 8MiB")] [KINDS ("winning-post window-post snapdeals")]
# BUILD_DIR is a CUDA build made beforehand (tests/gpu/ctest_gpu.sh makes one). For each kind and
# size, in a scratch directory with our own seeded TEST parameters: `<kind> gen` (WindowPoSt: 2
# sectors), `params-setup --seed 7` on the CPU and with --gpu (.params, .vk identical), `prove --seed
# 11` on the CPU, with --gpu and with --engine --gpu (the three proofs byte-identical), `verify` of
# the GPU proof; a request with one changed commitment refused by the GPU prover before proving (exit
# 2, no proof file). Output under $OUT (default ./kinds-gpu-out): log.txt, summary.txt (PASS/FAIL).
# PM_NO_GPU=1 runs every step without --gpu (CPU against CPU) to check the script anywhere.
# Expected on the H200 host: ≈ 2 min for the three kinds at 2 KiB + 8 MiB (SnapDeals 8 MiB setup dominates).
# Exit: 0 when every comparison passed, 1 otherwise, 77 without a usable GPU.
set -u
B=${1:?usage: kinds_gpu.sh BUILD_DIR [SIZES] [KINDS]}
SIZES=${2:-"2KiB 8MiB"}
KINDS=${3:-"winning-post window-post snapdeals"}
PM="$B/proofmill"
OUT=${OUT:-$PWD/kinds-gpu-out}
W=${PM_SCRATCH:-/tmp/kinds-gpu-test}
mkdir -p "$OUT" "$W"
LOG="$OUT/log.txt"; SUM="$OUT/summary.txt"
: > "$LOG"; : > "$SUM"
. "$(dirname "$0")/device_lib.sh"
pm_gpu_flag
fails=0
run() { echo "+ $*" >> "$LOG"; "$@" >> "$LOG" 2>&1; }
check() { if [ "$1" = 0 ]; then say "PASS $2"; else say "FAIL $2"; fails=$((fails + 1)); fi; }
commit=$(pm_commit "$(dirname "$0")/../..")
card=$(pm_card)
say "kinds_gpu.sh: commit $commit, $card, $(nproc) cores, $(date -u +%FT%TZ)${GPU:+}${GPU:- (PM_NO_GPU=1: CPU against CPU)}"

# one changed commitment: WinningPoSt / WindowPoSt the first sector's comm_r (after its u64 sector
# id), SnapDeals comm_d_new
corrupt() { # kind in out
  python3 - "$@" <<'PY'
import base64, json, sys
k, src, dst = sys.argv[1:4]
d = json.load(open(src))
if k == "snapdeals":
    c = bytearray(base64.b64decode(d["comm_d_new"])); c[0] ^= 1
    d["comm_d_new"] = base64.b64encode(bytes(c)).decode()
else:
    b = bytearray(base64.b64decode(d["vanilla_proofs"][0])); b[8 + 3] ^= 1
    d["vanilla_proofs"][0] = base64.b64encode(bytes(b)).decode()
json.dump(d, open(dst, "w"))
PY
}

for S in $SIZES; do
  for K in $KINDS; do
    D="$W/$K-$S"; rm -rf "$D"; mkdir -p "$D"
    T="$K $S"
    GEN=(); [ "$K" = window-post ] && GEN=(--sectors 2)
    run "$PM" "$K" gen --sector-size "$S" --out "$D/req.json" "${GEN[@]}"; check $? "$T gen"
    run "$PM" "$K" params-setup --sector-size "$S" --dir "$D/p" --seed 7; check $? "$T params-setup"
    run "$PM" "$K" params-setup --sector-size "$S" --dir "$D/pg" --seed 7 $GPU; check $? "$T params-setup $GPU"
    for f in "$D"/p/*.params "$D"/p/*.vk; do
      cmp "$f" "$D/pg/$(basename "$f")" >> "$LOG" 2>&1; check $? "$T params-setup $GPU: $(basename "$f" | sed 's/.*\.//') identical"
    done
    rm -rf "$D/pg"
    run "$PM" "$K" prove --request "$D/req.json" --params "$D/p" --seed 11 --out "$D/cpu.bin"; check $? "$T prove (CPU)"
    run "$PM" "$K" prove --request "$D/req.json" --params "$D/p" --seed 11 --out "$D/gpu.bin" $GPU; check $? "$T prove $GPU"
    cmp "$D/cpu.bin" "$D/gpu.bin" >> "$LOG" 2>&1; check $? "$T proof bytes $GPU = CPU"
    run "$PM" "$K" prove --request "$D/req.json" --params "$D/p" --seed 11 --out "$D/eng.bin" --engine $GPU; check $? "$T prove --engine $GPU"
    cmp "$D/cpu.bin" "$D/eng.bin" >> "$LOG" 2>&1; check $? "$T proof bytes --engine $GPU = CPU"
    vk=$(ls "$D"/p/*.vk | head -1)
    run "$PM" "$K" verify --request "$D/req.json" --vk "$vk" --proof "$D/gpu.bin"; check $? "$T verify ($GPU proof)"
    corrupt "$K" "$D/req.json" "$D/bad.json" >> "$LOG" 2>&1
    rm -f "$D/bad.bin"
    "$PM" "$K" prove --request "$D/bad.json" --params "$D/p" --seed 11 --out "$D/bad.bin" $GPU >> "$LOG" 2>&1
    rc=$?
    [ $rc = 2 ] && [ ! -e "$D/bad.bin" ]; check $? "$T changed commitment refused before proving (rc $rc, no proof)"
    rm -rf "$D/p"
  done
done
say "kinds_gpu.sh: $fails failure(s)"
[ $fails = 0 ]
