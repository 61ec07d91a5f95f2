// gen_noble.mjs — writes the BLS12-381 known-answer vectors in tests/vectors/*.txt.
//
// Oracles (nobody on this project wrote them): @noble/curves (points, sums, ZCash/IETF
// encodings, subgroup membership, pairings) and ffjavascript, the field/curve library under
// snarkjs (the snarkjs "LEM" point encoding of .zkey files). Run from anywhere:
//   (cd tests/oracles && npm ci) && node tests/vectors/gen_noble.mjs
// The randomness is a SHA-256 counter stream from a fixed seed, so a re-run rewrites the same
// files byte for byte; bump SEED to draw new points.
//
// File format (all files): '#' lines are comments; every other line is whitespace-separated
// tokens, the first naming the record. Integers and field elements are big-endian hex without
// 0x, field elements zero-padded to 96 hex digits (48 bytes), plain (not Montgomery) canonical
// values; scalars padded to 64 hex digits. A G1 point is 2 tokens "x y"; a G2 point is 4 tokens
// "x.c0 x.c1 y.c0 y.c1" (c0 + c1*u). The point at infinity is written with all coordinates 0.
// Byte strings (encodings) are lowercase hex of the bytes in file order.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'oracles', 'package.json'));
const { bls12_381: bls } = require('@noble/curves/bls12-381');
const { sha256 } = require('@noble/hashes/sha2');
const { getCurveFromName } = require('ffjavascript');
const pkgVersion = (name) => JSON.parse(readFileSync(
  join(here, '..', 'oracles', 'node_modules', name, 'package.json'), 'utf8')).version;
const nobleVersion = pkgVersion('@noble/curves');
const ffjsVersion = pkgVersion('ffjavascript');

const SEED = 'proofmill curve vectors v1';
const Fp = bls.fields.Fp, Fp2 = bls.fields.Fp2;
const P = Fp.ORDER, R = bls.fields.Fr.ORDER;
const G1 = bls.G1.Point, G2 = bls.G2.Point;

// ---- deterministic randomness ----
let ctr = 0;
function randBytes(n) {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 32) {
    const h = sha256(new TextEncoder().encode(`${SEED}/${ctr++}`));
    out.set(h.subarray(0, Math.min(32, n - off)), off);
  }
  return out;
}
const toBig = (u8) => BigInt('0x' + (Buffer.from(u8).toString('hex') || '0'));
const randBelow = (m) => toBig(randBytes(64)) % m;

// ---- formatting ----
const hx = (v, digits) => v.toString(16).padStart(digits, '0');
const fe = (v) => hx(v, 96);
const sc = (v) => hx(v, 64);
const bytesHex = (u8) => Buffer.from(u8).toString('hex');
function g1Tok(pt) {
  if (pt.is0()) return '0 0';
  const a = pt.toAffine();
  return `${fe(a.x)} ${fe(a.y)}`;
}
function g2Tok(pt) {
  if (pt.is0()) return '0 0 0 0';
  const a = pt.toAffine();
  return `${fe(a.x.c0)} ${fe(a.x.c1)} ${fe(a.y.c0)} ${fe(a.y.c1)}`;
}
const mulG = (G, k) => (k % R === 0n ? G.ZERO : G.BASE.multiply(k % R));

// ---- our own ZCash encoder (for invalid points noble refuses to encode); checked against
// noble's toBytes on every valid point below ----
const half = (P - 1n) / 2n;
const be48 = (v) => Uint8Array.from(Buffer.from(fe(v), 'hex'));
function zcashEnc(coords, sortBit, compressed, infinity) {
  // coords: list of Fp integers in file order (x only when compressed)
  const out = new Uint8Array(48 * coords.length);
  coords.forEach((c, i) => out.set(be48(c), 48 * i));
  if (compressed) out[0] |= 0x80;
  if (infinity) out[0] |= 0x40;
  if (sortBit) out[0] |= 0x20;
  return out;
}
const g1Sign = (y) => y > half;
const g2Sign = (y) => (y.c1 !== 0n ? y.c1 > half : y.c0 > half);
function encG1(x, y, compressed) {
  return compressed ? zcashEnc([x], g1Sign(y), true, false) : zcashEnc([x, y], false, false, false);
}
function encG2(x, y, compressed) {
  return compressed ? zcashEnc([x.c1, x.c0], g2Sign(y), true, false)
                    : zcashEnc([x.c1, x.c0, y.c1, y.c0], false, false, false);
}

