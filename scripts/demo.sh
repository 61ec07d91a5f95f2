#!/usr/bin/env bash
# Builds proofmill on a fresh Debian 12 machine and runs the main job on the embedded input:
# proves tests/data/powchain (a circom circuit with its snarkjs .zkey and .wtns) with proofmill,
# verifies the proof with proofmill, and with snarkjs when the oracles are installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target proofmill
fx=tests/data/powchain
out=$(mktemp -d)
"$build/proofmill" groth16 prove -v "$fx/circuit.zkey" "$fx/witness.wtns" "$out/proof.json" "$out/public.json"
"$build/proofmill" groth16 verify "$fx/verification_key.json" "$out/public.json" "$out/proof.json"
if [ -x tests/oracles/node_modules/.bin/snarkjs ]; then
  tests/oracles/node_modules/.bin/snarkjs groth16 verify "$fx/verification_key.json" "$out/public.json" "$out/proof.json" | sed "s/\x1b\[[0-9;]*m//g"
fi
echo "demo: proof and public inputs in $out"
