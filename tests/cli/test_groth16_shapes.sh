#!/usr/bin/env bash
# test_groth16_shapes.sh — proofmill on circuits it has never seen: the degenerate and boundary
# shapes of tests/data/shapes/*.circom, compiled, set up and proven from scratch at test time
# with circom2 + snarkjs (tests/oracles). Nothing generated is kept: one small BLS12-381
# powers of tau (2^6, fixed entropy) is made in the temp dir and shared by every shape.
# Per shape:
#  - `snarkjs r1cs info` gives nWires / nConstraints / nPublic; with the zkey header's domainSize
#    they must equal the shape's expected counts (so a circom change cannot silently move a shape
#    off the boundary it is there to test);
#  - a random proofmill proof is accepted by `snarkjs groth16 verify` and by `proofmill groth16
#    verify`;
#  - with fixed r, s the proof and public signals equal, byte for byte, snarkjs's own proof for
#    the same r, s (tests/data/prove_fixed_rs.cjs);
#  - `proofmill groth16 export-vk` equals snarkjs's verification_key.json byte for byte;
#  - proving with --r1cs (constraint check path) succeeds and gives the same proof;
#  - proofmill's own `groth16 setup` of the .r1cs gives a key whose proofs snarkjs accepts.
# Without snarkjs / circom2 / node: exit 77 (ctest shows SKIPPED) — or, under CI=true, a loud failure.
. "$(dirname "$0")/lib.sh"

CIRCOM=${CIRCOM:-$(dirname "$SNARKJS")/circom2}
if ! have_snarkjs || [ ! -x "$CIRCOM" ]; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: snarkjs/circom2 oracle missing at $SNARKJS / $CIRCOM (run scripts/install-deps.sh / npm ci in tests/oracles)"
    exit 1
  fi
  echo "SKIPPED: snarkjs/circom2 oracle missing at $SNARKJS / $CIRCOM (npm ci in tests/oracles); set CI=true to make this fail"
  exit 77
fi
ORACLES=$(cd "$(dirname "$SNARKJS")/../.." && pwd) # the folder holding node_modules/snarkjs
SHAPES_DIR=$SRC/tests/data/shapes

# name:circom file:circom flags:nWires:nConstraints:nPublic:domainSize. Domain = the smallest
# power of two >= nConstraints + nPublic + 1 (snarkjs adds one A row per public signal and
# wire 0); see each .circom for what its shape tests.
SHAPES="
nopub:nopub::7:5:0:8
manypub:manypub::41:2:40:64
bound_lo:bound_lo::31:28:2:32
bound_eq:bound_eq::32:29:2:32
bound_hi:bound_hi::33:30:2:64
linear_O0:linear:--O0:10:7:5:16
zeros:zeros::10:7:2:16
extremes:extremes::9:6:5:16
single:single::3:1:1:4
unused_O0:unused:--O0:7:2:1:4
unused_O2:unused:--O2:4:1:1:4
tiny:tiny::4:1:0:2
noconstraint:noconstraint::2:0:1:2
empty:empty::1:0:0:2
"
POWER=6 # 2^6 = 64: the largest domain above

R=12345678901234567890123456789012345678901234567890123456789012345678901234567
S=9876543210987654321098765432109876543210987654321098765432109876543210987654

# quiet CMD...: run CMD with its output in $TMP/tool.log; on failure show the log
quiet() {
  "$@" >"$TMP/tool.log" 2>&1 && return 0
  sed 's/^/     /' "$TMP/tool.log" | tail -n 20
  return 1
}

# r1cs_count FILE WORD: the number after "# of WORD:" in `snarkjs r1cs info`
r1cs_count() { sed "s/\x1b\[[0-9;]*m//g" "$1" | sed -n "s/.*# of $2: *\([0-9]*\).*/\1/p" | head -n1; }

# u32_at FILE OFFSET: the little-endian u32 at OFFSET
u32_at() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

