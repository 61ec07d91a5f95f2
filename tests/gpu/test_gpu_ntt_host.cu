/*
 * test_gpu_ntt_host.cu — the device NTT, H pipelines and SpMV logic of src/gpu, run on the HOST
 * (no GPU needed; built by nvcc, a plain ctest). The kernels are shells around the __host__
 * __device__ phase functions of src/gpu/ntt_core.cuh; here every block of every pass is run
 * sequentially (each phase for all threads of the block, then the next phase: exactly the order the
 * barriers allow) with the CPU field in place of the PTX multiplier, through the same pass plans and
 * the same pass sequences (seq_ntt, seq_snarkjs_h, seq_bellperson_h[_part1/2]) as the device.
 * Checked against references nobody in src/gpu wrote:
 *  - the four transforms at log n = 1..14 for roots from 5 (1..12 from 7) against ntt/ntt.h
 *    (ntt_forward, ntt_inverse, ntt_coset_forward / _inverse with shift omega_2n), and the two
 *    network directions no sequence uses (DIF forward, DIT inverse); with the device's passes of
 *    <= 10 stages and again (to 2^12) with passes of <= 4 and <= 3 stages, so the 3- and 4-pass
 *    plans of 2^21..2^28 run too (PROOFMILL_SLOW=1: also the device's own 2^21 plan);
 *  - the same pipelines at the device's run-time variants (docs/perf/gpu.md): radix 8, tiles of 2^9 and
 *    2^10, the round split, the shared twiddles and the four-step strided passes, alone and combined;
 *  - the snarkjs H at log n = 1..12 against ntt_snarkjs_h;
 *  - the bellperson H (three buffers, the two-buffer order, and one buffer with the coset products
 *    parked in host memory and applied in chunks of 1, 3 and n/4 + 1) at log n = 1..12 against exactly
 *    bellperson's sequence (ntt_inverse, ntt_coset_forward(g = 7), (ab - c)(g^n - 1)^-1,
 *    ntt_coset_inverse, from Montgomery), for a satisfying (c = a*b: top coefficient 0) and a random
 *    (top coefficient != 0) input;
 *  - the pass plans of log n = 1..28: threads <= 256, tiles <= 2^11, every round and the load/store
 *    a bijection of (thread, register) onto the tile, stages covered once; shared-memory bank groups
 *    of every warp access (reported; at most 2-way);
 *  - the SpMV (spmv_core.cuh: the upload's plan, the row-pointer narrowing in chunks, the thread
 *    rows, a warp's 32-lane split of long rows and its shuffle tree, the padding rows, the
 *    lowest-failing-row reduction) on satisfied random circuits whose A, B, C use 1 / -1 / other
 *    coefficients (C too), with empty and long rows, one dictionary shared by all three matrices, B's
 *    own shared by C, and full coefficients, u32 and u64 row pointers: outputs against r1cs_spmv
 *    and the first failing row (a long one, two planted) against r1cs_check_satisfied.
 * Usage: test_gpu_ntt_host [max_log_n] (default 14). PROOFMILL_SEED reproduces a run.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include "gpu/ntt_core.cuh"
#include "gpu/spmv_core.cuh"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "../common/ntt_ref.h"

using namespace pmgpu::ntc;

static int failures = 0;
#define CHECK(cond, ...)                                     \
    do {                                                     \
        if (!(cond)) {                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
            printf(__VA_ARGS__);                             \
            printf("\n");                                    \
            failures++;                                      \
        }                                                    \
    } while (0)

static uint64_t rs[2];
static uint64_t rnd() { /* xorshift128+ */
    uint64_t x = rs[0], y = rs[1];
    rs[0] = y;
    x ^= x << 23;
    rs[1] = x ^ y ^ (x >> 17) ^ (y >> 26);
    return rs[1] + y;
}
static void rand_fr(fr_t *a) {
    fr_t p;
    p.l[0] = rnd(); p.l[1] = rnd(); p.l[2] = rnd(); p.l[3] = rnd() & 0x0fffffffffffffffULL; /* < r */
    fr_to_mont(a, &p);
}

/* ---- host executor: the blocks of a pass one after the other ---- */
struct host_exec {
    std::vector<uint4> sh;
    template <int LR, bool DIF> void pass(const pass_args &a) {
        const uint32_t T = pass_threads(a), E = pass_tile(a);
        sh.assign(2 * E, uint4{0, 0, 0, 0});
        for (uint32_t blk = 0; blk < pass_blocks(a); blk++) {
            for (uint32_t t = 0; t < T; t++) pass_load<LR>(a, blk, t, sh.data());
            for (uint32_t i = 0; i < a.nrounds; i++)
                for (uint32_t t = 0; t < T; t++) {
                    const uint32_t q = DIF ? a.nrounds - 1 - i : i;
                    if (tws) pass_round<LR, DIF, true>(a, blk, q, t, sh.data());
                    else pass_round<LR, DIF>(a, blk, q, t, sh.data());
                }
            for (uint32_t t = 0; t < T; t++) pass_store<LR>(a, blk, t, sh.data());
        }
    }
    uint32_t L = 0, max_bits = MAX_PASS_BITS;
    const fr_d *tw = nullptr;
    static uint32_t tile_bits; /* the device's PROOFMILL_GPU_NTT_TILE, one value per test sweep */
    static uint32_t max_lr;    /* the device's PROOFMILL_GPU_NTT_LR (radix-8 or radix-4 rounds) */
    static bool split, tws;    /* PROOFMILL_GPU_NTT_SPLIT, PROOFMILL_GPU_NTT_TWSHARE */
    static bool fs;            /* PROOFMILL_GPU_NTT_FOURSTEP */
    pm_status net(bool dif, bool inverse, fr_d *dst, fr_d *work, const fr_d *src, const net_ops &ops) {
        pass_args pa[MAX_PASSES];
        if (L > MAX_PASSES * max_bits) max_bits = MAX_PASS_BITS;
        const uint32_t P = network_plan(pa, L, dif, inverse, dst, work, src, tw, ops, max_bits, tile_bits, max_lr, split, fs);
        for (uint32_t q = 0; q < P; q++) {
            switch (pa[q].lr * 2 + (dif ? 1 : 0)) {
            case 2: pass<1, false>(pa[q]); break;
            case 3: pass<1, true>(pa[q]); break;
            case 4: pass<2, false>(pa[q]); break;
            case 5: pass<2, true>(pa[q]); break;
            case 6: pass<3, false>(pa[q]); break;
            default: pass<3, true>(pa[q]); break;
            }
        }
        return PM_OK;
    }
    pm_status bitrev(fr_d *x, const pow_tab &sc, bool by_src) {
        bitrev_args b;
        b.x = x;
        b.log_n = L;
        b.tb = bitrev_tb(L);
        b.sc = sc;
        b.by_src = by_src ? 1 : 0;
        std::vector<fr_d> A(256), B(256);
        for (uint32_t m = 0; m < bitrev_blocks(b); m++) {
            if (!bitrev_active(b, m)) continue;
            for (uint32_t t = 0; t < bitrev_threads(b); t++) bitrev_load(b, m, t, A.data(), B.data());
            for (uint32_t t = 0; t < bitrev_threads(b); t++) bitrev_store(b, m, t, A.data(), B.data());
        }
        return PM_OK;
    }
    unsigned pauses = 0; /* preemption points the sequences passed (gpu.h gpu_set_yield) */
    pm_status ready(const fr_d *) { return PM_OK; } /* the host arrays are there */
    pm_status pause() {
        pauses++;
        return PM_OK;
    }
};
/* seq_bellperson_h_one's host side: the "device" buffer is host memory too; the products pass
 * through a chunk buffer of chunk_n elements (ragged last chunk) exactly as the device's do */
