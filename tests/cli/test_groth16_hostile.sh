#!/usr/bin/env bash
# test_groth16_hostile.sh — hostile inputs to `proofmill groth16 prove/verify`: each must end with
# exit 2 and one line "proofmill: <file>: [offset N: ]<what>" naming the file and the fault, and
# never write a proof. Runs under AddressSanitizer in scripts/test.sh (ctest label `hostile`).
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data
MUL=$D/multiplier
POW=$D/powchain
prove() { "$PM" groth16 prove "$@"; }
noproof() { if [ -e "$TMP/p.json" ]; then fail "$1: a proof was written"; rm -f "$TMP/p.json"; else pass "$1: no proof written"; fi; }

# --- the proving key ---
head -c 1000 "$POW/circuit.zkey" >"$TMP/trunc.zkey"
expect_rc 2 "truncated zkey" prove "$TMP/trunc.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "truncated zkey" "$TMP/trunc.zkey"
noproof "truncated zkey"
cp "$POW/circuit.zkey" "$TMP/magic.zkey"
printf 'zkex' | dd of="$TMP/magic.zkey" bs=1 seek=0 conv=notrunc status=none
expect_rc 2 "wrong magic" prove "$TMP/magic.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "wrong magic" "$TMP/magic.zkey" "offset 0"
: >"$TMP/empty.zkey"
expect_rc 2 "empty zkey" prove "$TMP/empty.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "empty zkey" "$TMP/empty.zkey"
expect_rc 2 "witness given as zkey" prove "$POW/witness.wtns" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "witness given as zkey" "$POW/witness.wtns"
expect_rc 2 "missing zkey" prove "$TMP/none.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "missing zkey" "$TMP/none.zkey"
# a point of section 5 (A) moved off the curve: the byte right after the first 964 + ... is found
# by the reader; flipping the last byte of the file changes the last H point's y
cp "$POW/circuit.zkey" "$TMP/offcurve.zkey"
sz=$(stat -c %s "$TMP/offcurve.zkey")
# section 10 (MPC transcript) may be last; flip a byte in the middle of the file instead (a point)
flip_byte "$TMP/offcurve.zkey" $((sz / 2))
"$PM" groth16 prove "$TMP/offcurve.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json" >"$TMP/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -qF "$TMP/offcurve.zkey" "$TMP/out"; then pass "zkey with a corrupted byte refused (exit 2): $(head -c 160 "$TMP/out")"; else fail "corrupted zkey: exit $rc"; cat "$TMP/out"; fi
rm -f "$TMP/p.json"

expect_rc 2 "export-vk of a truncated zkey" "$PM" groth16 export-vk "$TMP/trunc.zkey" "$TMP/vk.json"
expect_msg "export-vk of a truncated zkey" "$TMP/trunc.zkey"

# --- the witness ---
expect_rc 2 "witness of another circuit (multiplier witness, powchain zkey)" prove "$POW/circuit.zkey" "$MUL/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "foreign witness" "$MUL/witness.wtns" "nVars"
noproof "foreign witness"
# the headers are compared before the key is decoded: with a corrupted point (offcurve.zkey) the foreign
# witness is what is reported, so a witness of another size never waits for (or pays for) a whole key's decoding
expect_rc 2 "witness of another circuit, corrupted zkey" prove "$TMP/offcurve.zkey" "$MUL/witness.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "foreign witness before the key's points" "$MUL/witness.wtns" "nVars"
noproof "foreign witness, corrupted zkey"
head -c 100 "$POW/witness.wtns" >"$TMP/trunc.wtns"
expect_rc 2 "truncated witness" prove "$POW/circuit.zkey" "$TMP/trunc.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "truncated witness" "$TMP/trunc.wtns"
# unsatisfying witness: the lowest bit of the last value flipped
cp "$POW/witness.wtns" "$TMP/bad.wtns"
sz=$(stat -c %s "$TMP/bad.wtns")
flip_byte "$TMP/bad.wtns" $((sz - 32))
expect_rc 2 "unsatisfying witness" prove "$POW/circuit.zkey" "$TMP/bad.wtns" "$TMP/p.json" "$TMP/x.json"
expect_msg "unsatisfying witness" "$TMP/bad.wtns" "does not satisfy"
noproof "unsatisfying witness"
expect_rc 2 "unsatisfying witness with --r1cs" prove "$POW/circuit.zkey" "$TMP/bad.wtns" "$TMP/p.json" "$TMP/x.json" --r1cs "$POW/circuit.r1cs"
expect_msg "unsatisfying witness with --r1cs" "$TMP/bad.wtns" "constraint" "not satisfied"
noproof "unsatisfying witness with --r1cs"
expect_rc 0 "good witness with --r1cs" prove "$POW/circuit.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json" --r1cs "$POW/circuit.r1cs"
rm -f "$TMP/p.json"
expect_rc 2 "r1cs of another circuit" prove "$POW/circuit.zkey" "$POW/witness.wtns" "$TMP/p.json" "$TMP/x.json" --r1cs "$MUL/circuit.r1cs"
expect_msg "r1cs of another circuit" "$MUL/circuit.r1cs"
noproof "r1cs of another circuit"