# zkey_domain FILE: domainSize from the zkey's section 2 (groth16 header: n8q, q, n8r, r, nVars,
# nPublic, domainSize), found by walking the section table (type u32, size u64, data)
zkey_domain() {
  local n off=12 i type size
  n=$(u32_at "$1" 8)
  for ((i = 0; i < n; i++)); do
    type=$(u32_at "$1" "$off")
    size=$(od -An -tu8 -j $((off + 4)) -N8 "$1" | tr -d ' ')
    if [ "$type" = 2 ]; then
      local n8q n8r
      n8q=$(u32_at "$1" $((off + 12)))
      n8r=$(u32_at "$1" $((off + 12 + 4 + n8q)))
      u32_at "$1" $((off + 12 + 4 + n8q + 4 + n8r + 8))
      return
    fi
    off=$((off + 12 + size))
  done
}

t_start=$(date +%s)
PT=$TMP/ptau
mkdir -p "$PT"
if quiet "$SNARKJS" powersoftau new bls12381 $POWER "$PT/pot0.ptau" &&
   quiet "$SNARKJS" powersoftau contribute "$PT/pot0.ptau" "$PT/pot1.ptau" --name=shapes -e="proofmill shapes test entropy" &&
   quiet "$SNARKJS" powersoftau prepare phase2 "$PT/pot1.ptau" "$PT/final.ptau"; then
  pass "powers of tau 2^$POWER (bls12381) in $(($(date +%s) - t_start)) s"
else
  fail "powers of tau 2^$POWER: snarkjs failed"
  finish
fi

