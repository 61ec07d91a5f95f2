#!/usr/bin/env bash
# test_setup_cli.sh — `proofmill setup`, `params`, `r1cs synth` end to end (issue #6), with the
# snarkjs oracle: our .zkey -> snarkjs groth16 prove -> snarkjs groth16 verify (vk exported by
# snarkjs from our zkey) accepts; our .zkey -> proofmill groth16 prove -> snarkjs verify accepts;
# a synthetic circuit passes `snarkjs wtns check`; .params/.vk copy byte-identically; .params
# proofs verify with the .vk (single and --batch), a flipped byte fails.
# Without snarkjs: exit 77 (SKIPPED), or a failure under CI=true.
source "$(dirname "$0")/lib.sh"

if ! have_snarkjs; then
  if [ "${CI:-}" = true ]; then echo "FAIL: snarkjs oracle missing at $SNARKJS"; exit 1; fi
  echo "SKIPPED: snarkjs oracle missing at $SNARKJS (npm ci in tests/oracles)"; exit 77
fi

# a synthetic circuit next to the repository fixtures
expect_rc 0 "r1cs synth" "$PM" r1cs synth --constraints 300 --density 3 --bits 0.8 --public 2 \
  --seed 4 --out "$TMP/synth.r1cs" --wtns "$TMP/synth.wtns" --check
"$SNARKJS" wtns check "$TMP/synth.r1cs" "$TMP/synth.wtns" >"$TMP/out" 2>&1
if grep -q "WITNESS IS CORRECT" "$TMP/out"; then pass "snarkjs wtns check accepts the synthetic witness"; else fail "snarkjs wtns check"; tail -3 "$TMP/out"; fi

