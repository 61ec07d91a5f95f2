// Deterministic snarkjs Groth16 proof: snarkjs's own prover, with the two blinding scalars it
// draws (Fr.random(), first r then s) replaced by the given decimals, so that a C prover fed the
// same r and s must produce the same bytes.
// usage: node prove_fixed_rs.cjs <oracles-dir> <curve> <zkey> <wtns> <proof.json> <public.json> <r> <s>
const path = require("path");
const fs = require("fs");
const [oracles, curveName, zkey, wtns, proofOut, pubOut, rDec, sDec] = process.argv.slice(2);
const snarkjs = require(path.join(path.resolve(oracles), "node_modules/snarkjs/build/main.cjs"));
(async () => {
  const curve = await snarkjs.curves.getCurveFromName(curveName);
  const queue = [curve.Fr.e(rDec), curve.Fr.e(sDec)];
  curve.Fr.random = () => {
    if (queue.length === 0) throw new Error("snarkjs drew more than two random scalars");
    return queue.shift();
  };
  const { proof, publicSignals } = await snarkjs.groth16.prove(zkey, wtns);
  if (queue.length !== 0) throw new Error("snarkjs drew fewer than two random scalars");
  fs.writeFileSync(proofOut, JSON.stringify(proof, null, 1));
  fs.writeFileSync(pubOut, JSON.stringify(publicSignals, null, 1));
  await curve.terminate();
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
