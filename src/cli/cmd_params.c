/*
 * cmd_params.c — `proofmill params ...`: bellperson/Filecoin parameter files and 192-byte proofs.
 *
 *   params prove --params key.params --r1cs circuit.r1cs --wtns witness.wtns [--wtns w2 ...]
 *                --out proof.bin [--count K] [--seed S] [--threads N] [-v]
 *       One proof per --wtns (partitions, in order), or K proofs of one witness (default 1), with
 *       fresh r, s each (getrandom, or a seeded stream for tests), 192 bytes each, concatenated.
 *       Each is verified against the .params' vk before writing.
 *   params verify-bytes key.vk proof.bin (public.json [p2.json ...] | x1 x2 ...) [--batch]
 *                [--subgroup]
 *       Every proof in proof.bin against the same public inputs (one public.json or decimal
 *       numbers), or proof j against the j-th public.json when one is given per proof. Single
 *       mode prints
 *       "proof j: OK|INVALID" per proof; --batch runs one random-linear-combination check and,
 *       if it fails, falls back to single mode to name the bad proofs. Exit 0 all valid, 1 some
 *       invalid, 2 bad input.
 *   params copy in.params|in.vk out [--subgroup]
 *       Read (all checks; --subgroup adds subgroup tests) and write again (byte-identical for a
 *       well-formed file). Prints the counts and the load time.
 *   params check [DIR] [--manifest parameters.json] [--filter SUBSTR] [--skip-params]
 *       BLAKE2b digests (first 32 hex chars) of the manifest's files in DIR (default
 *       $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters). Exit 1 if any file is
 *       missing or wrong. Without --manifest: the six v28 PoRep digests recorded in
 *       ../shared/filecoin/POREP.md, for those of the files that are present (exit 1 if one is
 *       wrong).
 *   params names
 *       The v28 PoRep parameter file stems for each sector size.
 * `proofmill groth16 prove --params ...` / `groth16 verify-bytes ...` reach the same code once
 * src/cli/groth16.c forwards them (cmd_setup.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli.h"
#include "cli/cmd_setup.h"
#include "filecoin/param_names.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/proof_json.h"
#include "groth16/prover_bellperson.h"
#include "groth16/verifier.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"
#include "util/clock.h"

#define PM_CLI_MAX_THREADS 1024 /* more is a typo: libgomp dies creating them */
#define PM_CLI_MAX_PROOFS 4096  /* --count: proofs kept in memory until written */

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* splitmix64 stream -> Fr (top bits cleared), for seeded r, s in tests */
static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int draw_fr(fr_t *r, uint64_t *seed) {
    fr_t p;
    for (;;) {
        if (seed) {
            for (int i = 0; i < 4; i++) p.l[i] = splitmix(seed);
        } else {
            FILE *f = fopen("/dev/urandom", "rb");
            if (!f) return -1;
            size_t k = fread(p.l, 8, 4, f);
            fclose(f);
            if (k != 4) return -1;
        }
        p.l[3] &= 0x3fffffffffffffffull;
        fr_to_mont(r, &p);
        if (!fr_is_zero(r)) return 0;
    }
}

