/*
 * cmd_selfcheck.c — `proofmill selfcheck`: the compatibility check a storage provider runs once, on
 * the Filecoin parameter files they already have (issue #39).
 *
 *   selfcheck [DIR] [--data DIR] [--c1 FILE] [--no-prove] [--allow-missing] [--threads N]
 *
 * DIR: the parameter directory (default $FIL_PROOFS_PARAMETER_CACHE, else
 * /var/tmp/filecoin-proof-parameters). --data: Filecoin's published data (filecoin/real_data.h;
 * default $PROOFMILL_FILECOIN_DATA, else share/proofmill/filecoin beside the installed binary,
 * ../share/proofmill/filecoin from its directory). The checks, one verdict line each:
 *  1. seal regression records (seal_regression_records-v16.json, -v18.json): every record of a size
 *     whose genuine PoRep .vk is in DIR, verified with our verifier and our public inputs
 *     (filecoin/porep_public.h), one line per file, size and porep version; a failing record is
 *     named by index, line, version and what failed;
 *  2. the calibration-network 32 GiB WindowPoSt (window_post_calibnet_32GiB.json) against the
 *     genuine 32 GiB WindowPoSt .vk, once per registered proof it names;
 *  3. unless --no-prove: a 2 KiB test sector sealed here, its C2 proved with the genuine 2 KiB
 *     .params and verified with the genuine .vk; then the same for WinningPoSt, WindowPoSt (API 1.2)
 *     and SnapDeals: a 2 KiB request over a sector sealed here (cli/fil_gen.h, as `proofmill
 *     <kind> gen` makes it), proved with the kind's genuine 2 KiB .params (pm_cli_prove_job, as
 *     `<kind> prove`) and every partition verified with its genuine .vk, our verifier and our public
 *     inputs (pm_fil_derive_inputs, as `<kind> verify`); each skipped when its files are missing;
 *  4. --c1 FILE: that sector's C2 with the genuine parameters of its size, verified with the .vk.
 * A parameter file is used only when its BLAKE2b digest is Filecoin's (parameters.json of --data,
 * else the built-in digests); a proofmill test file (listed in the directory's marker) is skipped
 * as such; another file under a genuine name fails the check. Exit: 0 when nothing failed and
 * nothing was missing (--allow-missing: missing files do not count), 1 otherwise, 2 usage.
 * Checks proofmill cannot run (synthetic-PoRep challenges, non-interactive SnarkPack aggregates)
 * say so and do not fail.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "cli/cli.h"
#include "cli/fil_gen.h"
#include "cli/opts.h"
#include "cli/prove_job.h"
#include "filecoin/c1_json.h"
#include "filecoin/param_names.h"
#include "filecoin/param_safety.h"
#include "filecoin/porep_public.h"
#include "filecoin/post.h"
#include "filecoin/proof_request.h"
#include "filecoin/real_data.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/vanilla_proof.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/verifier.h"
#include "kinds/filecoin/porep_c2/porep_c2.h"
#include "kinds/filecoin/vanilla_kind.h"
#include "kinds/kind.h"
#include "util/clock.h"
#include "util/progress.h"
#include "util/settings.h"

typedef struct {
    const char *dir;
    fil_param_manifest_t manifest; /* n = 0: the built-in digests */
    unsigned pass, fail, missing, unsupported;
    unsigned test_files; /* of the skipped: a proofmill test parameter file where Filecoin's belongs */
    int small_missing;             /* a 2 KiB file is missing: say how to fetch them */
} sc_state;

/* ---------------------------------------------------------------- genuine files */

typedef enum { GF_OK, GF_MISSING, GF_TEST, GF_BAD } gf_status;

/* The digest Filecoin publishes for name: parameters.json of --data, else the built-in ones. */
static const char *published_digest(const sc_state *s, const char *name, fil_param_kind_t kind, uint64_t size,
                                    const char *ext) {
    for (size_t i = 0; i < s->manifest.n; i++)
        if (!strcmp(s->manifest.e[i].name, name)) return s->manifest.e[i].digest;
    size_t n;
    const fil_known_digest_t *k = fil_known_digests(&n);
    for (size_t i = 0; i < n; i++)
        if (k[i].kind == kind && k[i].sector_size == size && !strcmp(k[i].ext, ext)) return k[i].digest;
    return NULL;
}

static const char *size_name(uint64_t size) {
    const fil_sector_info_t *si = fil_sector_info(size);
    return si ? si->name : "?";
}

