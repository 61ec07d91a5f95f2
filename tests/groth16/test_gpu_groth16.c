/*
 * test_gpu_groth16.c — the start phase with the GPU table of operations (groth16/start_gpu.c)
 * against the CPU table, for both key conventions.
 *
 * For each in-repo fixture (tests/data/<name>: circuit.zkey, circuit.r1cs, witness.wtns made by
 * snarkjs, see tests/data/regen.sh):
 *  - snarkjs: the CPU and the GPU start (H and the four G1 MSMs on the device, the H result kept
 *    there for its MSM) give the same three G1 sums; with the same fixed r, s both assemble the
 *    same proof, and the self-verification against the zkey's key passes;
 *  - bellperson: parameters made for the fixture's r1cs by our setup (seeded), proved with the GPU
 *    table and the CPU table: the same sums and the same 192-byte proof;
 *  - bellperson on the GPU table: SpMV on the resident circuit, H (7 NTTs), the G1 MSMs gathering the
 *    staged witness by density and the G2 MSM, all on the device;
 *  - one key view proves twice on the GPU (the device copy of the key is uploaded once, reused; the
 *    two witness slots alternate);
 *  - bellperson: a witness that does not satisfy the circuit is refused (PM_ERR_UNSATISFIED, the
 *    CPU's first failing row); bases streamed from host memory in chunks of 3 points
 *    (gpu.chunk_points) give the same proof; a device budget below one chunk
 *    (gpu.memory = 1K) is refused with PM_ERR_NOMEM.
 *  - two synthetic circuits (20,000 rows of 3 terms; 3,000 rows of 40 terms), the same checks plus
 *    1000-point chunks, the CPU self-check of the GPU proof on.
 * Usage: test_gpu_groth16 [fixture dir ...]. PM_TEST_TABLE_CPU=1 runs it with the CPU table in the
 * GPU's place (the test's own logic, without a device). Exit 77 when no GPU is usable.
 */
#include "../gpu/gpu_test_util.h"
#include "util/settings.h"

#include "groth16/key.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/start.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "r1cs/synth.h"
#include "r1cs/wtns.h"

static int same_sums(const groth16_pending_t *a, const groth16_pending_t *b) {
    return g1_jac_eq(&a->sum_a, &b->sum_a) && g1_jac_eq(&a->sum_b1, &b->sum_b1) && g1_jac_eq(&a->sum_c, &b->sum_c);
}

/* start on both tables, compare the sums, finalize both with r, s and compare the proofs */
static void cpu_vs_gpu(const char *what, const groth16_key *k, const wtns_t *w, const groth16_ops *gpu, int self_check,
                       int times) {
    pm_error e;
    groth16_exec xc = {.ops = &groth16_ops_cpu}, xg = {.ops = gpu, .device = 0};
    groth16_prove_opts_t opts = {.skip_self_check = !self_check};
    groth16_pending_t pc, pg;
    memset(&pc, 0, sizeof pc);
    GT_OK(groth16_start(&pc, k, w->values, w->n_values, &xc, &opts, &e), e);
    for (int t = 0; t < times; t++) {
        memset(&pg, 0, sizeof pg);
        double t0 = gt_now();
        pm_status st = groth16_start(&pg, k, w->values, w->n_values, &xg, &opts, &e);
        double t1 = gt_now();
        GT_OK(st, e);
        int ok = st == PM_OK && same_sums(&pc, &pg);
        GT_CHECK(ok, "%s: GPU start sums differ from the CPU's (run %d)", what, t);
        if (ok) {
            fr_t r, s;
            groth16_seeded_scalars(&r, &s, 42 + (uint64_t)t);
            groth16_proof_t prc, prg;
            GT_OK(groth16_finalize(&prc, &pc, &r, &s, &e), e);
            GT_OK(groth16_finalize(&prg, &pg, &r, &s, &e), e);
            GT_CHECK(memcmp(&prc, &prg, sizeof prc) == 0, "%s: proofs differ (run %d)", what, t);
        }
        printf("%s run %d: %s in %.1f ms (h %.3f ms, msm a %.3f, b1 %.3f, c %.3f, h %.3f ms)\n", what, t,
               ok ? "ok" : "MISMATCH", (t1 - t0) * 1e3, pg.t.h * 1e3, pg.t.msm_a * 1e3, pg.t.msm_b1 * 1e3,
               pg.t.msm_c * 1e3, pg.t.msm_h * 1e3);
        groth16_pending_free(&pg);
    }
    groth16_pending_free(&pc);
}

