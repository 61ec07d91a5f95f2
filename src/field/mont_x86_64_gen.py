#!/usr/bin/env python3
"""mont_x86_64_gen.py -- generates src/field/mont_x86_64.S (x86-64 BMI2+ADX Montgomery kernels).

Run from the repository root:  python3 src/field/mont_x86_64_gen.py > src/field/mont_x86_64.S

What it emits, for Fp (n = 6 limbs) and Fr (n = 4 limbs), System V AMD64 ABI, AT&T syntax:

  void pm_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
  void pm_fp_sqr_adx(uint64_t r[6], const uint64_t a[6]);
  void pm_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
  void pm_fr_sqr_adx(uint64_t r[4], const uint64_t a[4]);
  void pm_fp_add_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);   (plain x86-64, no BMI2/ADX)
  void pm_fp_sub_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
  void pm_fr_add_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
  void pm_fr_sub_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
  void pm_fr_bfly_dit_adx(uint64_t x[4], uint64_t y[4], const uint64_t w[4]);   (fused butterflies, Fr)
  void pm_fr_bfly_dif_adx(uint64_t x[4], uint64_t y[4], const uint64_t w[4]);
  void pm_fr_bflys_dit_adx(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n);
  void pm_fr_bflys_dif_adx(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n);
  void pm_fr_bfly_triv_x86(uint64_t x[4], uint64_t y[4]);                       (plain x86-64)

r = a*b*2^(-64n) mod m (resp. a^2*2^(-64n)), little-endian limbs, inputs and output fully reduced (< m);
r may alias a or b (all stores happen after the last load). The caller checks BMI2+ADX (cpu_x86.c).

Algorithm (mul): CIOS Montgomery multiplication (Koc, Acar, Kaliski 1996), one round per word b[i]:
  t += a*b[i]             n mulx, the low halves on the OF chain (adox), the high halves on CF (adcx)
  q  = t[0]*n0 mod 2^64   1 imul
  t  = (t + q*m) / 2^64   n mulx, same two carry chains; the shift is a register rename (free)
so n^2 + n^2 word products plus n imul; then one conditional subtraction of m (t < 2m).
Because m < 2^(64n-3) for both moduli, t never needs an (n+2)-th limb (the final carry of each round
is provably zero: t < 2m stays below 2^(64n) after each round; the same observation as the "no-carry"
CIOS of the gnark-crypto authors' note "Faster big-integer modular multiplication for most moduli"),
so a round keeps n+1 registers.

Algorithm (sqr): the schoolbook square with the n(n-1)/2 cross products computed once and doubled
(n(n-1)/2 + n mulx instead of n^2), into a 2n-limb product S = L + H*2^(64n); then REDC of the low
half L alone (n^2 mulx + n imul; REDC(L) <= m) plus H (< m/8 since a < m < 2^(64n-3)), which is
congruent to S*2^(-64n) and below 2m, so one conditional subtraction finishes. The product limbs are
spilled to the System V red zone (leaf function, 96 of its 128 bytes).

Add/sub: a + b < 2m < 2^(64n), so one conditional subtraction (cmov on the borrow) suffices; a - b adds
m back, selected by cmov on the borrow. No branch and no memory access depends on the values.

Butterflies (Fr only; the NTT's inner loop): DIT (x, y) = (x + w*y, x - w*y), DIF (x, y) = (x + y,
(x - y)*w), triv (x, y) = (x + y, x - y) (the twiddle 1), all mod r, inputs and outputs fully reduced.
The Montgomery product stays in registers between the multiplication and the add/sub (it is fully
reduced there, so every output is the canonical value and equals fr_mul + fr_add/fr_sub bit for
bit), and x, y, w are read once each per butterfly (DIF reads x and y twice, from L1). The plural
forms loop over n consecutive elements of the three arrays inside the kernel: one call, one
save/restore of the callee-saved registers and one dispatch per row instead of three calls per
butterfly; independent iterations give the out-of-order core work to overlap. Register budget (15
usable): DIT 3 pointers + 4 (t) + 4 (x - t) + 4 (m masked by the borrow) = 15; DIF keeps x - y in 4
registers as the multiplicand, so its multiplication takes the zero it adds with adox/adcx from
memory (.Lzero) instead of rbx. The loop end lives in the red zone. x and y must not overlap; w may
alias y (DIT: also x); w is read before any store in DIT, after the store of x in DIF.

Source of the two-carry-chain technique: Intel, "New Instructions Supporting Large Integer Arithmetic
on Intel Architecture Processors" (white paper, 2012). The code is generated here, not copied.
"""

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def limbs(x, n):
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(n)]


