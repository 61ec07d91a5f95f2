#!/usr/bin/env bash
# proofmill prove --kind K: one job of any registered kind, routed by the kind's name (issue #12).
# snarkjs jobs (one .wtns per partition, --key) prove, seeded, exactly what `groth16 prove --seed`
# proves (the same proof and public signals for each partition); the kinds are listed; an unknown
# kind, a kind that cannot name its key from --params and a .params key for a snarkjs job are
# refused without writing anything. (porep-c2 through this command: tests/kinds' toy covers the
# bellperson path, cli_outputs.sh's SLOW part `porep prove`, its spelling.)
. "$(dirname "$0")/lib.sh"

same_proof() { # same_proof ARRAY.json K PROOF.json PUBLIC.json: partition K of the array is the pair
  python3 - "$@" <<'PY'
import json, sys
arr = json.load(open(sys.argv[1]))
k = int(sys.argv[2])
ok = arr[k]["proof"] == json.load(open(sys.argv[3])) and arr[k]["public"] == json.load(open(sys.argv[4]))
sys.exit(0 if ok else 1)
PY
}

fx=$SRC/tests/data/multiplier
fy=$SRC/tests/data/powchain
expect_rc 0 "prove --list" "$PM" prove --list
expect_msg "prove --list names the kinds" "snarkjs" "porep-c2"
expect_rc 0 "prove --kind --list (issue #39)" "$PM" prove --kind --list
expect_msg "prove --kind --list names the kinds" "snarkjs" "porep-c2" "window-post"

for m in "" --engine; do
  expect_rc 0 "prove --kind snarkjs $m: two partitions" "$PM" prove --kind snarkjs --key "$fx/circuit.zkey" \
    --out "$TMP/arr.json" --seed 7 $m "$fx/witness.wtns" "$fx/witness.wtns"
  expect_msg "prove --kind snarkjs $m: reports" "2 partition(s), each verified"
  "$PM" groth16 prove --cpu --seed 7 "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p7.json" "$TMP/q7.json" >/dev/null 2>&1
  "$PM" groth16 prove --cpu --seed 8 "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p8.json" "$TMP/q8.json" >/dev/null 2>&1
  if same_proof "$TMP/arr.json" 0 "$TMP/p7.json" "$TMP/q7.json" && same_proof "$TMP/arr.json" 1 "$TMP/p8.json" "$TMP/q8.json"; then
    pass "prove --kind snarkjs $m: partition k = groth16 prove --seed 7+k"
  else
    fail "prove --kind snarkjs $m: differs from groth16 prove"
  fi
done
expect_rc 0 "prove --kind snarkjs: another circuit" "$PM" prove --kind snarkjs --key "$fy/circuit.zkey" \
  --out "$TMP/y.json" "$fy/witness.wtns"

rm -f "$TMP/x.json"
expect_rc 2 "an unknown kind" "$PM" prove --kind plonk --key "$fx/circuit.zkey" --out "$TMP/x.json" "$fx/witness.wtns"
expect_msg "an unknown kind: names the kinds" "plonk" "snarkjs" "porep-c2 (alias porep)"
# a parameter directory without the key: the message says where Filecoin's come from
mkdir -p "$TMP/noparams"
"$PM" porep seal --sector-size 2KiB --zero --out "$TMP/sector" >/dev/null 2>&1
expect_rc 2 "porep-c2 without parameters" "$PM" prove --kind porep-c2 --params "$TMP/noparams" --out "$TMP/x.json" "$TMP/sector/c1.json"
expect_msg "porep-c2 without parameters: says where they come from" "$TMP/noparams/v28-stacked-proof-of-replication-" \
  "no parameters here" "curio fetch-params" "porep params-setup"
expect_rc 2 "snarkjs from --params" "$PM" prove --kind snarkjs --params "$TMP" --out "$TMP/x.json" "$fx/witness.wtns"
expect_msg "snarkjs from --params: says why" "give --key"
expect_rc 2 "a witness of another circuit" "$PM" prove --kind snarkjs --key "$fx/circuit.zkey" --out "$TMP/x.json" "$fy/witness.wtns"
expect_rc 2 "no input" "$PM" prove --kind snarkjs --key "$fx/circuit.zkey" --out "$TMP/x.json"
if [ ! -e "$TMP/x.json" ]; then pass "refused jobs write nothing"; else fail "a refused job wrote $TMP/x.json"; fi
finish