struct host_one_exec : host_exec {
    size_t n = 0, chunk_n = 1, ups = 0, downs = 0, swaps = 0, chunk_calls = 0;
    std::vector<fr_d> chunk;
    pm_status up(fr_d *dev, const fr_d *host) { ups++; memcpy(dev, host, n * sizeof(fr_d)); return PM_OK; }
    pm_status down(fr_d *host, const fr_d *dev) { downs++; memcpy(host, dev, n * sizeof(fr_d)); return PM_OK; }
    /* the device's order: piece by piece (pieces of chunk_n here), each piece down, then up */
    pm_status swap(fr_d *dev, fr_d *out, const fr_d *in) {
        swaps++;
        for (size_t off = 0; off < n; off += chunk_n) {
            const size_t len = n - off < chunk_n ? n - off : chunk_n;
            memcpy(out + off, dev + off, len * sizeof(fr_d));
            memcpy(dev + off, in + off, len * sizeof(fr_d));
        }
        return PM_OK;
    }
    pm_status chunks(int op, fr_d *dev, const fr_d *host) {
        chunk.resize(chunk_n);
        for (size_t off = 0; off < n; off += chunk_n) {
            const size_t len = n - off < chunk_n ? n - off : chunk_n;
            chunk_calls++;
            memcpy(chunk.data(), host + off, len * sizeof(fr_d));
            for (size_t i = 0; i < len; i++) st(dev + off + i, ew_apply(op, ld(chunk.data() + i), ld(dev + off + i)));
        }
        return PM_OK;
    }
};

uint32_t host_exec::tile_bits = NTT_TILE_BITS;
uint32_t host_exec::max_lr = NTT_MAX_LR;
bool host_exec::split = false, host_exec::tws = false, host_exec::fs = false;

/* the device domain's tables, built on the host by the same code */
struct host_domain {
    unsigned L;
    size_t n;
    fr_t gen, omega, omega_2n, n_inv;
    std::vector<fr_t> tw, t_shift, t_ninv, t_cinv, t_snarkjs, t_bp_pre, t_bp_ginv, t_bp_fin;
    seq_tabs tabs;
    host_exec ex;
    static pow_tab mk(std::vector<fr_t> &v, const fr_t &c, const fr_t &x, unsigned L, bool plain, bool constant) {
        v.resize(pow_tab_entries(L, constant));
        size_t nlo = pow_tab_host(v.data(), c, x, L, plain, constant);
        pow_tab t;
        t.lo = reinterpret_cast<const fr_d *>(v.data());
        t.hi = constant ? nullptr : reinterpret_cast<const fr_d *>(v.data()) + nlo;
        t.mode = constant ? SC_CONST : SC_POW;
        return t;
    }
    host_domain(unsigned L_, unsigned g) : L(L_), n((size_t)1 << L_) {
        fr_from_u64(&gen, g);
        fr_root_of_unity(&omega, &gen, L);
        fr_root_of_unity(&omega_2n, &gen, L + 1);
        fr_t nn, s_inv, gg, g_inv, zinv, c;
        fr_from_u64(&nn, n);
        fr_inv_vartime(&n_inv, &nn);
        tw.resize(n / 2);
        fr_t acc = FR_ONE;
        for (size_t i = 0; i < n / 2; i++) { tw[i] = acc; fr_mul(&acc, &acc, &omega); }
        fr_inv_vartime(&s_inv, &omega_2n);
        tabs.shift = mk(t_shift, FR_ONE, omega_2n, L, false, false);
        tabs.ninv = mk(t_ninv, n_inv, FR_ONE, L, false, true);
        tabs.cinv = mk(t_cinv, n_inv, s_inv, L, false, false);
        tabs.snarkjs = mk(t_snarkjs, n_inv, omega_2n, L, false, false);
        fr_multiplicative_generator(&gg);
        fr_inv_vartime(&g_inv, &gg);
        ntt_bellperson_zinv(&zinv, n);
        fr_mul(&c, &n_inv, &zinv);
        tabs.bp_pre = mk(t_bp_pre, n_inv, gg, L, false, false);
        tabs.bp_ginv = mk(t_bp_ginv, FR_ONE, g_inv, L, false, false);
        tabs.bp_fin = mk(t_bp_fin, c, FR_ONE, L, true, true);
        ex.L = L;
        ex.tw = reinterpret_cast<const fr_d *>(tw.data());
    }
};