def n0(m):
    return (-pow(m, -1, 2**64)) % 2**64


out = []


def emit(s=""):
    out.append(s)


def ins(op, *args):
    emit("\t%s\t%s" % (op, ", ".join(args)))


def mem(base, idx):
    return "%d(%%%s)" % (8 * idx, base) if idx else "(%%%s)" % base


def modm(label, j):
    return "%s+%d(%%rip)" % (label, 8 * j)


def r(name):
    return "%" + name


SAVED = ["rbx", "rbp", "r12", "r13", "r14", "r15"]


def prologue(name, used):
    emit("\t.globl\t%s" % name)
    emit("\t.hidden\t%s" % name)
    emit("\t.type\t%s, @function" % name)
    emit("\t.p2align 5")
    emit("%s:" % name)
    emit("\t.cfi_startproc")
    pushed = [x for x in SAVED if x in used]
    for k, x in enumerate(pushed):
        ins("pushq", r(x))
        emit("\t.cfi_adjust_cfa_offset 8")
        emit("\t.cfi_offset %%%s, %d" % (x, -16 - 8 * k))
    return pushed


def epilogue(name, pushed):
    for x in reversed(pushed):
        ins("popq", r(x))
        emit("\t.cfi_adjust_cfa_offset -8")
        emit("\t.cfi_restore %%%s" % x)
    ins("ret")
    emit("\t.cfi_endproc")
    emit("\t.size\t%s, .-%s" % (name, name))
    emit()


def reduce_round(T, n, mlabel, n0label):
    """t = (t + q*m)/2^64 with q = t0*n0; T[0..n] hold t (T[n] the top limb).
    Returns the rotated register list (new t in T[1..n], T[0] free)."""
    ins("movq", r(T[0]), "%rdx")
    ins("imulq", n0label + "(%rip)", "%rdx")
    ins("xorl", "%ebx", "%ebx")  # rbx = 0, CF = OF = 0
    for j in range(n):
        ins("mulxq", modm(mlabel, j), "%rax", "%rbp")
        ins("adoxq", "%rax", r(T[j]))
        ins("adcxq", "%rbp", r(T[j + 1]))
    ins("adoxq", "%rbx", r(T[n]))
    return T[1:] + T[:1]


def final_sub(T, n, U, mlabel, dst):
    """store T[0..n-1] - m if that does not borrow, else T, into dst."""
    for j in range(n):
        ins("movq", r(T[j]), r(U[j]))
        ins("subq" if j == 0 else "sbbq", modm(mlabel, j), r(U[j]))
    for j in range(n):
        ins("cmovcq", r(T[j]), r(U[j]))
    for j in range(n):
        ins("movq", r(U[j]), mem(dst, j))


def gen_mul(name, n, mlabel, n0label):
    # rdi = r, rsi = a, rdx = b (moved to rcx); rax/rbp = lo/hi; rbx = zero; T = n+1 rotating limbs
    T = ["r8", "r9", "r10", "r11", "r12", "r13", "r14"][: n + 1]
    pushed = prologue(name, set(T) | {"rbx", "rbp"})
    ins("movq", "%rdx", "%rcx")
    # round 0: t = a*b[0] (plain add chain), then reduce
    ins("movq", mem("rcx", 0), "%rdx")
    ins("mulxq", mem("rsi", 0), r(T[0]), r(T[1]))
    for j in range(1, n):
        ins("mulxq", mem("rsi", j), "%rax", r(T[j + 1]))
        ins("addq" if j == 1 else "adcq", "%rax", r(T[j]))
    ins("adcq", "$0", r(T[n]))
    T = reduce_round(T, n, mlabel, n0label)
    for i in range(1, n):
        # t (T[0..n-1]) += a*b[i]; the top limb goes into T[n]
        ins("movq", mem("rcx", i), "%rdx")
        ins("xorl", "%ebx", "%ebx")
        for j in range(n - 1):
            ins("mulxq", mem("rsi", j), "%rax", "%rbp")
            ins("adoxq", "%rax", r(T[j]))
            ins("adcxq", "%rbp", r(T[j + 1]))
        ins("mulxq", mem("rsi", n - 1), "%rax", r(T[n]))
        ins("adoxq", "%rax", r(T[n - 1]))
        ins("adcxq", "%rbx", r(T[n]))
        ins("adoxq", "%rbx", r(T[n]))
        T = reduce_round(T, n, mlabel, n0label)
    U = ["rax", "rbp", "rbx", "rdx", "rsi", "rcx"][:n]
    final_sub(T, n, U, mlabel, "rdi")
    epilogue(name, pushed)


