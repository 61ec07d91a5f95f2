/*
 * fixed_base_core.cuh — batch fixed-base scalar multiplication [k_i]P on the device, G1 and G2,
 * written once over the group and the executor (internal to src/gpu; fixed_base.cu instantiates
 * it for the C API, tests/gpu/test_gpu_msm_host.cu runs it on the host against the CPU).
 *
 * Method: a comb of signed w-bit windows (Booth digits as in the MSM, nw = ceil(256/w) windows,
 * top digit >= 0 for k < 2^255). Table T[j][v-1] = [v 2^(wj)] P for v = 1..2^(w-1), built on the
 * device: Q_j = [2^(wj)] P (wj doublings each), T[j][v-1] = [v] Q_j (double-and-add), one batch
 * normalisation. Then per point: acc = sum_j sign_j T[j][|d_j|-1] in XYZZ (nw mixed additions,
 * 8M + 2S each) and a batch normalisation to affine (Montgomery's trick per lane over k points:
 * 3M + 1/k inversion + 3M + 1S per point, through norms for Fp2). With w = 16: 16 windows, a table
 * of 16 x 2^15 points (48 MiB G1, 96 MiB G2), about 170 Fp products per G1 point (16 x 10 + 10).
 * Scalars stream in batches on the side stream (double-buffered) while the previous batch is
 * computed; results are copied to the caller in the CPU affine layout (infinity = (0, 0)).
 * Source: Lim-Lee / Yao fixed-base comb (here the simple windowed form); Montgomery 1987.
 */
#pragma once
#include "msm_core.cuh"

namespace pmgpu {

/* out[i] = in[i] as affine; lanes of k consecutive points share one inversion */
template <class E> struct f_normalize {
    const xyzz_t<E> *in;
    aff_t<E> *out;
    uint32_t n, k, nchunks, nl;
    fp_d *pre; /* [k][nl] */
    PM_HD void operator()(size_t lane_) const {
        const uint32_t lane = (uint32_t)lane_;
        for (uint32_t ch = lane; ch < nchunks; ch += nl) {
            const uint32_t i0 = ch * k, i1 = n - i0 < k ? n : i0 + k;
            fp_d acc = fe_one<fp_params>();
            for (uint32_t i = i0; i < i1; i++) {
                xyzz_t<E> p = ec_x_load(in + i);
                f_store(pre + (size_t)(i - i0) * nl + lane, acc);
                if (!ec_x_is_inf(p)) acc = f_mul(acc, f_norm(p.ZZZ));
            }
            fp_d inv = fe_inv_vartime<fp_params>(acc);
            for (uint32_t i = i1; i-- > i0;) {
                xyzz_t<E> p = ec_x_load(in + i);
                if (ec_x_is_inf(p)) { ec_aff_store(out + i, ec_aff_inf<E>()); continue; }
                fp_d nz = f_norm(p.ZZZ);
                fp_d ninv = f_mul(inv, f_load(pre + (size_t)(i - i0) * nl + lane));
                inv = f_mul(inv, nz);
                ec_aff_store(out + i, ec_x_to_aff_with(p, f_inv_from_norm(p.ZZZ, ninv)));
            }
        }
    }
};

/* Q_j = [2^(wj)] P */
template <class E> struct f_fb_pow2 {
    aff_t<E> P;
    int w;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t j) const {
        xyzz_t<E> x = ec_x_from_aff(P);
        for (size_t i = 0; i < (size_t)w * j; i++) x = ec_x_dbl(x);
        ec_x_store(out + j, x);
    }
};
/* T[j][v-1] = [v] Q_j, v = 1..half */
template <class E> struct f_fb_table {
    const aff_t<E> *q;
    uint32_t half;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t id) const {
        const uint32_t j = (uint32_t)(id / half), v = (uint32_t)(id % half) + 1;
        const aff_t<E> Q = ec_aff_load(q + j);
        xyzz_t<E> acc = ec_x_inf<E>();
        for (int b = 31; b >= 0; b--) {
            acc = ec_x_dbl(acc);
            if ((v >> b) & 1) acc = ec_x_add_aff(acc, Q);
        }
        ec_x_store(out + id, acc);
    }
};
/* out[i] = [k_i] P from the table */
template <class E> struct f_fb_points {
    const scalar_d *sc;
    int mont, w, nw;
    uint32_t half;
    const aff_t<E> *table;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t i) const {
        scalar_d s = sc_load(sc + i);
        if (mont) s = sc_from_mont(s);
        xyzz_t<E> acc = ec_x_inf<E>();
        for (int j = 0; j < nw; j++) {
            bool neg;
            uint32_t d = sc_digit(s, j, w, neg);
            if (!d) continue;
            aff_t<E> T = ec_aff_load(table + (size_t)j * half + d - 1);
            if (neg) T.y = f_neg(T.y);
            acc = ec_x_add_aff(acc, T);
        }
        ec_x_store(out + i, acc);
    }
};

template <class E, class Ex> void fb_normalize(Ex &ex, aff_t<E> *out, const xyzz_t<E> *in, size_t n) {
    if (!n) return;
    const size_t L = ex.template lanes_for<f_normalize<E>>();
    size_t k = (n + L - 1) / L;
    k = k < 4 ? 4 : (k > 256 ? 256 : k);
    const uint32_t nchunks = (uint32_t)((n + k - 1) / k);
    const uint32_t nl = (uint32_t)(nchunks < L ? nchunks : L);
    fp_d *pre = static_cast<fp_d *>(ex.grow(SLOT_FB_TMP, (size_t)nl * k * sizeof(fp_d)));
    if (!ex.ok()) return;
    ex.template each<128>(nl, f_normalize<E>{in, out, (uint32_t)n, (uint32_t)k, nchunks, nl, pre});
}