// ---- snarkjs LEM via ffjavascript ----
const ff = await getCurveFromName('bls12381', true);
function lemG1(pt) {
  const buf = new Uint8Array(96);
  if (pt.is0()) return buf;
  const a = pt.toAffine();
  ff.G1.toRprLEM(buf, 0, ff.G1.fromObject([a.x, a.y]));
  return buf;
}
function lemG2(pt) {
  const buf = new Uint8Array(192);
  if (pt.is0()) return buf;
  const a = pt.toAffine();
  ff.G2.toRprLEM(buf, 0, ff.G2.fromObject([[a.x.c0, a.x.c1], [a.y.c0, a.y.c1]]));
  return buf;
}
// Montgomery little-endian of a raw integer (possibly >= p, for invalid vectors): v*2^384 mod p
// only makes sense for v < p, so invalid "x >= p" LEM vectors write the raw limbs instead.
function rawLE48(v) {
  return Uint8Array.from(Buffer.from(fe(v), 'hex')).reverse();
}
const montLE = (v) => rawLE48((v << 384n) % P);

function nobleRejects(G, u8) {
  try {
    G.fromHex(bytesHex(u8));
  } catch (e) {
    return true;
  }
  return false;
}

// ---- points off the subgroup and x's off the curve ----
function g1OnCurveNotInG() {
  for (;;) {
    const x = randBelow(P);
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 4n);
    let y;
    try { y = Fp.sqrt(rhs); } catch { continue; }
    const pt = G1.fromAffine({ x, y });
    if (!pt.isTorsionFree()) return pt;
  }
}
function g1XNotOnCurve() {
  for (;;) {
    const x = randBelow(P);
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 4n);
    try { Fp.sqrt(rhs); } catch { return x; }
  }
}
const B2 = Fp2.fromBigTuple([4n, 4n]);
const rand2 = () => Fp2.fromBigTuple([randBelow(P), randBelow(P)]);
function g2OnCurveNotInG() {
  for (;;) {
    const x = rand2();
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);
    let y;
    try { y = Fp2.sqrt(rhs); } catch { continue; }
    if (y === undefined) continue;
    const pt = G2.fromAffine({ x, y });
    if (!pt.isTorsionFree()) return pt;
  }
}
function g2XNotOnCurve() {
  for (;;) {
    const x = rand2();
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);
    let y;
    try { y = Fp2.sqrt(rhs); } catch { return x; }
    if (y === undefined) return x;
  }
}

const header = (what, lines) => [
  `# ${what}`,
  `# generated by tests/vectors/gen_noble.mjs (seed "${SEED}") with @noble/curves ${nobleVersion}` +
    ` and ffjavascript ${ffjsVersion}; do not edit.`,
  '# Format: see the head of gen_noble.mjs. Field elements: 96 hex digits, big-endian, plain.',
  ...lines.map((l) => `# ${l}`),
];

const edgeScalars = [0n, 1n, 2n, 3n, R - 1n, R - 2n, (R - 1n) / 2n, 1n << 128n, (1n << 255n) - 19n,
  (1n << 255n) + 1n, (1n << 256n) - 1n, R, R + 1n];

