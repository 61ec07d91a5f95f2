#!/usr/bin/env bash
# test_porep_partition.sh — one C2 partition alone (issue #37: SupraSeal C2 proves one of our
# partitions, bench/supraseal_c2.sh, and its 192 bytes are compared with ours and verified):
#  - `porep prove --partition 0 --seed 5` writes the same 192 bytes as partition 0 of the whole C2
#    proof with the same seed (r, s = groth16_seeded_scalars(seed + partition) either way);
#  - `porep verify-proof --partition 0` accepts them; a changed byte is refused (INVALID, exit 1, or a
#    point that does not decode, exit 2); a short file and a partition the C1 does not have are
#    refused (exit 2);
#  - `porep prove --partition 1` (a 2 KiB C1 has one partition) and --partition with --engine are
#    refused; --gpu without a usable GPU is refused naming CUDA (never a silent CPU proof).
# Our seeded 2 KiB test parameters (~1 min on 2 cores), a zero sector's C1.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "seal 2KiB" "$PM" porep seal --sector-size 2KiB --zero --out "$TMP/s"
expect_rc 0 "params-setup 2KiB" "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/p" --seed 7
VK=$(ls "$TMP"/p/*.vk | head -1)
expect_rc 0 "prove whole" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --seed 5 --out "$TMP/all.bin"
expect_rc 0 "prove --partition 0" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --seed 5 --partition 0 \
  --out "$TMP/p0.bin"
expect_msg "prove --partition 0" "1 partition(s)" "(192 bytes)"
[ "$(stat -c %s "$TMP/p0.bin")" = 192 ] || fail "--partition 0 did not write 192 bytes"
cmp -s <(head -c 192 "$TMP/all.bin") "$TMP/p0.bin" && pass "partition 0 alone = partition 0 of the whole proof" \
  || fail "partition 0 alone differs from partition 0 of the whole proof"
expect_rc 0 "verify-proof --partition 0" "$PM" porep verify-proof --c1 "$TMP/s/c1.json" --vk "$VK" --proof "$TMP/p0.bin" \
  --partition 0
expect_msg "verify-proof --partition 0" "valid"
cp "$TMP/p0.bin" "$TMP/bad.bin"
printf '\001' | dd of="$TMP/bad.bin" bs=1 seek=150 conv=notrunc status=none
"$PM" porep verify-proof --c1 "$TMP/s/c1.json" --vk "$VK" --proof "$TMP/bad.bin" --partition 0 >"$TMP/out" 2>&1
rc=$?
if [ $rc = 1 ] || [ $rc = 2 ]; then pass "a changed byte is refused (exit $rc)"; else fail "a changed byte: exit $rc"; fi
head -c 100 "$TMP/p0.bin" > "$TMP/short.bin"
expect_rc 2 "verify-proof --partition 0 of 100 bytes" "$PM" porep verify-proof --c1 "$TMP/s/c1.json" --vk "$VK" \
  --proof "$TMP/short.bin" --partition 0
expect_msg "verify-proof --partition 0 of 100 bytes" "100 bytes, expected 192" "one partition"
expect_rc 2 "verify-proof --partition 1" "$PM" porep verify-proof --c1 "$TMP/s/c1.json" --vk "$VK" --proof "$TMP/p0.bin" \
  --partition 1
expect_msg "verify-proof --partition 1" "partitions 0..0"
expect_rc 2 "prove --partition 1" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --seed 5 --partition 1 \
  --out "$TMP/p1.bin"
expect_msg "prove --partition 1" "partition 1" "partitions 0..0"
[ ! -e "$TMP/p1.bin" ] || fail "prove --partition 1 wrote a file"
expect_rc 2 "prove --partition with --engine" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --engine \
  --partition 0 --out "$TMP/e.bin"
expect_msg "prove --partition with --engine" "without --engine"
expect_rc 2 "prove --partition abc" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --partition abc --out "$TMP/x.bin"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  expect_rc 2 "prove --gpu without a GPU" "$PM" porep prove --c1 "$TMP/s/c1.json" --params "$TMP/p" --gpu --seed 5 \
    --partition 0 --out "$TMP/g.bin"
  expect_msg "prove --gpu without a GPU" "CUDA"
  [ ! -e "$TMP/g.bin" ] || fail "prove --gpu without a GPU wrote a proof"
fi
finish
