#!/usr/bin/env bash
# test_porep_param_safety_hostile.sh — `porep params-setup` keeps our test parameters apart from
# Filecoin's (filecoin/param_safety.h, as the PoSt kinds do; issue #17 on #16's rules): it refuses,
# before any work and writing nothing, a directory holding a Filecoin v28 file it did not write
# (CPU and --gpu alike), FIL_PROOFS_PARAMETER_CACHE (also reached through a symlink), a --dir that
# is a file; porep verify-proof says "test parameters" for a .vk whose digest is not Filecoin's.
# (Writing, the marker file and porep prove's announcement at 2 KiB take minutes: the slow golden
# test and docs/filecoin.md show them.)
. "$(dirname "$0")/lib.sh"
STEM=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
mkdir -p "$TMP/fc"
echo "not ours" >"$TMP/fc/$STEM.vk"
for gpu in "" --gpu; do
  expect_rc 2 "params-setup $gpu into a directory holding Filecoin's file" \
    "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/fc" --seed 5 $gpu
  expect_msg "Filecoin's file $gpu" "$TMP/fc" "$STEM.vk" "--allow-filecoin-dir"
done
[ "$(ls "$TMP/fc")" = "$STEM.vk" ] && pass "nothing written beside Filecoin's file" || fail "wrote: $(ls "$TMP/fc")"
# a marker that lists another name does not make Filecoin's file ours
printf '# proofmill TEST parameters\n%s.params\n' "$STEM" >"$TMP/fc/proofmill-test-parameters"
expect_rc 2 "a marker naming another file" "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/fc" --seed 5
expect_msg "marker naming another file" "$STEM.vk"
mkdir -p "$TMP/cache"
ln -s "$TMP/cache" "$TMP/link"
for d in cache link; do
  FIL_PROOFS_PARAMETER_CACHE="$TMP/cache" "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/$d" --seed 5 >"$TMP/out" 2>&1
  rc=$?
  [ $rc = 2 ] && grep -q "FIL_PROOFS_PARAMETER_CACHE" "$TMP/out" && pass "refuses the parameter cache ($d)" ||
    fail "parameter cache ($d): exit $rc $(cat "$TMP/out")"
done
[ -z "$(ls "$TMP/cache")" ] && pass "nothing written into the cache" || fail "cache holds $(ls "$TMP/cache")"
: >"$TMP/afile"
expect_rc 2 "--dir that is a file" "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/afile" --seed 5
expect_msg "--dir that is a file" "$TMP/afile"
"$PM" porep params-setup --help >"$TMP/out" 2>&1
expect_msg "params-setup --help" "--allow-filecoin-dir" "--gpu"
# a .vk that is not Filecoin's is announced as test parameters (any bellperson .vk: the powchain's)
expect_rc 0 "setup .params" "$PM" setup "$SRC/tests/data/powchain/circuit.r1cs" --out "$TMP/k.params" --seed 5 --threads 1
expect_rc 0 "porep seal" "$PM" porep seal --sector-size 2KiB --zero --out "$TMP/seal"
printf 'x' >"$TMP/p.bin"
"$PM" porep verify-proof --c1 "$TMP/seal/c1.json" --vk "$TMP/k.vk" --proof "$TMP/p.bin" >"$TMP/out" 2>&1
expect_msg "verify-proof announces" "$TMP/k.vk: test parameters (.vk digest" "Filecoin's is dc1ade9929ade1708238f155343044ac"
finish
