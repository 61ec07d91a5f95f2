/*
 * fixed_base.cu — the C API of the batch fixed-base scalar multiplication (gpu.h, issue #13) for G1
 * and G2, and the generated test bases gpu_g1_bases_from_scalars / gpu_g2_bases_from_scalars.
 * The algorithm is fixed_base_core.cuh (one template for both groups), run with the device
 * executor.
 */
#include <cstdlib>
#include <cstring>
#include <new>
#include "msm_handle.cuh"
#include "fixed_base_core.cuh"

using namespace pmgpu;

namespace {
template <class G> struct fb_handle {
    int device = 0;
    unsigned w = 16;
    exec_dev ex;
};
} /* namespace */

struct gpu_g1_fixed_base : fb_handle<g1_group> {};
struct gpu_g2_fixed_base : fb_handle<g2_group> {};

namespace {

template <class G, class H> pm_status fb_create(H **out, const typename G::cpu_aff *base, unsigned w, pm_error *err) {
    typedef typename G::E E;
    if (!out || !base) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu fixed base: NULL argument");
    *out = nullptr;
    if (!w) w = 16;
    if (w < 2 || w > 20) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu fixed base: window %u outside 2..20", w);
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    pm_status st = self_check(err);
    if (st != PM_OK) return st;
    H *h = new (std::nothrow) H();
    if (!h) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu fixed base: host allocation failed");
    h->w = w;
    cudaError_t e = cudaGetDevice(&h->device);
    if (e == cudaSuccess) e = h->ex.init();
    if (e != cudaSuccess) { delete h; return cuda_fail(err, e, "gpu fixed base: stream creation", __FILE__, __LINE__); }
    st = fixed_base_build<G>(h->ex, reinterpret_cast<const aff_t<E> *>(base), w, err);
    if (st != PM_OK) { delete h; return st; }
    h->ex.slot[SLOT_FB_X].release(); /* the table's XYZZ staging */
    *out = h;
    return PM_OK;
}

template <class G, class H>
pm_status fb_mul(typename G::cpu_aff *out, H *h, const fr_t *scalars, size_t n, unsigned flags, pm_error *err) {
    if (!h || ((!out || !scalars) && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu fixed base mul: NULL argument");
    if (n == 0) return PM_OK;
    device_scope ds(h->device);
    return fixed_base_mul<G>(h->ex, out, scalars, n, (flags & GPU_MSM_SCALARS_MONT) ? 1 : 0, h->w, (size_t)1 << 22,
                             (flags & GPU_MSM_SCALARS_DEVICE) ? 1 : 0, 0, err);
}

template <class H> void fb_free(H *h) {
    if (!h) return;
    device_scope ds(h->device);
    delete h;
}

/* bases [t_i]G on the device: the fixed-base batch written straight into the handle's points */
template <class G, class H> pm_status from_scalars(H **out, const fr_t *t_plain, size_t n, const typename G::cpu_aff &gen, pm_error *err) {
    typedef typename G::E E;
    if (!out || (!t_plain && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases from scalars: NULL argument");
    H *b;
    pm_status st = handle_make(&b, n, true, err);
    if (st != PM_OK) return st;
    const unsigned w = n >= ((size_t)1 << 20) ? 16 : (n >= ((size_t)1 << 12) ? 12 : 8);
    st = fixed_base_build<G>(b->ex, reinterpret_cast<const aff_t<E> *>(&gen), w, err);
    if (st == PM_OK)
        st = fixed_base_mul<G>(b->ex, reinterpret_cast<typename G::cpu_aff *>(b->pts), t_plain, n, 0, w, (size_t)1 << 22, 0, 1, err);
    for (int s = SLOT_FB_TABLE; s <= SLOT_FB_SC1; s++) b->ex.slot[s].release();
    if (st != PM_OK) { delete b; return st; }
    *out = b;
    return PM_OK;
}

} /* namespace */

extern "C" pm_status gpu_g1_fixed_base_create(gpu_g1_fixed_base **out, const g1_affine_t *base, unsigned w, pm_error *err) {
    return fb_create<g1_group>(out, base, w, err);
}
extern "C" pm_status gpu_g1_fixed_base_mul(g1_affine_t *out, gpu_g1_fixed_base *fb, const fr_t *scalars, size_t n, unsigned flags,
                                           pm_error *err) {
    return fb_mul<g1_group>(out, fb, scalars, n, flags, err);
}
extern "C" void gpu_g1_fixed_base_free(gpu_g1_fixed_base *fb) { fb_free(fb); }
extern "C" pm_status gpu_g2_fixed_base_create(gpu_g2_fixed_base **out, const g2_affine_t *base, unsigned w, pm_error *err) {
    return fb_create<g2_group>(out, base, w, err);
}
extern "C" pm_status gpu_g2_fixed_base_mul(g2_affine_t *out, gpu_g2_fixed_base *fb, const fr_t *scalars, size_t n, unsigned flags,
                                           pm_error *err) {
    return fb_mul<g2_group>(out, fb, scalars, n, flags, err);
}
extern "C" void gpu_g2_fixed_base_free(gpu_g2_fixed_base *fb) { fb_free(fb); }

extern "C" pm_status gpu_g1_bases_from_scalars(gpu_g1_bases **out, const fr_t *t_plain, size_t n, pm_error *err) {
    return from_scalars<g1_group>(out, t_plain, n, G1_GENERATOR, err);
}
extern "C" pm_status gpu_g2_bases_from_scalars(gpu_g2_bases **out, const fr_t *t_plain, size_t n, pm_error *err) {
    return from_scalars<g2_group>(out, t_plain, n, G2_GENERATOR, err);
}
