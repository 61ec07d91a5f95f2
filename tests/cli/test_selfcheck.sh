#!/usr/bin/env bash
# test_selfcheck.sh — `proofmill selfcheck` (issue #39) on a machine without Filecoin's genuine
# parameters: every check says "skipped: FILE missing" (the 2 KiB PoRep C2, WinningPoSt, WindowPoSt
# and SnapDeals proving checks before sealing anything; test_selfcheck_prove.sh runs them with our
# test files taken for Filecoin's) and the exit status is 0 only with --allow-missing; a file under a
# genuine name whose bytes differ fails the check (exit 1), one the directory's marker lists as ours
# is "a proofmill test parameter file"; a missing or malformed data file is named; usage errors exit 2.
# With ../shared/filecoin/real beside the checkout, every record of Filecoin's whole files is read
# (else that part is skipped, said below).
. "$(dirname "$0")/lib.sh"
DATA=$SRC/tests/data/filecoin
EMPTY=$TMP/params
mkdir -p "$EMPTY"

expect_rc 1 "no genuine files: missing files fail without --allow-missing" "$PM" selfcheck "$EMPTY" --data "$DATA" --no-prove
expect_msg "missing" "skip  porep 2KiB V1_0_0, 3 records of seal_regression_records-v16.json: skipped: $EMPTY/v28-stacked-proof-of-replication" \
  ".vk missing" "skip  window-post 32GiB calibnet" "curio fetch-params 2KiB"
grep -q '^FAIL' "$TMP/out" && fail "a FAIL line without genuine files" || pass "no FAIL line"
n=$(grep -c '^skip .*skipped: .* missing$' "$TMP/out")
[ "$n" -ge 17 ] && pass "$n checks skipped for missing files" || fail "only $n checks skipped for missing files"
expect_msg "unsupported records say why" "SyntheticPoRep, 1 record of seal_regression_records-v16.json: not checked: synthetic-PoRep" \
  "NonInteractivePoRep, 1 record of seal_regression_records-v18.json: not checked: non-interactive PoRep proofs are SnarkPack"
expect_msg "parameters.json read" "PASS  parameters.json: 44 files"

expect_rc 0 "no genuine files, --allow-missing: exit 0" "$PM" selfcheck "$EMPTY" --data "$DATA" --allow-missing
expect_msg "the 2 KiB proving checks are skipped before sealing" \
  "skip  porep 2KiB C2 of a sector sealed here (StackedDrg2KiBV1_1): skipped: $EMPTY/v28-stacked-proof-of-replication" \
  "skip  winning-post 2KiB proof of a sector sealed here (StackedDrgWinning2KiBV1): skipped: $EMPTY/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk missing" \
  "skip  window-post 2KiB proof of a sector sealed here (StackedDrgWindow2KiBV1_2): skipped: $EMPTY/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk missing" \
  "skip  snapdeals 2KiB proof of an update of a sector sealed here (update proof StackedDrg2KiBV1): skipped: $EMPTY/v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk missing"
m=$(grep -c '^skip .*skipped: .* missing$' "$TMP/out")
[ "$m" = $((n + 4)) ] && pass "proving adds 4 checks skipped for missing files ($m)" || fail "$m checks skipped with proving, $n without: want 4 more"
grep -q '^FAIL' "$TMP/out" && fail "a FAIL line without genuine files (proving)" || pass "no FAIL line (proving)"
expect_rc 1 "no genuine files, proving, without --allow-missing: exit 1" "$PM" selfcheck "$EMPTY" --data "$DATA"
expect_msg "the count line" "selfcheck: 1 passed, 0 failed, $m skipped for missing files"
expect_rc 0 "FIL_PROOFS_PARAMETER_CACHE is the default directory" env FIL_PROOFS_PARAMETER_CACHE="$EMPTY" \
  "$PM" selfcheck --data "$DATA" --no-prove --allow-missing
expect_msg "the environment's directory" "selfcheck: parameters $EMPTY,"

# a file under the genuine 2 KiB .vk name whose bytes are not Filecoin's: the check fails
VK=$EMPTY/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk
head -c 4096 /dev/zero >"$VK"
expect_rc 1 "a genuine-named file with other bytes fails" "$PM" selfcheck "$EMPTY" --data "$DATA" --no-prove --allow-missing
expect_msg "names the file and the digests" "FAIL  porep 2KiB V1_0_0, 3 records of seal_regression_records-v16.json: $VK is not Filecoin's file: BLAKE2b digest" \
  "parameters.json says dc1ade9929ade1708238f155343044ac"
# the same file listed in the directory's marker: our own test parameters, skipped as such
printf '# proofmill TEST parameters\n%s\n' "$(basename "$VK")" >"$EMPTY/proofmill-test-parameters"
expect_rc 0 "a proofmill test .vk is skipped, not failed" "$PM" selfcheck "$EMPTY" --data "$DATA" --no-prove --allow-missing
expect_msg "says test parameters" "skipped: $VK is a proofmill test parameter file"
rm -f "$VK" "$EMPTY/proofmill-test-parameters"

# data files: missing, malformed
expect_rc 0 "a data directory without files" "$PM" selfcheck "$EMPTY" --data "$TMP/nodata" --no-prove --allow-missing
expect_msg "names the missing data files" "skipped: $TMP/nodata/seal_regression_records-v16.json missing" \
  "skipped: $TMP/nodata/window_post_calibnet_32GiB.json missing" "parameters.json missing"
mkdir -p "$TMP/bad"
cp "$DATA"/parameters.json "$DATA"/window_post_calibnet_32GiB.json "$TMP/bad/"
{ head -n 2 "$DATA/seal_regression_records-v16.json"; head -n 1 "$DATA/seal_regression_records-v16.json" | sed 's/"V1_0_0"/"V9_9_9"/'; } \
  >"$TMP/bad/seal_regression_records-v16.json"
expect_rc 1 "a malformed records file fails" "$PM" selfcheck "$EMPTY" --data "$TMP/bad" --no-prove --allow-missing
expect_msg "names the line and the field" "FAIL  porep records seal_regression_records-v16.json:" "line 3: field porep_config.api_version"

expect_rc 2 "an extra argument" "$PM" selfcheck "$EMPTY" extra
expect_rc 2 "an unknown option" "$PM" selfcheck --frobnicate
expect_rc 0 "--help" "$PM" selfcheck --help
expect_msg "help" "--allow-missing" "--c1 FILE" "--data DIR" "--no-prove" "PoRep C2, WinningPoSt, WindowPoSt and SnapDeals"

REAL=$SRC/../shared/filecoin/real
if [ -f "$REAL/seal_regression_records-v16.json" ]; then
  expect_rc 0 "Filecoin's whole records files read" "$PM" selfcheck "$EMPTY" --data "$REAL" --no-prove --allow-missing
  expect_msg "all records" "porep 512MiB V1_1_0, 116 records of seal_regression_records-v16.json: skipped:" \
    "porep 2KiB V1_0_0, 31 records of seal_regression_records-v16.json: skipped:"
else
  echo "NOTE: $REAL not found: Filecoin's whole records files are not read (tests/data/filecoin holds a subset)"
fi
finish