for entry in $SHAPES; do
  IFS=: read -r name file flags want_nw want_nc want_npub want_dom <<<"$entry"
  d=$TMP/$name
  mkdir -p "$d"
  t0=$(date +%s)
  # 1. compile, witness, setup, vk (the oracles' own pipeline)
  # shellcheck disable=SC2086 # flags is empty or one word
  if ! (cd "$d" && quiet "$CIRCOM" "$SHAPES_DIR/$file.circom" --r1cs --wasm --prime bls12381 $flags -o "$d"); then
    fail "$name: circom2 $flags failed"; continue
  fi
  if ! quiet node "$d/${file}_js/generate_witness.js" "$d/${file}_js/$file.wasm" "$SHAPES_DIR/$file.input.json" "$d/w.wtns"; then
    fail "$name: witness generation failed"; continue
  fi
  if ! quiet "$SNARKJS" groth16 setup "$d/$file.r1cs" "$PT/final.ptau" "$d/k0.zkey" ||
     ! quiet "$SNARKJS" zkey contribute "$d/k0.zkey" "$d/key.zkey" --name=shapes -e="proofmill shapes $name" ||
     ! quiet "$SNARKJS" zkey export verificationkey "$d/key.zkey" "$d/vk.json"; then
    fail "$name: snarkjs setup failed"; continue
  fi
  "$SNARKJS" r1cs info "$d/$file.r1cs" >"$d/info.txt" 2>&1
  nw=$(r1cs_count "$d/info.txt" Wires)
  nc=$(r1cs_count "$d/info.txt" Constraints)
  npub=$(( $(r1cs_count "$d/info.txt" "Public Inputs") + $(r1cs_count "$d/info.txt" Outputs) ))
  dom=$(zkey_domain "$d/key.zkey")
  if [ "$nw" = "$want_nw" ] && [ "$nc" = "$want_nc" ] && [ "$npub" = "$want_npub" ] && [ "$dom" = "$want_dom" ]; then
    pass "$name: nWires $nw, nConstraints $nc, nPublic $npub, nConstraints + nPublic + 1 = $((nc + npub + 1)), domain $dom"
  else
    fail "$name: shape moved: nWires $nw (want $want_nw), nConstraints $nc (want $want_nc), nPublic $npub (want $want_npub), domain $dom (want $want_dom)"
  fi

  # 2. a random proof, judged by both verifiers
  expect_rc 0 "$name: proofmill prove" "$PM" groth16 prove "$d/key.zkey" "$d/w.wtns" "$d/p.json" "$d/x.json" --threads 2
  if "$SNARKJS" groth16 verify "$d/vk.json" "$d/x.json" "$d/p.json" >"$TMP/out" 2>&1 && grep -q "OK!" "$TMP/out"; then pass "$name: snarkjs verify accepts proofmill's proof"
  else fail "$name: snarkjs verify rejects proofmill's proof"; sed 's/^/     /' "$TMP/out" | tail -n 5; fi
  expect_rc 0 "$name: proofmill verify accepts it" "$PM" groth16 verify "$d/vk.json" "$d/x.json" "$d/p.json"

  # 3. fixed r, s: byte-identical to snarkjs's prover with the same r, s
  if quiet node "$SRC/tests/data/prove_fixed_rs.cjs" "$ORACLES" bls12381 "$d/key.zkey" "$d/w.wtns" "$d/sj_p.json" "$d/sj_x.json" "$R" "$S"; then
    expect_rc 0 "$name: proofmill prove --r --s" "$PM" groth16 prove "$d/key.zkey" "$d/w.wtns" "$d/det_p.json" "$d/det_x.json" --r "$R" --s "$S" --threads 2
    if cmp -s "$d/det_p.json" "$d/sj_p.json" && cmp -s "$d/det_x.json" "$d/sj_x.json"; then
      pass "$name: fixed r, s proof and public signals equal snarkjs's byte for byte"
    else
      fail "$name: fixed r, s proof differs from snarkjs's"
      diff "$d/det_p.json" "$d/sj_p.json" | head -n 8 | sed 's/^/     /'
      diff "$d/det_x.json" "$d/sj_x.json" | head -n 8 | sed 's/^/     /'
    fi
  else
    fail "$name: snarkjs fixed r, s prove failed"
  fi

  # 4. export-vk
  expect_rc 0 "$name: proofmill export-vk" "$PM" groth16 export-vk "$d/key.zkey" "$d/pm_vk.json"
  if cmp -s "$d/pm_vk.json" "$d/vk.json"; then pass "$name: export-vk equals snarkjs's verification_key.json byte for byte"
  else fail "$name: export-vk differs from snarkjs's"; diff "$d/pm_vk.json" "$d/vk.json" | head -n 8 | sed 's/^/     /'; fi

  # 5. the constraint-check path
  expect_rc 0 "$name: proofmill prove --r1cs" "$PM" groth16 prove "$d/key.zkey" "$d/w.wtns" "$d/r_p.json" "$d/r_x.json" --r1cs "$d/$file.r1cs" --r "$R" --s "$S" --threads 2
  if cmp -s "$d/r_p.json" "$d/det_p.json"; then pass "$name: --r1cs proof equals the proof without it"
  else fail "$name: --r1cs proof differs"; fi

  # 6. proofmill's own trusted setup of the same .r1cs, judged by snarkjs
  expect_rc 0 "$name: proofmill groth16 setup" "$PM" groth16 setup "$d/$file.r1cs" --out "$d/own.zkey" --seed 7
  expect_rc 0 "$name: prove with proofmill's key (--r1cs)" "$PM" groth16 prove "$d/own.zkey" "$d/w.wtns" "$d/o_p.json" "$d/o_x.json" --r1cs "$d/$file.r1cs" --threads 2
  "$PM" groth16 export-vk "$d/own.zkey" "$d/own_vk.json" >/dev/null 2>&1
  if "$SNARKJS" groth16 verify "$d/own_vk.json" "$d/o_x.json" "$d/o_p.json" >"$TMP/out" 2>&1 && grep -q "OK!" "$TMP/out"; then pass "$name: snarkjs verify accepts the proof under proofmill's own key"
  else fail "$name: snarkjs verify rejects the proof under proofmill's own key"; sed 's/^/     /' "$TMP/out" | tail -n 5; fi
  echo "     ($name: $(($(date +%s) - t0)) s)"
  rm -rf "$d"
done
echo "total $(($(date +%s) - t_start)) s"
finish