/* Is DIR/<stem of kind, size><ext> Filecoin's file? path[cap] receives its path, why[wcap] what is
 * wrong with it. */
static gf_status genuine(sc_state *s, char *path, size_t cap, char *why, size_t wcap, fil_param_kind_t kind,
                         uint64_t size, const char *ext) {
    char stem[256], name[300];
    pm_error e;
    pm_error_clear(&e);
    why[0] = 0;
    if (fil_param_stem(stem, sizeof stem, kind, size, &e)) {
        snprintf(why, wcap, "%s", e.msg);
        return GF_BAD;
    }
    snprintf(name, sizeof name, "%s%s", stem, ext);
    snprintf(path, cap, "%s/%s", s->dir, name);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        snprintf(why, wcap, "%s missing", path);
        if (size == 2048) s->small_missing = 1;
        return GF_MISSING;
    }
    if (fil_param_is_marked_test(s->dir, name)) {
        snprintf(why, wcap, "%s is a proofmill test parameter file (the directory's %s says so), not Filecoin's", path,
                 FIL_PARAM_MARKER);
        if (size == 2048) s->small_missing = 1;
        return GF_TEST;
    }
    const char *want = published_digest(s, name, kind, size, ext);
    char got[33];
    if (!want) {
        snprintf(why, wcap, "%s: Filecoin publishes no digest for it", path);
        return GF_BAD;
    }
    pm_progress_stage(!strcmp(ext, ".params") ? "hashing the .params" : "hashing the .vk", (uint64_t)sb.st_size);
    if (fil_param_digest_progress(got, NULL, path, 1, &e)) {
        snprintf(why, wcap, "%s", e.msg);
        return GF_BAD;
    }
    if (strcmp(got, want)) {
        snprintf(why, wcap, "%s is not Filecoin's file: BLAKE2b digest %s, parameters.json says %s (corrupt, "
                 "truncated or another setup)", path, got, want);
        return GF_BAD;
    }
    return GF_OK;
}

static void verdict(sc_state *s, gf_status g, const char *check, const char *why) {
    if (g == GF_MISSING || g == GF_TEST) {
        printf("skip  %s: skipped: %s\n", check, why);
        s->missing++;
        if (g == GF_TEST) s->test_files++;
    } else {
        printf("FAIL  %s: %s\n", check, why);
        s->fail++;
    }
}

/* The genuine .vk of kind and size as a verifying key; 0 when it is there (else the verdict line is
 * printed for check). */
static int genuine_vk(sc_state *s, groth16_vk_t *vk, const char *check, fil_param_kind_t kind, uint64_t size) {
    char path[4400], why[5000];
    gf_status g = genuine(s, path, sizeof path, why, sizeof why, kind, size, ".vk");
    if (g != GF_OK) {
        verdict(s, g, check, why);
        return -1;
    }
    bp_vk_t b = {0};
    pm_error e;
    pm_error_clear(&e);
    if (params_vk_read(&b, path, 0, &e) || params_vk_to_groth16_vk(vk, &b, &e)) {
        char buf[1200];
        params_vk_free(&b);
        verdict(s, GF_BAD, check, pm_error_format(&e, buf, sizeof buf));
        return -1;
    }
    params_vk_free(&b);
    return 0;
}

/* ---------------------------------------------------------------- 1. seal records */

