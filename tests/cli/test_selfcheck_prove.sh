#!/usr/bin/env bash
# test_selfcheck_prove.sh — `proofmill selfcheck`'s 2 KiB proving checks (issue #39 item 3) really
# run, without Filecoin's files: our own seeded TEST parameters (`<kind> params-setup --seed`) are
# copied out of their directory (so no proofmill marker lists them) into a directory that selfcheck
# takes for Filecoin's, because the --data directory's parameters.json is Filecoin's with the digests
# of those files replaced by theirs (BLAKE2b-512, first 32 hex digits; the genuine names kept). Then:
#  - each 2 KiB check whose files are there PASSes: a request over a sector sealed here proved with
#    the ".params" and every partition verified with the ".vk" and our public inputs; the kinds
#    without files say "skipped: FILE missing"; --no-prove prints none of them;
#  - a .vk of another seed under the same name, its digest listed: that check FAILs (the proof does
#    not verify), the others still PASS;
#  - the same files with Filecoin's real digests: FAIL "is not Filecoin's file"; listed in the
#    directory's marker: "a proofmill test parameter file", skipped.
# WinningPoSt, WindowPoSt and SnapDeals always (2 KiB setups of ~4, ~11 and ~55 s on 2 cores; ~1.5 min
# in all); PoRep C2 (the older check, another minute of setup) only with PROOFMILL_SLOW=1.
. "$(dirname "$0")/lib.sh"
KINDS="winning-post window-post snapdeals"
[ "${PROOFMILL_SLOW:-0}" = 1 ] && KINDS="$KINDS porep"
OURS=$TMP/ours
GEN=$TMP/genuine
DATA=$TMP/data
mkdir -p "$GEN" "$DATA"
T0=$(date +%s)
for k in $KINDS; do
  expect_rc 0 "$k params-setup 2KiB --seed 5" "$PM" $k params-setup --sector-size 2KiB --dir "$OURS" --seed 5 --no-csr