def gen_sqr(name, n, mlabel, n0label):
    """square: 2n-limb product then Montgomery reduction."""
    # registers: product limbs in P[0..2n-1] where possible; we use the stack (red zone) for the
    # low n limbs once they are final, since 2n = 12 limbs do not fit beside the temporaries.
    # Layout: rdi = r, rsi = a, rax/rbp lo/hi, rbx zero, rdx mulx, rcx spare.
    # Cross products a[i]*a[j] (i<j) accumulate into limbs X[1..2n-2] by rows i = 0..n-2:
    # row i multiplies a[i] by a[i+1..n-1], giving limbs i+1 .. i+n (n-i-1 products).
    # With n = 6 we hold a sliding window of n+1 registers as in the multiplication.
    W = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"][: n + 1]
    pushed = prologue(name, set(W) | {"rbx", "rbp"})
    # The cross-product sum X = sum_{i<j} a_i a_j 2^(64(i+j)) occupies limbs 1..2n-2. Compute it
    # row by row, with a window: after row i, limb i+1 is final and is spilled to the red zone.
    # Stack slots: -8*(k+1)(%rsp) for product limb k (k = 0..n-1); limbs >= n end in registers.
    # row 0: a0 * a[1..n-1] -> limbs 1..n (plain chain)
    # window Wi holds limbs (i+1) .. (i+n) for row i: n registers, plus one for the new top.
    ins("movq", mem("rsi", 0), "%rdx")
    # limbs 1..n: W[0] = limb1 ... W[n-1] = limb n
    ins("mulxq", mem("rsi", 1), r(W[0]), r(W[1]))
    for j in range(2, n):
        ins("mulxq", mem("rsi", j), "%rax", r(W[j]))
        ins("addq" if j == 2 else "adcq", "%rax", r(W[j - 1]))
    if n > 2:
        ins("adcq", "$0", r(W[n - 1]))
    # spill limb 1
    slots = {}

    def spill(reg, k):
        slots[k] = "-%d(%%rsp)" % (8 * (k + 1))  # System V red zone (128 bytes below rsp)
        ins("movq", r(reg), slots[k])

    # W currently: W[0]=limb1 .. W[n-1]=limb n, W[n] free
    spill(W[0], 1)
    win = W[1:n] + [W[n], W[0]]  # win[0..n-2] = limbs 2..n, win[n-1], win[n] free registers
    # rows i = 1 .. n-2: a[i] * a[i+1..n-1] adds into limbs 2i+1 .. i+n ; top limb i+n is new
    # win holds limbs (i+1) .. (i+n-1) in win[0..n-2] at the start of row i.
    for i in range(1, n - 1):
        ins("movq", mem("rsi", i), "%rdx")
        ins("xorl", "%ebx", "%ebx")
        # products a_i a_j for j = i+1..n-1 land at limb i+j (lo) and i+j+1 (hi).
        # limb index L maps to win[L - (i+1)].
        for j in range(i + 1, n - 1):
            lo = win[i + j - (i + 1)]
            hi = win[i + j + 1 - (i + 1)]
            ins("mulxq", mem("rsi", j), "%rax", "%rbp")
            ins("adoxq", "%rax", r(lo))
            ins("adcxq", "%rbp", r(hi))
        j = n - 1
        lo = win[i + j - (i + 1)]
        top = win[i + j + 1 - (i + 1)]  # limb i+n, new
        ins("mulxq", mem("rsi", j), "%rax", r(top))
        ins("adoxq", "%rax", r(lo))
        ins("adcxq", "%rbx", r(top))
        ins("adoxq", "%rbx", r(top))
        # limb i+1 (win[0]) is final now
        spill(win[0], i + 1)
        win = win[1:] + win[:1]
    # now win[0..n-2] hold limbs n .. 2n-2 (n-1 registers); limbs 1..n-1 are spilled.
    # X limbs: 1..n-1 in slots, n..2n-2 in win[0..n-2], limb 2n-1 = 0.
    # Double X and add the diagonal a_k^2 at limbs 2k, 2k+1, producing the full square
    # S limbs 0..2n-1. Limbs 0..n-1 go to the slots (limb 0 new), limbs n..2n-1 in registers.
    hiregs = win[: n - 1] + [win[n - 1]]  # limbs n..2n-1; hiregs[n-1] is limb 2n-1
    ins("xorl", "%ebx", "%ebx")
    ins("movq", "%rbx", r(hiregs[n - 1]))
    # double: shift left by one across all limbs 1..2n-2 (carry into 2n-1)
    # low limbs in memory: load, adcx self, store. Use rcx as a temp.
    # First pass: compute doubled limbs with a CF chain, and the diagonal with the OF chain.
    # limb k of the result = 2X_k + D_k (+ carries), D_{2k} = lo(a_k^2), D_{2k+1} = hi(a_k^2).
    for k in range(n):
        ins("movq", mem("rsi", k), "%rdx")
        ins("mulxq", "%rdx", "%rax", "%rbp")  # rax = lo(a_k^2) limb 2k, rbp = hi limb 2k+1
        for L, d in ((2 * k, "%rax"), (2 * k + 1, "%rbp")):
            if L == 0:
                # limb 0: X_0 = 0, result = D_0; no carries in yet
                slots[0] = "-8(%rsp)"
                ins("movq", d, slots[0])
                continue
            if L < n:
                ins("movq", slots[L], "%rcx")
                ins("adcxq", "%rcx", "%rcx")  # double (CF chain)
                ins("adoxq", d, "%rcx")  # add diagonal (OF chain)
                ins("movq", "%rcx", slots[L])
            else:
                reg = r(hiregs[L - n])
                ins("adcxq", reg, reg)
                ins("adoxq", d, reg)
    # final carries out of limb 2n-1 are zero (a^2 < 2^(128n)); flags are discarded.
    # Montgomery reduction of S (2n limbs): reduce the low n limbs one at a time, the window of
    # n+1 registers T: T[0..n-1] = S limbs k..k+n-1 as they are needed.
    # Load limbs 0..n-1 into registers: we need n+1 window regs plus rax, rbp, rbx, rdx, and the
    # n high limbs. For n = 6 that is too many; instead add the high half at the end:
    #   S = L + H*2^(64n); redc(S) = redc(L) + H (mod m), with redc(L) < m and H < m... no: H < 2^(64n).
    # Montgomery: redc(L) = (L + Q*m)/2^(64n) < 2m; then result = redc(L) + H, which is < m + 2m?
    # H = floor(a^2 / 2^(64n)) < m^2/2^(64n) < m/8 (since m < 2^(64n-3)), and redc(L) < m + 1,
    # so redc(L) + H < 2m: one conditional subtraction suffices.
    # Spill the high half to the stack as well (below the low half), freeing registers.
    for L in range(n, 2 * n):
        slots[L] = "-%d(%%rsp)" % (8 * (L + 1))
        ins("movq", r(hiregs[L - n]), slots[L])
    T = W[: n + 1]
    for j in range(n):
        ins("movq", slots[j], r(T[j]))
    ins("xorl", "%ebx", "%ebx")
    ins("movq", "%rbx", r(T[n]))
    # REDC of L with n rounds; the window's top limb starts at zero each round (the register
    # rotated in is the old low limb, which each round zeroes exactly).
    for i in range(n):
        T = reduce_round(T, n, mlabel, n0label)
    # T[0..n-1] = redc(L) (< 2m, top limb T[n-1]); add H
    ins("movq", slots[n], "%rax")
    ins("addq", "%rax", r(T[0]))
    for j in range(1, n):
        ins("movq", slots[n + j], "%rax")
        ins("adcq", "%rax", r(T[j]))
    U = ["rax", "rbp", "rbx", "rdx", "rcx", "rsi"][:n]
    final_sub(T, n, U, mlabel, "rdi")
    epilogue(name, pushed)


