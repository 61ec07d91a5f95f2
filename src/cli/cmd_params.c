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
 *   params check [DIR] [--quick] [--threads N] [--manifest parameters.json [--filter SUBSTR] [--skip-params]]
 *       Which of Filecoin's v28 parameter files DIR holds (default $FIL_PROOFS_PARAMETER_CACHE or
 *       /var/tmp/filecoin-proof-parameters), by kind and sector size (filecoin/param_report.h):
 *       complete, incomplete (missing file named), proofmill test parameters (the marker lists
 *       them), truncated, or another file under Filecoin's name; files hashed in parallel with
 *       progress; --quick: sizes and headers only. Exit 1 if a present file is not Filecoin's.
 *       With --manifest: BLAKE2b digests (first 32 hex chars) of the manifest's files, one line
 *       each; exit 1 if any file is missing or wrong.
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
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli.h"
#include "util/splitmix.h"
#include "cli/opts.h"
#include "groth16/key_check.h"
#include "util/progress.h"
#include "cli/cmd_setup.h"
#include "filecoin/param_names.h"
#include "filecoin/param_report.h"
#include "filecoin/param_safety.h"
#include "filecoin/sizes.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/proof_json.h"
#include "groth16/prover_bellperson.h"
#include "groth16/verifier.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"
#include "util/clock.h"
#include "util/settings.h"

