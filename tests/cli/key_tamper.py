#!/usr/bin/env python3
"""key_tamper.py IN OUT OP -- write a copy of a snarkjs BLS12-381 .zkey (or a bellperson .params)
with one fault (tests of issue #17 item 4: an inconsistent key is named as such, not blamed on the
witness).
OP: neg-delta (delta_1 and delta_2 negated), neg-delta2 (delta_2 only), neg-alpha (alpha_1),
    nonsub-A:I (A query point I, section 5, replaced by a curve point outside the order-r subgroup),
    nonsub-IC:I (IC point I, section 3, likewise),
    params-neg-delta2 (a .params: vk delta_g2 negated; uncompressed big-endian points, the vk
    first: alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2).
Layout: ../shared/fixtures/FORMATS.md (points affine, Fq little-endian in Montgomery form, R = 2^384)."""
import struct
import sys

Q = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
MONT = pow(2, 384, Q)
N8Q = 48


def sections(data):
    assert data[:4] == b"zkey", "not a zkey"
    n = struct.unpack_from("<I", data, 8)[0]
    off, out = 12, {}
    for _ in range(n):
        sid, size = struct.unpack_from("<IQ", data, off)
        out[sid] = off + 12
        off += 12 + size
    return out


def neg_fq_mont(b):  # -y in Montgomery form is q - Y (Y != 0)
    y = int.from_bytes(b, "little")
    return ((Q - y) % Q).to_bytes(N8Q, "little")


def g1_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % Q == 0:
        return None
    if p1 == p2:
        lam = 3 * x1 * x1 * pow(2 * y1, Q - 2, Q) % Q
    else:
        lam = (y2 - y1) * pow(x2 - x1, Q - 2, Q) % Q
    x3 = (lam * lam - x1 - x2) % Q
    return (x3, (lam * (x1 - x3) - y1) % Q)


def g1_mul(p, k):
    acc = None
    while k:
        if k & 1:
            acc = g1_add(acc, p)
        p = g1_add(p, p)
        k >>= 1
    return acc


def non_subgroup_g1():
    x = 1
    while True:
        rhs = (x ** 3 + 4) % Q
        y = pow(rhs, (Q + 1) // 4, Q)
        if y * y % Q == rhs and g1_mul((x, y), R_ORDER) is not None:
            return x, y
        x += 1


def enc_g1(p):
    return b"".join((v * MONT % Q).to_bytes(N8Q, "little") for v in p)


def main():
    src, dst, op = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    if op == "params-neg-delta2":
        for c in (672 + 96, 672 + 144):
            y = int.from_bytes(data[c:c + 48], "big")
            data[c:c + 48] = ((Q - y) % Q).to_bytes(48, "big")
        open(dst, "wb").write(bytes(data))
        return
    sec = sections(data)
    h = sec[2]
    n8q = struct.unpack_from("<I", data, h)[0]
    assert n8q == N8Q, "not BLS12-381"
    o = h + 4 + 48 + 4 + 32 + 12  # after nVars, nPublic, domainSize
    alpha1, beta1, beta2, gamma2, delta1, delta2 = o, o + 96, o + 192, o + 384, o + 576, o + 672
    if op in ("neg-delta", "neg-alpha"):
        g1 = delta1 if op == "neg-delta" else alpha1
        data[g1 + 48:g1 + 96] = neg_fq_mont(data[g1 + 48:g1 + 96])
    if op in ("neg-delta", "neg-delta2"):  # G2 y = (c0, c1) at +96
        for c in (96, 144):
            data[delta2 + c:delta2 + c + 48] = neg_fq_mont(data[delta2 + c:delta2 + c + 48])
    if op.startswith("nonsub-"):
        which, idx = op[7:].split(":")
        base = sec[{"A": 5, "IC": 3}[which]] + 96 * int(idx)
        data[base:base + 96] = enc_g1(non_subgroup_g1())
    open(dst, "wb").write(bytes(data))


main()
