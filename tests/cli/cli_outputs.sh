#!/usr/bin/env bash
# cli_outputs.sh — run the main `proofmill` commands on the repository's fixtures (tests/data) and,
# when present, ../shared/fixtures, and write one line per output to a manifest:
#     <name> <sha256 of the output>
# where the output is a file the command wrote (proofs, keys, C1s, caches: hashed byte for byte) or
# its stdout+stderr and exit code (".log": timings, i.e. numbers with a fractional part and whole
# milliseconds, replaced, so only what must not change is compared). Everything is deterministic (fixed r, s or seeds).
# Used to show that a refactor leaves every output byte-identical: record a manifest with the old
# binary and with the new one, and compare (`test_cli_golden.sh` does that against the committed
# manifest tests/cli/golden/outputs.sha256).
#
# usage: cli_outputs.sh PROOFMILL_BIN OUT_DIR     (writes OUT_DIR/manifest, work files under OUT_DIR)
# Environment: PROOFMILL_SOURCE_DIR (default: this checkout), PROOFMILL_SHARED_FIXTURES (default
# <source>/../shared/fixtures), PROOFMILL_SLOW=1 adds the PoRep C2 part (2 KiB params-setup, a few
# minutes on 2 cores: prove, prove --engine, verify-proof).
set -u
PM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=$2
SRC=${PROOFMILL_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SHARED=${PROOFMILL_SHARED_FIXTURES:-$SRC/../shared/fixtures}
mkdir -p "$OUT/work"
cd "$OUT/work" || exit 2
rm -rf ./* && ln -s "$SRC/tests/data" data
[ -d "$SHARED/bls12381" ] && ln -s "$SHARED/bls12381" shared
MAN=../manifest
: >"$MAN"

# timings replaced: numbers with a fraction by "F", whole milliseconds by "N ms"
norm() { sed -E 's/[0-9]+\.[0-9]+/F/g; s/[0-9]+ ms/N ms/g'; }
# the normalised log of a command run: stdout, stderr, exit code
run() { # name cmd...
    local name=$1
    shift
    "$@" >"$name.out" 2>"$name.err"
    local rc=$?
    { norm <"$name.out"; echo "--- stderr"; norm <"$name.err"; echo "--- exit $rc"; } >"$name.log"
    rm -f "$name.out" "$name.err"
    echo "$name.log $(sha256sum <"$name.log" | cut -c1-64)" >>"$MAN"
}
# hash an output file (a missing file is recorded as such)
file() { # name path
    if [ -f "$2" ]; then echo "$1 $(sha256sum <"$2" | cut -c1-64)" >>"$MAN"; else echo "$1 missing" >>"$MAN"; fi
}
# hash a text output with its timings replaced
textfile() {
    if [ -f "$2" ]; then echo "$1 $(norm <"$2" | sha256sum | cut -c1-64)" >>"$MAN"; else echo "$1 missing" >>"$MAN"; fi
}
rs() { sed -E 's/.*"r": *"([0-9]+)".*"s": *"([0-9]+)".*/--r \1 --s \2/' "$1"; }

fixtures="data/multiplier data/powchain"
[ -d shared ] && fixtures="$fixtures shared/multiplier shared/merkle_poseidon shared/sha256_64"

# ---- snarkjs keys: prove (fixed r, s and seeded), verify, export-vk, the r1cs check, backend
for f in $fixtures; do
    n=$(echo "$f" | tr / _)
    # shellcheck disable=SC2046
    run "$n.prove" "$PM" groth16 prove "$f/circuit.zkey" "$f/witness.wtns" "$n.proof.json" "$n.public.json" --cpu $(rs "$f/proof_det_rs.json")
    file "$n.proof.json" "$n.proof.json"
    file "$n.public.json" "$n.public.json"
    run "$n.prove_seed" "$PM" groth16 prove "$f/circuit.zkey" "$f/witness.wtns" "$n.proof2.json" "$n.public2.json" --cpu --seed 7 --r1cs "$f/circuit.r1cs"
    file "$n.proof2.json" "$n.proof2.json"
    run "$n.verify" "$PM" groth16 verify "$f/verification_key.json" "$n.public.json" "$n.proof.json"
    run "$n.verify_det" "$PM" groth16 verify "$f/verification_key.json" "$f/public_det.json" "$f/proof_det.json"
    run "$n.export_vk" "$PM" groth16 export-vk "$f/circuit.zkey" "$n.vk.json"
    file "$n.vk.json" "$n.vk.json"
done

# ---- our setup (snarkjs and bellperson layouts), params prove / verify-bytes / copy
for f in data/multiplier data/powchain; do
    n=$(echo "$f" | tr / _)
    run "$n.setup_zkey" "$PM" setup "$f/circuit.r1cs" --out "$n.zkey" --seed 5
    file "$n.zkey" "$n.zkey"
    run "$n.setup_params" "$PM" groth16 setup "$f/circuit.r1cs" --out "$n.params" --seed 5
    file "$n.params" "$n.params"
    file "$n.params.vk" "$n.vk"
    run "$n.prove_zkey" "$PM" groth16 prove "$n.zkey" "$f/witness.wtns" "$n.ourproof.json" "$n.ourpublic.json" --seed 3
    file "$n.ourproof.json" "$n.ourproof.json"
    run "$n.params_prove" "$PM" groth16 prove --params "$n.params" --r1cs "$f/circuit.r1cs" --wtns "$f/witness.wtns" --out "$n.bin" --seed 3
    file "$n.bin" "$n.bin"
    run "$n.params_prove2" "$PM" params prove --params "$n.params" --r1cs "$f/circuit.r1cs" --wtns "$f/witness.wtns" --wtns "$f/witness.wtns" --out "$n.2.bin" --seed 4
    file "$n.2.bin" "$n.2.bin"
    run "$n.verify_bytes" "$PM" groth16 verify-bytes "$n.vk" "$n.2.bin" "$f/public.json"
    run "$n.verify_batch" "$PM" params verify-bytes "$n.vk" "$n.2.bin" "$f/public.json" --batch
    run "$n.copy" "$PM" params copy "$n.params" "$n.copy.params"
    file "$n.copy.params" "$n.copy.params"
done
run params_names "$PM" params names
mkdir -p pdir && cp data_multiplier.vk pdir/
run params_check "$PM" params check pdir

# ---- synthetic R1CS
run r1cs_synth "$PM" r1cs synth --constraints 3000 --out synth.r1cs --wtns synth.wtns --seed 11 --public 3
file synth.r1cs synth.r1cs
file synth.wtns synth.wtns
run synth_setup "$PM" setup synth.r1cs --out synth.zkey --seed 2
file synth.zkey synth.zkey
run synth_prove "$PM" groth16 prove synth.zkey synth.wtns synth.proof.json synth.public.json --seed 9 --r1cs synth.r1cs
file synth.proof.json synth.proof.json

# ---- PoRep: graph, parent cache, seal, C1, circuit
run porep_info "$PM" porep info
run porep_parents "$PM" porep parents --sector-size 2KiB 0 1 17 63
run porep_parent_cache "$PM" porep parent-cache --sector-size 2KiB --out pc.cache
file pc.cache pc.cache
run porep_seal "$PM" porep seal --sector-size 2KiB --zero --out seal --ticket 0101010101010101010101010101010101010101010101010101010101010101 --seed 0202020202020202020202020202020202020202020202020202020202020202 --sector 3
file seal_c1 seal/c1.json
file seal_envelope seal/c1.lotus-bench.json
textfile seal_commitments seal/commitments.json
run porep_verify_c1 "$PM" porep verify-c1 seal/c1.json
run porep_verify_env "$PM" porep verify-c1 seal/c1.lotus-bench.json
run porep_synth_c1 "$PM" porep synth-c1 --sector-size 2KiB --out synth_c1.json --sector 4
file synth_c1 synth_c1.json
run porep_synth_c1_env "$PM" porep synth-c1 --sector-size 8MiB --out synth_c1_8m.json --envelope
file synth_c1_8m synth_c1_8m.json
run porep_circuit_info "$PM" porep circuit-info --sector-size 2KiB
run porep_circuit_info_json "$PM" porep circuit-info --sector-size 8MiB --json
run porep_circuit_record "$PM" porep circuit-record --sector-size 2KiB --out c2k.csr
file c2k.csr c2k.csr
run porep_synth "$PM" porep synth --c1 seal/c1.json --csr c2k.csr
rm -f c2k.csr pc.cache

# ---- PoRep C2 (slow: a 2 KiB parameter setup)
if [ "${PROOFMILL_SLOW:-0}" = 1 ]; then
    run porep_params_setup "$PM" porep params-setup --sector-size 2KiB --dir p2k --seed 7
    for e in params vk csr; do file "p2k.$e" p2k/*."$e"; done
    run porep_prove "$PM" porep prove --c1 seal/c1.json --params p2k --out c2.proof --seed 1
    file c2.proof c2.proof
    run porep_prove_env "$PM" porep prove --c1 seal/c1.lotus-bench.json --params p2k --out c2e.proof --seed 1
    file c2e.proof c2e.proof
    run porep_prove_engine "$PM" porep prove --c1 seal/c1.json --params p2k --out c2g.proof --seed 1 --engine
    file c2g.proof c2g.proof
    run porep_verify_proof "$PM" porep verify-proof --c1 seal/c1.json --vk p2k/*.vk --proof c2.proof
    run porep_verify_other "$PM" porep verify-proof --c1 synth_c1.json --vk p2k/*.vk --proof c2.proof
    rm -rf p2k
fi
echo "cli_outputs: $(wc -l <"$MAN") outputs recorded in $OUT/manifest"