int pm_cli_params_prove_main(int argc, char **argv) {
    const char *pp = NULL, *rp = NULL, *op = NULL;
    const char *wps[64];
    unsigned nw = 0;
    unsigned threads = 0, count = 1;
    uint64_t seed = 0;
    int have_seed = 0, verbose = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--params") && v) pp = argv[++i];
        else if (!strcmp(a, "--r1cs") && v) rp = argv[++i];
        else if (!strcmp(a, "--wtns") && v) {
            if (nw == 64) return pm_cli_usage("params prove: at most 64 --wtns");
            wps[nw++] = argv[++i];
        }
        else if (!strcmp(a, "--out") && v) op = argv[++i];
        else if (!strcmp(a, "--count") && v) {
            uint64_t x;
            if (pm_cli_opt_u64(&x, "--count", argv[++i], 1, PM_CLI_MAX_PROOFS)) return PM_EXIT_USAGE;
            count = (unsigned)x;
        } else if (!strcmp(a, "--threads") && v) {
            uint64_t x;
            if (pm_cli_opt_u64(&x, "--threads", argv[++i], 1, PM_CLI_MAX_THREADS)) return PM_EXIT_USAGE;
            threads = (unsigned)x;
        } else if (!strcmp(a, "--seed") && v) {
            if (pm_cli_opt_u64(&seed, "--seed", argv[++i], 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
        }
        else if (!strcmp(a, "-v")) verbose = 1;
        else return pm_cli_usage("params prove: unexpected argument %s", a);
    }
    if (nw > 1 && count != 1)
        return pm_cli_usage("params prove: --count applies to a single --wtns");
    if (nw > 1) count = nw;
    if (!pp || !rp || !nw || !op || count == 0)
        return pm_cli_usage("usage: proofmill params prove --params key.params --r1cs c.r1cs "
                            "--wtns w.wtns --out proof.bin [--count K] [--seed S]");
    /* the output must not be one of the inputs: it would be overwritten and the input lost */
    if (pm_same_file(op, pp) || pm_same_file(op, rp))
        return pm_cli_usage("params prove: --out %s is also an input file", op);
    for (unsigned i = 0; i < nw; i++)
        if (pm_same_file(op, wps[i]))
            return pm_cli_usage("params prove: --out %s is also an input file", op);
#ifdef _OPENMP
    if (threads) omp_set_num_threads((int)threads);
#endif
    pm_error err;
    pm_error_clear(&err);
    bp_params_t p = {0};
    r1cs_t cs = {0};
    wtns_t w = {0};
    groth16_vk_t vk = {0};
    groth16_proof_t *proofs = NULL;
    int rc = PM_EXIT_USAGE;
    const char *wp = wps[0];
    double t0 = pm_now_s();
    if (params_read(&p, pp, 0, &err) || r1cs_read(&cs, rp, &err) ||
        params_vk_to_groth16_vk(&vk, &p.vk, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    double t1 = pm_now_s();
    proofs = calloc(count, sizeof *proofs);
    if (!proofs) {
        fprintf(stderr, "proofmill: out of memory\n");
        goto out;
    }
    (void)t1;
    for (unsigned k = 0; k < count; k++) {
        if (k == 0 || nw > 1) { /* one witness per partition, in order */
            wtns_free(&w);
            wp = wps[nw > 1 ? k : 0];
            if (wtns_read(&w, wp, &err)) {
                pm_cli_fail(&err);
                goto out;
            }
        }
        fr_t r, s;
        if (draw_fr(&r, have_seed ? &seed : NULL) || draw_fr(&s, have_seed ? &seed : NULL)) {
            fprintf(stderr, "proofmill: cannot read /dev/urandom\n");
            goto out;
        }
        groth16_timings_t tm;
        if (groth16_prove_bellperson(&proofs[k], &p, &cs, w.values, w.n_values, &r, &s, threads, &tm, &err)) {
            if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", wp);
            pm_cli_fail(&err);
            goto out;
        }
        int valid = 0;
        if (groth16_verify(&valid, &vk, w.values + 1, vk.n_public, &proofs[k], op, wp, &err) ||
            !valid) {
            fprintf(stderr, "proofmill: internal error: proof %u does not verify\n", k);
            goto out;
        }
        if (verbose)
            fprintf(stderr, "proof %u: spmv %.3f s, h %.3f s, msm g1 %.3f s, msm g2 %.3f s\n", k,
                    tm.eval_ab, tm.h, tm.msm_a + tm.msm_b1 + tm.msm_c + tm.msm_h, tm.msm_b2);
    }
    if (groth16_proofs_write(op, proofs, count, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    if (verbose) fprintf(stderr, "load %.3f s, prove %.3f s\n", t1 - t0, pm_now_s() - t1);
    rc = PM_EXIT_OK;
out:
    free(proofs);
    groth16_vk_free(&vk);
    params_free(&p);
    r1cs_free(&cs);
    wtns_free(&w);
    return rc;
}

int pm_cli_params_verify_bytes_main(int argc, char **argv) {
    const char *vkp = NULL, *pfp = NULL;
    int batch = 0, subgroup = 0;
    const char **pub = calloc((size_t)argc, sizeof *pub);
    size_t npub_args = 0;
    if (!pub) return PM_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--batch")) batch = 1;
        else if (!strcmp(argv[i], "--subgroup")) subgroup = 1;
        else if (!vkp) vkp = argv[i];
        else if (!pfp) pfp = argv[i];
        else pub[npub_args++] = argv[i];
    }
    int rc = PM_EXIT_USAGE;
    pm_error err;
    pm_error_clear(&err);
    bp_vk_t bvk = {0};
    groth16_vk_t vk = {0};
    groth16_proof_t *proofs = NULL;
    size_t n = 0, nx = 0;
    fr_t *x = NULL;
    if (!vkp || !pfp) {
        rc = pm_cli_usage("usage: proofmill params verify-bytes key.vk proof.bin "
                          "(public.json | x1 x2 ...) [--batch]");
        goto out;
    }
    if (params_vk_read(&bvk, vkp, subgroup ? BP_PARAMS_CHECK_SUBGROUP : 0, &err) ||
        params_vk_to_groth16_vk(&vk, &bvk, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    size_t nfiles = 0; /* public.json files given: 1 = shared by all proofs, k = one per proof */
    if (npub_args >= 1 && ends_with(pub[0], ".json")) {
        nfiles = npub_args;
        x = malloc(nfiles * (vk.n_public ? vk.n_public : 1) * sizeof *x);
        if (!x) goto out;
        for (size_t f = 0; f < nfiles; f++) {
            fr_t *xf = NULL;
            size_t nf = 0;
            if (!ends_with(pub[f], ".json")) {
                rc = pm_cli_usage("verify-bytes: mix of public.json files and numbers");
                goto out;
            }
            if (groth16_public_load_json(&xf, &nf, pub[f], &err)) {
                rc = pm_cli_fail(&err);
                goto out;
            }
            if (nf != vk.n_public) {
                fprintf(stderr, "proofmill: %s has %zu public inputs, %s expects %zu\n", pub[f], nf,
                        vkp, vk.n_public);
                free(xf);
                goto out;
            }
            memcpy(x + f * vk.n_public, xf, nf * sizeof *x);
            free(xf);
        }
        nx = vk.n_public;
    } else {
        x = malloc((npub_args ? npub_args : 1) * sizeof *x);
        nx = npub_args;
        for (size_t i = 0; x && i < npub_args; i++)
            if (groth16_fr_from_decimal(&x[i], pub[i], "command line", "public input", &err)) {
                rc = pm_cli_fail(&err);
                goto out;
            }
    }
    if (nx != vk.n_public) {
        fprintf(stderr, "proofmill: %zu public inputs given, %s expects %zu\n", nx, vkp,
                vk.n_public);
        goto out;
    }
    if (groth16_proofs_read(&proofs, &n, pfp, &err)) {
        /* a malformed point in a proof makes that proof invalid, not the input unreadable */
        char buf[1200];
        fprintf(stderr, "proofmill: invalid proof: %s\n", pm_error_format(&err, buf, sizeof buf));
        rc = (err.code == PM_ERR_IO || err.code == PM_ERR_FORMAT) ? PM_EXIT_USAGE : PM_EXIT_INVALID;
        goto out;
    }
    if (nfiles > 1 && nfiles != n) {
        fprintf(stderr, "proofmill: %zu public.json files for %zu proofs (give 1 or %zu)\n", nfiles, n, n);
        goto out;
    }
    size_t stride = nfiles > 1 ? vk.n_public : 0;
    if (batch) {
        int valid = 0;
        if (groth16_verify_batch(&valid, &vk, proofs, n, x, stride, 0, &err)) {
            rc = pm_cli_fail(&err);
            goto out;
        }
        if (valid) {
            printf("OK (batch of %zu)\n", n);
            rc = PM_EXIT_OK;
            goto out;
        }
        printf("batch of %zu INVALID; checking one by one\n", n);
    }
    rc = PM_EXIT_OK;
    for (size_t j = 0; j < n; j++) {
        int valid = 0;
        if (groth16_verify(&valid, &vk, x + j * stride, nx, &proofs[j], pfp, NULL, &err)) {
            rc = pm_cli_fail(&err);
            goto out;
        }
        printf("proof %zu: %s\n", j, valid ? "OK" : "INVALID");
        if (!valid) rc = PM_EXIT_INVALID;
    }
out:
    free(pub);
    free(x);
    free(proofs);
    groth16_vk_free(&vk);
    params_vk_free(&bvk);
    return rc;
}

static int cmd_copy(int argc, char **argv) {
    const char *in = NULL, *outp = NULL;
    int subgroup = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--subgroup")) subgroup = 1;
        else if (!in) in = argv[i];
        else if (!outp) outp = argv[i];
        else return pm_cli_usage("params copy: extra argument %s", argv[i]);
    }
    if (!in || !outp) return pm_cli_usage("usage: proofmill params copy in.params|in.vk out");
    unsigned fl = subgroup ? BP_PARAMS_CHECK_SUBGROUP : 0;
    pm_error err;
    pm_error_clear(&err);
    double t0 = pm_now_s(), t1;
    if (ends_with(in, ".vk")) {
        bp_vk_t vk;
        if (params_vk_read(&vk, in, fl, &err)) return pm_cli_fail(&err);
        t1 = pm_now_s();
        pm_status st = params_vk_write(outp, &vk, &err);
        printf("vk: %zu ic; read %.3f s\n", vk.n_ic, t1 - t0);
        params_vk_free(&vk);
        return st ? pm_cli_fail(&err) : PM_EXIT_OK;
    }
    bp_params_t p;
    if (params_read(&p, in, fl, &err)) return pm_cli_fail(&err);
    t1 = pm_now_s();
    pm_status st = params_write(outp, &p, &err);
    double t2 = pm_now_s();
    uint64_t bytes = params_size(p.vk.n_ic, p.n_h, p.n_l, p.n_a, p.n_b_g1, p.n_b_g2);
    printf("params: ic %zu h %zu l %zu a %zu b_g1 %zu b_g2 %zu (%llu bytes); read %.3f s "
           "(%.2f GB/s), write %.3f s\n",
           p.vk.n_ic, p.n_h, p.n_l, p.n_a, p.n_b_g1, p.n_b_g2, (unsigned long long)bytes, t1 - t0,
           (double)bytes / 1e9 / (t1 - t0), t2 - t1);
    params_free(&p);
    return st ? pm_cli_fail(&err) : PM_EXIT_OK;
}

static int cmd_check(int argc, char **argv) {
    const char *dir = NULL, *manifest = NULL, *filter = NULL;
    int skip = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--manifest") && i + 1 < argc) manifest = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--skip-params")) skip = 1;
        else if (!dir && argv[i][0] != '-') dir = argv[i];
        else return pm_cli_usage("params check: unexpected argument %s", argv[i]);
    }
    if (!dir) dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (!dir || !*dir) dir = "/var/tmp/filecoin-proof-parameters";
    pm_error err;
    pm_error_clear(&err);
    fil_param_check_t res;
    if (!manifest) {
        /* no manifest: the built-in digests (param_names.h) of the files that are present */
        if (fil_param_check_known(&res, dir, skip, stdout, &err)) return pm_cli_fail(&err);
        printf("%zu known: %zu ok, %zu bad, %zu absent (%s; built-in v28 PoRep, PoSt and SnapDeals digests, give "
               "--manifest parameters.json for the full list)\n",
               res.checked, res.ok, res.bad, res.missing, dir);
        return res.bad ? PM_EXIT_INVALID : PM_EXIT_OK;
    }
    if (fil_param_check_dir(&res, dir, manifest, filter, skip, stdout, &err))
        return pm_cli_fail(&err);
    printf("%zu checked: %zu ok, %zu bad, %zu missing (%s)\n", res.checked, res.ok, res.bad,
           res.missing, dir);
    return (res.bad || res.missing) ? PM_EXIT_INVALID : PM_EXIT_OK;
}

static int cmd_names(void) {
    size_t n;
    const fil_porep_shape_t *s = fil_porep_shapes(&n);
    for (size_t i = 0; i < n; i++) {
        char stem[256];
        pm_error err;
        if (fil_porep_param_stem(stem, sizeof stem, s[i].sector_size, &err)) return pm_cli_fail(&err);
        printf("%llu %s\n", (unsigned long long)s[i].sector_size, stem);
    }
    return PM_EXIT_OK;
}

static int cmd_params(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "prove")) return pm_cli_params_prove_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "verify-bytes")) return pm_cli_params_verify_bytes_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "copy")) return cmd_copy(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "check")) return cmd_check(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "names")) return cmd_names();
    return pm_cli_usage("usage: proofmill params prove|verify-bytes|copy|check|names ...");
}

PM_CLI_COMMAND(params, "params prove|verify-bytes|copy|check|names ...",
               "bellperson .params/.vk, 192-byte proofs, Filecoin parameter digests", cmd_params)