// ================= G1 / G2 =================
function groupFile(name, G, tok, enc, lem, sign, onCurveNotInG, xNotOnCurve, flavor) {
  const L = header(`BLS12-381 ${name} vectors`, [
    'mul K PT            : PT = [K]G (G the standard generator); K may exceed r (then [K mod r]G)',
    'add A B S           : S = A + B (A, B, S points; includes A = B, A = -B and infinity)',
    'enc PT COMP UNCOMP LEM : ZCash/IETF compressed and uncompressed encodings (flags in the top',
    '                      3 bits of byte 0: 0x80 compressed, 0x40 infinity, 0x20 y lexicographically',
    '                      largest; G2 writes c1 before c0) and snarkjs LEM (x then y, each Fp 48',
    '                      bytes little-endian Montgomery form x*2^384 mod p, G2 as c0 then c1,',
    '                      infinity all zero), by noble (ZCash) and ffjavascript (LEM).',
    'bad FORMAT REASON HEX : an encoding every decoder must refuse. FORMAT is c (compressed),',
    '                      u (uncompressed) or lem; REASON is encoding (flags, length of the',
    '                      value, coordinate >= p), not-on-curve or not-in-subgroup. Every c/u',
    '                      one is also refused by noble\'s fromHex (checked by the generator) unless a',
    '                      "# noble accepts" line precedes it (noble is laxer than the ZCash format).',
  ]);
  const n = flavor === 1 ? 1 : 2; // Fp elements per coordinate
  // mul
  for (const k of edgeScalars) L.push(`mul ${sc(k)} ${tok(mulG(G, k))}`);
  for (let i = 0; i < 12; i++) {
    const k = randBelow(R);
    L.push(`mul ${sc(k)} ${tok(mulG(G, k))}`);
  }
  // add
  const rp = () => mulG(G, randBelow(R));
  for (let i = 0; i < 8; i++) {
    const a = rp(), b = rp();
    L.push(`add ${tok(a)} ${tok(b)} ${tok(a.add(b))}`);
  }
  { const a = rp(); L.push(`add ${tok(a)} ${tok(a)} ${tok(a.double())}`); }
  { const a = rp(); L.push(`add ${tok(a)} ${tok(a.negate())} ${tok(G.ZERO)}`); }
  { const a = rp(); L.push(`add ${tok(a)} ${tok(G.ZERO)} ${tok(a)}`); }
  { const a = rp(); L.push(`add ${tok(G.ZERO)} ${tok(a)} ${tok(a)}`); }
  L.push(`add ${tok(G.ZERO)} ${tok(G.ZERO)} ${tok(G.ZERO)}`);
  // enc: random points, both signs of y, the generator, infinity
  const pts = [G.BASE, G.ZERO];
  for (let i = 0; i < 10; i++) { const a = rp(); pts.push(a, a.negate()); }
  for (const pt of pts) {
    const c = pt.toBytes(true), u = pt.toBytes(false);
    if (!pt.is0()) {
      const a = pt.toAffine();
      if (bytesHex(enc(a.x, a.y, true)) !== bytesHex(c) || bytesHex(enc(a.x, a.y, false)) !== bytesHex(u))
        throw new Error('our ZCash encoder disagrees with noble');
    }
    L.push(`enc ${tok(pt)} ${bytesHex(c)} ${bytesHex(u)} ${bytesHex(lem(pt))}`);
  }
  // bad
  const bad = (fmt, why, u8, note) => {
    if (fmt !== 'lem' && !nobleRejects(G, u8)) {
      // noble decides compressed/uncompressed by length alone; the ZCash format (zkcrypto
      // bls12_381 from_compressed/from_uncompressed, which bellperson/Filecoin use) refuses these.
      if (!note) throw new Error(`noble accepted a ${why} vector: ${bytesHex(u8)}`);
      L.push(`# noble accepts the next one (${note}); the ZCash format refuses it`);
    }
    L.push(`bad ${fmt} ${why} ${bytesHex(u8)}`);
  };
  const a = rp().toAffine();
  const c = enc(a.x, a.y, true), u = enc(a.x, a.y, false);
  const mod = (u8, f) => { const v = Uint8Array.from(u8); f(v); return v; };
  bad('c', 'encoding', mod(c, (v) => { v[0] &= 0x7f; }), 'compression bit clear in a compressed encoding');
  bad('u', 'encoding', mod(u, (v) => { v[0] |= 0x80; }), 'compression bit set in an uncompressed encoding');
  bad('u', 'encoding', mod(u, (v) => { v[0] |= 0x20; }), 'sort bit set in an uncompressed encoding');
  bad('c', 'encoding', mod(c, (v) => { v[0] |= 0x40; }), 'infinity flag with x != 0');
  bad('u', 'encoding', mod(u, (v) => { v[0] |= 0x40; }), 'infinity flag with x != 0');
  { const v = new Uint8Array(48 * n); v[0] = 0xe0; bad('c', 'encoding', v, 'infinity with sort bit'); }
  { const v = new Uint8Array(48 * n); v[0] = 0xc0; v[48 * n - 1] = 1; bad('c', 'encoding', v, 'infinity with x != 0'); }
  { const v = new Uint8Array(96 * n); v[0] = 0x60; bad('u', 'encoding', v, 'infinity with sort bit'); }
  { const v = new Uint8Array(96 * n); v[0] = 0x40; v[96 * n - 1] = 1; bad('u', 'encoding', v, 'infinity with y != 0'); }
  { const v = new Uint8Array(48 * n); bad('c', 'encoding', v, 'no compression flag'); }
  // coordinates >= p: x = p, x = 2^381 - 1 (largest value the flags leave), and for G2 each half
  const withX = (u8, xs) => { const v = Uint8Array.from(u8); xs.forEach((x, i) => v.set(be48(x), 48 * i)); v[0] |= u8[0] & 0xe0; return v; };
  const big = (1n << 381n) - 1n;
  if (n === 1) {
    bad('c', 'encoding', withX(c, [P]), 'coordinate >= p');
    bad('c', 'encoding', withX(c, [big]), 'coordinate >= p');
    bad('u', 'encoding', withX(u, [P]), 'coordinate >= p');
    bad('u', 'encoding', withX(u, [a.x, P + a.y < (1n << 381n) ? P + a.y : P]), 'coordinate >= p');   // y >= p
  } else {
    bad('c', 'encoding', withX(c, [P, a.x.c0]), 'coordinate >= p');              // x.c1 = p
    bad('c', 'encoding', withX(c, [a.x.c1, P]), 'coordinate >= p');              // x.c0 = p
    bad('c', 'encoding', withX(c, [big, a.x.c0]), 'coordinate >= p');
    bad('u', 'encoding', withX(u, [a.x.c1, a.x.c0, a.y.c1, P]), 'coordinate >= p');  // y.c0 = p
    bad('u', 'encoding', withX(u, [a.x.c1, a.x.c0, P, a.y.c0]), 'coordinate >= p');  // y.c1 = p
  }
  // not on the curve
  const xn = xNotOnCurve();
  if (n === 1) {
    bad('c', 'not-on-curve', zcashEnc([xn], false, true, false));
    bad('c', 'not-on-curve', zcashEnc([xn], true, true, false));
    bad('u', 'not-on-curve', zcashEnc([a.x, Fp.add(a.y, 1n)], false, false, false));
    bad('u', 'not-on-curve', zcashEnc([0n, 0n], false, false, false), 'all zero read as infinity');
    // (0, 2) is on y^2 = x^3 + 4, a point of order 3: on the curve, not in G1
    bad('u', 'not-in-subgroup', zcashEnc([0n, 2n], false, false, false));
    bad('c', 'not-in-subgroup', zcashEnc([0n], false, true, false));
  } else {
    bad('c', 'not-on-curve', zcashEnc([xn.c1, xn.c0], false, true, false));
    bad('u', 'not-on-curve', zcashEnc([a.x.c1, a.x.c0, a.y.c1, Fp.add(a.y.c0, 1n)], false, false, false));
    bad('u', 'not-on-curve', zcashEnc([0n, 0n, 0n, 0n], false, false, false), 'all zero read as infinity');
  }
  // not in the subgroup
  for (let i = 0; i < 3; i++) {
    const q = onCurveNotInG().toAffine();
    bad('c', 'not-in-subgroup', enc(q.x, q.y, true));
    bad('u', 'not-in-subgroup', enc(q.x, q.y, false));
    // LEM of the same point: Montgomery LE of each Fp in c0,c1 order
    const coords = n === 1 ? [q.x, q.y] : [q.x.c0, q.x.c1, q.y.c0, q.y.c1];
    const v = new Uint8Array(48 * coords.length);
    coords.forEach((x, j) => v.set(montLE(x), 48 * j));
    bad('lem', 'not-in-subgroup', v);
  }
  // LEM invalid: a limb value >= p (raw), not on curve
  {
    const good = lem(mulG(G, randBelow(R)));
    const v = Uint8Array.from(good); v.set(rawLE48(P), 0); bad('lem', 'encoding', v);
    const w = Uint8Array.from(good); w.set(rawLE48((1n << 384n) - 1n), 48); bad('lem', 'encoding', w);
    const x = Uint8Array.from(good); x[48 * n] ^= 1; bad('lem', 'not-on-curve', x);  // y (c0) changed
    // the point (0, 2) of G1 (or x = 0 on G2) in Montgomery form is fine on curve; use y = 1
    const y = new Uint8Array(96 * n); y.set(montLE(1n), 48 * n); bad('lem', 'not-on-curve', y);
  }
  return L;
}

