#!/usr/bin/env bash
# supraseal_c2.sh — SupraSeal C2 beside proofmill on the same card, in one device call (issue #37):
# SupraSeal's own prover (supranational/supra_seal c2, on sppark + blst) reads OUR .params with its
# own SRS reader and proves one of OUR partitions (`proofmill porep partition-dump`) with the r and s
# that `proofmill porep prove --seed N` uses for it; the two 192-byte proofs must be equal and
# `porep verify-proof` must accept SupraSeal's (spliced into the whole C2 proof at its partition).
#
# Usage: bench/supraseal_c2.sh BUILD_DIR SIZE [REPS] [PARTITION]
#   BUILD_DIR  a proofmill build with the GPU (../shared/device/README.md)
#   SIZE       2KiB: makes its own C1 (porep seal --zero) and seeded test parameters under /tmp/ss-2k;
#              32GiB: the C1 and parameters of `bench/porep_gpu_32g.sh B setup` ($PM_SCRATCH,
#              default /tmp/porep-32g)
#   REPS       timed SupraSeal calls after a warm-up (default 3); PARTITION default 0
# SS_STEPS: "supraseal proofmill" (default) or one of them, so that the two sides can go in two
# device calls: at 32 GiB SupraSeal's side takes ~2 min on the H100 (SRS read 33 s, 4.7 s a call),
# but proofmill's `porep prove --engine` of all 10 partitions under SupraSeal's 12 GiB footprint
# (then tier 4, H on the CPU; now tier 5) did not finish in the ~8 minutes left of that call
# (2026-12-06); the step now proves the one partition alone.
# PM_CAP must then be given for the proofmill step (e.g. 13G, SupraSeal's peak rounded up: tier 5;
# 16G: tier 4, one NTT buffer), and SS_PROOF the SupraSeal proof to compare with. The call that
# matched SupraSeal's 32 GiB bytes (2026-12-06, bench/anchors/README.md):
#   SS_STEPS=proofmill PM_CAP=16G SS_PROOF=docs/perf/supraseal-32GiB-p0-seed5.proof \
#     bash bench/supraseal_c2.sh /tmp/b 32GiB
# Sources (fetched, never committed): SS_SRC (default .anchors of the checkout) holds supra_seal/
# (its c2/cuda), sppark/ and blst/; the harness is bench/anchors/supraseal_c2.cu (ours), built with
# nvcc into $SS_BUILD (default /tmp/ss-build) for the card's architecture.
# Order: the dump (into /dev/shm at 32 GiB: ~17 GB; the disk holds the 57 GB of parameters), then
# SupraSeal alone (its SRS pins the whole key, ~47 GB, in host memory; freed when it exits), then
# proofmill's `porep prove --gpu --seed --partition K` under a device-memory cap equal to SupraSeal's measured
# peak (PM_CAP overrides; "none" = the card's defaults), timed as that one partition's start phase
# and assembly (the key's first use on the card included); the peak device memory of each side is what
# the card had in use above its level before that side ran (SupraSeal: cudaMemGetInfo every 2 ms;
# proofmill: nvidia-smi every 100 ms).
# Output under $OUT: supraseal.tsv rows (impl card cap_gib ms_per_partition peak_device_gib date
# commit), the logs. Exit 1 when the proofs differ, a proof is refused or a step fails.
set -u
B=$(cd "${1:?usage: supraseal_c2.sh BUILD_DIR SIZE [REPS] [PARTITION]}" && pwd) || exit 2
SIZE=${2:?SIZE: 2KiB or 32GiB}
REPS=${3:-3}
K=${4:-0}
SEED=${SEED:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PM="$B/proofmill"
OUT=${OUT:-$PWD/supraseal-out}
SRC=${SS_SRC:-$ROOT/.anchors}
SB=${SS_BUILD:-/tmp/ss-build}
mkdir -p "$OUT" "$SB"
LOG="$OUT/supraseal-$SIZE.txt"
say() { echo "$*" | tee -a "$LOG"; }
die() { say "supraseal_c2.sh: $*"; exit 1; }
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -oE 'H100|H200|A100|L40S?|RTX [0-9A-Z]+' | head -1)
commit=${PM_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}

