#!/usr/bin/env python3
"""gen_curve_constants.py -- writes src/curve/curve_constants.h (run from the repo root:
   python3 src/curve/gen_curve_constants.py > src/curve/curve_constants.h).

Everything below is derived by this script from the public parameters of BLS12-381
(draft-irtf-cfrg-pairing-friendly-curves-11 section 4.2.1: p, r, the seed z, b = 4, the
generators); nothing else is pasted. Each derived constant is checked here and the script
fails loudly (AssertionError) if a check does not hold:
  - the generators lie on their curves and have order r;
  - beta is the cube root of unity in Fp for which phi(x, y) = (beta*x, y) acts on G1 as
    multiplication by -z^2 mod r (Scott, ePrint 2021/1130, section 6);
  - psi = untwist-Frobenius-twist on E'(Fp2): psi(x, y) = (conj(x)*PSI_X, conj(y)*PSI_Y),
    PSI_X = (1+u)^(-(p-1)/3), PSI_Y = (1+u)^(-(p-1)/2), acts on G2 as multiplication by z.
Field elements are written as 6 little-endian 64-bit limbs in Montgomery form (R = 2^384).
"""
import sys

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
Z = -0xd201000000010000
MONT_R = 1 << 384

assert (Z - 1) ** 2 * (Z ** 4 - Z ** 2 + 1) // 3 + Z == P
assert Z ** 4 - Z ** 2 + 1 == R_ORDER

G1X = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
G1Y = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1
G2X = (0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
       0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e)
G2Y = (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
       0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be)


class F2:
    """c0 + c1*u with u^2 = -1, plain integers mod P."""
    def __init__(self, c0, c1=0):
        self.c0, self.c1 = c0 % P, c1 % P

    def __add__(self, o): return F2(self.c0 + o.c0, self.c1 + o.c1)
    def __sub__(self, o): return F2(self.c0 - o.c0, self.c1 - o.c1)
    def __neg__(self): return F2(-self.c0, -self.c1)
    def __mul__(self, o):
        if isinstance(o, int):
            return F2(self.c0 * o, self.c1 * o)
        return F2(self.c0 * o.c0 - self.c1 * o.c1, self.c0 * o.c1 + self.c1 * o.c0)
    def __eq__(self, o): return self.c0 == o.c0 and self.c1 == o.c1
    def is_zero(self): return self.c0 == 0 and self.c1 == 0
    def conj(self): return F2(self.c0, -self.c1)
    def inv(self):
        n = pow(self.c0 * self.c0 + self.c1 * self.c1, P - 2, P)
        return F2(self.c0 * n, -self.c1 * n)
    def __pow__(self, e):
        acc, base = F2(1), self
        while e:
            if e & 1:
                acc = acc * base
            base = base * base
            e >>= 1
        return acc


class F1:
    """Fp as a class with the same interface as F2, so one set of curve formulas serves both."""
    def __init__(self, v): self.v = v % P
    def __add__(self, o): return F1(self.v + o.v)
    def __sub__(self, o): return F1(self.v - o.v)
    def __neg__(self): return F1(-self.v)
    def __mul__(self, o): return F1(self.v * (o if isinstance(o, int) else o.v))
    def __eq__(self, o): return self.v == o.v
    def is_zero(self): return self.v == 0
    def inv(self): return F1(pow(self.v, P - 2, P))


def ec_add(a, b):
    """Affine addition on y^2 = x^3 + b; None is the point at infinity."""
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2:
        if (y1 + y2).is_zero():
            return None
        lam = (x1 * x1 * 3) * (y1 * 2).inv()
    else:
        lam = (y2 - y1) * (x2 - x1).inv()
    x3 = lam * lam - x1 - x2
    return (x3, lam * (x1 - x3) - y1)


def ec_mul(pt, k):
    if k < 0:
        pt, k = (pt[0], -pt[1]), -k
    acc = None
    while k:
        if k & 1:
            acc = ec_add(acc, pt)
        pt = ec_add(pt, pt)
        k >>= 1
    return acc


def on_curve(pt, b):
    x, y = pt
    return y * y == x * x * x + b


