# lib.sh — helpers for the tests/cli/test_*.sh black-box tests of the `proofmill` command.
# Environment (set by cmake/cli.cmake for ctest): PROOFMILL_BIN, PROOFMILL_SOURCE_DIR.
# Optional: PROOFMILL_SHARED_FIXTURES (default <source>/../shared/fixtures), SNARKJS (default
# tests/oracles/node_modules/.bin/snarkjs), CI=true (a missing oracle is then a failure).
set -u
SRC=${PROOFMILL_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PM=${PROOFMILL_BIN:-$SRC/build/proofmill}
SHARED=${PROOFMILL_SHARED_FIXTURES:-$SRC/../shared/fixtures}
SNARKJS=${SNARKJS:-$SRC/tests/oracles/node_modules/.bin/snarkjs}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pm_cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILS=0
CHECKS=0

if [ ! -x "$PM" ]; then echo "FAIL: proofmill binary not found at $PM"; exit 1; fi

pass() { CHECKS=$((CHECKS + 1)); echo "ok   $*"; }
fail() { CHECKS=$((CHECKS + 1)); FAILS=$((FAILS + 1)); echo "FAIL $*"; }
finish() {
  echo "$CHECKS checks, $FAILS failed"
  [ "$FAILS" = 0 ]
  exit $?
}

# Every fixture folder with circuit.zkey + witness.wtns + proof_det.json: the repository's
# tests/data ones, then ../shared/fixtures/bls12381/* (said when absent).
fixtures() {
  local d
  for d in "$SRC"/tests/data/*/; do
    [ -f "$d/circuit.zkey" ] && [ -f "$d/witness.wtns" ] && [ -f "$d/proof_det.json" ] && echo "${d%/}"
  done
  if [ -d "$SHARED/bls12381" ]; then
    for d in "$SHARED"/bls12381/*/; do
      [ -f "$d/circuit.zkey" ] && [ -f "$d/witness.wtns" ] && [ -f "$d/proof_det.json" ] && echo "${d%/}"
    done
  else
    echo "NOTE: $SHARED not found: only tests/data fixtures are used" >&2
  fi
}

json_str() { # json_str FILE KEY: the string value of "KEY" in a one-level JSON object
  sed -n "s/.*\"$2\": *\"\\([0-9]*\\)\".*/\\1/p" "$1" | head -n1
}

# expect_rc WANT DESC CMD...: run CMD, stdout+stderr to $TMP/out, check its exit code
expect_rc() {
  local want=$1 desc=$2
  shift 2
  "$@" >"$TMP/out" 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then pass "$desc (exit $rc)"; else fail "$desc: exit $rc, want $want"; sed 's/^/     /' "$TMP/out" | head -n 20; fi
}

# expect_msg DESC WORD...: the last command's output contains every WORD (fixed strings)
expect_msg() {
  local desc=$1 w
  shift
  for w in "$@"; do
    if ! grep -qF -- "$w" "$TMP/out"; then fail "$desc: message lacks '$w'"; sed 's/^/     /' "$TMP/out" | head -n 5; return; fi
  done
  pass "$desc: message names $*"
}

# flip_byte FILE OFFSET: XOR the byte at OFFSET with 1, in place
flip_byte() {
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

have_snarkjs() { [ -x "$SNARKJS" ] && command -v node >/dev/null; }
