/* .r1cs reader on the shared fixtures (counts vs r1cs_info.txt, fixture witness satisfies its r1cs),
 * SpMV, the satisfiability check, and hostile inputs (truncations at every section boundary and at
 * random offsets, wrong magic / version, lying sizes, duplicate sections, bn128, bad wire ids,
 * non-canonical coefficients). Skips visibly when ../shared/fixtures is absent. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"

static const char *const BLS[] = {"multiplier", "merkle_poseidon", "sha256_64"};

/* ../shared/fixtures when present, else the repository's tests/data stand-ins (test_util.h). */
static int fixture_path(char *out, size_t n, const char *curve, const char *circ, const char *file) {
    return pm_fixture_path(out, n, curve, circ, file);
}

static long long info_value(const char *txt, const char *key) {
    const char *p = strstr(txt, key);
    if (!p) return -1;
    p += strlen(key);
    return atoll(p);
}

static void r1cs_fixture_counts_and_satisfied(void **state) {
    (void)state;
    char path[4096];
    for (size_t i = 0; i < sizeof BLS / sizeof *BLS; i++) {
        if (!fixture_path(path, sizeof path, "bls12381", BLS[i], "r1cs_info.txt")) return;
        size_t n;
        uint8_t *txt = pm_test_slurp(path, &n);
        assert_non_null(txt);
        txt = realloc(txt, n + 1);
        txt[n] = 0;
        r1cs_t cs;
        pm_error err;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.r1cs");
        pm_status st = r1cs_read(&cs, path, &err);
        if (st) printf("%s: %s\n", path, err.msg);
        assert_int_equal(st, PM_OK);
        printf("%s: wires %u constraints %u out %u pub %u prv %u labels %llu nnz A %llu B %llu C %llu\n",
               BLS[i], cs.n_wires, cs.n_constraints, cs.n_pub_out, cs.n_pub_in, cs.n_prv_in,
               (unsigned long long)cs.n_labels, (unsigned long long)cs.A.nnz,
               (unsigned long long)cs.B.nnz, (unsigned long long)cs.C.nnz);
        assert_int_equal(cs.n_wires, info_value((char *)txt, "# of Wires: "));
        assert_int_equal(cs.n_constraints, info_value((char *)txt, "# of Constraints: "));
        assert_int_equal(cs.n_prv_in, info_value((char *)txt, "# of Private Inputs: "));
        assert_int_equal(cs.n_pub_in, info_value((char *)txt, "# of Public Inputs: "));
        assert_int_equal(cs.n_pub_out, info_value((char *)txt, "# of Outputs: "));
        assert_int_equal((long long)cs.n_labels, info_value((char *)txt, "# of Labels: "));
        assert_int_equal(cs.A.row_ptr[cs.n_constraints], cs.A.nnz);
        free(txt);

        wtns_t w;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "witness.wtns");
        assert_int_equal(wtns_read(&w, path, &err), PM_OK);
        uint32_t bad = 0;
        st = r1cs_check_satisfied(&bad, &cs, w.values, w.n_values, &err);
        if (st) printf("%s\n", err.msg);
        assert_int_equal(st, PM_OK);
        assert_int_equal(bad, UINT32_MAX);

        /* SpMV agrees with the check: a∘b = c */
        fr_t *a = malloc(cs.n_constraints * sizeof(fr_t)), *b = malloc(cs.n_constraints * sizeof(fr_t)),
             *c = malloc(cs.n_constraints * sizeof(fr_t));
        assert_int_equal(r1cs_spmv(a, b, c, cs.n_constraints, &cs, w.values, w.n_values, &err), PM_OK);
        for (uint32_t k = 0; k < cs.n_constraints; k++) {
            fr_t t;
            fr_mul(&t, &a[k], &b[k]);
            assert_true(fr_eq(&t, &c[k]));
        }
        /* Break one wire: the check must name the lowest constraint that fails. */
        uint32_t wire = cs.n_wires - 1;
        fr_add(&w.values[wire], &w.values[wire], &FR_ONE);
        assert_int_equal(r1cs_spmv(a, b, c, cs.n_constraints, &cs, w.values, w.n_values, &err), PM_OK);
        uint32_t expect = UINT32_MAX;
        for (uint32_t k = 0; k < cs.n_constraints && expect == UINT32_MAX; k++) {
            fr_t t;
            fr_mul(&t, &a[k], &b[k]);
            if (!fr_eq(&t, &c[k])) expect = k;
        }
        st = r1cs_check_satisfied(&bad, &cs, w.values, w.n_values, &err);
        printf("%s with wire %u changed: %s\n", BLS[i], wire, st ? err.msg : "still satisfied");
        if (expect != UINT32_MAX) {
            assert_int_equal(st, PM_ERR_UNSATISFIED);
            assert_int_equal(bad, expect);
        }
        /* wrong length */
        assert_int_equal(r1cs_check_satisfied(&bad, &cs, w.values, w.n_values - 1, &err),
                         PM_ERR_MISMATCH);
        assert_int_equal(r1cs_spmv(a, b, c, cs.n_constraints, &cs, w.values, w.n_values - 1, &err),
                         PM_ERR_MISMATCH);
        free(a);
        free(b);
        free(c);
        wtns_free(&w);
        r1cs_free(&cs);
    }
}