# --- checks of the public parameters ---
g1 = (F1(G1X), F1(G1Y))
g2 = (F2(*G2X), F2(*G2Y))
B1 = F1(4)
B2 = F2(4, 4)
assert on_curve(g1, B1) and on_curve(g2, B2)
assert ec_mul(g1, R_ORDER) is None and ec_mul(g2, R_ORDER) is None

# --- beta: cube root of unity in Fp whose endomorphism is [-z^2] on G1 ---
lam = (-Z * Z) % R_ORDER
assert pow(lam, 3, R_ORDER) == 1 and lam != 1
BETA = None
for gen in range(2, 50):
    cand = pow(gen, (P - 1) // 3, P)
    if cand == 1:
        continue
    for beta in (cand, cand * cand % P):
        if ec_mul(g1, lam) == (F1(beta) * g1[0], g1[1]):
            BETA = beta
    break
assert BETA is not None and pow(BETA, 3, P) == 1 and BETA != 1

# --- psi coefficients ---
XI = F2(1, 1)
PSI_X = (XI ** ((P - 1) // 3)).inv()
PSI_Y = (XI ** ((P - 1) // 2)).inv()
psi_g2 = (g2[0].conj() * PSI_X, g2[1].conj() * PSI_Y)
assert on_curve(psi_g2, B2)
assert psi_g2 == ec_mul(g2, Z), "psi is not [z] on G2"
# psi^2(P) = [z^2]P, used by nobody yet but checked so the constants are pinned down.
psi2_g2 = (psi_g2[0].conj() * PSI_X, psi_g2[1].conj() * PSI_Y)
assert psi2_g2 == ec_mul(g2, Z * Z)


def limbs(v, mont=True):
    if mont:
        v = v * MONT_R % P
    return "{{" + ", ".join("0x%016xULL" % ((v >> (64 * i)) & (2 ** 64 - 1)) for i in range(6)) + "}}"


def fp2(v):
    return "{" + limbs(v.c0) + ", " + limbs(v.c1) + "}"


out = sys.stdout
out.write("""/*
 * curve_constants.h -- GENERATED by src/curve/gen_curve_constants.py; do not edit.
 * Regenerate: python3 src/curve/gen_curve_constants.py > src/curve/curve_constants.h
 *
 * Field elements: 6 little-endian 64-bit limbs, Montgomery form (R = 2^384), fully reduced.
 * The generator checks each constant (see its docstring) before writing it.
 * Included only by the curve layer (g1.c, g2.c, encoding.c).
 */
#ifndef PROOFMILL_CURVE_CONSTANTS_H
#define PROOFMILL_CURVE_CONSTANTS_H

#include "field/fp2.h"

/* |z| for the BLS12-381 seed z = -0xd201000000010000 (negative). */
#define CURVE_Z_ABS 0x%016xULL

/* G1 generator (draft-irtf-cfrg-pairing-friendly-curves-11 section 4.2.1). */
#define CURVE_G1_GEN_X %s
#define CURVE_G1_GEN_Y %s
/* b = 4 for G1. */
#define CURVE_G1_B %s
/* G2 generator, coordinates c0 + c1*u. */
#define CURVE_G2_GEN_X %s
#define CURVE_G2_GEN_Y %s
/* b' = 4(1+u) for G2. */
#define CURVE_G2_B %s
/* beta: primitive cube root of unity in Fp with (beta*x, y) = [-z^2](x, y) on G1. */
#define CURVE_G1_BETA %s
/* psi(x, y) = (conj(x)*PSI_X, conj(y)*PSI_Y) = [z](x, y) on G2; PSI_X = (1+u)^(-(p-1)/3),
 * PSI_Y = (1+u)^(-(p-1)/2). */
#define CURVE_G2_PSI_X %s
#define CURVE_G2_PSI_Y %s

#endif
""" % (-Z, limbs(G1X), limbs(G1Y), limbs(4), fp2(g2[0]), fp2(g2[1]), fp2(B2), limbs(BETA),
       fp2(PSI_X), fp2(PSI_Y)))
