#!/usr/bin/env bash
# test_progress.sh — long commands show what they are doing on a terminal (issue #17 item 9,
# util/progress.h): with PROOFMILL_PROGRESS=1 (what a terminal gets, as full lines) porep seal,
# setup (.params and .zkey), groth16 prove, prove --kind and window-post params-setup/prove print periodic lines on stderr naming
# the command and the stage (partition k/n for the driver; counts for setup's queries); by default,
# with stderr not a terminal, nothing extra is printed; on a pseudo-terminal (script(1)) the line is
# redrawn in place and erased before the command's summary; PROOFMILL_PROGRESS=0 silences it there.
. "$(dirname "$0")/lib.sh"
F=$SRC/tests/data/powchain
T=$TMP
# 1 ms: the shortest command here (groth16 prove of powchain) takes ~20 ms on an idle CI machine, so
# each check still sees lines on a machine many times faster (at 10 ms it saw one or two)
export PROOFMILL_PROGRESS_MS=1
prog() { PROOFMILL_PROGRESS=1 "$@"; }
lines() { grep -c "^proofmill $1: [0-9.]* s: " "$TMP/out"; }

expect_rc 0 "porep seal" prog "$PM" porep seal --sector-size 2KiB --zero --out "$T/seal"
[ "$(lines "porep seal")" -ge 1 ] && pass "porep seal: progress lines" || fail "porep seal: no progress line"
expect_rc 0 "setup .params" prog "$PM" setup "$F/circuit.r1cs" --out "$T/k.params" --seed 5 --threads 1
[ "$(lines setup)" -ge 1 ] && pass "setup: progress lines" || fail "setup: no progress line"
grep -qE "^proofmill setup: .*(QAP|tables|query|writing)" "$TMP/out" && pass "setup: names its stage" || fail "setup: no stage named"
expect_rc 0 "setup .zkey" prog "$PM" setup "$F/circuit.r1cs" --out "$T/k.zkey" --seed 5 --threads 1
[ "$(lines setup)" -ge 1 ] && pass "setup .zkey: progress lines" || fail "setup .zkey: no progress line"
expect_rc 0 "groth16 prove" prog "$PM" groth16 prove "$F/circuit.zkey" "$F/witness.wtns" "$T/p.json" "$T/pub.json" --threads 1 -v
[ "$(lines "groth16 prove")" -ge 1 ] && pass "groth16 prove: progress lines" || fail "groth16 prove: no progress line"
grep -q "total" "$TMP/out" && pass "groth16 prove -v: stage table still printed" || fail "groth16 prove -v: no table"
expect_rc 0 "prove --kind snarkjs" prog "$PM" prove --kind snarkjs --key "$F/circuit.zkey" --out "$T/p2.json" --threads 1 "$F/witness.wtns"
grep -q "^proofmill prove: .*partition 1/1: " "$TMP/out" && pass "prove: names the partition" || fail "prove: no partition named"
# the PoSt kinds (#16): window-post params-setup names the setup's stages, prove the partition
expect_rc 0 "window-post gen" "$PM" window-post gen --sector-size 2KiB --out "$T/wd.json"
expect_rc 0 "window-post params-setup" prog "$PM" window-post params-setup --sector-size 2KiB --dir "$T/wp" --seed 5
grep -qE "^proofmill window-post params-setup: .*(recording|QAP|tables|query|writing)" "$TMP/out" &&
  pass "window-post params-setup: names its stage" || fail "window-post params-setup: no stage named"
expect_rc 0 "window-post prove" prog "$PM" window-post prove --request "$T/wd.json" --params "$T/wp" --out "$T/wd.proof" --seed 1
grep -q "^proofmill window-post prove: .*partition 1/1: " "$TMP/out" && pass "window-post prove: names the partition" ||
  fail "window-post prove: no partition named"

# not a terminal (ctest, pipes, logs): quiet
"$PM" porep seal --sector-size 2KiB --zero --out "$T/seal2" >"$TMP/out" 2>&1
[ "$(lines "porep seal")" = 0 ] && pass "not a tty: no progress" || fail "not a tty: progress printed"
cmp -s "$T/seal/c1.json" "$T/seal2/c1.json" && pass "progress changes no output" || fail "C1 differs with progress on"

# a pseudo-terminal: redrawn in place, erased before the summary; PROOFMILL_PROGRESS=0 silences it
if command -v script >/dev/null; then
  script -qec "'$PM' porep seal --sector-size 2KiB --zero --out '$T/seal3'" /dev/null >"$TMP/out" 2>&1
  grep -q $'\r\033\[Kproofmill porep seal: ' "$TMP/out" && pass "tty: line redrawn in place" || fail "tty: no in-place progress"
  grep -q $'\033\[Ksealed ' "$TMP/out" && pass "tty: erased before the summary" || fail "tty: summary not after an erase"
  PROOFMILL_PROGRESS=0 script -qec "'$PM' porep seal --sector-size 2KiB --zero --out '$T/seal4'" /dev/null >"$TMP/out" 2>&1
  grep -q "proofmill porep seal: " "$TMP/out" && fail "PROOFMILL_PROGRESS=0: progress printed" || pass "PROOFMILL_PROGRESS=0: quiet on a tty"
else
  echo "NOTE: script(1) not found: the pseudo-terminal checks are not run"
fi
finish
