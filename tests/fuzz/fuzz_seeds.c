/*
 * fuzz_seeds.c — writes the seed corpora of the harnesses (one folder per harness under OUTDIR):
 * the small files of tests/data and ../shared/fixtures (at most 64 KiB each) for the snarkjs
 * readers, and inputs made here for the others — a .params/.vk of the multiplier circuit (seeded
 * setup), 2 KiB PoRep C1 JSON and its lotus-bench envelope, PoSt and SnapDeals vanilla blobs of a
 * sealed 2 KiB sector framed as their harnesses read them, request and vanilla-list files, .csr
 * files (v1 from an .r1cs, v2 from a recorded circuit), daemon job bodies and configs, a
 * parameters.json. Usage: fuzz_seeds OUTDIR (the build's fuzz-seeds target runs it).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../filecoin/post_test_util.h"

#include "circuits/cs.h"
#include "circuits/csr_file.h"
#include "curve/encoding.h"
#include "filecoin/c1_json.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"
#include "util/base64.h"

static const char *g_out;

static void need(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_seeds: %s failed (%s)\n", what, strerror(errno));
        exit(1);
    }
}

static void dir_of(char *out, size_t cap, const char *harness) {
    snprintf(out, cap, "%s/%s", g_out, harness);
    need(mkdir(out, 0755) == 0 || errno == EEXIST, out);
}

static void path_in(char *out, size_t cap, const char *harness, const char *name) {
    char d[4096];
    dir_of(d, sizeof d, harness);
    snprintf(out, cap, "%s/%s", d, name);
}

static void put(const char *harness, const char *name, const void *a, size_t na, const void *b, size_t nb) {
    char p[4600];
    path_in(p, sizeof p, harness, name);
    FILE *f = fopen(p, "wb");
    need(f && fwrite(a, 1, na, f) == na && (!nb || fwrite(b, 1, nb, f) == nb) && fclose(f) == 0, p);
}
static void put_text(const char *harness, const char *name, const char *text) {
    put(harness, name, text, strlen(text), NULL, 0);
}

/* every file of dir named *suffix and at most 64 KiB into harness, as <prefix>-<name> */
static void copy_small(const char *harness, const char *dir, const char *suffix, const char *prefix) {
    DIR *dd = opendir(dir);
    if (!dd) return;
    struct dirent *e;
    while ((e = readdir(dd))) {
        size_t nl = strlen(e->d_name), sl = strlen(suffix);
        if (nl < sl || strcmp(e->d_name + nl - sl, suffix)) continue;
        char p[4600], name[600];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) || !S_ISREG(sb.st_mode) || sb.st_size > 64 * 1024) continue;
        size_t n;
        uint8_t *b = pm_test_slurp(p, &n);
        need(b != NULL, p);
        snprintf(name, sizeof name, "%s-%s", prefix, e->d_name);
        put(harness, name, b, n, NULL, 0);
        free(b);
    }
    closedir(dd);
}

/* Filecoin's published data (tests/data/filecoin): parameters.json, the WindowPoSt, and the first
 * line of each records file (the files themselves are over 64 KiB) */
static void real_data_files(void) {
    char d[4096];
    snprintf(d, sizeof d, "%s/tests/data/filecoin", pm_source_dir());
    copy_small("real_data", d, ".json", "filecoin");
    const char *rec[] = {"seal_regression_records-v16.json", "seal_regression_records-v18.json", NULL};
    for (int i = 0; rec[i]; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", d, rec[i]);
        size_t n, k = 0;
        uint8_t *b = pm_test_slurp(p, &n);
        need(b != NULL, p);
        while (k < n && b[k] != '\n') k++;
        put("real_data", rec[i], b, k < n ? k + 1 : n, NULL, 0);
        free(b);
    }
}

static void snarkjs_files(void) {
    char d[4096];
    const char *circuits[] = {"multiplier", "powchain", NULL};
    for (int i = 0; circuits[i]; i++) {
        snprintf(d, sizeof d, "%s/tests/data/%s", pm_source_dir(), circuits[i]);
        copy_small("zkey", d, ".zkey", circuits[i]);
        copy_small("wtns", d, ".wtns", circuits[i]);
        copy_small("r1cs", d, ".r1cs", circuits[i]);
        copy_small("groth16_json", d, ".json", circuits[i]);
    }
    const char *sh = pm_shared_fixtures();
    if (!sh) {
        fprintf(stderr, "fuzz_seeds: NOTE: ../shared/fixtures is absent: tests/data only\n");
        return;
    }
    const char *curves[] = {"bls12381", "bn128", NULL};
    for (int c = 0; curves[c]; c++) {
        char cd[4096];
        snprintf(cd, sizeof cd, "%s/%s", sh, curves[c]);
        DIR *dd = opendir(cd);
        struct dirent *e;
        while (dd && (e = readdir(dd))) {
            if (e->d_name[0] == '.') continue;
            char pre[600];
            snprintf(d, sizeof d, "%s/%s", cd, e->d_name);
            snprintf(pre, sizeof pre, "%s-%s", curves[c], e->d_name);
            copy_small("zkey", d, ".zkey", pre);
            copy_small("wtns", d, ".wtns", pre);
            copy_small("r1cs", d, ".r1cs", pre);
            copy_small("groth16_json", d, ".json", pre);
        }
        if (dd) closedir(dd);
    }
}