# 1. the harness
for d in supra_seal/c2/cuda sppark/msm blst/src; do [ -d "$SRC/$d" ] || die "no $SRC/$d (set SS_SRC)"; done
if [ ! -x "$SB/supraseal_c2" ]; then
  t=$(date +%s)
  (mkdir -p "$SB/blst" && cd "$SB/blst" && sh "$SRC/blst/build.sh") > "$SB/blst.log" 2>&1 || die "blst build failed ($SB/blst.log)"
  DEFS=(-DFEATURE_BLS12_381 -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE)
  # sppark's host field code must see libblst.a's ADX choice (blst's build.sh decides it)
  if nm "$SB/blst/libblst.a" | grep -q ' T mulx_mont_384$' && ! nm "$SB/blst/libblst.a" | grep -q ' T mul_mont_384$'; then
    DEFS+=(-D__ADX__)
  fi
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
  "${NVCC:-nvcc}" -arch="sm_${cc:-90}" -O3 -std=c++17 -t 4 "${DEFS[@]}" -I"$SRC/sppark" -I"$SRC/blst/src" \
    -I"$SRC/blst/bindings" -I"$SRC/supra_seal/c2/cuda" -Xcompiler -fopenmp,-Wno-subobject-linkage,-Wno-unused-function \
    -o "$SB/supraseal_c2" "$ROOT/bench/anchors/supraseal_c2.cu" "$SRC/sppark/util/all_gpus.cpp" "$SB/blst/libblst.a" \
    -lgomp > "$SB/nvcc.log" 2>&1 || { tail -20 "$SB/nvcc.log"; die "nvcc failed ($SB/nvcc.log)"; }
  say "harness built in $(( $(date +%s) - t )) s (sm_${cc:-90}; supra_seal $(cat "$SRC/supra_seal/REV" 2>/dev/null || echo rev?), sppark $(cat "$SRC/sppark/REV" 2>/dev/null || echo rev?))"
fi

# 2. the inputs
case "$SIZE" in
2KiB)
  W=/tmp/ss-2k; mkdir -p "$W"
  [ -f "$W/s/c1.json" ] || "$PM" porep seal --sector-size 2KiB --zero --out "$W/s" > /dev/null || die "seal failed"
  [ -d "$W/p" ] || "$PM" porep params-setup --sector-size 2KiB --dir "$W/p" --seed 7 > /dev/null || die "params-setup failed"
  C1=$W/s/c1.json; P=$W/p; DUMP=$W/dump.bin ;;
32GiB)
  W=${PM_SCRATCH:-/tmp/porep-32g}
  C1=$W/c1.json; P=$W/p; DUMP=/dev/shm/pm-dump-32g.bin
  [ -f "$C1" ] && [ -d "$P" ] || die "no $C1 or $P: run bench/porep_gpu_32g.sh $B setup first" ;;
