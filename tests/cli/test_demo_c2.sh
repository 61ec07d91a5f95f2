#!/usr/bin/env bash
# test_demo_c2.sh — scripts/demo.sh end to end with this build's proofmill (issue #17 item 17):
# the powchain proof verified, then the 2 KiB PoRep C2 through the daemon (seal -> C1 -> seeded
# test parameters -> POST /v1/jobs over the unix socket -> job followed to "done" -> 192 proof
# bytes -> `porep verify-proof` says valid), and the "what to run next" list. Slow (the 2 KiB
# parameters: ~3 min on 2 idle cores): only with PROOFMILL_SLOW=1, else Skipped (77).
. "$(dirname "$0")/lib.sh"
[ "${PROOFMILL_SLOW:-0}" = 1 ] || { echo "SKIP: PROOFMILL_SLOW=1 runs the demo (minutes)"; exit 77; }
mkdir -p "$TMP/home"
expect_rc 0 "scripts/demo.sh" env -u XDG_STATE_HOME -u STATE_DIRECTORY HOME="$TMP/home" PROOFMILL_BIN="$PM" DEMO_DIR="$TMP/demo" \
  bash "$SRC/scripts/demo.sh"
cp "$TMP/out" "$TMP/demo.log"
# the daemon's job journal goes to the run directory, not the user's default state directory
[ -e "$TMP/home/.local/state/proofmill" ] && fail "the demo left a state directory in HOME" || pass "no state directory in HOME"
expect_msg "demo: snarkjs proof verified" "== 1/2" "OK"
expect_msg "demo: C2 job followed through the daemon" "POST /v1/jobs" "porep-c2" "done" "1/1 partitions"
expect_msg "demo: C2 proof bytes verified" "192 proof bytes" "valid"
expect_msg "demo: says what to run next" "What to run next" "--help" "cmake --install" "daemon --config"
grep -q "INVALID" "$TMP/demo.log" && fail "demo printed INVALID" || pass "no INVALID"
ls "$TMP/demo/params"/*.params >/dev/null 2>&1 && pass "parameters kept for the next run" || fail "no parameters kept"
ls -d "$TMP/demo"/run.* >/dev/null 2>&1 && fail "the run's work files were left behind" || pass "work files removed"
# a second run reuses the parameters
expect_rc 0 "scripts/demo.sh again" env PROOFMILL_BIN="$PM" DEMO_DIR="$TMP/demo" bash "$SRC/scripts/demo.sh"
expect_msg "second run" "made by an earlier run" "valid"
finish