/* table for w-bit windows (w in 2..20), left in SLOT_FB_TABLE; P in host memory */
template <class G, class Ex> pm_status fixed_base_build(Ex &ex, const aff_t<typename G::E> *P, unsigned w, pm_error *err) {
    typedef typename G::E E;
    if (w < 2 || w > 20) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "fixed base: window %u outside 2..20", w);
    const unsigned nw = (256 + w - 1) / w;
    const uint32_t half = 1u << (w - 1);
    const size_t entries = (size_t)nw * half;
    xyzz_t<E> *x = static_cast<xyzz_t<E> *>(ex.grow(SLOT_FB_X, entries * sizeof(xyzz_t<E>)));
    aff_t<E> *q = static_cast<aff_t<E> *>(ex.grow(SLOT_FB_OUT, nw * sizeof(aff_t<E>)));
    aff_t<E> *t = static_cast<aff_t<E> *>(ex.grow(SLOT_FB_TABLE, entries * sizeof(aff_t<E>)));
    if (!ex.ok()) return ex.fail(err, "fixed-base table");
    ex.each(nw, f_fb_pow2<E>{*P, (int)w, x});
    fb_normalize<E>(ex, q, x, nw);
    ex.each(entries, f_fb_table<E>{q, half, x});
    fb_normalize<E>(ex, t, x, entries);
    ex.d2h(nullptr, nullptr, 0);
    if (!ex.ok()) return ex.fail(err, "fixed-base table");
    return PM_OK;
}

/* out[i] = [k_i] P for i < n with the table of fixed_base_build(w). scalars: plain (or Montgomery
 * when mont) in host memory, or device memory when scalars_dev. out: host memory (CPU layout), or
 * device memory when out_dev. batch: points per device batch. */
template <class G, class Ex>
pm_status fixed_base_mul(Ex &ex, typename G::cpu_aff *out, const fr_t *scalars, size_t n, int mont, unsigned w, size_t batch, int scalars_dev,
                         int out_dev, pm_error *err) {
    typedef typename G::E E;
    const unsigned nw = (256 + w - 1) / w;
    const uint32_t half = 1u << (w - 1);
    const aff_t<E> *t = static_cast<const aff_t<E> *>(ex.grow(SLOT_FB_TABLE, 16)); /* built before */
    if (!batch) batch = (size_t)1 << 22;
    if (batch > n) batch = n;
    if (!n) return PM_OK;
    xyzz_t<E> *x = static_cast<xyzz_t<E> *>(ex.grow(SLOT_FB_X, batch * sizeof(xyzz_t<E>)));
    aff_t<E> *o = out_dev ? nullptr : static_cast<aff_t<E> *>(ex.grow(SLOT_FB_OUT, batch * sizeof(aff_t<E>)));
    scalar_d *sb[2] = {nullptr, nullptr};
    if (!scalars_dev) {
        sb[0] = static_cast<scalar_d *>(ex.grow(SLOT_FB_SC0, batch * sizeof(scalar_d)));
        sb[1] = static_cast<scalar_d *>(ex.grow(SLOT_FB_SC1, batch * sizeof(scalar_d)));
    }
    if (!ex.ok()) return ex.fail(err, "fixed-base batch scratch");
    const size_t nb = (n + batch - 1) / batch;
    if (!scalars_dev) ex.h2d_side(sb[0], scalars, (n < batch ? n : batch) * sizeof(scalar_d), 0);
    for (size_t b = 0; b < nb; b++) {
        const size_t i0 = b * batch, m = n - i0 < batch ? n - i0 : batch;
        const scalar_d *sc;
        if (scalars_dev) {
            sc = reinterpret_cast<const scalar_d *>(scalars) + i0;
        } else {
            ex.wait_side((int)(b & 63));
            sc = sb[b & 1];
        }
        ex.each(m, f_fb_points<E>{sc, mont, (int)w, (int)nw, half, t, x});
        if (!scalars_dev && b + 1 < nb) { /* the next batch's scalars, after this batch's kernels are queued */
            const size_t j0 = i0 + batch, mj = n - j0 < batch ? n - j0 : batch;
            ex.h2d_side(sb[(b + 1) & 1], scalars + j0, mj * sizeof(scalar_d), (int)((b + 1) & 63));
        }
        aff_t<E> *dst = out_dev ? reinterpret_cast<aff_t<E> *>(out) + i0 : o;
        fb_normalize<E>(ex, dst, x, m);
        if (!out_dev) ex.d2h(out + i0, o, m * sizeof(aff_t<E>));
        if (!ex.ok()) return ex.fail(err, "fixed-base batch");
    }
    ex.d2h(nullptr, nullptr, 0);
    if (!ex.ok()) return ex.fail(err, "fixed-base batch");
    return PM_OK;
}

/* table + batches in one call (tests) */
template <class G, class Ex>
pm_status fixed_base_run(Ex &ex, typename G::cpu_aff *out, const aff_t<typename G::E> *P, const fr_t *scalars, size_t n, int mont,
                         unsigned w, size_t batch, pm_error *err) {
    pm_status st = fixed_base_build<G>(ex, P, w, err);
    if (st != PM_OK) return st;
    return fixed_base_mul<G>(ex, out, scalars, n, mont, w, batch, 0, 0, err);
}

} /* namespace pmgpu */
