#!/usr/bin/env bash
# Regenerates the repository's own small Groth16 fixtures (tests/data/<name>/) with circom2 and
# snarkjs from tests/oracles (run scripts/install-deps.sh first). A snarkjs powers-of-tau ceremony
# on BLS12-381 (2^10) with a beacon, groth16 setup and a zkey beacon: the keys are fresh each run,
# so regenerating changes every file. Takes about a minute on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
oracles=$(cd "$here/../oracles" && pwd)
snarkjs="$oracles/node_modules/.bin/snarkjs"
circom="$oracles/node_modules/.bin/circom2"
[ -x "$snarkjs" ] && [ -x "$circom" ] || { echo "regen.sh: run scripts/install-deps.sh first (needs $snarkjs and $circom)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
power=10
"$snarkjs" powersoftau new bls12381 $power "$work/pot0.ptau" >/dev/null
"$snarkjs" powersoftau contribute "$work/pot0.ptau" "$work/pot1.ptau" --name=proofmill -e="proofmill fixture entropy $(date +%s%N)" >/dev/null
"$snarkjs" powersoftau beacon "$work/pot1.ptau" "$work/pot2.ptau" 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 10 >/dev/null
"$snarkjs" powersoftau prepare phase2 "$work/pot2.ptau" "$work/final.ptau" >/dev/null
r=12345678901234567890123456789012345678901234567890123456789012345678901234567
s=9876543210987654321098765432109876543210987654321098765432109876543210987654
for name in multiplier powchain; do
  out="$here/$name"
  mkdir -p "$out"
  (cd "$work" && "$circom" "$here/circuits/$name.circom" --r1cs --wasm --prime bls12381 -o "$work" >/dev/null)
  cp "$work/$name.r1cs" "$out/circuit.r1cs"
  cp "$here/circuits/$name.circom" "$out/circuit.circom"
  cp "$here/circuits/$name.input.json" "$out/input.json"
  node "$work/${name}_js/generate_witness.js" "$work/${name}_js/$name.wasm" "$out/input.json" "$out/witness.wtns"
  "$snarkjs" groth16 setup "$out/circuit.r1cs" "$work/final.ptau" "$work/${name}_0.zkey" >/dev/null
  "$snarkjs" zkey beacon "$work/${name}_0.zkey" "$out/circuit.zkey" 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 10 >/dev/null
  "$snarkjs" zkey export verificationkey "$out/circuit.zkey" "$out/verification_key.json" >/dev/null
  "$snarkjs" groth16 prove "$out/circuit.zkey" "$out/witness.wtns" "$out/proof.json" "$out/public.json"
  "$snarkjs" groth16 verify "$out/verification_key.json" "$out/public.json" "$out/proof.json" | grep -q OK
  printf '{"r": "%s", "s": "%s"}' "$r" "$s" > "$out/proof_det_rs.json"
  node "$here/prove_fixed_rs.cjs" "$oracles" bls12381 "$out/circuit.zkey" "$out/witness.wtns" "$out/proof_det.json" "$out/public_det.json" "$r" "$s"
  "$snarkjs" r1cs info "$out/circuit.r1cs" 2>&1 | sed "s/\x1b\[[0-9;]*m//g" > "$out/r1cs_info.txt" || true
  echo "regen.sh: $name done"
done