static fr_d *D(std::vector<fr_t> &v) { return reinterpret_cast<fr_d *>(v.data()); }
static size_t first_diff(const std::vector<fr_t> &a, const std::vector<fr_t> &b) {
    for (size_t i = 0; i < a.size(); i++)
        if (!fr_eq(&a[i], &b[i])) return i;
    return (size_t)-1;
}

static void test_transforms(unsigned L, unsigned gen, uint32_t max_bits) {
    host_domain hd(L, gen);
    hd.ex.max_bits = max_bits;
    ntt_domain_t cd;
    pm_error e;
    fr_t g;
    fr_from_u64(&g, gen);
    if (ntt_domain_init_gen(&cd, L, &g, &e) != PM_OK) { CHECK(0, "CPU domain 2^%u", L); return; }
    const size_t n = hd.n;
    std::vector<fr_t> a(n), x(n), y(n);
    for (auto &v : a) rand_fr(&v);
    const char *names[4] = {"forward", "inverse", "coset forward", "coset inverse"};
    for (int kind = 0; kind < 4; kind++) {
        x = a;
        y = a;
        seq_ntt(hd.ex, D(x), kind, hd.tabs);
        switch (kind) {
        case K_FORWARD: ntt_forward(y.data(), n, &cd); break;
        case K_INVERSE: ntt_inverse(y.data(), n, &cd); break;
        case K_COSET_FORWARD: ntt_coset_forward(y.data(), n, &cd, &cd.omega_2n); break;
        default: ntt_coset_inverse(y.data(), n, &cd, &cd.omega_2n); break;
        }
        size_t bad = first_diff(x, y);
        CHECK(bad == (size_t)-1, "2^%u gen %u (passes of <= %u) %s: device logic != ntt/ntt.h at %zu", L, gen, max_bits, names[kind], bad);
    }
    /* the network directions the sequences do not use: DIF forward + bit reversal is the forward
     * transform, bit reversal + DIT with inverse twiddles is n times the inverse */
    const pow_tab none{nullptr, nullptr, SC_NONE};
    const net_ops plain;
    x = a;
    y = a;
    hd.ex.net(true, false, D(x), D(x), D(x), plain);
    hd.ex.bitrev(D(x), none, false);
    ntt_forward(y.data(), n, &cd);
    size_t bad = first_diff(x, y);
    CHECK(bad == (size_t)-1, "2^%u gen %u DIF forward + bit reversal != ntt_forward at %zu", L, gen, bad);
    x = a;
    y = a;
    hd.ex.bitrev(D(x), none, false);
    hd.ex.net(false, true, D(x), D(x), D(x), plain);
    for (auto &v : x) fr_mul(&v, &v, &hd.n_inv);
    ntt_inverse(y.data(), n, &cd);
    bad = first_diff(x, y);
    CHECK(bad == (size_t)-1, "2^%u gen %u bit reversal + DIT inverse != ntt_inverse at %zu", L, gen, bad);
    ntt_domain_free(&cd);
}

static void test_snarkjs_h(unsigned L, uint32_t max_bits) {
    host_domain hd(L, 5);
    hd.ex.max_bits = max_bits;
    ntt_domain_t cd;
    pm_error e;
    if (ntt_domain_init(&cd, L, NTT_ROOTS_SNARKJS, &e) != PM_OK) { CHECK(0, "CPU domain"); return; }
    const size_t n = hd.n;
    std::vector<fr_t> a(n), b(n), A, B, C(n), ca, cb, sc(n), p(n);
    for (size_t i = 0; i < n; i++) { rand_fr(&a[i]); rand_fr(&b[i]); }
    A = a; B = b; ca = a; cb = b;
    seq_snarkjs_h(hd.ex, D(A), D(B), D(C), hd.tabs);
    CHECK(ntt_snarkjs_h(p.data(), n, ca.data(), cb.data(), sc.data(), &cd, &e) == PM_OK, "ntt_snarkjs_h");
    size_t bad = first_diff(B, p);
    CHECK(bad == (size_t)-1, "2^%u snarkjs H: device logic != ntt_snarkjs_h at %zu", L, bad);
    ntt_domain_free(&cd);
}

/* prover_bellperson.c's H (tests/common/ntt_ref.h) on copies */
static void bellperson_ref(std::vector<fr_t> &h, std::vector<fr_t> a, std::vector<fr_t> b, std::vector<fr_t> c, unsigned L) {
    ntt_domain_t d;
    pm_error e;
    ntt_domain_init(&d, L, NTT_ROOTS_ARKWORKS, &e);
    bellperson_h_seq(a.data(), b.data(), c.data(), &d);
    h = a;
    ntt_domain_free(&d);
}

