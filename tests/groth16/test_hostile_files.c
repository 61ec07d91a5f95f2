/*
 * test_hostile_files.c — regressions from the hostile-input review (label hostile, re-run under
 * ASan in CI):
 *   - a FIFO given as an input (zkey/wtns/r1cs/params or JSON) must not block forever; a
 *     directory or /dev/zero given as JSON is refused at once, naming what it is;
 *   - an .r1cs whose wire map (section 3) disagrees with nWires is refused at that offset, and
 *     setup refuses nWires above its limit before allocating for them;
 *   - zkey header points and verification-key alpha/beta/gamma/delta at infinity are refused;
 *   - output files are replaced only when complete (util/outfile.h pm_write_files,
 *     groth16_proofs_write, r1cs/wtns writers): a failing write leaves the targets untouched;
 *   - pm_same_file matches paths that name one file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/proof_bytes.h"
#include "groth16/proof_json.h"
#include "groth16/setup.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "r1cs/synth.h"
#include "r1cs/wtns.h"
#include "util/file.h"
#include "util/outfile.h"

static char DIR_[256];


static uint8_t *fixture(const char *rel, size_t *n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/multiplier/%s", pm_source_dir(), rel);
    uint8_t *b = pm_test_slurp(path, n);
    if (!b) fail_msg("cannot read %s", path);
    return b;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* payload offset and size of section id of a binfile image */
static int section(const uint8_t *img, size_t n, uint32_t id, uint64_t *off, uint64_t *size) {
    uint64_t pos = 12;
    for (uint32_t i = 0; i < get32(img + 8) && pos + 12 <= n; i++) {
        uint32_t sid = get32(img + pos);
        uint64_t sz = get64(img + pos + 4);
        if (sid == id) {
            *off = pos + 12;
            *size = sz;
            return 0;
        }
        pos += 12 + sz;
    }
    return -1;
}

static int setup_dir(void **state) {
    (void)state;
    return pm_test_mkdtemp(DIR_, sizeof DIR_, "pm_hostile");
}

static int teardown_dir(void **state) {
    (void)state;
    return pm_test_rmtree(DIR_);
}

/* ---- FIFOs, directories, devices ---- */

static void test_fifo_inputs_do_not_block(void **state) {
    (void)state;
    char fifo[400];
    snprintf(fifo, sizeof fifo, "%s/fifo", DIR_);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(20); /* a regression blocks in open(2): fail loudly instead of hanging ctest */
    pm_error err;
    zkey_t zk;
    assert_int_equal(zkey_read(&zk, fifo, 0, &err), PM_ERR_IO);
    assert_string_equal(err.file, fifo);
    assert_non_null(strstr(err.msg, "FIFO"));
    wtns_t w;
    assert_int_equal(wtns_read(&w, fifo, &err), PM_ERR_IO);
    r1cs_t cs;
    assert_int_equal(r1cs_read(&cs, fifo, &err), PM_ERR_IO);
    /* JSON readers accept pipes (`<(cat vk.json)`), but one without a writer is empty input */
    groth16_vk_t vk;
    assert_int_not_equal(groth16_vk_load_json(&vk, fifo, &err), PM_OK);
    assert_string_equal(err.file, fifo);
    groth16_proof_t pr;
    assert_int_not_equal(groth16_proof_load_json(&pr, fifo, &err), PM_OK);
    alarm(0);
}

static void test_json_directory_and_device(void **state) {
    (void)state;
    pm_error err;
    groth16_vk_t vk;
    assert_int_equal(groth16_vk_load_json(&vk, DIR_, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "directory"));
    fr_t *x;
    size_t n = 0;
    assert_int_equal(groth16_public_load_json(&x, &n, "/dev/zero", &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "character device"));
    assert_string_equal(err.file, "/dev/zero");
}

/* ---- r1cs wire map, setup wire limit ---- */

static void test_r1cs_wire_map_must_match_nwires(void **state) {
    (void)state;
    size_t n = 0;
    uint8_t *img = fixture("circuit.r1cs", &n);
    uint64_t h, hs, m, ms;
    assert_int_equal(section(img, n, 1, &h, &hs), 0);
    assert_int_equal(section(img, n, 3, &m, &ms), 0);
    r1cs_t cs;
    pm_error err;
    assert_int_equal(r1cs_read_memory(&cs, img, n, "ok.r1cs", &err), PM_OK);
    r1cs_free(&cs);
    put32(img + h + 4 + 32, 0xffffffffu); /* nWires = 2^32 - 1, the map still has 4 entries */
    assert_int_equal(r1cs_read_memory(&cs, img, n, "lying.r1cs", &err), PM_ERR_FORMAT);
    assert_int_equal(err.offset, m);
    assert_non_null(strstr(err.msg, "section 3"));
    free(img);
}

