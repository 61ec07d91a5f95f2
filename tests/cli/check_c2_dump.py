#!/usr/bin/env python3
"""check_c2_dump.py DUMP CSR [SEED] — an independent reader of `proofmill porep partition-dump`'s file
(layout: src/cli/cmd_porep_dump.c) against the recorded circuit's .csr header and bitmaps
(circuits/csr_file.h), in Python integers (no proofmill code):
  - the header, every array's length and the file's exact size;
  - r and s are field elements below the BLS12-381 scalar modulus, and w[0] (the input ONE) is 1;
  - a·b = c (mod r) on every input row (a = w_i, b = c = 0) and on a seeded sample of 4000 circuit rows
    plus the first and last rows (values are Montgomery: aR · bR = cR · R);
  - the three density bitmaps are the .csr's, their popcounts the header's, no bit past the end.
Exit 0 when all hold; 1 with the first failure. The sample's seed is printed."""
import random
import struct
import sys

R_MOD = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
MONT_R = pow(2, 256, R_MOD)


def fail(msg):
    print("check_c2_dump: FAIL: " + msg)
    sys.exit(1)


def main():
    dump, csr = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else random.randrange(1 << 30)
    print("check_c2_dump: sample seed %d" % seed)
    d = open(dump, "rb").read()
    if d[:8] != b"PMC2DMP1":
        fail("magic %r" % d[:8])
    rows, inp, aux, pa, pbi, pba, part, sd = struct.unpack_from("<8Q", d, 8)
    words = lambda bits: (bits + 63) // 64
    off = 72
    fr = lambda o: int.from_bytes(d[o:o + 32], "little")
    r, s = fr(off), fr(off + 32)
    off += 64
    a_off, b_off, c_off = off, off + 32 * rows, off + 64 * rows
    w_off = off + 96 * rows
    dens_off = w_off + 32 * (inp + aux)
    size = dens_off + 8 * (2 * words(aux) + words(inp))
    if len(d) != size:
        fail("file is %d bytes; the header says %d" % (len(d), size))
    if not (0 < r < R_MOD and 0 < s < R_MOD):
        fail("r or s is not a non-zero field element")
    if fr(w_off) != MONT_R:
        fail("w[0] is not ONE (Montgomery)")
    n = rows - inp

    def row_ok(i):
        a, b, c = fr(a_off + 32 * i), fr(b_off + 32 * i), fr(c_off + 32 * i)
        if max(a, b, c) >= R_MOD:
            fail("row %d: a value >= r" % i)
        return (a * b) % R_MOD == (c * MONT_R) % R_MOD

    for i in range(inp):
        if fr(a_off + 32 * (n + i)) != fr(w_off + 32 * i) or fr(b_off + 32 * (n + i)) or fr(c_off + 32 * (n + i)):
            fail("input row %d is not (w_%d, 0, 0)" % (n + i, i))
    rng = random.Random(seed)
    sample = [0, n - 1] + [rng.randrange(n) for _ in range(4000)]
    for i in sample:
        if not row_ok(i):
            fail("row %d: a*b != c" % i)
    # the .csr (circuits/csr_file.h): a 128-byte header, then A, B, C (row_ptr, col, coef or coef_idx),
    # the v2 coefficient table and the bitmaps a_aux, b_input, b_aux, every array at a multiple of 64
    c = open(csr, "rb").read()
    version, n_rows, n_cols, n_inputs = struct.unpack_from("<4I", c, 8)
    nnz = struct.unpack_from("<3Q", c, 24)
    n_tab = struct.unpack_from("<I", c, 56)[0]
    if n_rows != n or n_inputs != inp or n_cols != inp + aux:
        fail("the .csr has %d rows, %d columns, %d inputs; the dump %d, %d, %d" % (n_rows, n_cols, n_inputs, n, inp + aux, inp))
    al = lambda x: (x + 63) & ~63
    pos = 128
    for k in range(3):
        pos = al(pos) + 8 * (n_rows + 1)
        pos = al(pos) + 4 * nnz[k]
        pos = al(pos) + (4 if version == 2 else 32) * nnz[k]
    if version == 2:
        pos = al(pos) + 32 * n_tab
    dp = dens_off
    for bits in (aux, inp, aux):
        pos = al(pos)
        if c[pos:pos + 8 * words(bits)] != d[dp:dp + 8 * words(bits)]:
            fail("the density bitmaps differ from the .csr's (.csr offset %d)" % pos)
        pos += 8 * words(bits)
        dp += 8 * words(bits)
    if pos != len(c):
        fail("the .csr does not end after its bitmaps (layout misread)")
    pos = dens_off
    for name, bits, want in (("a_aux", aux, pa), ("b_inp", inp, pbi), ("b_aux", aux, pba)):
        ws = struct.unpack_from("<%dQ" % words(bits), d, pos)
        if sum(bin(x).count("1") for x in ws) != want:
            fail("%s popcount differs from the header's %d" % (name, want))
        if bits % 64 and ws[-1] >> (bits % 64):
            fail("%s has bits past its end" % name)
        pos += 8 * words(bits)
    print("check_c2_dump: ok: partition %d, seed %d: %d rows (%d checked), %d inputs, %d aux, density %d/%d/%d"
          % (part, sd, rows, len(sample) + inp, inp, aux, pa, pbi, pba))


main()