# the shared merkle_poseidon fixture (10,815 constraints) when ../shared/fixtures is there
CIRCUITS="multiplier powchain synth"
if [ -f "$SHARED/bls12381/merkle_poseidon/circuit.r1cs" ]; then CIRCUITS="$CIRCUITS merkle_poseidon"
else echo "NOTE: $SHARED/bls12381/merkle_poseidon absent: shared fixture skipped"; fi
for c in $CIRCUITS; do
  if [ "$c" = synth ]; then R1CS=$TMP/synth.r1cs; WTNS=$TMP/synth.wtns
  elif [ "$c" = merkle_poseidon ]; then R1CS=$SHARED/bls12381/$c/circuit.r1cs; WTNS=$SHARED/bls12381/$c/witness.wtns
  else R1CS=$SRC/tests/data/$c/circuit.r1cs; WTNS=$SRC/tests/data/$c/witness.wtns; fi
  K=$TMP/$c
  expect_rc 0 "$c: setup .zkey" "$PM" setup "$R1CS" --out "$K.zkey" --seed 9
  expect_rc 0 "$c: snarkjs exports the vk of our zkey" "$SNARKJS" zkey export verificationkey "$K.zkey" "$K.vk.json"
  expect_rc 0 "$c: snarkjs proves with our zkey" "$SNARKJS" groth16 prove "$K.zkey" "$WTNS" "$K.sp.json" "$K.spub.json"
  expect_rc 0 "$c: snarkjs verifies its proof" "$SNARKJS" groth16 verify "$K.vk.json" "$K.spub.json" "$K.sp.json"
  expect_msg "$c: snarkjs verify" "OK"
  expect_rc 0 "$c: proofmill proves with our zkey" "$PM" groth16 prove "$K.zkey" "$WTNS" "$K.p.json" "$K.pub.json" --r1cs "$R1CS"
  expect_rc 0 "$c: snarkjs verifies our proof" "$SNARKJS" groth16 verify "$K.vk.json" "$K.pub.json" "$K.p.json"
  expect_msg "$c: snarkjs verify" "OK"
  # same seed, same key bytes
  "$PM" setup "$R1CS" --out "$K.again.zkey" --seed 9 >/dev/null 2>&1
  if cmp -s "$K.zkey" "$K.again.zkey"; then pass "$c: seeded setup is reproducible"; else fail "$c: seeded setup differs"; fi

  expect_rc 0 "$c: setup .params" "$PM" setup "$R1CS" --out "$K.params" --seed 9
  expect_rc 0 "$c: params copy" "$PM" params copy "$K.params" "$K.copy.params" --subgroup
  if cmp -s "$K.params" "$K.copy.params"; then pass "$c: .params read->write identical"; else fail "$c: .params copy differs"; fi
  expect_rc 0 "$c: vk copy" "$PM" params copy "$K.vk" "$K.copy.vk"
  if cmp -s "$K.vk" "$K.copy.vk"; then pass "$c: .vk read->write identical"; else fail "$c: .vk copy differs"; fi
  expect_rc 0 "$c: params prove x3" "$PM" params prove --params "$K.params" --r1cs "$R1CS" --wtns "$WTNS" --out "$K.bin" --count 3
  [ "$(stat -c %s "$K.bin")" = 576 ] && pass "$c: 3 proofs = 576 bytes" || fail "$c: proof file size"
  expect_rc 0 "$c: verify-bytes" "$PM" params verify-bytes "$K.vk" "$K.bin" "$K.pub.json"
  expect_rc 0 "$c: verify-bytes --batch" "$PM" params verify-bytes "$K.vk" "$K.bin" "$K.pub.json" --batch
  cp "$K.bin" "$K.bad.bin"
  flip_byte "$K.bad.bin" $((192 + 170))
  "$PM" params verify-bytes "$K.vk" "$K.bad.bin" "$K.pub.json" --batch >"$TMP/out" 2>&1
  rc=$?
  if [ $rc = 1 ]; then pass "$c: flipped byte in proof 1 fails (exit 1)"; else fail "$c: flipped byte: exit $rc"; fi
  if grep -q "proof 1: INVALID" "$TMP/out" && ! grep -q "proof 0: INVALID" "$TMP/out" && ! grep -q "proof 2: INVALID" "$TMP/out"; then
    pass "$c: single mode names proof 1 only"
  elif grep -q "invalid proof" "$TMP/out"; then
    pass "$c: flipped byte refused at decoding"
  else fail "$c: culprit not named"; cat "$TMP/out"; fi
done

# partitions: one proof per --wtns, concatenated; one public.json per proof
K=$TMP/synth
expect_rc 0 "synth: params prove, 2 partitions" "$PM" params prove --params "$K.params" --r1cs "$TMP/synth.r1cs" \
  --wtns "$TMP/synth.wtns" --wtns "$TMP/synth.wtns" --out "$K.parts.bin"
[ "$(stat -c %s "$K.parts.bin")" = 384 ] && pass "2 partitions = 384 bytes" || fail "partition file size"
expect_rc 0 "per-partition public.json, batch" "$PM" params verify-bytes "$K.vk" "$K.parts.bin" "$K.pub.json" "$K.pub.json" --batch
sed '0,/"[0-9]*"/s//"12345"/' "$K.pub.json" >"$K.pub_bad.json"   # first public input replaced
"$PM" params verify-bytes "$K.vk" "$K.parts.bin" "$K.pub.json" "$K.pub_bad.json" --batch >"$TMP/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "proof 1: INVALID" "$TMP/out" && grep -q "proof 0: OK" "$TMP/out"; then
  pass "wrong public input of partition 1 is named"; else fail "partition publics: exit $rc"; cat "$TMP/out"; fi