#define PM_CLI_MAX_THREADS 1024 /* more is a typo: libgomp dies creating them */
#define PM_CLI_MAX_PROOFS 4096  /* --count: proofs kept in memory until written */

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* a splitmix64 stream (util/splitmix.h) -> Fr (top bits cleared), for seeded r, s in tests */
static int draw_fr(fr_t *r, uint64_t *seed) {
    fr_t p;
    for (;;) {
        if (seed) {
            for (int i = 0; i < 4; i++) p.l[i] = pm_splitmix64(seed);
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
    enum { O_PARAMS = 256, O_R1CS, O_WTNS, O_OUT, O_COUNT, O_THREADS, O_SEED };
    static const pm_cli_opt opts[] = {
        {"params", O_PARAMS, "FILE", "the proving key (.params, bellperson layout)"},
        {"r1cs", O_R1CS, "FILE", "the circuit (circom .r1cs)"},
        {"wtns", O_WTNS, "FILE", "a witness (repeat for one proof per witness, in order; at most 64)"},
        {"out", O_OUT, "FILE", "the proofs, 192 bytes each, concatenated"},
        {"count", O_COUNT, "K", "K proofs of the one witness (1..4096, default 1)"},
        {"threads", O_THREADS, "N", "threads (1..1024; default all cores)"},
        {"seed", O_SEED, "S", "r, s from a deterministic stream: tests only, NOT zero-knowledge"},
        {"verbose", 'v', NULL, "stage timings on stderr"},
        {0}};
    static const pm_cli_spec spec = {
        "params prove", "params prove --params key.params --r1cs c.r1cs --wtns w.wtns [--wtns w2 ...] --out proof.bin "
        "[--count K] [--seed S] [--threads N] [-v]",
        "Each proof is verified against the .params' verifying key before anything is written.", opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        uint64_t x;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case O_PARAMS: pp = pa.arg; break;
        case O_R1CS: rp = pa.arg; break;
        case O_WTNS:
            if (nw == 64) return pm_cli_usage("params prove: at most 64 --wtns");
            wps[nw++] = pa.arg;
            break;
        case O_OUT: op = pa.arg; break;
        case O_COUNT:
            if (pm_cli_opt_u64(&x, "--count", pa.arg, 1, PM_CLI_MAX_PROOFS)) return PM_EXIT_USAGE;
            count = (unsigned)x;
            break;
        case O_THREADS:
            if (pm_cli_opt_u64(&x, "--threads", pa.arg, 1, PM_CLI_MAX_THREADS)) return PM_EXIT_USAGE;
            threads = (unsigned)x;
            break;
        case O_SEED:
            if (pm_cli_opt_u64(&seed, "--seed", pa.arg, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
            break;
        case 'v': verbose = 1; break;
        default: break;
        }
    }
    if (pa.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[pa.ind]);
    if (nw > 1 && count != 1)
        return pm_cli_usage("params prove: --count applies to a single --wtns");
    if (nw > 1) count = nw;
    if (!pp || !rp || !nw || !op || count == 0)
        return pm_cli_spec_usage(&spec, "needs --params, --r1cs, --wtns and --out");
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
    if (groth16_params_fit(&p, &cs, pp, rp, &err)) { /* the prover's own check names no files */
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
    pm_progress_start("params prove");
    for (unsigned k = 0; k < count; k++) {
        pm_progress_item("proof", k, count);
        if (k == 0 || nw > 1) { /* one witness per partition, in order */
            wtns_free(&w);
            wp = wps[nw > 1 ? k : 0];
            if (wtns_read(&w, wp, &err)) {
                pm_cli_fail(&err);
                goto out;
            }
            if (w.n_values != cs.n_wires) {
                pm_error_set(&err, PM_ERR_MISMATCH, wp, PM_NO_OFFSET,
                             "%u values, but %s has %u wires (a witness for another circuit?)", w.n_values, rp,
                             cs.n_wires);
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
        if (groth16_verify(&valid, &vk, w.values + 1, vk.n_public, &proofs[k], op, wp, &err)) {
            pm_cli_fail(&err);
            goto out;
        }
        if (!valid) { /* the witness satisfied every row (the start phase checks them): the key is at fault */
            groth16_key view = {0};
            char detail[64];
            snprintf(detail, sizeof detail, "proof %u", k);
            if (groth16_key_from_params(&view, &p, &cs, &err) == PM_OK)
                groth16_key_inconsistent(&view, &vk, pp, detail, &err);
            groth16_key_free(&view);
            pm_cli_fail(&err);
            goto out;
        }
        if (verbose)
            fprintf(stderr, "proof %u: spmv %.3f s, h %.3f s, msm g1 %.3f s, msm g2 %.3f s\n", k,
                    tm.eval_ab, tm.h, tm.msm_a + tm.msm_b1 + tm.msm_c + tm.msm_h, tm.msm_b2);
    }
    pm_progress_stop();
    if (groth16_proofs_write(op, proofs, count, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    if (verbose) fprintf(stderr, "load %.3f s, prove %.3f s\n", t1 - t0, pm_now_s() - t1);
    rc = PM_EXIT_OK;
out:
    pm_progress_stop();
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
    enum { O_BATCH = 256, O_SUBGROUP };
    static const pm_cli_opt opts[] = {
        {"batch", O_BATCH, NULL, "one random-linear-combination check (single checks name the bad proofs if it fails)"},
        {"subgroup", O_SUBGROUP, NULL, "also check the .vk's points are in the prime-order subgroups"},
        {0}};
    static const pm_cli_spec spec = {
        "params verify-bytes", "params verify-bytes key.vk proof.bin (public.json [p2.json ...] | x1 x2 ...) [--batch] [--subgroup]",
        "Every 192-byte proof of proof.bin against the same public inputs, or proof j against the j-th\n"
        "public.json. Exit 0 all valid, 1 some invalid, 2 bad input.", opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) {
            free(pub);
            return pa.rc;
        }
        if (o == O_BATCH) batch = 1;
        else if (o == O_SUBGROUP) subgroup = 1;
    }
    for (int i = pa.ind; i < argc; i++) {
        if (!vkp) vkp = argv[i];
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
        for (size_t i = 0; x && i < npub_args; i++) {
            char what[64];
            snprintf(what, sizeof what, "public input %zu of %zu", i + 1, npub_args);
            if (groth16_fr_from_decimal(&x[i], pub[i], "command line", what, &err)) {
                rc = pm_cli_fail(&err);
                goto out;
            }
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
    static const pm_cli_opt opts[] = {{"subgroup", 's', NULL, "also check every point is in its prime-order subgroup"},
                                      {0}};
    static const pm_cli_spec spec = {"params copy", "params copy in.params|in.vk out [--subgroup]",
                                     "Reads the file with every check and writes it again (byte-identical for a "
                                     "well-formed file).", opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return pa.rc;
        subgroup = 1;
    }
    if (pa.ind < argc) in = argv[pa.ind++];
    if (pa.ind < argc) outp = argv[pa.ind++];
    if (pa.ind < argc) return pm_cli_spec_usage(&spec, "extra argument '%s'", argv[pa.ind]);
    if (!in || !outp) return pm_cli_spec_usage(&spec, "needs in.params|in.vk and out");
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

static const char *check_size_name(uint64_t size) {
    const fil_sector_info_t *si = fil_sector_info(size);
    return si ? si->name : "?";
}

/* The provider's view of a parameter directory (filecoin/param_report.h): one line per kind and
 * sector size that has files, a line per file that is not Filecoin's, a summary. Exit 1 when a
 * file is a test file, truncated or another file under Filecoin's name. */
static int check_report(const char *dir, int quick, unsigned threads) {
    fil_param_file_t *f = NULL;
    size_t n = 0;
    pm_error err;
    pm_error_clear(&err);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) { /* a wrong directory is not an empty one */
        fprintf(stderr, "proofmill: params check: %s: %s (the parameter directory: DIR, else "
                        "$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)\n",
                dir, stat(dir, &sb) != 0 ? strerror(errno) : "not a directory");
        return PM_EXIT_USAGE;
    }
    pm_progress_start("params check");
    pm_status st = fil_param_survey(&f, &n, dir, quick, threads, &err);
    pm_progress_stop();
    if (st) return pm_cli_fail(&err);
    printf("params check: %s (%s)\n", dir,
           quick ? "--quick: sizes and headers only, digests not computed"
                 : "BLAKE2b digests against Filecoin's v28 parameters.json");
    char complete[2048] = "", partly[2048] = "", tests[2048] = "";
    unsigned groups = 0, absent = 0;
    int bad = 0;
    for (int kind = FIL_PARAM_POREP; kind <= FIL_PARAM_EMPTY_SECTOR_UPDATE; kind++) {
        uint64_t sizes[16];
        size_t ns = 0;
        for (size_t i = 0; i < n; i++) {
            if ((int)f[i].kind != kind) continue;
            int seen = 0;
            for (size_t j = 0; j < ns; j++) seen |= sizes[j] == f[i].sector_size;
            if (!seen && ns < 16) sizes[ns++] = f[i].sector_size;
        }
        for (size_t z = 0; z < ns; z++) {
            const fil_param_file_t *g[2];
            size_t ng = 0;
            for (size_t i = 0; i < n && ng < 2; i++)
                if ((int)f[i].kind == kind && f[i].sector_size == sizes[z]) g[ng++] = &f[i];
            char label[64];
            snprintf(label, sizeof label, "%s %s", fil_param_kind_name((fil_param_kind_t)kind), check_size_name(sizes[z]));
            groups++;
            int present = 0, good = 0, test = 0, broken = 0;
            for (size_t i = 0; i < ng; i++) {
                present += g[i]->state != FIL_PF_ABSENT;
                good += g[i]->state == FIL_PF_GENUINE || g[i]->state == FIL_PF_HEADER_OK;
                test += g[i]->state == FIL_PF_TEST;
                broken += g[i]->state == FIL_PF_TRUNCATED || g[i]->state == FIL_PF_BAD;
            }
            if (!present) {
                absent++;
                continue;
            }
            char *sum = broken ? NULL : test ? tests : good == (int)ng ? complete : partly;
            if (sum) snprintf(sum + strlen(sum), 2048 - strlen(sum), "%s%s", sum[0] ? ", " : "", label);
            if (test) {
                for (size_t i = 0; i < ng; i++)
                    if (g[i]->state == FIL_PF_TEST)
                        printf("%-26s proofmill test parameters: %s (the directory's %s lists it), not Filecoin's\n",
                               label, g[i]->name, FIL_PARAM_MARKER);
            } else if (!broken && good == (int)ng) {
                printf("%-26s complete: .params and .vk %s\n", label,
                       quick ? "have consistent sizes and headers" : "are Filecoin's");
            } else if (!broken) {
                for (size_t i = 0; i < ng; i++)
                    if (g[i]->state == FIL_PF_ABSENT)
                        printf("%-26s incomplete: %s missing (the %s is %s)\n", label, g[i]->name,
                               g[1 - i]->ext, quick ? "well-formed" : "Filecoin's");
            }
            for (size_t i = 0; i < ng; i++)
                if (g[i]->state == FIL_PF_TRUNCATED || g[i]->state == FIL_PF_BAD)
                    printf("%-26s %s %s: %s\n", label, g[i]->state == FIL_PF_TRUNCATED ? "TRUNCATED" : "BAD",
                           g[i]->name, g[i]->why);
                else if (broken && g[i]->state == FIL_PF_ABSENT)
                    printf("%-26s missing %s\n", label, g[i]->name);
            bad |= broken || test;
        }
    }
    printf("complete: %s; partly there: %s; test parameters: %s; no files: %u of %u kinds and sizes\n",
           complete[0] ? complete : "none", partly[0] ? partly : "none", tests[0] ? tests : "none", absent, groups);
    free(f);
    return bad ? PM_EXIT_INVALID : PM_EXIT_OK;
}

static int cmd_check(int argc, char **argv) {
    const char *dir = NULL, *manifest = NULL, *filter = NULL;
    int skip = 0, quick = 0;
    unsigned threads = 0;
    enum { O_MANIFEST = 256, O_FILTER, O_SKIP, O_QUICK, O_THREADS };
    static const pm_cli_opt opts[] = {
        {"manifest", O_MANIFEST, "FILE", "a parameters.json: one line per file it lists (default: Filecoin's v28 "
                                         "digests, built in, grouped by kind and sector size)"},
        {"filter", O_FILTER, "SUBSTR", "with --manifest: only the files whose name contains SUBSTR"},
        {"skip-params", O_SKIP, NULL, "with --manifest: skip the large .params files"},
        {"quick", O_QUICK, NULL, "sizes and headers only, no digests (seconds instead of minutes)"},
        {"threads", O_THREADS, "N", "files hashed at once (1..1024; default all cores)"},
        {0}};
    static const pm_cli_spec spec = {
        "params check", "params check [DIR] [--quick] [--threads N] [--manifest parameters.json [--filter SUBSTR] "
                        "[--skip-params]]",
        "Which of Filecoin's parameter files DIR holds (default $FIL_PROOFS_PARAMETER_CACHE, else\n"
        "/var/tmp/filecoin-proof-parameters), by kind and sector size: complete, incomplete (the missing file\n"
        "named), proofmill test parameters, truncated or not Filecoin's. Files are hashed in parallel.\n"
        "Exit 0 when every file present is Filecoin's, 1 when one is a test file, truncated or another file\n"
        "(with --manifest: also when one is missing), 2 usage.",
        opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return pa.rc;
        if (o == O_MANIFEST) manifest = pa.arg;
        else if (o == O_FILTER) filter = pa.arg;
        else if (o == O_SKIP) skip = 1;
        else if (o == O_QUICK) quick = 1;
        else if (o == O_THREADS) {
            uint64_t t;
            if (pm_cli_opt_u64(&t, "--threads", pa.arg, 1, PM_CLI_MAX_THREADS)) return PM_EXIT_USAGE;
            threads = (unsigned)t;
        }
    }
    if (pa.ind < argc) dir = argv[pa.ind++];
    if (pa.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[pa.ind]);
    if (!dir || !*dir) dir = fil_param_default_dir();
    if (!manifest) {
        if (filter || skip) return pm_cli_spec_usage(&spec, "--filter and --skip-params need --manifest");
        return check_report(dir, quick, threads);
    }
    if (quick) return pm_cli_spec_usage(&spec, "--quick checks Filecoin's own files: not with --manifest");
    pm_error err;
    pm_error_clear(&err);
    fil_param_check_t res;
    if (fil_param_check_dir(&res, dir, manifest, filter, skip, stdout, &err))
        return pm_cli_fail(&err);
    printf("%zu checked: %zu ok, %zu bad, %zu missing (%s)\n", res.checked, res.ok, res.bad,
           res.missing, dir);
    return (res.bad || res.missing) ? PM_EXIT_INVALID : PM_EXIT_OK;
}

static int cmd_names(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"params names", "params names",
                                     "The v28 PoRep parameter file stems for each sector size.", opts};
    pm_cli_args pa;
    int rc = pm_cli_args_plain(&pa, &spec, argc, argv);
    if (rc >= 0) return rc;
    if (pa.ind < argc) return pm_cli_spec_usage(&spec, "takes no arguments");
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
    if (argc >= 2 && !strcmp(argv[1], "names")) return cmd_names(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: proofmill params <subcommand> [arguments]   (proofmill params <subcommand> --help)\n\n"
               "  prove         192-byte Groth16 proofs with a bellperson .params key\n"
               "  verify-bytes  verify 192-byte proofs against a .vk\n"
               "  copy          read a .params/.vk with every check and write it again\n"
               "  check         BLAKE2b digests of Filecoin parameter files\n"
               "  names         the v28 PoRep parameter file stems per sector size\n");
        return PM_EXIT_OK;
    }
    return pm_cli_usage("usage: proofmill params prove|verify-bytes|copy|check|names ... (see `proofmill params --help`)");
}

PM_CLI_COMMAND(params, "params prove|verify-bytes|copy|check|names ...",
               "bellperson .params/.vk, 192-byte proofs, Filecoin parameter digests", cmd_params)