if [ -d "$SHARED/bn128/merkle_poseidon" ]; then
  BN=$SHARED/bn128/merkle_poseidon
  expect_rc 2 "bn128 zkey" prove "$BN/circuit.zkey" "$BN/witness.wtns" "$TMP/p.json" "$TMP/x.json"
  expect_msg "bn128 zkey" "$BN/circuit.zkey" "bn128"
  expect_rc 2 "bn128 witness with a BLS12-381 zkey" prove "$SHARED/bls12381/merkle_poseidon/circuit.zkey" "$BN/witness.wtns" "$TMP/p.json" "$TMP/x.json"
  expect_msg "bn128 witness" "$BN/witness.wtns"
  expect_rc 2 "multiplier witness with the merkle zkey" prove "$SHARED/bls12381/merkle_poseidon/circuit.zkey" "$SHARED/bls12381/multiplier/witness.wtns" "$TMP/p.json" "$TMP/x.json"
  expect_msg "multiplier witness with the merkle zkey" "witness.wtns" "nVars"
  expect_rc 2 "bn128 verification key" "$PM" groth16 verify "$BN/verification_key.json" "$BN/public.json" "$BN/proof.json"
  expect_msg "bn128 verification key" "$BN/verification_key.json" "bn128"
  noproof "bn128 inputs"
else
  echo "NOTE: $SHARED/bn128 not found: bn128 cases skipped"
fi

# --- outputs and options ---
expect_rc 2 "unwritable proof path" prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$TMP/no/such/dir/p.json" "$TMP/x.json"
expect_msg "unwritable proof path" "$TMP/no/such/dir/p.json"
expect_rc 2 "--r not below r" prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$TMP/p.json" "$TMP/x.json" --r 52435875175126190479447740508185965837690552500527637822603658699938581184513 --s 1
expect_msg "--r not below r" "--r"
expect_rc 2 "--s not a number" prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$TMP/p.json" "$TMP/x.json" --r 1 --s 12a
noproof "bad options"

# --- verify inputs ---
VK=$MUL/verification_key.json
head -c 200 "$MUL/proof.json" >"$TMP/trunc_proof.json"
expect_rc 2 "truncated proof JSON" "$PM" groth16 verify "$VK" "$MUL/public.json" "$TMP/trunc_proof.json"
expect_msg "truncated proof JSON" "$TMP/trunc_proof.json" "offset" "not valid JSON"
sed '3s/"[0-9]*",$/"4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559788",/' "$MUL/proof.json" >"$TMP/big_proof.json"
expect_rc 2 "coordinate >= p" "$PM" groth16 verify "$VK" "$MUL/public.json" "$TMP/big_proof.json"
expect_msg "coordinate >= p" "$TMP/big_proof.json" "pi_a[0]" "modulus"
printf '[\n "52435875175126190479447740508185965837690552500527637822603658699938581184513"\n]' >"$TMP/big_public.json"
expect_rc 2 "public input >= r" "$PM" groth16 verify "$VK" "$TMP/big_public.json" "$MUL/proof.json"
expect_msg "public input >= r" "$TMP/big_public.json" "group order"
printf '[\n "33",\n "1"\n]' >"$TMP/two_public.json"
expect_rc 2 "public count mismatch" "$PM" groth16 verify "$VK" "$TMP/two_public.json" "$MUL/proof.json"
expect_msg "public count mismatch" "$TMP/two_public.json" "nPublic"
sed 's/"vk_alpha_1": \[/"vk_alpha_x": [/' "$VK" >"$TMP/vk_missing.json"
expect_rc 2 "vk without vk_alpha_1" "$PM" groth16 verify "$TMP/vk_missing.json" "$MUL/public.json" "$MUL/proof.json"
expect_msg "vk without vk_alpha_1" "$TMP/vk_missing.json" "vk_alpha_1"
sed '4,20s/"1"$/"7"/' "$VK" >"$TMP/vk_z.json"
expect_rc 2 "vk with a projective z" "$PM" groth16 verify "$TMP/vk_z.json" "$MUL/public.json" "$MUL/proof.json"
expect_msg "vk with a projective z" "$TMP/vk_z.json" "z coordinate"
expect_rc 2 "missing public.json" "$PM" groth16 verify "$VK" "$TMP/none.json" "$MUL/proof.json"
expect_msg "missing public.json" "$TMP/none.json"
finish