static void test_bellperson_h(unsigned L, uint32_t max_bits) {
    host_domain hd(L, 7);
    hd.ex.max_bits = max_bits;
    const size_t n = hd.n;
    for (int sat = 0; sat < 2; sat++) {
        std::vector<fr_t> a(n), b(n), c(n), ref;
        for (size_t i = 0; i < n; i++) {
            rand_fr(&a[i]);
            rand_fr(&b[i]);
            if (sat) fr_mul(&c[i], &a[i], &b[i]);
            else rand_fr(&c[i]);
        }
        bellperson_ref(ref, a, b, c, L);
        std::vector<fr_t> A = a, B = b, C = c;
        const unsigned p0 = hd.ex.pauses;
        seq_bellperson_h(hd.ex, D(A), D(B), D(C), hd.tabs);
        CHECK(hd.ex.pauses - p0 == 3, "2^%u bellperson H: %u preemption points, expected 3 (after A's coset NTT, A^B^ and its iNTT)",
              L, hd.ex.pauses - p0);
        size_t bad = first_diff(A, ref);
        CHECK(bad == (size_t)-1, "2^%u bellperson H (%s): device logic != prover_bellperson's H at %zu", L, sat ? "satisfied" : "random", bad);
        /* two-buffer order: C only after A*B */
        std::vector<fr_t> A2 = a, B2 = b;
        seq_bellperson_h_part1(hd.ex, D(A2), D(B2), hd.tabs);
        B2 = c;
        seq_bellperson_h_part2(hd.ex, D(A2), D(B2), hd.tabs);
        bad = first_diff(A2, ref);
        CHECK(bad == (size_t)-1, "2^%u bellperson H two-buffer (%s): != prover_bellperson's H at %zu", L, sat ? "satisfied" : "random", bad);
        /* one buffer (device-memory tier 4): a, b, c in turn, the products through chunks of 1, 3
         * and n / 4 + 1 elements; a and b come back as the parked A^ and D */
        const size_t chunk_sizes[3] = {1, 3, n / 4 + 1};
        for (size_t ci = 0; ci < 3; ci++) {
            host_one_exec ox;
            ox.L = hd.ex.L;
            ox.tw = hd.ex.tw;
            ox.max_bits = hd.ex.max_bits;
            ox.n = n;
            ox.chunk_n = chunk_sizes[ci];
            std::vector<fr_t> X(n), a1 = a, b1 = b, c1 = c;
            seq_bellperson_h_one(ox, D(X), D(a1), D(b1), reinterpret_cast<const fr_d *>(c1.data()), hd.tabs);
            bad = first_diff(X, ref);
            CHECK(bad == (size_t)-1, "2^%u bellperson H one buffer, chunks of %zu (%s): != prover_bellperson's H at %zu", L,
                  ox.chunk_n, sat ? "satisfied" : "random", bad);
            CHECK(ox.ups == 1 && ox.downs == 0 && ox.swaps == 2 && ox.chunk_calls == 2 * ((n + ox.chunk_n - 1) / ox.chunk_n) &&
                      ox.pauses == 3,
                  "2^%u one buffer: %zu ups, %zu downs, %zu swaps, %zu chunks, %u pauses (expected 1, 0, 2, %zu, 3)", L, ox.ups,
                  ox.downs, ox.swaps, ox.chunk_calls, ox.pauses, 2 * ((n + ox.chunk_n - 1) / ox.chunk_n));
            CHECK(first_diff(c1, c) == (size_t)-1, "2^%u one buffer: c was written", L);
        }
        const bool top0 = fr_is_zero(&A[n - 1]);
        if (sat) CHECK(top0, "2^%u satisfied input: coefficient n-1 of H is not zero", L);
        else if (L >= 2) CHECK(!top0, "2^%u random input: coefficient n-1 of H is zero (unlikely)", L);
    }
}

/* plans of every size: geometry, bijections, bank groups */
static int worst_bank = 0;
static void bank_groups(const std::vector<uint32_t> &phys, uint32_t T) {
    /* phys[tid] = shared element index the thread accesses in one instruction; LDS.128: 8 lanes
     * per 128-byte wavefront, bank group = index mod 8 */
    for (uint32_t w = 0; w * 32 < T; w++)
        for (uint32_t q = 0; q < 4; q++) {
            int cnt[8] = {0};
            for (uint32_t l = 0; l < 8; l++) {
                uint32_t tid = w * 32 + q * 8 + l;
                if (tid < T) cnt[phys[tid] & 7]++;
            }
            for (int i = 0; i < 8; i++) worst_bank = std::max(worst_bank, cnt[i]);
        }
}
static void test_plans(unsigned maxL, uint32_t tile_bits, uint32_t max_lr, bool split = false) {
    for (unsigned L = 1; L <= maxL; L++) {
        for (int dif = 0; dif < 2; dif++) {
            pass_args pa[4];
            net_ops ops;
            const uint32_t P = network_plan(pa, L, dif, false, nullptr, nullptr, nullptr, nullptr, ops, MAX_PASS_BITS, tile_bits, max_lr, split);
            std::vector<int> stage_seen(L, 0);
            for (uint32_t q = 0; q < P; q++) {
                const pass_args &a = pa[q];
                const uint32_t T = pass_threads(a), E = pass_tile(a), R = 1u << a.lr, C = 1u << a.log_c;
                CHECK(T <= 256 && E <= 2048 && E == T * R && a.S <= (uint32_t)MAX_PASS_BITS && a.lr <= max_lr, "2^%u pass %u: T %u E %u", L, q, T, E);
                CHECK(a.s0 + a.S <= L && pass_blocks(a) * E == (1u << L), "2^%u pass %u: geometry", L, q);
                for (uint32_t s = a.s0; s < a.s0 + a.S; s++) stage_seen[s]++;
                /* load/store map */
                std::vector<int> hit(E, 0);
                for (uint32_t i = 0; i < R; i++) {
                    std::vector<uint32_t> phys(T);
                    for (uint32_t t = 0; t < T; t++) {
                        uint32_t v = t + i * T, k = v >> a.log_c, c = v & (C - 1);
                        phys[t] = sh_index(k, c, a.log_c);
                        if (phys[t] < E) hit[phys[t]]++;
                    }
                    bank_groups(phys, T);
                }
                CHECK(std::all_of(hit.begin(), hit.end(), [](int h) { return h == 1; }), "2^%u pass %u: load map not a bijection", L, q);
                uint32_t covered = 0;
                for (uint32_t r = 0; r < a.nrounds; r++) {
                    const round_map &m = a.rm[r];
                    covered += m.r;
                    std::fill(hit.begin(), hit.end(), 0);
                    for (uint32_t t = 0; t < R; t++) {
                        std::vector<uint32_t> phys(T);
                        for (uint32_t tid = 0; tid < T; tid++) {
                            uint32_t c = tid & (C - 1), u = tid >> a.log_c;
                            uint32_t base = ((u & ((1u << m.w1) - 1)) << m.x1) | ((u >> m.w1) << m.y1);
                            uint32_t k = base | m.off[t];
                            CHECK((base & m.off[t]) == 0 && k < (1u << a.S), "2^%u round %u: bits overlap", L, r);
                            phys[tid] = sh_index(k, c, a.log_c);
                            if (phys[tid] < E) hit[phys[tid]]++;
                        }
                        bank_groups(phys, T);
                    }
                    CHECK(std::all_of(hit.begin(), hit.end(), [](int h) { return h == 1; }), "2^%u pass %u round %u: not a bijection", L, q, r);
                    for (uint32_t t = 0; t < R; t++)
                        for (uint32_t b = 0; b < m.r; b++)
                            CHECK(((m.off[t] >> (m.a + b)) & 1) == ((t >> b) & 1), "2^%u round %u: register bit %u", L, r, b);
                }
                CHECK(covered == a.S, "2^%u pass %u: rounds cover %u of %u stages", L, q, covered, a.S);
            }
            for (unsigned s = 0; s < L; s++) CHECK(stage_seen[s] == 1, "2^%u: stage %u run %d times", L, s, stage_seen[s]);
        }
    }
    printf("plans 2^1..2^%u (tiles <= 2^%u, radix <= 2^%u): ok; worst shared-memory bank group multiplicity so far %d (1 = conflict-free)\n",
           maxL, tile_bits, max_lr, worst_bank);
    CHECK(worst_bank <= 2, "bank conflicts %d-way", worst_bank);
}