/* bellperson: a witness with its last wire + 2 is refused by the GPU eval (the device SpMV's row
 * check) with the CPU's first failing row, and never proved */
static void bad_witness(const char *what, const groth16_key *k, const wtns_t *w, const groth16_ops *gpu) {
    pm_error e;
    fr_t *bad = malloc(w->n_values * sizeof *bad);
    if (!bad) return;
    memcpy(bad, w->values, w->n_values * sizeof *bad);
    /* + 2 (wire 0 is ONE): breaks a booleanity gate of that wire as well as a product it outputs */
    fr_add(&bad[w->n_values - 1], &bad[w->n_values - 1], &bad[0]);
    fr_add(&bad[w->n_values - 1], &bad[w->n_values - 1], &bad[0]);
    groth16_exec xc = {.ops = &groth16_ops_cpu}, xg = {.ops = gpu, .device = 0};
    groth16_prove_opts_t opts = {.skip_self_check = 1};
    groth16_pending_t pc, pg;
    memset(&pc, 0, sizeof pc);
    memset(&pg, 0, sizeof pg);
    pm_status sc = groth16_start(&pc, k, bad, w->n_values, &xc, &opts, &e);
    pm_status sg = groth16_start(&pg, k, bad, w->n_values, &xg, &opts, &e);
    GT_CHECK(sc == PM_ERR_UNSATISFIED && sg == PM_ERR_UNSATISFIED, "%s: bad witness: CPU %s, GPU %s (want UNSATISFIED)",
             what, pm_status_name(sc), pm_status_name(sg));
    GT_CHECK(pc.first_bad == pg.first_bad, "%s: bad witness: first failing row CPU %u, GPU %u", what, pc.first_bad,
             pg.first_bad);
    if (sg == PM_ERR_UNSATISFIED) printf("%s: bad witness refused (row %u; %s)\n", what, pg.first_bad, e.msg);
    groth16_pending_free(&pc);
    groth16_pending_free(&pg);
    free(bad);
}

/* bellperson key views made and proved on the GPU under the setting given (util/settings.h; a fresh
 * device copy each: the settings are read when it is made), then the setting back at its default */
static void bp_with_setting(const char *what, const bp_params_t *p, const r1cs_t *cs, const wtns_t *w,
                            const groth16_ops *gpu, const char *name, const char *val) {
    pm_error e;
    groth16_key k;
    char label[1400];
    GT_OK(pm_setting_set(name, val, &e), e);
    GT_OK(groth16_key_from_params(&k, p, cs, &e), e);
    snprintf(label, sizeof label, "%s, %s=%s", what, name, val);
    cpu_vs_gpu(label, &k, w, gpu, 0, 2);
    groth16_key_free(&k);
    GT_OK(pm_setting_set(name, pm_settings_find(name)->def, &e), e);
}

/* a synthetic circuit (r1cs/synth.h) with our seeded bellperson setup: every GPU step at a size with
 * several MSM windows and NTT passes, rows of `density` terms (> 32: the SpMV's warp-per-row path),
 * half the private wires 0/1 (the MSMs' 0/1 split) */
static void synthetic(uint32_t n_constraints, unsigned density, const groth16_ops *gpu) {
    pm_error e;
    r1cs_t cs;
    fr_t *wv = NULL;
    r1cs_synth_opts_t so = {.n_constraints = n_constraints, .n_public = 3, .density = density, .bit_share = 0.5,
                            .seed = 77};
    GT_OK(r1cs_synth(&cs, &wv, &so, &e), e);
    if (!wv) return;
    bp_params_t p;
    memset(&p, 0, sizeof p);
    groth16_toxic_t tox;
    groth16_setup_timings_t tm;
    uint64_t seed = 9;
    groth16_key k;
    GT_OK(groth16_toxic_draw(&tox, &seed, &e), e);
    GT_OK(groth16_setup_bellperson(&p, &cs, &tox, &tm, &e), e);
    GT_OK(groth16_key_from_params(&k, &p, &cs, &e), e);
    wtns_t w = {.n_values = cs.n_wires, .values = wv};
    char what[200];
    snprintf(what, sizeof what, "bellperson synthetic (%u rows, density %u, m %zu)", n_constraints, density, k.domain);
    cpu_vs_gpu(what, &k, &w, gpu, 1, 2);
    bad_witness(what, &k, &w, gpu);
    groth16_key_free(&k);
    bp_with_setting(what, &p, &cs, &w, gpu, "gpu.chunk_points", "1000");
    params_free(&p);
    r1cs_free(&cs);
    free(wv);
}