static void r1cs_bn128_refused(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bn128", "merkle_poseidon", "circuit.r1cs")) return;
    r1cs_t cs;
    pm_error err;
    assert_int_equal(r1cs_read(&cs, path, &err), PM_ERR_CURVE);
    char buf[1200];
    printf("%s\n", pm_error_format(&err, buf, sizeof buf));
    assert_non_null(strstr(err.msg, "bn128"));
    assert_int_equal(cs.n_wires, 0);
    r1cs_free(&cs);
}

/* Parse an image that must fail; copy into an exact-size buffer so ASan sees over-reads. */
static pm_status try_image(const uint8_t *img, size_t n, pm_error *err) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, img, n);
    r1cs_t cs;
    pm_status st = r1cs_read_memory(&cs, copy, n, "hostile.r1cs", err);
    r1cs_free(&cs);
    free(copy);
    return st;
}


static void r1cs_hostile(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    const char *circs[] = {"multiplier", "merkle_poseidon"};
    for (int ci = 0; ci < 2; ci++) {
        if (!fixture_path(path, sizeof path, "bls12381", circs[ci], "circuit.r1cs")) return;
        size_t n;
        uint8_t *img = pm_test_slurp(path, &n);
        assert_non_null(img);
        pm_error err;
        assert_int_equal(try_image(img, n, &err), PM_OK);
        pm_binfile bf;
        assert_int_equal(pm_binfile_open_memory(&bf, img, n, "x", "r1cs", 1, &err), PM_OK);
        /* truncations at and around every section boundary */
        int tried = 0;
        for (uint32_t s = 0; s < bf.n_sections; s++) {
            const pm_section *sec = &bf.sections[s];
            uint64_t cuts[] = {sec->header_offset, sec->header_offset + 4, sec->offset - 1,
                               sec->offset, sec->offset + 1, sec->offset + sec->size / 2,
                               sec->offset + sec->size - 1};
            for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
                if (cuts[k] >= n) continue;
                pm_status st = try_image(img, cuts[k], &err);
                assert_int_not_equal(st, PM_OK);
                assert_true(err.msg[0] != 0);
                tried++;
            }
        }
        for (int k = 0; k < 40; k++) {
            size_t cut = pm_rand64() % n;
            assert_int_not_equal(try_image(img, cut, &err), PM_OK);
            tried++;
        }
        printf("%s: %d truncations refused, e.g. \"%s\" at offset %llu\n", circs[ci], tried, err.msg,
               (unsigned long long)err.offset);
        uint8_t *m = malloc(n);
        /* wrong magic */
        memcpy(m, img, n);
        m[0] = 'x';
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "magic"));
        /* wrong version */
        memcpy(m, img, n);
        pm_put_le32(m + 4, 2);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "version"));
        /* each section's size lying (larger than the file) */
        for (uint32_t s = 0; s < bf.n_sections; s++) {
            memcpy(m, img, n);
            pm_put_le64(m + bf.sections[s].header_offset + 4, (uint64_t)n + 1000);
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
            assert_int_equal(err.offset, bf.sections[s].header_offset);
            pm_put_le64(m + bf.sections[s].header_offset + 4, UINT64_MAX);
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        }
        /* duplicate section: relabel section #1's id as section #0's id */
        memcpy(m, img, n);
        pm_put_le32(m + bf.sections[1].header_offset, bf.sections[0].id);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "duplicate"));
        /* nSections too large */
        memcpy(m, img, n);
        pm_put_le32(m + 8, 0xffffffffu);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        /* missing constraints section: relabel section 2 as 7 */
        const pm_section *s2 = pm_binfile_find(&bf, 2);
        memcpy(m, img, n);
        pm_put_le32(m + s2->header_offset, 7);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "missing"));
        /* first term of constraint 0: nTerms at s2->offset; if A has a term, corrupt it */
        uint32_t nt = (uint32_t)img[s2->offset] | (uint32_t)img[s2->offset + 1] << 8;
        if (nt > 0) {
            memcpy(m, img, n);
            pm_put_le32(m + s2->offset + 4, 0xfffffff0u); /* wire id */
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
            assert_int_equal(err.offset, s2->offset + 4);
            printf("bad wire: %s\n", err.msg);
            memcpy(m, img, n);
            memset(m + s2->offset + 8, 0xff, 32); /* coefficient >= r */
            assert_int_equal(try_image(m, n, &err), PM_ERR_ENCODING);
            assert_int_equal(err.offset, s2->offset + 8);
            printf("non-canonical: %s\n", err.msg);
            memcpy(m, img, n);
            pm_put_le32(m + s2->offset, 0x7fffffffu); /* nTerms lying */
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        }
        /* header counts inconsistent: the public signals (nPubOut at +4, nPubIn at +8 after
         * nWires) do not fit in nWires (nPrvIn is not checked: r1cs_prv_in_beyond_wires) */
        const pm_section *s1 = pm_binfile_find(&bf, 1);
        const uint64_t off_wires = s1->offset + 4 + 32;
        uint32_t n_wires = (uint32_t)img[off_wires] | (uint32_t)img[off_wires + 1] << 8 |
                           (uint32_t)img[off_wires + 2] << 16 | (uint32_t)img[off_wires + 3] << 24;
        memcpy(m, img, n);
        pm_put_le32(m + off_wires + 8, 0xffffffffu);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "cannot hold"));
        memcpy(m, img, n);
        pm_put_le32(m + off_wires + 4, 0xffffffffu);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        memcpy(m, img, n); /* nPubOut + nPubIn = 2^32: 0 in u32 arithmetic */
        pm_put_le32(m + off_wires + 4, 0x80000000u);
        pm_put_le32(m + off_wires + 8, 0x80000000u);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "cannot hold"));
        memcpy(m, img, n); /* nPubOut + nPubIn = nWires: no room for wire 0 */
        pm_put_le32(m + off_wires + 4, n_wires);
        pm_put_le32(m + off_wires + 8, 0);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        memcpy(m, img, n); /* nPubOut + nPubIn = nWires - 1: every wire but wire 0 public */
        pm_put_le32(m + off_wires + 4, n_wires - 1);
        pm_put_le32(m + off_wires + 8, 0);
        pm_put_le32(m + off_wires + 12, 0);
        assert_int_equal(try_image(m, n, &err), PM_OK);
        /* a non-BLS prime */
        memcpy(m, img, n);
        m[s1->offset + 4] ^= 2;
        assert_int_equal(try_image(m, n, &err), PM_ERR_CURVE);
        free(m);
        pm_binfile_close(&bf);
        free(img);
    }
    /* empty and tiny inputs */
    pm_error err;
    assert_int_equal(try_image((const uint8_t *)"", 0, &err), PM_ERR_FORMAT);
    assert_int_equal(try_image((const uint8_t *)"r1cs", 4, &err), PM_ERR_FORMAT);
    r1cs_t cs;
    assert_int_equal(r1cs_read(&cs, "/nonexistent/x.r1cs", &err), PM_ERR_IO);
    printf("missing file: %s\n", err.msg);
}