/* ---- SpMV (spmv_core.cuh: the upload's plan and the kernels' row bodies, run on the host) ---- */
/* row lengths: 10 % empty, mostly 1..4, some 5..32, 3 % long (33..232: the warp path) */
static uint32_t rand_len(void) {
    uint32_t u = (uint32_t)(rnd() % 100);
    return u < 10 ? 0 : u < 90 ? 1 + (uint32_t)(rnd() % 4) : u < 97 ? 5 + (uint32_t)(rnd() % 28) : 33 + (uint32_t)(rnd() % 200);
}
static void rand_matrix(r1cs_matrix_t *m, uint32_t rows, uint32_t cols, const fr_t *tab, uint32_t ntab, bool dict) {
    memset(m, 0, sizeof *m);
    m->n_rows = rows;
    m->n_cols = cols;
    m->row_ptr = (uint64_t *)malloc((rows + 1) * sizeof(uint64_t));
    std::vector<uint32_t> col, idx;
    m->row_ptr[0] = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t len = rand_len();
        for (uint32_t t = 0; t < len; t++) {
            col.push_back((uint32_t)(rnd() % cols));
            idx.push_back((uint32_t)(rnd() % ntab));
        }
        m->row_ptr[r + 1] = col.size();
    }
    m->nnz = col.size();
    m->col = (uint32_t *)malloc((m->nnz + 1) * 4);
    memcpy(m->col, col.data(), m->nnz * 4);
    if (dict) {
        m->coef_idx = (uint32_t *)malloc((m->nnz + 1) * 4);
        memcpy(m->coef_idx, idx.data(), m->nnz * 4);
        m->coef_tab = tab;
        m->n_coef_tab = ntab;
    } else {
        m->coef = (fr_t *)aligned_alloc(32, (m->nnz + 1) * 32);
        for (uint64_t t = 0; t < m->nnz; t++) m->coef[t] = tab[idx[t]];
    }
}

/* The device image gpu_r1cs_upload makes (row pointers narrowed chunk by chunk, `chunk` at a time,
 * or kept 64-bit; dictionary copies only for the plan's owners), in host memory. Every row through spmv_thread_row / spmv_lane_partial + the warp's tree / spmv_finish_row, padding
 * through spmv_pad_row, the check reduced as on the device: outputs and first_bad compared with
 * r1cs_spmv + the input rows and r1cs_check_satisfied. tab_kind: 0 = A, B, C share one dictionary
 * (the shape of a recorded PoRep circuit; the case the device got wrong), 1 = B has its own and C
 * shares B's (C's copy is B's), 2 = full coefficients. */