done
cp "$OURS"/*.params "$OURS"/*.vk "$GEN"/
echo "NOTE: params-setup of $KINDS: $(($(date +%s) - T0)) s"

# parameters.json: Filecoin's, with the digests of the files in $1 replaced (each name must be one of Filecoin's)
manifest() {
  python3 - "$SRC/tests/data/filecoin/parameters.json" "$DATA/parameters.json" "$1" <<'PY'
import hashlib, json, os, sys
m = json.load(open(sys.argv[1]))
for f in sorted(os.listdir(sys.argv[3])):
    if f not in m:
        sys.exit("not a genuine name: " + f)
    m[f]["digest"] = hashlib.blake2b(open(os.path.join(sys.argv[3], f), "rb").read()).hexdigest()[:32]
json.dump(m, open(sys.argv[2], "w"), indent=2)
PY
}
manifest "$GEN" || fail "parameters.json with our digests"
# (the records and the calibnet WindowPoSt are not in $DATA: those checks are skipped as missing)
T0=$(date +%s)
expect_rc 0 "selfcheck: our test files taken for Filecoin's" "$PM" selfcheck "$GEN" --data "$DATA" --allow-missing --threads 2
echo "NOTE: selfcheck proving $KINDS: $(($(date +%s) - T0)) s"
cp "$TMP/out" "$TMP/pass.out"
expect_msg "the manifest read" "PASS  parameters.json: 44 files"
expect_msg "WinningPoSt proved and verified" \
  "PASS  winning-post 2KiB proof of a sector sealed here (StackedDrgWinning2KiBV1): 1 partition(s) proved with the genuine .params, verified with the genuine .vk and our public inputs"
expect_msg "WindowPoSt proved and verified" \
  "PASS  window-post 2KiB proof of a sector sealed here (StackedDrgWindow2KiBV1_2): 1 partition(s) proved with the genuine .params, verified with the genuine .vk and our public inputs"
expect_msg "SnapDeals proved and verified" \
  "PASS  snapdeals 2KiB proof of an update of a sector sealed here (update proof StackedDrg2KiBV1): 1 partition(s) proved with the genuine .params, verified with the genuine .vk and our public inputs"
if [ "${PROOFMILL_SLOW:-0}" = 1 ]; then
  expect_msg "PoRep C2 proved and verified" "PASS  porep 2KiB C2 of a sector sealed here (StackedDrg2KiBV1_1): "
  want=4
else
  echo "NOTE: PROOFMILL_SLOW unset: PoRep C2 is not proved (its 2 KiB setup takes another minute)"
  expect_msg "the kind without files is skipped" \
    "skip  porep 2KiB C2 of a sector sealed here (StackedDrg2KiBV1_1): skipped: $GEN/v28-stacked-proof-of-replication-"
  want=3
fi
n=$(grep -c '^PASS  .* 2KiB .* sealed here' "$TMP/out")
[ "$n" = $want ] && pass "$n proving checks passed" || fail "$n proving checks passed, want $want"
grep -q '^FAIL' "$TMP/out" && fail "a FAIL line with our files taken for Filecoin's" || pass "no FAIL line"

expect_rc 0 "--no-prove" "$PM" selfcheck "$GEN" --data "$DATA" --allow-missing --no-prove
grep -q 'sealed here' "$TMP/out" && fail "--no-prove still proves: $(grep 'sealed here' "$TMP/out")" || pass "--no-prove: no proving check"

# mutation: the WindowPoSt .vk of another setup (seed 6) under the genuine name, its digest listed
# (in a directory of the two PoSt kinds' files: SnapDeals and PoRep are not proved again)
MUT=$TMP/mutated
mkdir -p "$MUT"
cp "$GEN"/v28-proof-of-spacetime-fallback-* "$MUT"/
WVK=$(cd "$GEN" && ls v28-proof-of-spacetime-fallback-*-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk)
expect_rc 0 "window-post params-setup --seed 6" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/other" --seed 6 --no-csr
cp "$TMP/other/$WVK" "$MUT/$WVK"
cmp -s "$GEN/$WVK" "$MUT/$WVK" && fail "seed 6 made the same .vk"
manifest "$MUT" || fail "parameters.json with the other .vk's digest"
expect_rc 1 "selfcheck: a .vk of another setup fails" "$PM" selfcheck "$MUT" --data "$DATA" --allow-missing --threads 2
expect_msg "the WindowPoSt check fails, the proof does not verify" \
  "FAIL  window-post 2KiB proof of a sector sealed here (StackedDrgWindow2KiBV1_2): the proof made with the genuine .params does not verify with the genuine .vk"
expect_msg "WinningPoSt still passes" "PASS  winning-post 2KiB proof of a sector sealed here"
n=$(grep -c '^FAIL' "$TMP/out")
[ "$n" = 1 ] && pass "one FAIL line" || fail "$n FAIL lines, want 1"

manifest "$GEN" || fail "parameters.json with our digests again"
# the same files with Filecoin's own digests: not Filecoin's files (no proving)
expect_rc 1 "Filecoin's digests: our files fail" "$PM" selfcheck "$GEN" --data "$SRC/tests/data/filecoin" --allow-missing
expect_msg "names the file and the digests" \
  "FAIL  winning-post 2KiB proof of a sector sealed here (StackedDrgWinning2KiBV1): $GEN/v28-proof-of-spacetime-fallback-" \
  "is not Filecoin's file: BLAKE2b digest"
# listed in the directory's marker: our test files, skipped as such
(cd "$GEN" && { echo "# proofmill TEST parameters"; ls; }) >"$TMP/marker" && mv "$TMP/marker" "$GEN/proofmill-test-parameters"
expect_rc 0 "marked as proofmill test files: skipped" "$PM" selfcheck "$GEN" --data "$DATA" --allow-missing
expect_msg "says test parameters" "skip  window-post 2KiB proof of a sector sealed here (StackedDrgWindow2KiBV1_2): skipped: $GEN/$WVK is a proofmill test parameter file"
finish