static void check_records(sc_state *s, const char *data, const char *file) {
    char path[PATH_MAX + 64], buf[1200];
    snprintf(path, sizeof path, "%s/%s", data, file);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        printf("skip  porep records %s: skipped: %s missing\n", file, path);
        s->missing++;
        return;
    }
    fil_seal_records_t rs;
    pm_error e;
    pm_error_clear(&e);
    if (fil_seal_records_read(&rs, path, &e)) {
        printf("FAIL  porep records %s: %s\n", file, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
        return;
    }
    unsigned char *done = calloc(rs.n, 1);
    for (size_t i = 0; done && i < rs.n; i++) {
        if (done[i]) continue;
        char ver[64], check[200];
        fil_seal_record_version(ver, sizeof ver, &rs.r[i]);
        size_t n = 0;
        for (size_t j = i; j < rs.n; j++) {
            char vj[64];
            if (rs.r[j].sector_size == rs.r[i].sector_size && !strcmp(fil_seal_record_version(vj, sizeof vj, &rs.r[j]), ver))
                n++;
        }
        snprintf(check, sizeof check, "porep %s %s, %zu record%s of %s", size_name(rs.r[i].sector_size), ver, n,
                 n == 1 ? "" : "s", file);
        int can = 1;
        if (rs.r[i].feature == FIL_FEATURE_SYNTHETIC_POREP) {
            printf("skip  %s: not checked: synthetic-PoRep challenges are not derived by proofmill\n", check);
            s->unsupported++;
            can = 0;
        } else if (rs.r[i].feature == FIL_FEATURE_NON_INTERACTIVE_POREP) {
            printf("skip  %s: not checked: non-interactive PoRep proofs are SnarkPack aggregates, which proofmill "
                   "does not verify\n",
                   check);
            s->unsupported++;
            can = 0;
        }
        groth16_vk_t vk = {0};
        if (can && genuine_vk(s, &vk, check, FIL_PARAM_POREP, rs.r[i].sector_size)) can = 0;
        size_t ok = 0, bad = 0;
        char first[1400] = "";
        for (size_t j = i; j < rs.n; j++) {
            char vj[64];
            if (rs.r[j].sector_size != rs.r[i].sector_size || strcmp(fil_seal_record_version(vj, sizeof vj, &rs.r[j]), ver))
                continue;
            done[j] = 1;
            if (!can) continue;
            int valid = 0;
            char why[700];
            pm_error_clear(&e);
            if (fil_seal_record_verify(&valid, why, sizeof why, &rs.r[j], &vk, &e))
                snprintf(why, sizeof why, "%s", pm_error_format(&e, buf, sizeof buf));
            if (valid) {
                ok++;
                continue;
            }
            bad++;
            char line[1400];
            snprintf(line, sizeof line, "record %zu (line %zu), %s: %s", j, rs.r[j].line, ver, why);
            if (!first[0]) snprintf(first, sizeof first, "%s", line);
            else printf("      %s\n", line);
        }
        if (can) {
            if (bad) {
                printf("FAIL  %s: %zu of %zu do not verify with our public inputs; %s\n", check, bad, ok + bad, first);
                s->fail++;
            } else {
                printf("PASS  %s: all verify (our verifier, our public inputs)\n", check);
                s->pass++;
            }
        }
        groth16_vk_free(&vk);
    }
    free(done);
    fil_seal_records_free(&rs);
}

/* ---------------------------------------------------------------- 2. WindowPoSt */