def gen_add(name, n, mlabel):
    """r = a + b mod m: a + b < 2m < 2^(64n) (no carry out), then one conditional subtraction."""
    T = ["r8", "r9", "r10", "r11", "rbx", "rbp"][:n]
    U = ["rax", "rcx", "rdx", "rsi", "r12", "r13"][:n]
    pushed = prologue(name, set(T) | set(U))
    for j in range(n):
        ins("movq", mem("rsi", j), r(T[j]))
    for j in range(n):
        ins("addq" if j == 0 else "adcq", mem("rdx", j), r(T[j]))
    final_sub(T, n, U, mlabel, "rdi")
    epilogue(name, pushed)


def gen_sub(name, n, mlabel):
    """r = a - b mod m: a - b, and m added back (selected by cmov on the borrow) when it borrowed."""
    T = ["r8", "r9", "r10", "r11", "rbx", "rbp"][:n]
    U = ["rax", "rcx", "rdx", "rsi", "r12", "r13"][:n]
    pushed = prologue(name, set(T) | set(U))
    for j in range(n):
        ins("movq", mem("rsi", j), r(T[j]))
    for j in range(n):
        ins("subq" if j == 0 else "sbbq", mem("rdx", j), r(T[j]))
    for j in range(n):  # mov does not touch the flags: U = borrow ? m : 0
        ins("movq", "$0", r(U[j]))
    for j in range(n):
        ins("cmovcq", modm(mlabel, j), r(U[j]))
    for j in range(n):
        ins("addq" if j == 0 else "adcq", r(U[j]), r(T[j]))
    for j in range(n):
        ins("movq", r(T[j]), mem("rdi", j))
    epilogue(name, pushed)