template <class RP>
static void spmv_case(const r1cs_t *cs, const fr_t *w, uint32_t inputs, size_t chunk, const char *what, uint32_t want_bad) {
    const uint32_t rows = cs->n_constraints;
    spmv_plan plan;
    spmv_plan_make(plan, cs, sizeof(RP) == 8);
    CHECK(plan.rp32 == (sizeof(RP) == 4), "%s: plan chose %s row pointers", what, plan.rp32 ? "u32" : "u64");
    /* dictionary copies: only owners have one; a reader of another's must find one there */
    std::vector<fr_t> dev_tab[3];
    for (int i = 0; i < 3; i++) {
        const r1cs_matrix_t *m = spmv_mat(cs, i);
        if (m->coef_idx && plan.tab_owner[i] < 0) dev_tab[i].assign(m->coef_tab, m->coef_tab + m->n_coef_tab);
        if (m->coef_idx && plan.tab_owner[i] >= 0)
            CHECK(plan.tab_owner[plan.tab_owner[i]] < 0 && !dev_tab[plan.tab_owner[i]].empty(),
                  "%s: matrix %c reads the dictionary of %c, which has no copy", what, "ABC"[i], "ABC"[plan.tab_owner[i]]);
    }
    std::vector<RP> rp[3];
    spmv_args<RP> a;
    memset(&a, 0, sizeof a);
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    for (int i = 0; i < 3; i++) {
        const r1cs_matrix_t *m = spmv_mat(cs, i);
        const size_t nrp = (size_t)m->n_rows + 1;
        rp[i].assign(nrp, (RP)0x5a5a5a5a); /* poison: every entry must be written by a chunk */
        size_t chunks = 0;
        for_chunks(nrp, chunk, [&](size_t o, size_t cnt) {
            for (size_t k = 0; k < cnt; k++) rp[i][o + k] = (RP)m->row_ptr[o + k];
            chunks++;
        });
        CHECK(chunks == (nrp + chunk - 1) / chunk, "%s: %zu chunks for %zu row pointers of %zu", what, chunks, nrp, chunk);
        for (size_t k = 0; k < nrp; k++)
            if ((uint64_t)rp[i][k] != m->row_ptr[k]) {
                CHECK(0, "%s: row pointer %zu of %c not narrowed right", what, k, "ABC"[i]);
                break;
            }
        csr_d<RP> &c = a.m[i];
        c.row_ptr = rp[i].data();
        c.col = m->col;
        c.coef_idx = m->coef_idx;
        c.coef = reinterpret_cast<const fr_d *>(m->coef);
        const int own = plan.tab_owner[i] >= 0 ? plan.tab_owner[i] : i;
        c.tab = dev_tab[own].empty() ? nullptr : reinterpret_cast<const fr_d *>(dev_tab[own].data());
        c.one_i = plan.one_i[i];
        c.neg_i = plan.neg_i[i];
        memcpy(&c.one, &FR_ONE, 32);
        memcpy(&c.neg, &m1, 32);
    }
    unsigned L = 1;
    while (((size_t)1 << L) < (size_t)rows + inputs) L++;
    const size_t n_out = (size_t)1 << L;
    std::vector<fr_t> out[3], ref[3];
    for (int i = 0; i < 3; i++) {
        out[i].assign(n_out, FR_ONE); /* poison */
        ref[i].assign(n_out, FR_ZERO);
        a.out[i] = reinterpret_cast<fr_d *>(out[i].data());
    }
    uint32_t bad = UINT32_MAX;
    a.w = reinterpret_cast<const fr_d *>(w);
    a.rows = rows;
    a.mask = 7;
    a.check = 1;
    a.first_bad = &bad;
    a.long_rows = plan.long_rows.data();
    a.n_long = (uint32_t)plan.long_rows.size();
    /* the long rows in reverse order, so the reduction cannot rely on meeting the lowest first */
    for (uint32_t r = rows; r-- > 0;) spmv_thread_row(a, r);
    for (uint32_t k = a.n_long; k-- > 0;) {
        const uint32_t row = a.long_rows[k];
        fr_d v[3];
        for (int i = 0; i < 3; i++) {
            fr_d lanes[32];
            for (uint32_t l = 0; l < 32; l++) lanes[l] = spmv_lane_partial(a, row, l, i);
            for (uint32_t off = 16; off > 0; off >>= 1) /* __shfl_down: lane l adds lane l + off */
                for (uint32_t l = 0; l < 32 - off; l++) lanes[l] = f_add(lanes[l], lanes[l + off]);
            v[i] = lanes[0];
        }
        spmv_finish_row(a, row, v);
    }
    for (size_t r = rows; r < n_out; r++) spmv_pad_row(a.out[0], a.out[1], a.out[2], rows, r, inputs, a.w);
    pm_error e;
    CHECK(r1cs_spmv(ref[0].data(), ref[1].data(), ref[2].data(), rows, cs, w, cs->n_wires, &e) == PM_OK, "r1cs_spmv");
    for (uint32_t i = 0; i < inputs; i++) ref[0][rows + i] = w[i];
    for (int i = 0; i < 3; i++) {
        size_t d = first_diff(out[i], ref[i]);
        CHECK(d == (size_t)-1, "%s: %c differs from r1cs_spmv (+ padding) at row %zu", what, "abc"[i], d);
    }
    uint32_t cpu_bad = UINT32_MAX;
    r1cs_check_satisfied(&cpu_bad, cs, w, cs->n_wires, &e);
    CHECK(bad == cpu_bad && bad == want_bad, "%s: first failing row %u, r1cs_check_satisfied %u, planted %u", what, bad, cpu_bad,
          want_bad);
    printf("SpMV %-44s %6u rows %8llu terms, %5zu long rows, chunk %zu: %s (first bad row %d)\n", what, rows,
           (unsigned long long)(cs->A.nnz + cs->B.nnz + cs->C.nnz), plan.long_rows.size(), chunk, failures ? "FAILURES" : "ok",
           bad == UINT32_MAX ? -1 : (int)bad);
}

/* A, B random over earlier wires; C = coef * wire(inputs + k) + (for long rows) more terms, with that
 * wire solved so that row k holds: a satisfied circuit whose C uses general dictionary coefficients */