const g1Lines = groupFile('G1', G1, g1Tok, encG1, lemG1, g1Sign, g1OnCurveNotInG, g1XNotOnCurve, 1);
const g2Lines = groupFile('G2', G2, g2Tok, encG2, lemG2, g2Sign, g2OnCurveNotInG, g2XNotOnCurve, 2);

// ================= pairings =================
const pl = header('BLS12-381 pairing vectors: e(aP, bQ) = e(P, Q)^(ab), P, Q the generators', [
  'pair A B PA QB F0 .. F11 : PA = [A]G1 (2 tokens), QB = [B]G2 (4 tokens), F = e(PA, QB) in Fp12',
  'after the final exponentiation (noble bls12_381.pairing). The 12 Fp coefficients are in',
  'noble\'s order: c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1 c1.c0.c0 ... c1.c2.c1, where',
  'Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - (1+u)), Fp2 = Fp[u]/(u^2 + 1); Fp12.cI is the',
  'coefficient of w^I, Fp6.cJ of v^J, Fp2.cK of u^K. Plain big-endian values, 96 hex digits each.',
]);
const fp12Tok = (f) => {
  const out = [];
  for (const h of [f.c0, f.c1]) for (const t of [h.c0, h.c1, h.c2]) out.push(fe(t.c0), fe(t.c1));
  return out.join(' ');
};
const pairs = [[1n, 1n], [2n, 3n]];
for (let i = 0; i < 4; i++) pairs.push([randBelow(R - 1n) + 1n, randBelow(R - 1n) + 1n]);
for (const [A, B] of pairs) {
  const pa = mulG(G1, A), qb = mulG(G2, B);
  const f = bls.pairing(pa, qb);
  L2check(f, A, B);
  pl.push(`pair ${sc(A)} ${sc(B)} ${g1Tok(pa)} ${g2Tok(qb)} ${fp12Tok(f)}`);
}
function L2check(f, A, B) {
  // bilinearity inside the oracle itself: e(aP, bQ) == e(P, Q)^(ab)
  const base = bls.pairing(G1.BASE, G2.BASE);
  if (!bls.fields.Fp12.eql(f, bls.fields.Fp12.pow(base, (A * B) % R))) throw new Error('noble pairing not bilinear?');
}

writeFileSync(join(here, 'bls12_381_g1.txt'), g1Lines.join('\n') + '\n');
writeFileSync(join(here, 'bls12_381_g2.txt'), g2Lines.join('\n') + '\n');
writeFileSync(join(here, 'bls12_381_pairing.txt'), pl.join('\n') + '\n');
await ff.terminate();
console.log('wrote', g1Lines.length, g2Lines.length, pl.length, 'lines');
