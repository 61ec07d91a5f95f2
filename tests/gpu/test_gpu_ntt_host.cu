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
 *  - the snarkjs H at log n = 1..12 against ntt_snarkjs_h;
 *  - the bellperson H (three buffers, and the two-buffer order) at log n = 1..12 against exactly
 *    prover_bellperson.c's sequence (ntt_inverse, ntt_coset_forward(g = 7), (ab - c)(g^n - 1)^-1,
 *    ntt_coset_inverse, from Montgomery), for a satisfying (c = a*b: top coefficient 0) and a random
 *    (top coefficient != 0) input;
 *  - the pass plans of log n = 1..28: threads <= 256, tiles <= 2^11, every round and the load/store
 *    a bijection of (thread, register) onto the tile, stages covered once; shared-memory bank groups
 *    of every warp access (reported; at most 2-way);
 *  - the SpMV row dot (thread per row, and a warp's 32-lane split of long rows) on random matrices,
 *    dictionary-coded and full, with 1 / -1 / other coefficients, empty and long rows, against
 *    r1cs_spmv.
 * Usage: test_gpu_ntt_host [max_log_n] (default 14). PROOFMILL_SEED reproduces a run.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include "gpu/ntt_core.cuh"
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
                for (uint32_t t = 0; t < T; t++) pass_round<LR, DIF>(a, blk, DIF ? a.nrounds - 1 - i : i, t, sh.data());
            for (uint32_t t = 0; t < T; t++) pass_store<LR>(a, blk, t, sh.data());
        }
    }
    uint32_t L = 0, max_bits = MAX_PASS_BITS;
    const fr_d *tw = nullptr;
    static uint32_t tile_bits; /* the device's PROOFMILL_GPU_NTT_TILE, one value per test sweep */
    pm_status net(bool dif, bool inverse, fr_d *dst, fr_d *work, const fr_d *src, const net_ops &ops) {
        pass_args pa[MAX_PASSES];
        if (L > MAX_PASSES * max_bits) max_bits = MAX_PASS_BITS;
        const uint32_t P = network_plan(pa, L, dif, inverse, dst, work, src, tw, ops, max_bits, tile_bits);
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
};
uint32_t host_exec::tile_bits = NTT_TILE_BITS;