static void check_window_post(sc_state *s, const char *data) {
    const char *file = "window_post_calibnet_32GiB.json";
    char path[PATH_MAX + 64], buf[1200], check[200];
    int pl = snprintf(path, sizeof path, "%s/%s", data, file);
    if (pl < 0 || (size_t)pl >= sizeof path) {
        printf("FAIL  window-post: --data %s: path too long\n", data);
        s->fail++;
        return;
    }
    struct stat sb;
    if (stat(path, &sb) != 0) {
        printf("skip  window-post calibnet 32GiB: skipped: %s missing\n", path);
        s->missing++;
        return;
    }
    fil_window_post_record_t w;
    pm_error e;
    pm_error_clear(&e);
    if (fil_window_post_record_read(&w, path, &e)) {
        printf("FAIL  window-post %s: %s\n", file, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
        return;
    }
    const fil_registered_post_t *rp0 = fil_registered_post(w.registered[0]);
    snprintf(check, sizeof check, "window-post %s calibnet (%s)", size_name(rp0->sector_size), file);
    groth16_vk_t vk = {0};
    if (genuine_vk(s, &vk, check, FIL_PARAM_WINDOW_POST, rp0->sector_size) == 0) {
        for (size_t i = 0; i < w.n_registered; i++) {
            const fil_registered_post_t *rp = fil_registered_post(w.registered[i]);
            fil_post_config_t c;
            fr_t *x = NULL;
            size_t nx = 0;
            int valid = 0;
            groth16_proof_t pr;
            pm_status st = fil_post_config(&c, rp->id, &e);
            if (!st) {
                nx = (size_t)c.circuit_sectors * (1 + c.circuit_challenges);
                x = malloc(nx * sizeof *x);
                if (!x) st = pm_error_set(&e, PM_ERR_NOMEM, "", PM_NO_OFFSET, "public inputs");
            }
            if (!st && vk.n_public != nx)
                st = pm_error_set(&e, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                  "the .vk takes %zu public inputs, our WindowPoSt circuit has %zu", vk.n_public, nx);
            if (!st)
                st = fil_post_public_inputs(x, nx, &c, w.randomness, w.sector_id, (const uint8_t(*)[32])w.comm_r,
                                            w.n_sectors, 0, &e);
            if (!st) st = groth16_proof_from_bytes(&pr, w.proof, path, PM_NO_OFFSET, &e);
            if (!st) st = groth16_verify(&valid, &vk, x, nx, &pr, NULL, NULL, &e);
            free(x);
            if (st) {
                printf("FAIL  %s as %s: %s\n", check, rp->name, pm_error_format(&e, buf, sizeof buf));
                s->fail++;
            } else if (!valid) {
                printf("FAIL  %s as %s: the Groth16 equation does not hold for our public inputs (%zu sector%s, "
                       "randomness, partition 0)\n",
                       check, rp->name, w.n_sectors, w.n_sectors == 1 ? "" : "s");
                s->fail++;
            } else {
                printf("PASS  %s as %s: verifies (our verifier, our public inputs)\n", check, rp->name);
                s->pass++;
            }
        }
    }
    groth16_vk_free(&vk);
    fil_window_post_record_free(&w);
}

/* ---------------------------------------------------------------- 3, 4. proving with genuine .params */

/* Prove c1 (bytes or a path) with DIR's genuine parameters and verify the proof with the genuine .vk. */
static void prove_and_verify(sc_state *s, const char *check, const fil_c1_t *c1, const pm_input *in,
                             unsigned threads) {
    char ppath[4400], vpath[4400], why[5000], buf[1200];
    gf_status g = genuine(s, vpath, sizeof vpath, why, sizeof why, FIL_PARAM_POREP, c1->sector_size, ".vk");
    if (g == GF_OK) g = genuine(s, ppath, sizeof ppath, why, sizeof why, FIL_PARAM_POREP, c1->sector_size, ".params");
    if (g != GF_OK) {
        verdict(s, g, check, why);
        return;
    }
    pm_error e;
    pm_error_clear(&e);
    pm_cli_job j = {.kind = pm_kind_find("porep-c2"), .params_dir = s->dir, .inputs = in, .n_inputs = 1,
                    .threads = threads};
    pm_cli_job_result r;
    double t0 = pm_now_s();
    if (!j.kind) {
        printf("FAIL  %s: the porep-c2 kind is not built in\n", check);
        s->fail++;
        return;
    }
    if (pm_cli_prove_job(&r, &j, &e)) {
        printf("FAIL  %s: %s\n", check, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
        return;
    }
    bp_vk_t bvk = {0};
    pm_porep_shape shape;
    int valid = 0;
    pm_status st = params_vk_read(&bvk, vpath, 0, &e);
    if (!st) st = pm_porep_shape_for_size(&shape, c1->sector_size, &e);
    if (!st) st = pm_porep_c2_verify(&valid, r.bytes, r.n, c1, &shape, &bvk, &e);
    if (st) {
        printf("FAIL  %s: %s\n", check, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
    } else if (!valid) {
        printf("FAIL  %s: the proof made with the genuine .params does not verify with the genuine .vk\n", check);
        s->fail++;
    } else {
        printf("PASS  %s: %u partition(s) proved with the genuine .params, verified with the genuine .vk (%.1f s)\n",
               check, r.n, pm_now_s() - t0);
        s->pass++;
    }
    params_vk_free(&bvk);
    pm_cli_job_result_free(&r);
}

static void check_seal_2k(sc_state *s, unsigned threads) {
    const char *check = "porep 2KiB C2 of a sector sealed here (StackedDrg2KiBV1_1)";
    char p1[4400], why[5000];
    gf_status g = genuine(s, p1, sizeof p1, why, sizeof why, FIL_PARAM_POREP, 2048, ".vk");
    if (g == GF_OK) g = genuine(s, p1, sizeof p1, why, sizeof why, FIL_PARAM_POREP, 2048, ".params");
    if (g != GF_OK) {
        verdict(s, g, check, why); /* before sealing: nothing to prove with */
        return;
    }
    fil_c1_t c1;
    pm_error e;
    pm_error_clear(&e);
    char *json = NULL, buf[1200];
    size_t len = 0;
    pm_status st = pm_cli_fil_test_c1(&c1, 2048, 0x5a, 0x6b, &e); /* StackedDrg2KiBV1_1 */
    if (!st) st = fil_c1_to_json(&json, &len, &c1, &e);
    if (st) {
        printf("FAIL  %s: seal and C1: %s\n", check, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
    } else {
        pm_input in = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)json, .len = len};
        prove_and_verify(s, check, &c1, &in, threads);
    }
    free(json);
    fil_c1_free(&c1);
}

/* A 2 KiB request of kind d (WinningPoSt, WindowPoSt at API 1.2, SnapDeals) over a sector sealed
 * here, built as `proofmill <kind> gen` builds it (fil_gen.h: seed 0, miner 1000), proved with DIR's
 * genuine 2 KiB .params of the kind as `<kind> prove` does (pm_cli_prove_job) and each partition's
 * proof verified as `<kind> verify` does: the genuine .vk, our verifier, our public inputs
 * (pm_fil_derive_inputs). */
static void check_kind_2k(sc_state *s, const pm_fil_kind_desc *d, const char *check, unsigned threads) {
    char ppath[4400], vpath[4400], why[5000], buf[1200];
    gf_status g = genuine(s, vpath, sizeof vpath, why, sizeof why, d->param, 2048, ".vk");
    if (g == GF_OK) g = genuine(s, ppath, sizeof ppath, why, sizeof why, d->param, 2048, ".params");
    if (g != GF_OK) {
        verdict(s, g, check, why); /* before sealing: nothing to prove with */
        return;
    }
    pm_error e;
    pm_error_clear(&e);
    double t0 = pm_now_s();
    const pm_kind *kind = pm_kind_find(d->name);
    if (!kind) {
        printf("FAIL  %s: the %s kind is not built in\n", check, d->name);
        s->fail++;
        return;
    }
    pm_fil_key key;
    fil_proof_request_t r;
    memset(&r, 0, sizeof r);
    pm_cli_fil_gen_opts o = {.seed = 0, .miner = 1000};
    pm_status st = pm_fil_key_for_size(&key, d, 2048, &e);
    if (!st) st = pm_cli_fil_gen(&r, &key, &o, &e);
    if (st) {
        printf("FAIL  %s: the request: %s\n", check, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
        fil_proof_request_free(&r);
        return;
    }
    pm_input *in = NULL;
    size_t n_in = 0;
    uint8_t *store = NULL;
    void *job = NULL;
    pm_cli_job_result res = {0};
    bp_vk_t bvk = {0};
    groth16_vk_t vk = {0};
    fr_t *x = NULL;
    int all = 1;
    const char *stage = "the request";
    st = pm_fil_inputs_of_request(&in, &n_in, &store, kind, &r, &e);
    if (!st) st = pm_kind_open_job(kind, &job, in, n_in, &e); /* the public inputs' job */
    if (!st) {
        pm_cli_job cj = {.kind = kind, .params_dir = s->dir, .inputs = in, .n_inputs = n_in, .threads = threads};
        stage = "prove";
        st = pm_cli_prove_job(&res, &cj, &e);
    }
    if (!st) {
        stage = "verify";
        st = params_vk_read(&bvk, vpath, 0, &e);
    }
    if (!st) st = params_vk_to_groth16_vk(&vk, &bvk, &e);
    size_t nw;
    uint32_t nin = 0;
    if (!st)
        st = d->post_type ? pm_post_witness_len(&nw, &nin, &key.pc, &e) : pm_update_witness_len(&nw, &nin, &key.uc, &e);
    if (!st && vk.n_public + 1 != nin)
        st = pm_error_set(&e, PM_ERR_MISMATCH, vpath, PM_NO_OFFSET, "verifying key for %zu inputs, the circuit has %u",
                          vk.n_public + 1, nin);
    if (!st && !res.bytes)
        st = pm_error_set(&e, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "the %s kind returned no proof bytes", d->name);
    if (!st && !(x = malloc((vk.n_public ? vk.n_public : 1) * sizeof *x)))
        st = pm_error_set(&e, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    for (uint32_t q = 0; q < res.n && !st; q++) {
        groth16_proof_t pr;
        int valid = 0;
        st = groth16_proof_from_bytes(&pr, res.bytes + 192 * (size_t)q, "proof", 192 * (uint64_t)q, &e);
        if (!st) st = pm_fil_derive_inputs(x, vk.n_public, (const pm_fil_job *)job, q, &e);
        if (!st) st = groth16_verify(&valid, &vk, x, vk.n_public, &pr, NULL, NULL, &e);
        all &= valid;
    }
    if (st == PM_ERR_KEY) { /* the prover's own check with the .vk beside the .params (groth16/key_check.h) */
        printf("FAIL  %s: the proof made with the genuine .params does not verify with the genuine .vk (%s)\n", check,
               pm_error_format(&e, buf, sizeof buf));
        s->fail++;
    } else if (st) {
        printf("FAIL  %s: %s: %s\n", check, stage, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
    } else if (!all || !res.n) {
        printf("FAIL  %s: the proof made with the genuine .params does not verify with the genuine .vk and our public "
               "inputs\n", check);
        s->fail++;
    } else {
        printf("PASS  %s: %u partition(s) proved with the genuine .params, verified with the genuine .vk and our "
               "public inputs (%.1f s)\n", check, res.n, pm_now_s() - t0);
        s->pass++;
    }
    free(x);
    groth16_vk_free(&vk);
    params_vk_free(&bvk);
    pm_cli_job_result_free(&res);
    if (job) kind->close_job(job);
    free(in);
    free(store);
    fil_proof_request_free(&r);
}

static void check_c1(sc_state *s, const char *c1p, unsigned threads) {
    char check[PATH_MAX + 100], buf[1200];
    fil_c1_t c1;
    memset(&c1, 0, sizeof c1);
    pm_error e;
    pm_error_clear(&e);
    if (fil_c1_read_file(&c1, NULL, c1p, &e)) {
        printf("FAIL  porep C2 of %s: %s\n", c1p, pm_error_format(&e, buf, sizeof buf));
        s->fail++;
        return;
    }
    const fil_registered_proof_t *rp = fil_registered_proof(c1.registered_proof);
    snprintf(check, sizeof check, "porep %s C2 of %s (%s)", size_name(c1.sector_size), c1p, rp ? rp->name : "?");
    pm_input in = {.kind = PM_INPUT_PATH, .path = c1p};
    prove_and_verify(s, check, &c1, &in, threads);
    fil_c1_free(&c1);
}

/* ---------------------------------------------------------------- the command */

/* --data's default: $PROOFMILL_FILECOIN_DATA, else ../share/proofmill/filecoin from the binary. */
static const char *default_data(char *buf, size_t cap) {
    const char *env = pm_setting_str("filecoin.data_dir"); /* PROOFMILL_FILECOIN_DATA */
    if (env && *env) return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return "share/proofmill/filecoin";
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(buf, cap, "%s/../share/proofmill/filecoin", exe);
#ifdef PROOFMILL_SOURCE_DATA
    /* a binary in its build tree (not installed): the checkout's copy of the same files */
    char probe[PATH_MAX + 64];
    snprintf(probe, sizeof probe, "%s/parameters.json", buf);
    if (access(probe, R_OK) != 0 && access(PROOFMILL_SOURCE_DATA "/parameters.json", R_OK) == 0) return PROOFMILL_SOURCE_DATA;
#endif
    return buf;
}

static int cmd_selfcheck(int argc, char **argv) {
    const char *dir = NULL, *data = NULL, *c1p = NULL;
    int allow_missing = 0, no_prove = 0;
    unsigned threads = 0;
    enum { O_DATA = 256, O_C1, O_ALLOW, O_NOPROVE, O_THREADS };
    static const pm_cli_opt opts[] = {
        {"data", O_DATA, "DIR", "Filecoin's published records, parameters.json and WindowPoSt (default: "
                                "$PROOFMILL_FILECOIN_DATA, else share/proofmill/filecoin of the installation)"},
        {"c1", O_C1, "FILE", "also prove this sector's C1 with the genuine parameters of its size and verify it"},
        {"no-prove", O_NOPROVE, NULL, "skip sealing and proving the 2 KiB test sectors: PoRep C2, WinningPoSt,\n"
                                      "                           WindowPoSt, SnapDeals (verification checks only)"},
        {"allow-missing", O_ALLOW, NULL, "exit 0 when checks were skipped for missing files (nothing failed)"},
        {"threads", O_THREADS, "N", "proving threads (0..1024; default all cores)"},
        {0}};
    static const pm_cli_spec spec = {
        "selfcheck", "selfcheck [DIR] [--data DIR] [--c1 FILE] [--no-prove] [--allow-missing] [--threads N]",
        "Checks proofmill against Filecoin's genuine parameter files in DIR (default $FIL_PROOFS_PARAMETER_CACHE,\n"
        "else /var/tmp/filecoin-proof-parameters): Filecoin's own PoRep proofs (seal regression records) and a\n"
        "calibration-network WindowPoSt verified with our verifier and our public inputs, and a 2 KiB sector\n"
        "sealed here proved with the genuine 2 KiB .params of PoRep C2, WinningPoSt, WindowPoSt and SnapDeals,\n"
        "each proof verified with the genuine .vk. One verdict line per check. Exit 0 when nothing failed or was\n"
        "missing, 1 otherwise, 2 usage.",
        opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_DATA) data = a.arg;
        else if (o == O_C1) c1p = a.arg;
        else if (o == O_ALLOW) allow_missing = 1;
        else if (o == O_NOPROVE) no_prove = 1;
        else if (o == O_THREADS) {
            uint64_t t;
            if (pm_cli_opt_u64(&t, "--threads", a.arg, 0, 1024)) return PM_EXIT_USAGE;
            threads = (unsigned)t;
        }
    }
    if (a.ind < argc) dir = argv[a.ind++];
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!dir || !*dir) dir = fil_param_default_dir(); /* as the daemon's filecoin.params_dir */
    char dbuf[PATH_MAX + 64], mpath[PATH_MAX + 100], buf[1200];
    if (!data) data = default_data(dbuf, sizeof dbuf);
    sc_state s;
    memset(&s, 0, sizeof s);
    s.dir = dir;
    printf("selfcheck: parameters %s, Filecoin's data %s\n", dir, data);
    snprintf(mpath, sizeof mpath, "%s/parameters.json", data);
    pm_error e;
    pm_error_clear(&e);
    struct stat sb;
    if (stat(mpath, &sb) != 0)
        printf("note  %s missing: digests from the built-in list (not every .params has one)\n", mpath);
    else if (fil_param_manifest_read(&s.manifest, mpath, &e)) {
        printf("FAIL  parameters.json: %s\n", pm_error_format(&e, buf, sizeof buf));
        s.fail++;
    } else {
        size_t ours = 0;
        for (size_t i = 0; i < s.manifest.n; i++) ours += (size_t)s.manifest.e[i].ours;
        printf("PASS  parameters.json: %zu files; our names of the %zu of kinds we prove match Filecoin's, sector "
               "size included\n",
               s.manifest.n, ours);
        s.pass++;
    }
    check_records(&s, data, "seal_regression_records-v16.json"); /* seconds: no progress line */
    check_records(&s, data, "seal_regression_records-v18.json");
    check_window_post(&s, data);
    /* hashing a .params and proving take minutes: their stages on stderr (one printer per process) */
    if (!no_prove || c1p) pm_progress_start("selfcheck");
    if (!no_prove) {
        check_seal_2k(&s, threads);
        check_kind_2k(&s, &pm_fil_winning_post,
                      "winning-post 2KiB proof of a sector sealed here (StackedDrgWinning2KiBV1)", threads);
        check_kind_2k(&s, &pm_fil_window_post,
                      "window-post 2KiB proof of a sector sealed here (StackedDrgWindow2KiBV1_2)", threads);
        check_kind_2k(&s, &pm_fil_snapdeals, "snapdeals 2KiB proof of an update of a sector sealed here "
                      "(update proof StackedDrg2KiBV1)", threads);
    }
    if (c1p) check_c1(&s, c1p, threads);
    pm_progress_stop();
    fil_param_manifest_free(&s.manifest);
    if (s.small_missing)
        printf("hint  the genuine 2 KiB files are the smallest; fetch them into %s with: curio fetch-params 2KiB\n", dir);
    printf("selfcheck: %u passed, %u failed, %u skipped for missing files, %u not checkable by proofmill", s.pass,
           s.fail, s.missing - s.test_files, s.unsupported);
    if (s.test_files) printf(", %u skipped for proofmill test parameter files", s.test_files);
    printf("\n");
    if (s.fail) return PM_EXIT_INVALID;
    if (s.missing && !allow_missing) return PM_EXIT_INVALID; /* test files too: nothing genuine was checked */
    return PM_EXIT_OK;
}

PM_CLI_COMMAND(selfcheck, "selfcheck [DIR] [--data DIR] [--c1 FILE] [--allow-missing] [--no-prove] [--threads N]",
               "check proofmill against Filecoin's genuine parameters and published proofs", cmd_selfcheck)