static void multiplier_r1cs(r1cs_t *cs) {
    char p[4096];
    pm_error err;
    snprintf(p, sizeof p, "%s/tests/data/multiplier/circuit.r1cs", pm_source_dir());
    need(r1cs_read(cs, p, &err) == PM_OK, p);
}

static void params_and_points(void) {
    r1cs_t cs;
    multiplier_r1cs(&cs);
    groth16_toxic_t t;
    bp_params_t p;
    pm_error err;
    uint64_t seed = 1;
    need(groth16_toxic_draw(&t, &seed, &err) == PM_OK && groth16_setup_bellperson(&p, &cs, &t, NULL, &err) == PM_OK,
         "setup");
    char path[4600];
    path_in(path, sizeof path, "params", "multiplier.params");
    need(params_write(path, &p, &err) == PM_OK, path);
    path_in(path, sizeof path, "params", "multiplier.vk");
    need(params_vk_write(path, &p.vk, &err) == PM_OK, path);
    /* points: the key's own points in every encoding, and a 192-byte "proof" of three of them */
    uint8_t b[192];
    g1_to_compressed(b, &p.vk.alpha_g1);
    put("points", "g1c", b, 48, NULL, 0);
    g1_to_uncompressed(b, &p.vk.alpha_g1);
    put("points", "g1u", b, 96, NULL, 0);
    g2_to_compressed(b, &p.vk.beta_g2);
    put("points", "g2c", b, 96, NULL, 0);
    g2_to_uncompressed(b, &p.vk.beta_g2);
    put("points", "g2u", b, 192, NULL, 0);
    groth16_proof_t pr = {.a = p.vk.alpha_g1, .b = p.vk.beta_g2, .c = p.vk.delta_g1};
    groth16_proof_to_bytes(b, &pr);
    put("points", "proof.bin", b, 192, NULL, 0);
    params_free(&p);
    r1cs_free(&cs);
}