static void test_spmv(int tab_kind) {
    const uint32_t rows = 3000, inputs = 4, nw = inputs + rows, ntab = 50;
    std::vector<fr_t> tab(ntab), tab2(ntab), inv(ntab), w(nw);
    for (auto &v : tab) rand_fr(&v);
    for (auto &v : tab2) rand_fr(&v);
    tab[3] = FR_ONE;
    fr_neg(&tab[7], &FR_ONE);
    tab2[1] = FR_ONE;
    fr_neg(&tab2[2], &FR_ONE);
    const bool dict = tab_kind != 2;
    const fr_t *tb = tab_kind == 1 ? tab2.data() : tab.data(); /* B's (and C's) dictionary */
    for (uint32_t t = 0; t < ntab; t++) fr_inv_vartime(&inv[t], &tb[t]);
    r1cs_t cs;
    memset(&cs, 0, sizeof cs);
    cs.n_wires = nw;
    cs.n_pub_in = inputs - 1;
    cs.n_constraints = rows;
    rand_matrix(&cs.A, rows, nw, tab.data(), ntab, dict);
    rand_matrix(&cs.B, rows, nw, tb, ntab, dict);
    w[0] = FR_ONE;
    for (uint32_t i = 1; i < inputs; i++) rand_fr(&w[i]);
    /* columns of A and B restricted to earlier wires, then C row by row */
    r1cs_matrix_t *M[2] = {&cs.A, &cs.B};
    for (int m = 0; m < 2; m++)
        for (uint32_t r = 0; r < rows; r++)
            for (uint64_t t = M[m]->row_ptr[r]; t < M[m]->row_ptr[r + 1]; t++) M[m]->col[t] %= inputs + r;
    r1cs_matrix_t *C = &cs.C;
    C->n_rows = rows;
    C->n_cols = nw;
    C->row_ptr = (uint64_t *)malloc((rows + 1) * sizeof(uint64_t));
    std::vector<uint32_t> col, idx;
    C->row_ptr[0] = 0;
    for (uint32_t r = 0; r < rows; r++) {
        fr_t va = FR_ZERO, vb = FR_ZERO, t;
        for (int m = 0; m < 2; m++)
            for (uint64_t k = M[m]->row_ptr[r]; k < M[m]->row_ptr[r + 1]; k++) {
                fr_mul(&t, r1cs_coef(M[m], k), &w[M[m]->col[k]]);
                fr_add(m ? &vb : &va, m ? &vb : &va, &t);
            }
        /* extra C terms on earlier wires: none, a few, or a long row */
        uint32_t extra = (rnd() % 100) < 4 ? 33 + (uint32_t)(rnd() % 100) : (uint32_t)(rnd() % 3);
        fr_t rest = FR_ZERO;
        const uint32_t lead = (uint32_t)(rnd() % ntab);
        col.push_back(inputs + r);
        idx.push_back(lead);
        for (uint32_t e = 0; e < extra; e++) {
            uint32_t cc = (uint32_t)(rnd() % (inputs + r)), ci = (uint32_t)(rnd() % ntab);
            col.push_back(cc);
            idx.push_back(ci);
            fr_mul(&t, &tb[ci], &w[cc]);
            fr_add(&rest, &rest, &t);
        }
        fr_mul(&t, &va, &vb);
        fr_sub(&t, &t, &rest);
        fr_mul(&w[inputs + r], &t, &inv[lead]); /* lead * w = a b - rest */
        C->row_ptr[r + 1] = col.size();
    }
    C->nnz = col.size();
    C->col = (uint32_t *)malloc((C->nnz + 1) * 4);
    memcpy(C->col, col.data(), C->nnz * 4);
    if (dict) {
        C->coef_idx = (uint32_t *)malloc((C->nnz + 1) * 4);
        memcpy(C->coef_idx, idx.data(), C->nnz * 4);
        C->coef_tab = tb;
        C->n_coef_tab = ntab;
    } else {
        C->coef = (fr_t *)aligned_alloc(32, (C->nnz + 1) * 32);
        for (uint64_t k = 0; k < C->nnz; k++) C->coef[k] = tb[idx[k]];
    }
    static const char *kinds[3] = {"one dictionary for A, B, C", "A's own, B's shared by C", "full coefficients"};
    char what[160];
    for (int v = 0; v < 2; v++) {
        snprintf(what, sizeof what, "%s, %s", kinds[tab_kind], v ? "u64 row ptrs" : "u32 row ptrs");
        /* chunks: the device's (one chunk here), and 1000 rows (several, the last one partial) */
        if (v == 0) spmv_case<uint32_t>(&cs, w.data(), inputs, NARROW_CHUNK, what, UINT32_MAX);
        if (v == 0) spmv_case<uint32_t>(&cs, w.data(), inputs, 1000, what, UINT32_MAX);
        if (v == 1) spmv_case<uint64_t>(&cs, w.data(), inputs, 1000, what, UINT32_MAX);
    }
    /* failing rows: one in a long C row and a lower one in a short row, and a witness where only the
     * last row fails; the lowest is found whatever order the rows finish in */
    uint32_t long_r = UINT32_MAX;
    for (uint32_t r = rows / 2; r < rows && long_r == UINT32_MAX; r++)
        if (C->row_ptr[r + 1] - C->row_ptr[r] > LONG_ROW) long_r = r;
    CHECK(long_r != UINT32_MAX, "no long C row generated");
    std::vector<fr_t> wb = w;
    fr_add(&wb[inputs + long_r], &wb[inputs + long_r], &FR_ONE);
    uint32_t want = UINT32_MAX;
    pm_error e;
    r1cs_check_satisfied(&want, &cs, wb.data(), nw, &e);
    snprintf(what, sizeof what, "%s, a bad long row", kinds[tab_kind]);
    spmv_case<uint32_t>(&cs, wb.data(), inputs, 1000, what, want);
    fr_add(&wb[inputs + rows / 5], &wb[inputs + rows / 5], &FR_ONE);
    r1cs_check_satisfied(&want, &cs, wb.data(), nw, &e);
    CHECK(want <= rows / 5, "the planted lower row %u is not the first failing one (%u)", rows / 5, want);
    snprintf(what, sizeof what, "%s, two bad rows", kinds[tab_kind]);
    spmv_case<uint64_t>(&cs, wb.data(), inputs, 700, what, want);
    cs.A.coef_tab = cs.B.coef_tab = cs.C.coef_tab = nullptr;
    r1cs_matrix_free(&cs.A);
    r1cs_matrix_free(&cs.B);
    r1cs_matrix_free(&cs.C);
}