# ---- fused Fr butterflies -------------------------------------------------------------------------


def mul_core(n, a_op, b_op, T, zero, clr, mlabel, n0label):
    """CIOS product of a (a_op(j): register or memory operand) and b (b_op(i): memory operand) into
    the rotating window T (n+1 registers); uses rax, rbp (lo/hi), rdx (mulx); `zero` is a zero
    register or memory operand, `clr` the register whose 32-bit xor clears CF and OF (free at that
    point). Returns T rotated: T[0..n-1] = t < 2m (not yet reduced), T[n] free."""
    def rnd(T):
        ins("movq", r(T[0]), "%rdx")
        ins("imulq", n0label + "(%rip)", "%rdx")
        ins("xorl", clr, clr)
        for j in range(n):
            ins("mulxq", modm(mlabel, j), "%rax", "%rbp")
            ins("adoxq", "%rax", r(T[j]))
            ins("adcxq", "%rbp", r(T[j + 1]))
        ins("adoxq", zero, r(T[n]))
        return T[1:] + T[:1]

    ins("movq", b_op(0), "%rdx")
    ins("mulxq", a_op(0), r(T[0]), r(T[1]))
    for j in range(1, n):
        ins("mulxq", a_op(j), "%rax", r(T[j + 1]))
        ins("addq" if j == 1 else "adcq", "%rax", r(T[j]))
    ins("adcq", "$0", r(T[n]))
    T = rnd(T)
    for i in range(1, n):
        ins("movq", b_op(i), "%rdx")
        ins("xorl", clr, clr)
        for j in range(n - 1):
            ins("mulxq", a_op(j), "%rax", "%rbp")
            ins("adoxq", "%rax", r(T[j]))
            ins("adcxq", "%rbp", r(T[j + 1]))
        ins("mulxq", a_op(n - 1), "%rax", r(T[n]))
        ins("adoxq", "%rax", r(T[n - 1]))
        ins("adcxq", zero, r(T[n]))
        ins("adoxq", zero, r(T[n]))
        T = rnd(T)
    return T


def reduce_regs(S, U, n, mlabel):
    """U = S - m if that does not borrow, else S (S < 2m); S is kept."""
    for j in range(n):
        ins("movq", r(S[j]), r(U[j]))
        ins("subq" if j == 0 else "sbbq", modm(mlabel, j), r(U[j]))
    for j in range(n):
        ins("cmovcq", r(S[j]), r(U[j]))