static void run_fixture(const char *dir, const groth16_ops *gpu) {
    char zpath[1024], wpath[1024], rpath[1024], what[1200];
    snprintf(zpath, sizeof zpath, "%s/circuit.zkey", dir);
    snprintf(wpath, sizeof wpath, "%s/witness.wtns", dir);
    snprintf(rpath, sizeof rpath, "%s/circuit.r1cs", dir);
    pm_error e;
    zkey_t zk;
    wtns_t w;
    r1cs_t cs;
    memset(&zk, 0, sizeof zk);
    memset(&w, 0, sizeof w);
    memset(&cs, 0, sizeof cs);
    if (zkey_read(&zk, zpath, 0, &e) != PM_OK || wtns_read(&w, wpath, &e) != PM_OK || r1cs_read(&cs, rpath, &e) != PM_OK) {
        char b[1200];
        printf("FAIL cannot read fixture %s: %s\n", dir, pm_error_format(&e, b, sizeof b));
        gt_failures++;
        goto out;
    }
    groth16_key k;
    GT_OK(groth16_key_from_zkey(&k, &zk, NULL, 1, &e), e);
    snprintf(what, sizeof what, "snarkjs %s (n_vars %u, N %u)", dir, zk.n_vars, zk.domain_size);
    cpu_vs_gpu(what, &k, &w, gpu, 1, 2);
    groth16_key_free(&k); /* frees the device copy too */

    bp_params_t p;
    memset(&p, 0, sizeof p);
    groth16_toxic_t tox;
    groth16_setup_timings_t tm;
    uint64_t seed = 5;
    GT_OK(groth16_toxic_draw(&tox, &seed, &e), e);
    GT_OK(groth16_setup_bellperson(&p, &cs, &tox, &tm, &e), e);
    GT_OK(groth16_key_from_params(&k, &p, &cs, &e), e);
    snprintf(what, sizeof what, "bellperson %s (m %zu)", dir, k.domain);
    cpu_vs_gpu(what, &k, &w, gpu, 0, 2);
    bad_witness(what, &k, &w, gpu);
    groth16_key_free(&k);
    /* the chunked path: bases streamed from host memory in chunks of 3 points */
    bp_with_setting(what, &p, &cs, &w, gpu, "gpu.chunk_points", "3");
    /* a budget too small for even one chunk is refused with PM_ERR_NOMEM, not proved */
    if (gpu != &groth16_ops_cpu) {
        GT_OK(pm_setting_set("gpu.memory", "1K", &e), e); /* PROOFMILL_GPU_BUDGET=1K */
        GT_OK(groth16_key_from_params(&k, &p, &cs, &e), e);
        groth16_exec xg = {.ops = gpu, .device = 0};
        groth16_prove_opts_t opts = {.skip_self_check = 1};
        groth16_pending_t pg;
        memset(&pg, 0, sizeof pg);
        pm_status st = groth16_start(&pg, &k, w.values, w.n_values, &xg, &opts, &e);
        GT_CHECK(st == PM_ERR_NOMEM, "%s: budget 1K: %s (want NOMEM)", what, pm_status_name(st));
        printf("%s: budget 1K refused: %s\n", what, e.msg);
        groth16_pending_free(&pg);
        groth16_key_free(&k);
        GT_OK(pm_setting_set("gpu.memory", "0", &e), e);
    }
    params_free(&p);
out:
    r1cs_free(&cs);
    zkey_free(&zk);
    wtns_free(&w);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const groth16_ops *gpu = NULL;
    pm_error e;
    if (getenv("PM_TEST_TABLE_CPU")) { /* the test's own logic without a device: CPU against CPU */
        gpu = &groth16_ops_cpu;
        printf("PM_TEST_TABLE_CPU: the CPU table stands in for the GPU's\n");
    } else if (groth16_ops_gpu(&gpu, &e) != PM_OK) {
        printf("SKIPPED: %s\n", e.msg);
        return 77;
    }
    gt_seed();
    if (argc > 1) {
        for (int i = 1; i < argc; i++) run_fixture(argv[i], gpu);
    } else {
        const char *src = getenv("PROOFMILL_SOURCE_DIR");
        char d[1024];
        const char *names[] = {"multiplier", "powchain"};
        for (int i = 0; i < 2; i++) {
            snprintf(d, sizeof d, "%s/tests/data/%s", src ? src : ".", names[i]);
            run_fixture(d, gpu);
        }
    }
    synthetic(20000, 3, gpu);
    synthetic(3000, 40, gpu);
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