static void c1_files(void) {
    fil_seal_t s;
    pm_test_seal(&s, 5, 1, NULL);
    fil_c1_t c1;
    pm_error err;
    uint8_t seed[32] = {1};
    need(fil_c1_from_seal(&c1, &s, seed, &err) == PM_OK, "c1");
    char path[4600];
    path_in(path, sizeof path, "c1", "c1-2k.json");
    need(fil_c1_write_json_file(path, &c1, &err) == PM_OK, path);
    path_in(path, sizeof path, "c1", "c1-2k-envelope.json");
    need(fil_c1_write_envelope_file(path, &c1, 7, &err) == PM_OK, path);
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void vanilla_files(void) {
    fil_seal_t s;
    pm_test_seal(&s, 5, 1, NULL);
    fil_proof_request_t r;
    char path[4600];
    pm_error err;
    /* WindowPoSt 2 KiB (registered proof 10) and WinningPoSt 2 KiB (0), randomness tag 1, miner 1000 */
    const unsigned posts[2] = {10, 0};
    for (int i = 0; i < 2; i++) {
        pm_test_post_request(&r, posts[i], &s, 1, 1, 0);
        char name[64];
        snprintf(name, sizeof name, "%s-2k", i ? "winning" : "window");
        put("post_vanilla", name, r.randomness, 32, r.vanilla[0], r.vanilla_len[0]);
        snprintf(name, sizeof name, "%s-2k-request.json", i ? "winning" : "window");
        path_in(path, sizeof path, "proof_request", name);
        need(fil_proof_request_write(path, &r, &err) == PM_OK, path);
        snprintf(name, sizeof name, "%s-2k-vanilla.json", i ? "winning" : "window");
        path_in(path, sizeof path, "proof_request", name);
        need(fil_vanilla_list_write(path, &r, &err) == PM_OK, path);
        /* the daemon body of the same job, inline */
        char *b64 = pm_base64_encode_alloc(r.vanilla[0], r.vanilla_len[0]);
        char *rb = pm_base64_encode_alloc(r.randomness, 32);
        need(b64 && rb, "base64");
        size_t cap = strlen(b64) + 512;
        char *body = malloc(cap);
        need(body != NULL, "malloc");
        snprintf(body, cap,
                 "{\"kind\":\"%s\",\"vanilla_b64\":\"%s\",\"randomness_b64\":\"%s\",\"registered_proof\":%u,"
                 "\"miner_id\":1000%s,\"priority\":\"high\",\"label\":\"w\"}",
                 i ? "winning-post" : "window-post", b64, rb, posts[i], i ? "" : ",\"partition_index\":0");
        snprintf(name, sizeof name, "%s-2k.json", i ? "winning" : "window");
        put_text("job_spec", name, body);
        free(body);
        free(b64);
        free(rb);
        fil_proof_request_free(&r);
    }
    fil_update_t u;
    pm_test_update(&u, &s, 3);
    pm_test_update_request(&r, &u, 0);
    uint8_t comms[96];
    memcpy(comms, r.comm_r_old, 32);
    memcpy(comms + 32, r.comm_d_new, 32);
    memcpy(comms + 64, r.comm_r_new, 32);
    put("snap_vanilla", "snap-2k", comms, 96, r.vanilla[0], r.vanilla_len[0]);
    path_in(path, sizeof path, "proof_request", "snap-2k-request.json");
    need(fil_proof_request_write(path, &r, &err) == PM_OK, path);
    fil_proof_request_free(&r);
    fil_update_free(&u);
    fil_seal_free(&s);
}

static void csr_files(void) {
    r1cs_t cs;
    multiplier_r1cs(&cs);
    char path[4600];
    pm_error err;
    path_in(path, sizeof path, "csr", "multiplier-v1.csr");
    need(pm_csr_save(path, &cs, cs.n_pub_in + 1, 2048, &err) == PM_OK, path);
    r1cs_free(&cs);
    /* v2 (dictionary-coded): x = a*b, y = (a + 2b)*(a - 1), 2 public inputs */
    pm_cs c;
    pm_cs_init(&c, PM_CS_RECORD | PM_CS_WITNESS);
    fr_t va = FR_ONE, vb = FR_ONE, two, vx, vy;
    fr_add(&two, &FR_ONE, &FR_ONE);
    fr_mul(&vx, &va, &vb);
    vy = FR_ONE;
    pm_var x = pm_cs_alloc_input(&c, &vx), y = pm_cs_alloc_input(&c, &vy);
    pm_var a = pm_cs_alloc(&c, &va), b = pm_cs_alloc(&c, &vb);
    PM_LC_STACK(la, 4);
    PM_LC_STACK(lb, 4);
    PM_LC_STACK(lc, 4);
    pm_lc_push(&la, a, &FR_ONE);
    pm_lc_push(&lb, b, &FR_ONE);
    pm_lc_push(&lc, x, &FR_ONE);
    pm_cs_enforce(&c, &la, &lb, &lc);
    pm_lc_clear(&la), pm_lc_clear(&lb), pm_lc_clear(&lc);
    pm_lc_push(&la, a, &FR_ONE);
    pm_lc_push(&la, b, &two);
    pm_lc_push(&lb, a, &FR_ONE);
    pm_lc_push(&lb, PM_VAR_ONE, pm_fr_minus_one());
    pm_lc_push(&lc, y, &FR_ONE);
    pm_cs_enforce(&c, &la, &lb, &lc);
    r1cs_t rec;
    need(pm_cs_finish(&c, &rec, NULL, &err) == PM_OK, "record");
    path_in(path, sizeof path, "csr", "small-v2.csr");
    need(pm_csr_save(path, &rec, c.n_inputs, 2048, &err) == PM_OK, path);
    r1cs_free(&rec);
    pm_cs_free(&c);
}

static void daemon_files(void) {
    char p[4096];
    snprintf(p, sizeof p, "%s/proofmill.conf.example", pm_source_dir());
    size_t n;
    uint8_t *b = pm_test_slurp(p, &n);
    need(b != NULL, p);
    put("config", "example.conf", b, n, NULL, 0);
    free(b);
    put_text("config", "small.conf",
             "[http]\nlisten = 127.0.0.1:9821\nmax_body_bytes = 64M\n[gpu]\ndevices = 0,1\n"
             "[keys]\npreload = porep-c2:/var/tmp/p.params\n[state]\ndir = off\n[log]\nlevel = \"debug\"\n");
    put_text("job_spec", "snarkjs.json",
             "{\"key\":\"/nonexistent-pm-fuzz/k.zkey\",\"inputs\":[{\"wtns\":\"/nonexistent-pm-fuzz/w.wtns\"},{\"wtns_b64\":\"d3RucwIAAAA=\"}],"
             "\"priority\":\"low\",\"label\":\"x\",\"wait_s\":1.5}");
    put_text("job_spec", "porep.json", "{\"kind\":\"porep-c2\",\"c1_b64\":\"e30=\",\"registered_proof\":5,"
                                       "\"sector_size\":2048,\"params_dir\":\"/nonexistent-pm-fuzz/p\"}");
    put_text("job_spec", "snap.json", "{\"kind\":\"snapdeals\",\"inputs\":[{\"vanilla_b64\":\"AAAA\"},"
                                      "{\"comm_r_old_b64\":\"AA==\"}],\"registered_proof\":0}");
    put_text("param_manifest", "parameters.json",
             "{\"v28-a.vk\":{\"cid\":\"Qm\",\"digest\":\"00000000000000000000000000000000\",\"sector_size\":2048},"
             "\"v28-b.params\":{\"cid\":\"Qm\",\"digest\":\"0123456789abcdef0123456789abcdef\",\"sector_size\":2048}}");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seeds OUTDIR\n");
        return 2;
    }
    g_out = argv[1];
    need(mkdir(g_out, 0755) == 0 || errno == EEXIST, g_out);
    snarkjs_files();
    real_data_files();
    params_and_points();
    c1_files();
    vanilla_files();
    csr_files();
    daemon_files();
    printf("fuzz_seeds: corpora in %s\n", g_out);
    return 0;
}