static void test_setup_refuses_absurd_nwires(void **state) {
    (void)state;
    size_t n = 0;
    uint8_t *img = fixture("circuit.r1cs", &n);
    uint64_t h, hs, m, ms;
    assert_int_equal(section(img, n, 1, &h, &hs), 0);
    assert_int_equal(section(img, n, 3, &m, &ms), 0);
    /* drop section 3 (optional in the format): nWires is then bounded by nothing in the file */
    assert_int_equal(m + ms, n); /* the fixture's map is the last section */
    n = m - 12;
    put32(img + 8, get32(img + 8) - 1);
    put32(img + h + 4 + 32, (1u << 28) + 1);
    r1cs_t cs;
    pm_error err;
    assert_int_equal(r1cs_read_memory(&cs, img, n, "huge.r1cs", &err), PM_OK);
    groth16_toxic_t t;
    uint64_t seed = 1;
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    zkey_t zk;
    assert_int_equal(groth16_setup_snarkjs(&zk, &cs, &t, NULL, &err), PM_ERR_ARG);
    assert_non_null(strstr(err.msg, "nWires"));
    bp_params_t p;
    assert_int_equal(groth16_setup_bellperson(&p, &cs, &t, NULL, &err), PM_ERR_ARG);
    assert_non_null(strstr(err.msg, "nWires"));
    r1cs_free(&cs);
    free(img);
}

/* ---- points at infinity in keys ---- */

static void test_zkey_header_points_not_infinity(void **state) {
    (void)state;
    size_t n = 0;
    uint8_t *img = fixture("circuit.zkey", &n);
    uint64_t h, hs;
    assert_int_equal(section(img, n, 2, &h, &hs), 0);
    /* header: n8q, q[48], n8r, r[32], nVars, nPublic, domainSize, then the six points */
    const uint64_t pts = h + 4 + 48 + 4 + 32 + 12;
    const struct { uint64_t off, len; const char *name; } cases[6] = {
        {pts, 96, "alpha_1"},        {pts + 96, 96, "beta_1"},
        {pts + 192, 192, "beta_2"},  {pts + 384, 192, "gamma_2"},
        {pts + 576, 96, "delta_1"},  {pts + 672, 192, "delta_2"},
    };
    for (int i = 0; i < 6; i++) {
        uint8_t *c = malloc(n);
        memcpy(c, img, n);
        memset(c + cases[i].off, 0, cases[i].len);
        zkey_t zk;
        pm_error err;
        assert_int_equal(zkey_read_memory(&zk, c, n, "inf.zkey", 0, &err), PM_ERR_FORMAT);
        assert_int_equal(err.offset, cases[i].off);
        assert_non_null(strstr(err.msg, cases[i].name));
        assert_non_null(strstr(err.msg, "infinity"));
        free(c);
    }
    free(img);
}

/* replace the value of "key": [...] (a balanced bracket group) in json by repl */
static char *replace_member(const char *json, const char *key, const char *repl) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *k = strstr(json, pat);
    assert_non_null(k);
    const char *s = strchr(k, '[');
    int depth = 0;
    const char *e = s;
    do {
        if (*e == '[') depth++;
        if (*e == ']') depth--;
        e++;
    } while (depth);
    size_t a = (size_t)(s - json), r = strlen(repl), b = strlen(e);
    char *out = malloc(a + r + b + 1);
    memcpy(out, json, a);
    memcpy(out + a, repl, r);
    memcpy(out + a + r, e, b + 1);
    return out;
}

static void test_vk_json_key_points_not_infinity(void **state) {
    (void)state;
    size_t n = 0;
    char *vkj = (char *)fixture("verification_key.json", &n);
    groth16_vk_t vk;
    pm_error err;
    assert_int_equal(groth16_vk_from_json(&vk, vkj, n, "vk.json", &err), PM_OK);
    groth16_vk_free(&vk);
    const char *g2inf = "[[\"0\", \"0\"], [\"1\", \"0\"], [\"0\", \"0\"]]";
    const char *keys[4] = {"vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2"};
    for (int i = 0; i < 4; i++) {
        char *c = replace_member(vkj, keys[i], i == 0 ? "[\"0\", \"1\", \"0\"]" : g2inf);
        assert_int_equal(groth16_vk_from_json(&vk, c, strlen(c), "vk.json", &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, keys[i]));
        assert_non_null(strstr(err.msg, "infinity"));
        free(c);
    }
    free(vkj);
}