*) die "SIZE is 2KiB or 32GiB" ;;
esac
PARAMS=$(ls "$P"/*.params | head -1); CSR=${PARAMS%.params}.csr; VK=${PARAMS%.params}.vk
[ -f "$PARAMS" ] && [ -f "$CSR" ] && [ -f "$VK" ] || die "no .params/.csr/.vk in $P"
STEPS=${SS_STEPS:-supraseal proofmill}
ss_ms=NA; ss_dev=NA; same=NA; ver=NA
# 3. SupraSeal alone
if [[ " $STEPS " == *" supraseal "* ]]; then
"$PM" porep partition-dump --c1 "$C1" --csr "$CSR" --partition "$K" --seed "$SEED" --out "$DUMP" 2>&1 | tee -a "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || die "partition-dump failed"
"$SB/supraseal_c2" "$PARAMS" "$DUMP" "$OUT/ss-$SIZE.proof" "$REPS" 2>&1 | tee -a "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || { rm -f "$DUMP"; die "SupraSeal failed"; }
rm -f "$DUMP"
res=$(grep '^result' "$LOG" | tail -1)
ss_ms=$(sed -n 's/.*ms_per_partition \([0-9.]*\).*/\1/p' <<<"$res")
ss_dev=$(sed -n 's/.*peak_device_gib \([0-9.]*\).*/\1/p' <<<"$res")
fi
[[ " $STEPS " == *" proofmill "* ]] || {
  TSV=$OUT/supraseal.tsv
  [ -f "$TSV" ] || printf 'impl\tcard\tcap_gib\tms_per_partition\tpeak_device_gib\tdate\tcommit\tsector_size\tsame_bytes\n' > "$TSV"
  printf 'supraseal\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${card:-NA}" none "$ss_ms" "$ss_dev" "$(date -u +%F)" "$commit" "$SIZE" NA >> "$TSV"
  exit 0
}
# 4. proofmill on the same partition, same r and s, under SupraSeal's footprint: the driver on the
# CUDA table (`porep prove --gpu --partition K`), planned for the capped card
[ -n "${PM_CAP:-}" ] || [ "$ss_dev" != NA ] || die "the proofmill step alone needs PM_CAP"
cap=${PM_CAP:-$(awk -v g="$ss_dev" 'BEGIN { printf "%dG", int(g) + 1 }')}
[ "$cap" = none ] && cap=
# (nvidia-smi without the device deps' LD_LIBRARY_PATH: its samples read 0 MiB under it on 2026-12-06)
base=$(env -u LD_LIBRARY_PATH nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1)
env -u LD_LIBRARY_PATH nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 > "$OUT/pm-$SIZE.smi" 2>/dev/null &
smi=$!
env ${cap:+PROOFMILL_GPU_MEMORY=$cap} PROOFMILL_GPU_VERBOSE=1 "$PM" porep prove --c1 "$C1" --params "$P" --seed "$SEED" --gpu \
  --partition "$K" --out "$OUT/pm-$SIZE-part.proof" > "$OUT/pm-$SIZE.txt" 2>&1
rc=$?
kill $smi 2>/dev/null; wait $smi 2>/dev/null
pm_dev=$(awk -v b="${base:-0}" '{ if ($1 + 0 > m) m = $1 + 0 } END { printf "%.2f", (m - b) / 1024 }' "$OUT/pm-$SIZE.smi")
grep -E "^gpu key|tier|porep prove:" "$OUT/pm-$SIZE.txt" | tee -a "$LOG"
[ $rc = 0 ] || die "proofmill porep prove failed (cap ${cap:-none}; $OUT/pm-$SIZE.txt)"
# "prove X s": the start phase and assembly of the one partition, with the key's first use on the
# card (uploads, pinning the streamed sets) in it: a latency, not bench's steady throughput
pm_ms=$(sed -n 's/.*, prove \([0-9.]*\) s,.*/\1/p' "$OUT/pm-$SIZE.txt" | awk '{ printf "%.1f", $1 * 1000 }')

# 5. the same bytes, and SupraSeal's proof accepted by our verifier (SS_PROOF: SupraSeal's proof from
# an earlier call, e.g. docs/perf/supraseal-32GiB-p0-seed5.proof: partition 0, seed 5, of
# porep_gpu_32g.sh setup's C1 and seed-7 parameters, both deterministic)
same=NA
[ -n "${SS_PROOF:-}" ] && [ ! -f "$OUT/ss-$SIZE.proof" ] && cp "$SS_PROOF" "$OUT/ss-$SIZE.proof"
if [ -f "$OUT/ss-$SIZE.proof" ]; then
  same=no; cmp -s "$OUT/pm-$SIZE-part.proof" "$OUT/ss-$SIZE.proof" && same=yes
  "$PM" porep verify-proof --c1 "$C1" --vk "$VK" --proof "$OUT/ss-$SIZE.proof" --partition "$K" 2>&1 | tee -a "$LOG"
  ver=${PIPESTATUS[0]}
fi
say "proofmill partition $K: $(od -An -v -tx1 "$OUT/pm-$SIZE-part.proof" | tr -d " \n")"
say "same 192 bytes: $same; porep verify-proof --partition $K of SupraSeal's proof: exit $ver"
say "ms per partition: supraseal $ss_ms (peak device ${ss_dev} GiB), proofmill ${pm_ms} (cap ${cap:-none}, peak device $pm_dev GiB: one partition with the key's first use on the card)"
TSV=$OUT/supraseal.tsv
[ -f "$TSV" ] || printf 'impl\tcard\tcap_gib\tms_per_partition\tpeak_device_gib\tdate\tcommit\tsector_size\tsame_bytes\n' > "$TSV"
printf 'supraseal\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${card:-NA}" none "$ss_ms" "$ss_dev" "$(date -u +%F)" "$commit" "$SIZE" "$same" >> "$TSV"
printf 'proofmill\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${card:-NA}" "${cap%G}" "$pm_ms" "${pm_dev:-NA}" "$(date -u +%F)" "$commit" "$SIZE" "$same" >> "$TSV"
tail -2 "$TSV"
[ "$same" != no ] && { [ "$same" = NA ] || [ "$ver" = 0 ]; }
