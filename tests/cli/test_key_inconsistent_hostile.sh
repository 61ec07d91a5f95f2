#!/usr/bin/env bash
# test_key_inconsistent_hostile.sh — a proving key whose proof does not verify with its own
# verification key is named as the fault (issue #17 item 4), not the witness: "the key is
# inconsistent: its proof does not verify with its own verification key" with the key file, and
# the subgroup / pairing checks pinpoint the point when they can (key_tamper.py makes the keys):
#  - zkey, delta_2 negated (delta_1 kept): "delta_1 and delta_2 are not the same scalar";
#  - zkey, A query point 3 outside the subgroup: "A (section 5) point 3";
#  - zkey, IC point 1 outside the subgroup: named by prove, and export-vk refuses to export it;
#  - zkey, delta or alpha negated everywhere (no point to pinpoint): with --r1cs (the witness
#    checked) the key is blamed; without it the message names both possibilities and the key;
#  - .params, delta_g2 negated: `params prove` names the .params (before: "internal error").
. "$(dirname "$0")/lib.sh"
F=$SRC/tests/data/powchain
T=$TMP
tamper() { python3 "$SRC/tests/cli/key_tamper.py" "$@" || fail "key_tamper.py $*"; }
prove() { "$PM" groth16 prove "$1" "$F/witness.wtns" "$T/p.json" "$T/pub.json" --seed 1 "${@:2}"; }
MSG="the key is inconsistent: its proof does not verify with its own verification key"

tamper "$F/circuit.zkey" "$T/d2.zkey" neg-delta2
expect_rc 2 "zkey delta_2 negated" prove "$T/d2.zkey"
expect_msg "zkey delta_2 negated" "$T/d2.zkey: $MSG" "delta_1 and delta_2 are not the same scalar"
grep -q "witness does not satisfy" "$TMP/out" && fail "delta_2 negated: the witness is blamed" || pass "delta_2 negated: the witness is not blamed"
[ -e "$T/p.json" ] && fail "a proof was written" || pass "no proof written"

tamper "$F/circuit.zkey" "$T/a3.zkey" nonsub-A:3
expect_rc 2 "zkey A point 3 outside the subgroup" prove "$T/a3.zkey"
expect_msg "zkey A point 3" "$T/a3.zkey: $MSG" "A (section 5) point 3 is outside the G1 subgroup"

tamper "$F/circuit.zkey" "$T/ic1.zkey" nonsub-IC:1
expect_rc 2 "zkey IC point 1 outside the subgroup" prove "$T/ic1.zkey"
expect_msg "zkey IC point 1" "$T/ic1.zkey: $MSG" "IC (section 3) point 1 is outside the G1 subgroup"
expect_rc 2 "export-vk refuses an IC point outside the subgroup" "$PM" groth16 export-vk "$T/ic1.zkey" "$T/vk.json"
expect_msg "export-vk IC point 1" "$T/ic1.zkey" "IC point 1 is outside the order-r subgroup"
[ -e "$T/vk.json" ] && fail "export-vk wrote the vk" || pass "export-vk wrote nothing"
expect_rc 0 "export-vk of the good zkey" "$PM" groth16 export-vk "$F/circuit.zkey" "$T/vk.json"
cmp -s "$T/vk.json" "$F/verification_key.json" && pass "good vk unchanged" || fail "good vk differs"

for op in neg-delta neg-alpha; do
  tamper "$F/circuit.zkey" "$T/$op.zkey" $op
  expect_rc 2 "zkey $op, --r1cs" prove "$T/$op.zkey" --r1cs "$F/circuit.r1cs"
  expect_msg "zkey $op, --r1cs: the key is blamed" "$T/$op.zkey: $MSG"
  expect_rc 2 "zkey $op, no --r1cs" prove "$T/$op.zkey"
  expect_msg "zkey $op, no --r1cs: both possibilities" "$T/$op.zkey" "or the key is inconsistent" ".r1cs"
done

# the witness's own fault is still the witness's
expect_rc 0 "good key, good witness" prove "$F/circuit.zkey"

"$PM" setup "$F/circuit.r1cs" --out "$T/k.params" --seed 5 >/dev/null 2>&1 || fail "setup .params"
tamper "$T/k.params" "$T/bad.params" params-neg-delta2
pp() { "$PM" params prove --params "$1" --r1cs "$F/circuit.r1cs" --wtns "$F/witness.wtns" --out "$T/p.bin" --seed 1; }
expect_rc 2 ".params delta_g2 negated" pp "$T/bad.params"
expect_msg ".params delta_g2 negated" "$T/bad.params: $MSG" "delta_1 and delta_2"
grep -q "internal error" "$TMP/out" && fail ".params: 'internal error'" || pass ".params: not an internal error"
expect_rc 0 ".params good" pp "$T/k.params"
finish