/* ---- outputs replaced only when complete ---- */

static void test_text_files_all_or_nothing(void **state) {
    (void)state;
    char a[400], bad[400], d[400];
    snprintf(a, sizeof a, "%s/public.json", DIR_);
    snprintf(bad, sizeof bad, "%s/missing/proof.json", DIR_);
    pm_error err;
    const char *paths[2] = {a, bad};
    const void *texts[2] = {"new public", "new proof"};
    const size_t lens[2] = {(size_t)-1, (size_t)-1};
    assert_int_equal(pm_write_file(a, "old public", 10, &err), PM_OK);
    assert_int_equal(pm_write_files(2, paths, texts, lens, &err), PM_ERR_IO);
    assert_string_equal(err.file, bad);
    size_t n = 0;
    char *t = (char *)pm_test_slurp(a, &n);
    assert_string_equal(t, "old public"); /* not replaced: its partner could not be written */
    free(t);
    /* an existing directory as the second target: refused before the first rename */
    snprintf(d, sizeof d, "%s/adir", DIR_);
    assert_int_equal(mkdir(d, 0700), 0);
    paths[1] = d;
    assert_int_equal(pm_write_files(2, paths, texts, lens, &err), PM_ERR_IO);
    assert_string_equal(err.file, d);
    t = (char *)pm_test_slurp(a, &n);
    assert_string_equal(t, "old public");
    free(t);
    /* both fine: both replaced, no temporary left behind */
    char b[400];
    snprintf(b, sizeof b, "%s/proof.json", DIR_);
    paths[1] = b;
    assert_int_equal(pm_write_files(2, paths, texts, lens, &err), PM_OK);
    t = (char *)pm_test_slurp(b, &n);
    assert_string_equal(t, "new proof");
    free(t);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp\\.'", DIR_);
    assert_int_not_equal(system(cmd), 0);
}

static void test_binary_writers_keep_old_file_on_failure(void **state) {
    (void)state;
    pm_error err;
    char d[400];
    snprintf(d, sizeof d, "%s/outdir", DIR_);
    assert_int_equal(mkdir(d, 0700), 0);
    groth16_proof_t pr;
    memset(&pr, 0, sizeof pr); /* three points at infinity: encodable */
    assert_int_equal(groth16_proofs_write(d, &pr, 1, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "directory"));
    /* r1cs / wtns writers: the old file stays until the new one is complete */
    r1cs_t cs;
    fr_t *w;
    r1cs_synth_opts_t o = {4, 1, 2, 0.5, 7};
    assert_int_equal(r1cs_synth(&cs, &w, &o, &err), PM_OK);
    char rp[400];
    snprintf(rp, sizeof rp, "%s/x.r1cs", DIR_);
    assert_int_equal(r1cs_write(rp, &cs, &err), PM_OK);
    assert_int_equal(r1cs_write(d, &cs, &err), PM_ERR_IO);
    assert_int_equal(wtns_write(d, w, cs.n_wires, &err), PM_ERR_IO);
    r1cs_t back;
    assert_int_equal(r1cs_read(&back, rp, &err), PM_OK);
    assert_int_equal(back.n_wires, cs.n_wires);
    r1cs_free(&back);
    free(w);
    r1cs_free(&cs);
}

static void test_same_file(void **state) {
    (void)state;
    char a[400], a2[400], b[400];
    snprintf(a, sizeof a, "%s/same.bin", DIR_);
    snprintf(a2, sizeof a2, "%s/./same.bin", DIR_);
    snprintf(b, sizeof b, "%s/other.bin", DIR_);
    assert_true(pm_same_file(a, a2)); /* neither exists yet */
    assert_false(pm_same_file(a, b));
    pm_error err;
    assert_int_equal(pm_write_file(a, "x", 1, &err), PM_OK);
    assert_true(pm_same_file(a, a2));
    assert_false(pm_same_file(a, b));
    char l[400];
    snprintf(l, sizeof l, "%s/link.bin", DIR_);
    assert_int_equal(symlink(a, l), 0);
    assert_true(pm_same_file(l, a));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_inputs_do_not_block),
        cmocka_unit_test(test_json_directory_and_device),
        cmocka_unit_test(test_r1cs_wire_map_must_match_nwires),
        cmocka_unit_test(test_setup_refuses_absurd_nwires),
        cmocka_unit_test(test_zkey_header_points_not_infinity),
        cmocka_unit_test(test_vk_json_key_points_not_infinity),
        cmocka_unit_test(test_text_files_all_or_nothing),
        cmocka_unit_test(test_binary_writers_keep_old_file_on_failure),
        cmocka_unit_test(test_same_file),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