/* Regression: circom --O2 writes nPrvIn = every private input of main, also those its
 * simplification removed from the wires (`circom --O2` of a template with an input that no
 * constraint uses: "private inputs: 3 (2 belong to witness)", nWires 4 = wire 0 + 1 output + 2
 * inputs). The reader refused such files ("nWires = 4 cannot hold wire 0 + 1 outputs + 0 public
 * + 3 private inputs"), so `groth16 prove --r1cs` and `groth16 setup` failed on valid circuits
 * (tests/cli/test_groth16_shapes.sh, shape unused_O2). The multiplier fixture (nWires 4, 1
 * output, 2 private inputs) with nPrvIn raised to 3 and to 2^32 - 1 is that header. */
static void r1cs_prv_in_beyond_wires(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.r1cs")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    assert_non_null(img);
    pm_error err;
    pm_binfile bf;
    assert_int_equal(pm_binfile_open_memory(&bf, img, n, "x", "r1cs", 1, &err), PM_OK);
    const uint64_t off_wires = pm_binfile_find(&bf, 1)->offset + 4 + 32;
    pm_binfile_close(&bf);
    r1cs_t ref;
    assert_int_equal(r1cs_read_memory(&ref, img, n, "multiplier.r1cs", &err), PM_OK);
    wtns_t w;
    fixture_path(path, sizeof path, "bls12381", "multiplier", "witness.wtns");
    assert_int_equal(wtns_read(&w, path, &err), PM_OK);
    const uint32_t prv[] = {ref.n_wires - 1 - r1cs_n_public(&ref) + 1, ref.n_wires, 0xffffffffu};
    for (size_t i = 0; i < sizeof prv / sizeof *prv; i++) {
        pm_put_le32(img + off_wires + 12, prv[i]);
        r1cs_t cs;
        pm_status st = r1cs_read_memory(&cs, img, n, "o2.r1cs", &err);
        if (st) printf("nPrvIn %u: %s\n", prv[i], err.msg);
        assert_int_equal(st, PM_OK);
        assert_int_equal(cs.n_prv_in, prv[i]);
        assert_int_equal(cs.n_wires, ref.n_wires);
        assert_int_equal(r1cs_n_public(&cs), r1cs_n_public(&ref));
        assert_int_equal(cs.n_constraints, ref.n_constraints);
        assert_int_equal(r1cs_check_satisfied(NULL, &cs, w.values, w.n_values, &err), PM_OK);
        r1cs_free(&cs);
    }
    wtns_free(&w);
    r1cs_free(&ref);
    free(img);
}

/* Random byte mutations of the smallest fixture: any status is fine, crashing is not (run this
 * under -DPROOFMILL_SANITIZE=ON). */
/* The reader on a mutated image, for pm_test_mutations: 0 when accepted. */
static int try_mutant(const uint8_t *img, size_t n) {
    pm_error err;
    return try_image(img, n, &err) != PM_OK;
}

static void r1cs_fuzz(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.r1cs")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    assert_non_null(img);
    pm_test_mutations(img, n, pm_test_iters(300), try_mutant);
    free(img);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(r1cs_fixture_counts_and_satisfied),
        cmocka_unit_test(r1cs_bn128_refused),
        cmocka_unit_test(r1cs_hostile),
        cmocka_unit_test(r1cs_prv_in_beyond_wires),
        cmocka_unit_test(r1cs_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
