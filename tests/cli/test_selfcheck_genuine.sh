#!/usr/bin/env bash
# test_selfcheck_genuine.sh — label `genuine` (issue #39): `proofmill selfcheck` against Filecoin's
# genuine parameter files, when this machine has them ($FIL_PROOFS_PARAMETER_CACHE, else
# /var/tmp/filecoin-proof-parameters, holding a v28-*.vk that is not one of our test files);
# Skipped with the reason otherwise. Every check that can run must pass; checks whose files are
# missing are allowed (a provider may hold only the 32 GiB files). Filecoin's whole records files
# are used when ../shared/filecoin/real is beside the checkout, else the subset in tests/data.
. "$(dirname "$0")/lib.sh"
DIR=${FIL_PROOFS_PARAMETER_CACHE:-/var/tmp/filecoin-proof-parameters}
genuine=0
for f in "$DIR"/v28-*.vk; do
  [ -f "$f" ] || continue
  grep -qxF "$(basename "$f")" "$DIR/proofmill-test-parameters" 2>/dev/null && continue
  genuine=1
done
if [ $genuine = 0 ]; then
  echo "SKIP: no genuine Filecoin parameter files in $DIR (set FIL_PROOFS_PARAMETER_CACHE, or run curio fetch-params 2KiB)"
  exit 77
fi
DATA=$SRC/tests/data/filecoin
[ -f "$SRC/../shared/filecoin/real/seal_regression_records-v16.json" ] && DATA=$SRC/../shared/filecoin/real
"$PM" selfcheck "$DIR" --data "$DATA" --allow-missing
rc=$?
[ $rc = 0 ] && pass "selfcheck against the genuine parameters in $DIR" || fail "selfcheck: exit $rc"
finish