# params check against a manifest in Filecoin's shape
mkdir -p "$TMP/cache"
cp "$TMP/multiplier.params" "$TMP/multiplier.vk" "$TMP/cache/"
d1=$(b2sum "$TMP/cache/multiplier.params" | cut -c1-32)
d2=$(b2sum "$TMP/cache/multiplier.vk" | cut -c1-32)
printf '{"multiplier.params": {"cid": "x", "digest": "%s", "sector_size": 2048},\n "multiplier.vk": {"cid": "y", "digest": "%s", "sector_size": 2048}}\n' "$d1" "$d2" >"$TMP/parameters.json"
expect_rc 0 "params check: digests match b2sum" "$PM" params check "$TMP/cache" --manifest "$TMP/parameters.json"
flip_byte "$TMP/cache/multiplier.vk" 700
expect_rc 1 "params check: a changed file is BAD" "$PM" params check "$TMP/cache" --manifest "$TMP/parameters.json"
expect_msg "params check" "BAD multiplier.vk"
rm "$TMP/cache/multiplier.params"
expect_rc 1 "params check: a missing file" "$PM" params check "$TMP/cache" --manifest "$TMP/parameters.json"
expect_msg "params check" "MISSING multiplier.params"
"$PM" params names >"$TMP/out"
expect_msg "params names (POREP.md §1.5 hashes)" "8-0-0-sha256_hasher-032d3138d225" "8-0-0-sha256_hasher-ecd683648512" \
  "8-0-0-sha256_hasher-6babf46ce344" "8-8-0-sha256_hasher-82a357d2f2ca" "8-8-2-sha256_hasher-96f1b4a04c5c"
# built-in digests (parameters.json): our 2 KiB-named vk is not Filecoin's -> BAD, the others absent
mkdir -p "$TMP/fc"
stem=$("$PM" params names | awk '$1 == 2048 {print $2}')
expect_rc 0 "params check, built-in digests, empty dir" "$PM" params check "$TMP/fc"
cp "$TMP/multiplier.vk" "$TMP/fc/$stem.vk"
expect_rc 1 "params check, built-in digests, foreign 2 KiB vk" "$PM" params check "$TMP/fc"
expect_msg "params check, built-in" "BAD $stem.vk" "expected dc1ade9929ade1708238f155343044ac" \
  "a well-formed file of another setup" "porep 2KiB                 missing $stem.params"
# issue #39: grouped by kind and size; the sizes without files are not listed one by one
n=$(grep -c '' "$TMP/out")
[ "$n" -le 5 ] && pass "params check: $n lines for one size's files" || fail "params check: $n lines"
expect_msg "params check summary" "no files: 19 of 20 kinds and sizes"
expect_rc 0 "params check --quick, foreign vk: sizes and headers pass, but never as Filecoin's" "$PM" params check "$TMP/fc" --quick
expect_msg "params check --quick" "incomplete: $stem.params missing (the .vk is well-formed)" "--quick: sizes and headers only"
# truncated: the same file cut short
head -c 1000 "$TMP/multiplier.vk" >"$TMP/fc/$stem.vk"
expect_rc 1 "params check, truncated vk" "$PM" params check "$TMP/fc"
expect_msg "params check, truncated" "TRUNCATED $stem.vk: " "expected dc1ade9929ade1708238f155343044ac"
expect_rc 1 "params check --quick, truncated vk" "$PM" params check "$TMP/fc" --quick
expect_msg "params check --quick, truncated" "TRUNCATED $stem.vk: "
# our own test parameters (the marker file lists them): said so, exit 1 (not Filecoin's)
cp "$TMP/multiplier.vk" "$TMP/fc/$stem.vk"
printf '# proofmill TEST parameters\n%s.vk\n' "$stem" >"$TMP/fc/proofmill-test-parameters"
expect_rc 1 "params check, a proofmill test vk" "$PM" params check "$TMP/fc"
expect_msg "params check, test parameters" "porep 2KiB                 proofmill test parameters: $stem.vk" \
  "test parameters: porep 2KiB"
grep -q "BAD" "$TMP/out" && fail "a test file is called BAD" || pass "a test file is not called BAD"
expect_rc 2 "params check --quick --manifest" "$PM" params check "$TMP/fc" --quick --manifest "$TMP/parameters.json"
finish
