#!/usr/bin/env bash
# The CLI's outputs are byte-identical to those of a0e0fb1 (before issue #12's refactor): every
# output cli_outputs.sh records (proofs with fixed r, s or seeds, keys, C1 files, caches, and the
# normalised logs of each command) against tests/cli/golden/outputs.sha256. Entries the golden has
# but this run does not (the ../shared/fixtures ones when absent, the PoRep C2 ones unless
# PROOFMILL_SLOW=1) are counted as not run; an output this run has and the golden does not is a
# failure (a command added to cli_outputs.sh needs its hash recorded with a build known to be right:
#   bash tests/cli/cli_outputs.sh build/proofmill /tmp/out  ->  /tmp/out/manifest).
. "$(dirname "$0")/lib.sh"
GOLD=$SRC/tests/cli/golden/outputs.sha256
PROOFMILL_SOURCE_DIR=$SRC bash "$SRC/tests/cli/cli_outputs.sh" "$PM" "$TMP/run" >"$TMP/run.log" 2>&1 || {
  fail "cli_outputs.sh failed"; tail -20 "$TMP/run.log"; finish; }
notrun=0
while read -r name hash; do
  case $name in '#'*|'') continue ;; esac
  got=$(awk -v n="$name" '$1 == n {print $2}' "$TMP/run/manifest")
  if [ -z "$got" ]; then notrun=$((notrun + 1))
  elif [ "$got" = "$hash" ]; then pass "$name"
  else fail "$name differs from a0e0fb1's"; fi
done <"$GOLD"
while read -r name hash; do
  grep -q "^$name " "$GOLD" || fail "$name: no golden hash (record it)"
done <"$TMP/run/manifest"
echo "$notrun golden outputs not produced by this run (shared fixtures absent or PROOFMILL_SLOW unset)"
finish