def sub_fix(D, M, n, mlabel):
    """after D = a - b set the borrow: D += m when it borrowed (M: n scratch registers)."""
    for j in range(n):  # mov leaves the flags alone: M = borrow ? m : 0
        ins("movq", "$0", r(M[j]))
    for j in range(n):
        ins("cmovcq", modm(mlabel, j), r(M[j]))
    for j in range(n):
        ins("addq" if j == 0 else "adcq", r(M[j]), r(D[j]))


def store(R, base, n):
    for j in range(n):
        ins("movq", r(R[j]), mem(base, j))


def bfly_dit_body(n, mlabel, n0label):
    """rdi = x, rsi = y, rcx = w: t = w*y; y = x - t; x = x + t."""
    T = ["r8", "r9", "r10", "r11", "r12"]
    T = mul_core(n, lambda j: mem("rsi", j), lambda i: mem("rcx", i), T, "%rbx", "%ebx", mlabel, n0label)
    t = ["rax", "rbp", "rbx", "rdx"]
    reduce_regs(T[:n], t, n, mlabel)  # t fully reduced, in rax, rbp, rbx, rdx
    D = ["r8", "r9", "r10", "r11"]
    M = ["r12", "r13", "r14", "r15"]
    for j in range(n):
        ins("movq", mem("rdi", j), r(D[j]))
    for j in range(n):
        ins("subq" if j == 0 else "sbbq", r(t[j]), r(D[j]))
    sub_fix(D, M, n, mlabel)
    store(D, "rsi", n)
    for j in range(n):  # t += x (< 2m, no carry out), then reduce into D
        ins("addq" if j == 0 else "adcq", mem("rdi", j), r(t[j]))
    reduce_regs(t, D, n, mlabel)
    store(D, "rdi", n)


def bfly_dif_body(n, mlabel, n0label):
    """rdi = x, rsi = y, rcx = w: d = x - y; x = x + y; y = d*w (d stays in registers)."""
    D = ["r13", "r14", "r15", "rbx"]
    M = ["r8", "r9", "r10", "r11"]
    for j in range(n):
        ins("movq", mem("rdi", j), r(D[j]))
    for j in range(n):
        ins("subq" if j == 0 else "sbbq", mem("rsi", j), r(D[j]))
    sub_fix(D, M, n, mlabel)
    S = M
    U = ["r12", "rax", "rbp", "rdx"]
    for j in range(n):
        ins("movq", mem("rdi", j), r(S[j]))
    for j in range(n):
        ins("addq" if j == 0 else "adcq", mem("rsi", j), r(S[j]))
    reduce_regs(S, U, n, mlabel)
    store(U, "rdi", n)
    T = ["r8", "r9", "r10", "r11", "r12"]
    T = mul_core(n, lambda j: r(D[j]), lambda i: mem("rcx", i), T, ".Lzero(%rip)", "%eax", mlabel, n0label)
    U = ["rax", "rbp", "rdx", "r13"]
    reduce_regs(T[:n], U, n, mlabel)
    store(U, "rsi", n)


ALL = ["rbx", "rbp", "r12", "r13", "r14", "r15"]


def gen_bfly(name, body, n, mlabel, n0label):
    """single butterfly: (x, y, w) in rdi, rsi, rdx."""
    pushed = prologue(name, set(ALL))
    ins("movq", "%rdx", "%rcx")
    body(n, mlabel, n0label)
    epilogue(name, pushed)


def gen_bflys(name, body, n, mlabel, n0label):
    """n butterflies on consecutive elements: (x, y, w, count) in rdi, rsi, rdx, rcx; x, y, w step by
    8n bytes; the end of x sits in the red zone (-8(%rsp), after the pushes)."""
    pushed = prologue(name, set(ALL))
    lbl = ".L%s_" % name
    ins("testq", "%rcx", "%rcx")
    ins("jz", lbl + "done")
    ins("shlq", "$%d" % (3 + (n - 1).bit_length()), "%rcx")  # count * 8n bytes (n = 4: << 5)
    ins("addq", "%rdi", "%rcx")
    ins("movq", "%rcx", "-8(%rsp)")
    ins("movq", "%rdx", "%rcx")
    emit("\t.p2align 4")
    emit(lbl + "loop:")
    body(n, mlabel, n0label)
    ins("addq", "$%d" % (8 * n), "%rdi")
    ins("addq", "$%d" % (8 * n), "%rsi")
    ins("addq", "$%d" % (8 * n), "%rcx")
    ins("cmpq", "-8(%rsp)", "%rdi")
    ins("jb", lbl + "loop")
    emit(lbl + "done:")
    epilogue(name, pushed)


