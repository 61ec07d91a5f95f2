#!/usr/bin/env bash
# test_groth16_cli.sh — `proofmill groth16 prove/verify` end to end on every fixture, with our
# own verifier as the judge (the snarkjs oracle runs in test_groth16_snarkjs.sh):
#  - --r/--s from proof_det_rs.json reproduce snarkjs's proof_det.json / public_det.json byte-for-byte;
#  - random and --seed proofs verify (exit 0); --seed is deterministic;
#  - snarkjs's own proof.json verifies; a flipped bit in the proof, a wrong public input or a
#    swapped proof are rejected with exit 1;
#  - export-vk reproduces snarkjs's verification_key.json byte-for-byte;
#  - --help, version, usage errors (exit 2).
. "$(dirname "$0")/lib.sh"

expect_rc 0 "proofmill --help" "$PM" --help
expect_msg "--help" "groth16" "exit codes"
expect_rc 0 "proofmill version" "$PM" version
expect_msg "version" "proofmill"
expect_rc 2 "no arguments" "$PM"
expect_rc 2 "unknown command" "$PM" frobnicate
expect_msg "unknown command" "frobnicate"
expect_rc 2 "prove with 3 arguments" "$PM" groth16 prove a b c
expect_rc 2 "prove with --r but no --s" "$PM" groth16 prove a b c d --r 1
expect_rc 2 "prove with a bad --threads" "$PM" groth16 prove a b c d --threads x
expect_rc 2 "verify with 2 arguments" "$PM" groth16 verify a b
expect_rc 2 "export-vk with 1 argument" "$PM" groth16 export-vk a
expect_rc 0 "groth16 --help" "$PM" groth16 --help

