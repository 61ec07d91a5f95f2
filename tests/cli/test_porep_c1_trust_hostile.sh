#!/usr/bin/env bash
# test_porep_c1_trust_hostile.sh — a C1 whose values the C2 circuit does not bind (the labeling
# and encoding proofs' parents, encoding_proof.node) is refused before anything is proved (issue
# #17 item 3): `porep prove`, `prove --kind porep-c2` and `porep synth --check` run the vanilla
# verifier first and name partition, challenge and field as `porep verify-c1` does. The parameter
# directory is empty: the C1 is refused before the key is opened (so the test needs no setup).
. "$(dirname "$0")/lib.sh"
PY=python3
T=$TMP
"$PM" porep seal --sector-size 2KiB --zero --out "$T/seal" >/dev/null || { fail "porep seal"; finish; }
mkdir -p "$T/params"
mutate() { # mutate OUT PYTHON-STATEMENT (p = partition 0, challenge 1)
  $PY - "$T/seal/c1.json" "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PYEOF
}
mutate "$T/enc_parents.json" 'p["encoding_proof"]["parents"][3][0] ^= 1'
mutate "$T/lab_parents.json" 'p["labeling_proofs"][0]["parents"][5][7] ^= 2'
mutate "$T/enc_node.json" 'p["encoding_proof"]["node"] += 1'
for c in enc_parents lab_parents enc_node; do
  f=$T/$c.json
  [ -f "$f" ] || { fail "$c: mutation not written"; continue; }
  expect_rc 1 "$c: verify-c1" "$PM" porep verify-c1 "$f"
  expect_msg "$c: verify-c1" "partition 0" "challenge 1"
  field=$(sed -n 's/.*challenge 1 (node [0-9]*): \([^:]*\):.*/\1/p' "$TMP/out" | head -n1)
  [ -n "$field" ] && pass "$c: verify-c1 names the field ($field)" || fail "$c: verify-c1 names no field"
  expect_rc 1 "$c: synth --check agrees with verify-c1" "$PM" porep synth --c1 "$f" --check
  expect_msg "$c: synth --check" "INVALID" "partition 0" "challenge 1" "$field"
  expect_rc 2 "$c: porep prove refuses it" "$PM" porep prove --c1 "$f" --params "$T/params" --out "$T/p.bin"
  expect_msg "$c: porep prove" "$f" "vanilla proofs do not verify" "partition 0" "challenge 1" "$field"
  [ -e "$T/p.bin" ] && fail "$c: a proof was written" || pass "$c: no proof written"
  expect_rc 2 "$c: prove --kind porep-c2 refuses it" "$PM" prove --kind porep-c2 --params "$T/params" --out "$T/p.bin" "$f"
  expect_msg "$c: prove --kind porep-c2" "vanilla proofs do not verify" "$field"
done
# the untouched C1 gets past the check (and fails only at the missing parameters)
expect_rc 2 "good C1: porep prove reaches the parameters" "$PM" porep prove --c1 "$T/seal/c1.json" --params "$T/params" --out "$T/p.bin"
expect_msg "good C1: porep prove" ".params"
grep -q "vanilla" "$TMP/out" && fail "good C1 refused by the vanilla check" || pass "good C1 passes the vanilla check"
finish
