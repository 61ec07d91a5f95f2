/*
 * test_gpu_groth16.c — the GPU start phase (gpu_groth16_prove_start) against the CPU prover.
 *
 * For each in-repo fixture (tests/data/<name>/circuit.zkey + witness.wtns, made by snarkjs, see
 * tests/data/regen.sh): the CPU groth16_prove_start and the GPU start must give the same three
 * G1 sums (sum_a, sum_b1, sum_c); then the GPU handle goes through the CPU's
 * groth16_prove_finalize with its self-verification (a pairing check against the zkey's
 * verification key) on, and with the same fixed r, s both handles must give the same proof.
 * Usage: test_gpu_groth16 [fixture dir ...]. Exit 77 when no GPU is usable.
 */
#include "../gpu/gpu_test_util.h"

static void run_fixture(const char *dir) {
    char zpath[1024], wpath[1024];
    snprintf(zpath, sizeof zpath, "%s/circuit.zkey", dir);
    snprintf(wpath, sizeof wpath, "%s/witness.wtns", dir);
    pm_error e;
    zkey_t zk;
    wtns_t w;
    memset(&zk, 0, sizeof zk);
    memset(&w, 0, sizeof w);
    if (zkey_read(&zk, zpath, 0, &e) != PM_OK || wtns_read(&w, wpath, &e) != PM_OK) {
        char b[1200];
        printf("FAIL cannot read fixture %s: %s\n", dir, pm_error_format(&e, b, sizeof b));
        gt_failures++;
        zkey_free(&zk);
        wtns_free(&w);
        return;
    }
    groth16_pending_t pc, pg;
    memset(&pc, 0, sizeof pc);
    memset(&pg, 0, sizeof pg);
    GT_OK(groth16_prove_start(&pc, &zk, w.values, w.n_values, NULL, &e), e);
    gpu_groth16_key *gk = NULL;
    GT_OK(gpu_groth16_key_upload(&gk, &zk, &e), e);
    if (gk) GT_OK(gpu_groth16_prove_start(&pg, gk, w.values, w.n_values, NULL, &e), e);
    int ok = gk && g1_jac_eq(&pc.sum_a, &pg.sum_a) && g1_jac_eq(&pc.sum_b1, &pg.sum_b1) && g1_jac_eq(&pc.sum_c, &pg.sum_c);
    GT_CHECK(ok, "%s: GPU start sums differ from the CPU's", dir);
    if (ok) {
        fr_t r, s;
        groth16_seeded_scalars(&r, &s, 42);
        groth16_proof_t prc, prg;
        GT_OK(groth16_prove_finalize(&prc, &pc, &r, &s, &e), e);
        pm_status st = groth16_prove_finalize(&prg, &pg, &r, &s, &e);
        GT_OK(st, e);
        GT_CHECK(st == PM_OK && memcmp(&prc, &prg, sizeof prc) == 0, "%s: proofs differ", dir);
    }
    printf("groth16 %s: n_vars=%u N=%u %s (GPU: h %.3f ms, msm a %.3f, b1 %.3f, c %.3f, h %.3f ms)\n", dir, zk.n_vars,
           zk.domain_size, ok ? "ok" : "MISMATCH", pg.t.h * 1e3, pg.t.msm_a * 1e3, pg.t.msm_b1 * 1e3, pg.t.msm_c * 1e3,
           pg.t.msm_h * 1e3);
    groth16_pending_free(&pc);
    groth16_pending_free(&pg);
    gpu_groth16_key_free(gk);
    zkey_free(&zk);
    wtns_free(&w);
}

int main(int argc, char **argv) {
    if (gpu_available() == 0) {
        printf("SKIPPED: no CUDA device or driver\n");
        return 77;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    if (argc > 1) {
        for (int i = 1; i < argc; i++) run_fixture(argv[i]);
    } else {
        const char *src = getenv("PROOFMILL_SOURCE_DIR");
        char d[1024];
        const char *names[] = {"multiplier", "powchain"};
        for (int i = 0; i < 2; i++) {
            snprintf(d, sizeof d, "%s/tests/data/%s", src ? src : ".", names[i]);
            run_fixture(d);
        }
    }
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