for fx in $(fixtures); do
  name=${fx#"$SRC"/}
  r=$(json_str "$fx/proof_det_rs.json" r)
  s=$(json_str "$fx/proof_det_rs.json" s)
  expect_rc 0 "$name: deterministic prove" "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p.json" "$TMP/x.json" --r "$r" --s "$s" --threads 2
  if cmp -s "$TMP/p.json" "$fx/proof_det.json" && cmp -s "$TMP/x.json" "$fx/public_det.json"; then
    pass "$name: proof and public equal snarkjs's proof_det.json / public_det.json byte-for-byte"
  else
    fail "$name: deterministic proof differs from proof_det.json"
  fi
  expect_rc 0 "$name: export-vk" "$PM" groth16 export-vk "$fx/circuit.zkey" "$TMP/vk.json"
  if cmp -s "$TMP/vk.json" "$fx/verification_key.json"; then
    pass "$name: export-vk equals snarkjs's verification_key.json byte-for-byte"
  else
    fail "$name: export-vk differs from verification_key.json"
  fi
  expect_rc 0 "$name: random prove -v" "$PM" groth16 prove -v "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p.json" "$TMP/x.json"
  expect_msg "$name: -v timings" "load zkey" "H (6 NTTs)" "MSM B2" "total"
  expect_rc 0 "$name: our verifier accepts the random proof" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/x.json" "$TMP/p.json"
  expect_msg "$name: verify" "OK"
  expect_rc 0 "$name: our verifier accepts snarkjs's proof.json" "$PM" groth16 verify "$fx/verification_key.json" "$fx/public.json" "$fx/proof.json"
  "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/s1.json" "$TMP/x1.json" --seed 99 >/dev/null 2>&1
  "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/s2.json" "$TMP/x2.json" --seed 99 >/dev/null 2>&1
  "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/s3.json" "$TMP/x3.json" --seed 100 >/dev/null 2>&1
  if cmp -s "$TMP/s1.json" "$TMP/s2.json" && ! cmp -s "$TMP/s1.json" "$TMP/s3.json"; then
    pass "$name: --seed is deterministic and seed-dependent"
  else
    fail "$name: --seed determinism"
  fi
  # tampering: one bit of pi_a.x's last digit (1 <-> 0 etc. via digit XOR 1), a public input + 1
  sed '3s/\([0-9]\)",$/\1X",/' "$TMP/p.json" | sed '3s/0X/1/; 3s/1X/0/; 3s/2X/3/; 3s/3X/2/; 3s/4X/5/; 3s/5X/4/; 3s/6X/7/; 3s/7X/6/; 3s/8X/9/; 3s/9X/8/' >"$TMP/bad.json"
  if cmp -s "$TMP/bad.json" "$TMP/p.json"; then fail "$name: tamper edit did nothing"; fi
  cp "$TMP/bad.json" "$TMP/bad_proof.json"
  expect_rc 1 "$name: flipped bit in pi_a rejected" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/x.json" "$TMP/bad_proof.json"
  expect_msg "$name: flipped bit" "invalid proof"
  # wrong public input: first signal's last digit changed
  sed '2s/\([0-9]\)"/\1X"/' "$TMP/x.json" | sed '2s/0X/1/; 2s/1X/0/; 2s/2X/3/; 2s/3X/2/; 2s/4X/5/; 2s/5X/4/; 2s/6X/7/; 2s/7X/6/; 2s/8X/9/; 2s/9X/8/' >"$TMP/bad_public.json"
  expect_rc 1 "$name: wrong public input rejected" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/bad_public.json" "$TMP/p.json"
  expect_msg "$name: wrong public" "pairing equation"
  # a valid proof for other randomness but the pi_c of another proof: valid points, wrong proof
  head -n 18 "$TMP/p.json" >"$TMP/mix.json"
  tail -n +19 "$TMP/s3.json" >>"$TMP/mix.json"
  expect_rc 1 "$name: pi_c from another proof rejected" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/x.json" "$TMP/mix.json"
done

# usage mistakes a newcomer makes: each names what was wrong (exit 2)
fx=$(fixtures | head -n 1)
"$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p.json" "$TMP/x.json" --seed 1 >/dev/null 2>&1
expect_rc 2 "verify with the key and proof swapped" "$PM" groth16 verify "$TMP/p.json" "$TMP/x.json" "$fx/verification_key.json"
expect_msg "swapped verify arguments" "this is a proof" "not a verification key"
expect_rc 2 "verify with the proof given as the key's place" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/x.json" "$fx/verification_key.json"
expect_msg "a key where the proof goes" "this is a verification key, not a proof"
# every other order of the three says which file is which (#39 item 7)
expect_rc 2 "verify with the public signals and proof swapped" "$PM" groth16 verify "$fx/verification_key.json" "$TMP/p.json" "$TMP/x.json"
expect_msg "public/proof swapped" "this is a proof" "not a JSON array of decimal strings" "arguments swapped?"
expect_rc 2 "verify with the public signals first" "$PM" groth16 verify "$TMP/x.json" "$fx/verification_key.json" "$TMP/p.json"
expect_msg "public signals in the key's place" "this is a JSON array (public signals), not" "arguments swapped?"
expect_rc 2 "verify with the key as the public signals" "$PM" groth16 verify "$fx/verification_key.json" "$fx/verification_key.json" "$TMP/p.json"
expect_msg "key in the public signals' place" "this is a verification key, not a JSON array" "arguments swapped?"
expect_rc 2 "groth16 typo subcommand" "$PM" groth16 provee
expect_msg "groth16 typo" "unknown subcommand 'provee'" "setup" "verify-bytes"
expect_rc 2 "groth16 without a subcommand" "$PM" groth16
expect_msg "groth16 bare" "prove|verify|export-vk|setup|verify-bytes"
expect_rc 2 "version with an unknown argument" "$PM" version --foo
expect_msg "version --foo" "unexpected argument '--foo'"
expect_rc 0 "--threads 0 means all cores" "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p0.json" "$TMP/x0.json" --threads 0
finish