/* the device domain's tables, built on the host by the same code */
struct host_domain {
    unsigned L;
    size_t n;
    fr_t gen, omega, omega_2n, n_inv;
    std::vector<fr_t> tw, t_shift, t_ninv, t_cinv, t_snarkjs, t_bp_pre, t_bp_post;
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
        tabs.bp_post = mk(t_bp_post, c, g_inv, L, true, false);
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
        seq_bellperson_h(hd.ex, D(A), D(B), D(C), hd.tabs);
        size_t bad = first_diff(A, ref);
        CHECK(bad == (size_t)-1, "2^%u bellperson H (%s): device logic != prover_bellperson's H at %zu", L, sat ? "satisfied" : "random", bad);
        /* two-buffer order: C only after A*B */
        std::vector<fr_t> A2 = a, B2 = b;
        seq_bellperson_h_part1(hd.ex, D(A2), D(B2), hd.tabs);
        B2 = c;
        seq_bellperson_h_part2(hd.ex, D(A2), D(B2), hd.tabs);
        bad = first_diff(A2, ref);
        CHECK(bad == (size_t)-1, "2^%u bellperson H two-buffer (%s): != prover_bellperson's H at %zu", L, sat ? "satisfied" : "random", bad);
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
static void test_plans(unsigned maxL, uint32_t tile_bits) {
    for (unsigned L = 1; L <= maxL; L++) {
        for (int dif = 0; dif < 2; dif++) {
            pass_args pa[4];
            net_ops ops;
            const uint32_t P = network_plan(pa, L, dif, false, nullptr, nullptr, nullptr, nullptr, ops, MAX_PASS_BITS, tile_bits);
            std::vector<int> stage_seen(L, 0);
            for (uint32_t q = 0; q < P; q++) {
                const pass_args &a = pa[q];
                const uint32_t T = pass_threads(a), E = pass_tile(a), R = 1u << a.lr, C = 1u << a.log_c;
                CHECK(T <= 256 && E <= 2048 && E == T * R && a.S <= (uint32_t)MAX_PASS_BITS, "2^%u pass %u: T %u E %u", L, q, T, E);
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
    printf("plans 2^1..2^%u: ok; worst shared-memory bank group multiplicity %d (1 = conflict-free)\n", maxL, worst_bank);
    CHECK(worst_bank <= 2, "bank conflicts %d-way", worst_bank);
}

/* ---- SpMV ---- */
static void rand_matrix(r1cs_matrix_t *m, uint32_t rows, uint32_t cols, const fr_t *tab, uint32_t ntab, bool dict) {
    memset(m, 0, sizeof *m);
    m->n_rows = rows;
    m->n_cols = cols;
    m->row_ptr = (uint64_t *)malloc((rows + 1) * sizeof(uint64_t));
    std::vector<uint32_t> col, idx;
    m->row_ptr[0] = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t u = (uint32_t)(rnd() % 100), len = u < 10 ? 0 : u < 90 ? 1 + (uint32_t)(rnd() % 4) : u < 97 ? 5 + (uint32_t)(rnd() % 28)
                                                                                                  : 33 + (uint32_t)(rnd() % 200);
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
static void test_spmv(bool dict) {
    const uint32_t rows = 3000, cols = 2000, ntab = 50;
    std::vector<fr_t> tab(ntab), w(cols), ref(rows), got(rows);
    for (auto &v : tab) rand_fr(&v);
    tab[3] = FR_ONE;
    fr_neg(&tab[7], &FR_ONE);
    for (auto &v : w) rand_fr(&v);
    w[0] = FR_ONE;
    r1cs_matrix_t m;
    rand_matrix(&m, rows, cols, tab.data(), ntab, dict);
    pm_error e;
    CHECK(r1cs_matrix_mul(ref.data(), rows, &m, w.data(), cols, &e) == PM_OK, "r1cs_matrix_mul");
    csr_d<uint64_t> c;
    memset(&c, 0, sizeof c);
    c.row_ptr = m.row_ptr;
    c.col = m.col;
    c.coef_idx = m.coef_idx;
    c.coef = reinterpret_cast<const fr_d *>(m.coef);
    c.tab = reinterpret_cast<const fr_d *>(tab.data());
    c.one_i = 3;
    c.neg_i = 7;
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    memcpy(&c.one, &FR_ONE, 32);
    memcpy(&c.neg, &m1, 32);
    size_t nlong = 0;
    for (uint32_t r = 0; r < rows; r++) {
        const uint64_t beg = m.row_ptr[r], end = m.row_ptr[r + 1];
        fr_d v;
        if (end - beg > 32) { /* the warp path: 32 lane partials, then their sum */
            nlong++;
            fr_d lanes[32];
            for (uint32_t l = 0; l < 32; l++) lanes[l] = csr_dot(c, beg + l, end, 32, reinterpret_cast<const fr_d *>(w.data()));
            for (uint32_t off = 16; off > 0; off >>= 1)
                for (uint32_t l = 0; l < off; l++) lanes[l] = f_add(lanes[l], lanes[l + off]);
            v = lanes[0];
        } else {
            v = csr_dot(c, beg, end, 1, reinterpret_cast<const fr_d *>(w.data()));
        }
        memcpy(&got[r], &v, 32);
    }
    size_t bad = first_diff(got, ref);
    CHECK(bad == (size_t)-1, "SpMV (%s): row %zu differs from r1cs_matrix_mul", dict ? "dictionary" : "full coefficients", bad);
    CHECK(nlong > 0, "no long rows generated");
    printf("SpMV %s: %u rows, %llu terms, %zu long rows: %s\n", dict ? "dictionary" : "full", rows, (unsigned long long)m.nnz, nlong,
           bad == (size_t)-1 ? "ok" : "MISMATCH");
    m.coef_tab = nullptr;
    r1cs_matrix_free(&m);
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
    for (uint32_t tb = 9; tb <= NTT_TILE_BITS; tb++) test_plans(28, tb);
    /* tiles of 2^10 and 2^9 elements (PROOFMILL_GPU_NTT_TILE): the transforms and the H pipelines to 2^12 */
    for (uint32_t tb = 9; tb < NTT_TILE_BITS; tb++) {
        host_exec::tile_bits = tb;
        const unsigned m = maxL < 12 ? maxL : 12;
        for (unsigned L = 1; L <= m; L++) test_transforms(L, 5, MAX_PASS_BITS);
        for (unsigned L = 1; L <= m; L++) test_snarkjs_h(L, MAX_PASS_BITS);
        for (unsigned L = 1; L <= m; L++) test_bellperson_h(L, MAX_PASS_BITS);
        printf("tiles of <= 2^%u elements: transforms, snarkjs H and bellperson H 2^1..2^%u: %s\n", tb, m, failures ? "FAILURES" : "ok");
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
    test_spmv(true);
    test_spmv(false);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