/* the transforms (roots from 5) and both H pipelines 2^1..2^m, passes of <= b stages, at host_exec's settings */
static void pipelines_to(unsigned m, uint32_t b, const char *what) {
    for (unsigned L = 1; L <= m; L++) test_transforms(L, 5, b);
    for (unsigned L = 1; L <= m; L++) test_snarkjs_h(L, b);
    for (unsigned L = 1; L <= m; L++) test_bellperson_h(L, b);
    printf("%s%s, tiles of <= 2^%u, passes of <= %2u stages: transforms, snarkjs H and bellperson H 2^1..2^%u: %s\n", what,
           host_exec::tws ? " + shared twiddles" : "", host_exec::tile_bits, b, m, failures ? "FAILURES" : "ok");
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    unsigned maxL = argc > 1 ? (unsigned)atoi(argv[1]) : 14;
    const char *se = getenv("PROOFMILL_SEED");
    uint64_t seed = se ? strtoull(se, NULL, 10) : (uint64_t)time(NULL);
    printf("seed: %llu (rerun with PROOFMILL_SEED=%llu)\n", (unsigned long long)seed, (unsigned long long)seed);
    rs[0] = seed ^ 0x9e3779b97f4a7c15ULL;
    rs[1] = (seed << 1) | 1;
    for (int i = 0; i < 8; i++) rnd();
    for (uint32_t tb = 9; tb <= NTT_TILE_BITS; tb++) test_plans(28, tb, 3);
    for (uint32_t tb = 9; tb <= NTT_TILE_BITS; tb++) test_plans(28, tb, 2);
    for (uint32_t tb = 9; tb <= NTT_TILE_BITS; tb++) test_plans(28, tb, 2, true);
    {
        /* PROOFMILL_GPU_NTT_SPLIT: 2^27 as 10 + 9 + 8 (14 radix-4 rounds, not 15); 2^24 stays 8 + 8 + 8 */
        pass_args pa[4];
        net_ops ops;
        const uint32_t P = network_plan(pa, 27, false, false, nullptr, nullptr, nullptr, nullptr, ops, MAX_PASS_BITS, NTT_TILE_BITS, 2, true);
        CHECK(P == 3 && pa[0].S == 10 && pa[0].s0 == 0 && pa[1].S + pa[2].S == 17 && pa[1].S <= 9 && pa[2].S <= 9, "2^27 round split: %u passes, %u %u %u",
              P, pa[0].S, pa[1].S, pa[2].S);
        const uint32_t P24 = network_plan(pa, 24, false, false, nullptr, nullptr, nullptr, nullptr, ops, MAX_PASS_BITS, NTT_TILE_BITS, 2, true);
        CHECK(P24 == 3 && pa[0].S == 8 && pa[1].S == 8 && pa[2].S == 8, "2^24 round split: %u %u %u", pa[0].S, pa[1].S, pa[2].S);
    }
    const unsigned m12 = maxL < 12 ? maxL : 12;
    /* the variants' pipelines: rounds-first pass sizes and the shared-twiddle rounds, at 1..4 passes */
    for (int v = 0; v < 3; v++) {
        host_exec::split = v != 1;
        host_exec::tws = v != 0;
        for (uint32_t b : {(uint32_t)MAX_PASS_BITS, 4u, 3u}) pipelines_to(m12, b, host_exec::split ? "radix 4, round split" : "radix 4");
    }
    host_exec::split = host_exec::tws = false;
    /* the four-step strided passes (PROOFMILL_GPU_NTT_FOURSTEP): radix 4 at 1-4 passes, with the shared
     * twiddles and the round split, radix 8, and tiles of 2^9 */
    host_exec::fs = true;
    for (uint32_t b : {(uint32_t)MAX_PASS_BITS, 4u, 3u}) pipelines_to(m12, b, "radix 4, four-step");
    host_exec::tws = host_exec::split = true;
    pipelines_to(m12, 4, "radix 4, four-step, round split");
    host_exec::tws = host_exec::split = false;
    host_exec::max_lr = 3;
    for (uint32_t b : {(uint32_t)MAX_PASS_BITS, 3u}) pipelines_to(m12, b, "radix 8, four-step");
    host_exec::max_lr = NTT_MAX_LR;
    host_exec::tile_bits = 9;
    pipelines_to(m12, 4, "radix 4, four-step");
    host_exec::tile_bits = NTT_TILE_BITS;
    host_exec::fs = false;
    /* radix-8 rounds (PROOFMILL_GPU_NTT_LR=3; the default is radix 4): every pass count and tile size */
    host_exec::max_lr = 3;
    for (uint32_t tb = 9; tb <= NTT_TILE_BITS; tb++) {
        host_exec::tile_bits = tb;
        for (uint32_t b : {(uint32_t)MAX_PASS_BITS, 4u, 3u}) pipelines_to(m12, b, "radix 8");
    }
    host_exec::max_lr = NTT_MAX_LR;
    /* radix-4 tiles of 2^10 and 2^9 elements (PROOFMILL_GPU_NTT_TILE) */
    for (uint32_t tb = 9; tb < NTT_TILE_BITS; tb++) {
        host_exec::tile_bits = tb;
        pipelines_to(m12, MAX_PASS_BITS, "radix 4");
    }
    host_exec::tile_bits = NTT_TILE_BITS;
    /* passes of <= 10 stages as on the device (1 pass up to 2^10, 2 above), and of <= 4 and <= 3
     * stages so that 3 and 4 passes (2^21..2^28 on the device) run on small sizes */
    const uint32_t mb[3] = {MAX_PASS_BITS, 4, 3};
    for (int i = 0; i < 3; i++) {
        for (unsigned L = 1; L <= maxL; L++) test_transforms(L, 5, mb[i]);
        for (unsigned L = 1; L <= 12 && L <= maxL; L++) test_transforms(L, 7, mb[i]);
        for (unsigned L = 1; L <= 12 && L <= maxL; L++) test_snarkjs_h(L, mb[i]);
        for (unsigned L = 1; L <= 12 && L <= maxL; L++) test_bellperson_h(L, mb[i]);
        printf("passes of <= %2u stages: transforms 2^1..2^%u (roots from 5; from 7 to 2^12), snarkjs H and bellperson H "
               "(three and two buffers) 2^1..2^12: %s\n", mb[i], maxL, failures ? "FAILURES" : "ok");
        if (i == 0) maxL = maxL < 12 ? maxL : 12;
    }
    if (getenv("PROOFMILL_SLOW") && atoi(getenv("PROOFMILL_SLOW"))) { /* the device's own 3-pass plan: 2^21 */
        host_domain hd(21, 5);
        ntt_domain_t cd;
        pm_error e;
        ntt_domain_init(&cd, 21, NTT_ROOTS_SNARKJS, &e);
        std::vector<fr_t> a(hd.n), x, y;
        for (auto &v : a) rand_fr(&v);
        x = a;
        y = a;
        seq_ntt(hd.ex, D(x), K_FORWARD, hd.tabs);
        ntt_forward(y.data(), hd.n, &cd);
        size_t bad = first_diff(x, y);
        CHECK(bad == (size_t)-1, "2^21 forward differs at %zu", bad);
        printf("2^21 (three passes of 7) forward: %s\n", bad == (size_t)-1 ? "ok" : "MISMATCH");
        ntt_domain_free(&cd);
    }
    for (int k = 0; k < 3; k++) test_spmv(k);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
