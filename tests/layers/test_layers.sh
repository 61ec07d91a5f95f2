#!/usr/bin/env bash
# test_layers.sh — the include order of ARCHITECTURE.md holds over src/ (check_layers.sh with the
# layer list of the top-level CMakeLists.txt, passed as arguments), and the check itself catches a
# planted upward include, an internal header of another layer, and a file in no layer (a check
# that cannot fail proves nothing).
# usage: test_layers.sh SRC_DIR RANK...
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$1
shift
fails=0
if bash "$here/check_layers.sh" "$src" "$@"; then echo "ok   src/ keeps the layer order"; else echo "FAIL src/ breaks the layer order"; fails=1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pm_layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/util" "$tmp/src/field" "$tmp/src/gpu" "$tmp/src/groth16" "$tmp/src/r1cs"
printf '#include "util/error.h"\n#include "x.h"\n' >"$tmp/src/field/fp.c"
printf '#include "field/fp.h"\n' >"$tmp/src/util/ok.c"
expect_fail() { # what, then the file to plant and its text
    local what=$1 file=$2 text=$3 out
    printf '%s\n' "$text" >"$tmp/src/$file"
    out=$(bash "$here/check_layers.sh" "$tmp/src" util field r1cs gpu groth16 2>&1)
    if [ $? = 1 ] && [ -n "$out" ]; then echo "ok   refused: $what ($out)"; else echo "FAIL not refused: $what"; fails=1; fi
    rm -f "$tmp/src/$file"
}
rm -f "$tmp/src/util/ok.c"
bash "$here/check_layers.sh" "$tmp/src" util field r1cs gpu groth16 >/dev/null || { echo "FAIL a clean tree is refused"; fails=1; }
expect_fail "gpu includes groth16" gpu/gpu.h '#include "groth16/prover.h"'
expect_fail "util includes field" util/bad.c '#  include "field/fp.h"'
expect_fail "another layer's internal header" groth16/zkey.c '#include "r1cs/r1cs_internal.h"'
expect_fail "a file in no layer" stray.c '#include "util/error.h"'
exit $fails