def gen_bfly_triv(name, n, mlabel):
    """(x, y) = (x + y, x - y) in rdi, rsi (no multiplication: the twiddle 1)."""
    pushed = prologue(name, set(ALL))
    D = ["r13", "r14", "r15", "rbx"]
    M = ["r8", "r9", "r10", "r11"]
    for j in range(n):
        ins("movq", mem("rdi", j), r(D[j]))
    for j in range(n):
        ins("subq" if j == 0 else "sbbq", mem("rsi", j), r(D[j]))
    sub_fix(D, M, n, mlabel)
    S = M
    U = ["r12", "rax", "rbp", "rdx"]
    for j in range(n):
        ins("movq", mem("rdi", j), r(S[j]))
    for j in range(n):
        ins("addq" if j == 0 else "adcq", mem("rsi", j), r(S[j]))
    reduce_regs(S, U, n, mlabel)
    store(U, "rdi", n)
    store(D, "rsi", n)
    epilogue(name, pushed)


def consts(label, m, n):
    emit("\t.p2align 5")
    emit("%s:" % label)
    for x in limbs(m, n):
        emit("\t.quad\t0x%016x" % x)
    emit("%s_n0:" % label)
    emit("\t.quad\t0x%016x" % n0(m))


def main():
    emit("/* Generated by src/field/mont_x86_64_gen.py -- do not edit; regenerate with")
    emit(" *   python3 src/field/mont_x86_64_gen.py > src/field/mont_x86_64.S")
    emit(" * x86-64 BMI2+ADX Montgomery multiplication/squaring for BLS12-381 Fp (6x64) and Fr (4x64),")
    emit(" * add/sub, and the fused Fr NTT butterflies.")
    emit(" * Contract and algorithm: see the generator's docstring and src/field/cpu_x86.h. */")
    emit("#if defined(__x86_64__) && defined(__ELF__)")
    emit("\t.section .rodata")
    consts(".Lfp_m", P, 6)
    consts(".Lfr_m", R, 4)
    emit(".Lzero:")
    emit("\t.quad\t0")
    emit("\t.text")
    gen_mul("pm_fp_mul_adx", 6, ".Lfp_m", ".Lfp_m_n0")
    gen_sqr("pm_fp_sqr_adx", 6, ".Lfp_m", ".Lfp_m_n0")
    gen_mul("pm_fr_mul_adx", 4, ".Lfr_m", ".Lfr_m_n0")
    gen_sqr("pm_fr_sqr_adx", 4, ".Lfr_m", ".Lfr_m_n0")
    gen_add("pm_fp_add_x86", 6, ".Lfp_m")
    gen_sub("pm_fp_sub_x86", 6, ".Lfp_m")
    gen_add("pm_fr_add_x86", 4, ".Lfr_m")
    gen_sub("pm_fr_sub_x86", 4, ".Lfr_m")
    gen_bfly("pm_fr_bfly_dit_adx", bfly_dit_body, 4, ".Lfr_m", ".Lfr_m_n0")
    gen_bfly("pm_fr_bfly_dif_adx", bfly_dif_body, 4, ".Lfr_m", ".Lfr_m_n0")
    gen_bflys("pm_fr_bflys_dit_adx", bfly_dit_body, 4, ".Lfr_m", ".Lfr_m_n0")
    gen_bflys("pm_fr_bflys_dif_adx", bfly_dif_body, 4, ".Lfr_m", ".Lfr_m_n0")
    gen_bfly_triv("pm_fr_bfly_triv_x86", 4, ".Lfr_m")
    emit("#endif")
    emit('\t.section .note.GNU-stack,"",@progbits')
    print("\n".join(out))


if __name__ == "__main__":
    main()
