/*
 * porep_c2.c — the proof kind "porep-c2": Filecoin PoRep C2 over the C1 output (porep_c2.h).
 */
#include "kinds/filecoin/porep_c2/porep_c2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/c1_json.h"
#include "filecoin/vanilla_verify.h"
#include "filecoin/param_names.h"
#include "filecoin/porep_public.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "groth16/proof_bytes.h"
#include "groth16/verifier.h"
#include "kinds/kind.h"
#include "kinds/shape.h"
#include "util/progress.h"

/* ---------------------------------------------------------------- public inputs, verification */

int pm_porep_public_inputs_derivable(const fil_c1_t *c1) {
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    return rp && rp->feature != FIL_FEATURE_SYNTHETIC_POREP;
}

pm_status pm_porep_public_inputs(fr_t *out, size_t n, const fil_c1_t *c1, uint32_t k, pm_error *err) {
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    if (!rp) return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "unknown registered proof %u", c1->registered_proof);
    if (rp->feature == FIL_FEATURE_SYNTHETIC_POREP)
        return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET,
                            "%s: synthetic-PoRep challenges need the synthetic proof file", rp->name);
    uint32_t C = c1->challenges;
    if (n != 3 + 18 * (size_t)C)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public inputs asked, %u expected", n, 3 + 18 * C);
    if (!fil_sector_info(c1->sector_size))
        return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "unsupported sector size");
    /* the one derivation, shared with the check of Filecoin's published records (porep_public.h) */
    fil_porep_public_t p = {.sector_size = c1->sector_size, .api_version = rp->api_version, .feature = rp->feature,
                            .challenges = C};
    fil_porep_id(p.porep_id, rp->id);
    memcpy(p.replica_id, c1->replica_id, 32);
    memcpy(p.comm_d, c1->comm_d, 32);
    memcpy(p.comm_r, c1->comm_r, 32);
    memcpy(p.seed, c1->seed, 32);
    pm_status st = fil_porep_public_inputs(out, n, &p, k, err);
    if (st && err && !err->file[0]) snprintf(err->file, sizeof err->file, "c1");
    return st;
}

static pm_status verify_one(int *valid, const groth16_vk_t *vk, const fr_t *w, uint32_t n_inputs,
                            const groth16_proof_t *pr, pm_error *err) {
    if (vk->n_public + 1 != n_inputs)
        return pm_error_set(err, PM_ERR_MISMATCH, "vk", PM_NO_OFFSET,
                            "verifying key has %zu inputs, the circuit %u", vk->n_public + 1, n_inputs);
    return groth16_verify(valid, vk, w + 1, n_inputs - 1, pr, NULL, NULL, err);
}

/* proofs[0 .. n) are the proofs of partitions first .. first + n - 1 */
static pm_status verify_range(int *valid, const uint8_t *proofs, uint32_t first, size_t n, const fil_c1_t *c1,
                              const pm_porep_shape *s, const bp_vk_t *bvk, pm_error *err) {
    *valid = 0;
    if (c1->challenges != s->challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET, "C1 has %u challenges per partition, circuit %u",
                            c1->challenges, s->challenges);
    groth16_vk_t vk = {0};
    pm_status st = params_vk_to_groth16_vk(&vk, bvk, err);
    size_t nx = 3 + 18 * (size_t)s->challenges;
    fr_t *x = malloc(sizeof(fr_t) * (nx + 1));
    if (!st && !x) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "public inputs");
    int all = 1;
    for (uint32_t i = 0; i < n && !st; i++) {
        groth16_proof_t pr;
        st = groth16_proof_from_bytes(&pr, proofs + 192 * (size_t)i, "proof", 192 * (uint64_t)i, err);
        if (!st) st = pm_porep_public_inputs(x + 1, nx, c1, first + i, err);
        int v = 0;
        if (!st) st = verify_one(&v, &vk, x, (uint32_t)nx + 1, &pr, err);
        all &= v;
    }
    free(x);
    groth16_vk_free(&vk);
    if (!st) *valid = all;
    return st;
}

pm_status pm_porep_c2_verify(int *valid, const uint8_t *proofs, size_t n, const fil_c1_t *c1,
                             const pm_porep_shape *s, const bp_vk_t *bvk, pm_error *err) {
    *valid = 0;
    if (n != c1->partitions)
        return pm_error_set(err, PM_ERR_MISMATCH, "proof", PM_NO_OFFSET, "%zu proofs for %u partitions", n,
                            c1->partitions);
    return verify_range(valid, proofs, 0, n, c1, s, bvk, err);
}

pm_status pm_porep_c2_verify_partition(int *valid, const uint8_t proof[192], uint32_t k, const fil_c1_t *c1,
                                       const pm_porep_shape *s, const bp_vk_t *bvk, pm_error *err) {
    *valid = 0;
    if (k >= c1->partitions)
        return pm_error_set(err, PM_ERR_ARG, "proof", PM_NO_OFFSET, "partition %u: the C1 has partitions 0..%u", k,
                            c1->partitions - 1);
    return verify_range(valid, proof, k, 1, c1, s, bvk, err);
}

/* ---------------------------------------------------------------- the kind */

static const pm_kind porep_c2_kind;

typedef struct {
    fil_c1_t c1;
    char name[512]; /* the C1's path, or "inputs[0]": names it in errors */
} job_t;

typedef struct {
    uint64_t sector_size;
    pm_porep_shape s;
} key_id;

/* The vanilla verifier (filecoin/vanilla_verify.h, all challenges of all partitions in parallel)
 * on the C1 before anything is proved: the circuit does not bind every value of a C1 (e.g. the
 * labeling and encoding proofs' parents, encoding_proof.node), so a changed C1 can still give a
 * valid proof; refused here as `porep verify-c1` refuses it, naming partition, challenge, node and
 * field. PM_ERR_UNSATISFIED (or PM_ERR_ARG for a proof type whose challenges are not derived). */
static pm_status check_vanilla(const fil_c1_t *c1, const char *name, pm_error *err) {
    pm_error e;
    pm_error_clear(&e);
    pm_status st = fil_c1_verify(c1, NULL, &e);
    if (st) pm_error_set(err, st, name, PM_NO_OFFSET, "the C1's vanilla proofs do not verify: %s", e.msg);
    return st;
}

/* The further inputs "registered_proof" and "sector_size" (decimal; what a Curio request carries
 * beside the C1, SubmitProofRequest's fields of those names) must agree with the C1. sector_size 0
 * is "not given" (proto3's default); registered_proof 0 is StackedDrg2KiBV1. sector_size is checked
 * first: a request that sets it wrongly is told so, not blamed for a registered_proof it left at 0. */
static pm_status check_request(const job_t *j, const pm_input *in, size_t n_in, pm_error *err) {
    const pm_input *rpi = pm_input_find(in, n_in, "registered_proof"), *ssi = pm_input_find(in, n_in, "sector_size");
    uint64_t v;
    pm_status st;
    const fil_registered_proof_t *have = fil_registered_proof(j->c1.registered_proof);
    if (ssi) {
        if ((st = pm_input_u64(&v, ssi, "sector_size", err))) return st;
        if (v && v != j->c1.sector_size)
            return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET,
                                "sector_size %llu is given, the C1 is for %llu-byte sectors (%s)", (unsigned long long)v,
                                (unsigned long long)j->c1.sector_size, have ? have->name : "?");
    }
    if (rpi) {
        if ((st = pm_input_u64(&v, rpi, "registered_proof", err))) return st;
        const fil_registered_proof_t *rp = v < FIL_REGISTERED_PROOF_COUNT ? fil_registered_proof((unsigned)v) : NULL;
        if (!rp)
            return pm_error_set(err, PM_ERR_ARG, "registered_proof", PM_NO_OFFSET,
                                "%llu is not a RegisteredSealProof id (0..%u; e.g. 8 = StackedDrg32GiBV1_1)",
                                (unsigned long long)v, FIL_REGISTERED_PROOF_COUNT - 1);
        if (rp->id != j->c1.registered_proof)
            return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET,
                                "registered_proof %u (%s) is given, the C1 is %s (%u)%s", rp->id, rp->name,
                                have ? have->name : "?", j->c1.registered_proof,
                                v == 0 ? " (0 is also what an unset proto3 field reads as: was it left out?)" : "");
    }
    return PM_OK;
}

static pm_status open_job(void **out, const pm_input *in, size_t n_in, pm_error *err) {
    *out = NULL;
    const pm_input *c1 = NULL;
    for (size_t i = 0; i < n_in; i++)
        if (pm_kind_input_role(&porep_c2_kind, in[i].name) == 1) c1 = &in[i];
    if (!c1 || (c1->kind == PM_INPUT_PATH && !c1->path) || (c1->kind == PM_INPUT_BYTES && !c1->bytes))
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a PoRep job takes exactly one C1 input");
    job_t *j = calloc(1, sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    char lb[64];
    snprintf(j->name, sizeof j->name, "%s", pm_input_label(lb, sizeof lb, c1, (size_t)(c1 - in)));
    pm_status st = c1->kind == PM_INPUT_PATH
                       ? fil_c1_read_file(&j->c1, NULL, c1->path, err)
                       : fil_c1_read_memory(&j->c1, NULL, (const char *)c1->bytes, c1->len, j->name, err);
    if (!st && (st = check_request(j, in, n_in, err))) fil_c1_free(&j->c1);
    if (st) {
        free(j);
        return st;
    }
    if ((st = check_vanilla(&j->c1, j->name, err))) {
        fil_c1_free(&j->c1);
        free(j);
        return st;
    }
    *out = j;
    return PM_OK;
}

static void close_job(void *job) {
    job_t *j = job;
    if (!j) return;
    fil_c1_free(&j->c1);
    free(j);
}

static uint32_t partitions(const void *job) { return ((const job_t *)job)->c1.partitions; }

static pm_status key_for_size(char *out, size_t cap, const char *params_dir, uint64_t sector_size, pm_error *err) {
    char stem[256];
    pm_status st = fil_porep_param_stem(stem, sizeof stem, sector_size, err);
    if (st) return st;
    if (snprintf(out, cap, "%s/%s.params", params_dir, stem) >= (int)cap)
        return pm_error_set(err, PM_ERR_ARG, params_dir, PM_NO_OFFSET, "parameter path too long");
    return PM_OK;
}

/* the partition circuit synthesized with PM_CS_STATS (every linear combination built, counted and
 * dropped: the facts of a 32 GiB partition in ~45 s and ~40 MB, not its 9 GB of matrices) */
static pm_status shape_for_size(groth16_devplan_shape *out, pm_cs_facts *facts, uint64_t sector_size,
                                pm_error *err) {
    memset(out, 0, sizeof *out);
    pm_porep_shape ps;
    pm_status st = pm_porep_shape_for_size(&ps, sector_size, err);
    if (st) return st;
    pm_progress_stage("PoRep circuit: counting its matrices", 0);
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_STATS);
    st = pm_porep_synthesize(&cs, &ps, NULL, 0, NULL, err);
    if (!st && cs.oom) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory counting the circuit");
    pm_cs_facts f;
    pm_cs_facts_of(&f, &cs);
    pm_cs_free(&cs);
    if (!st) pm_shape_of_facts(out, &f);
    if (!st && facts) *facts = f;
    return st;
}

static pm_status key_path(char *out, size_t cap, const char *params_dir, const void *job, pm_error *err) {
    return key_for_size(out, cap, params_dir, ((const job_t *)job)->c1.sector_size, err);
}

/* the sector size whose stem is the basename of key_path without ".params"; 0 when none */
static uint64_t size_of_key(const char *key_path) {
    const char *base = strrchr(key_path, '/');
    base = base ? base + 1 : key_path;
    size_t n = 0;
    const fil_sector_info_t *t = fil_sector_infos(&n);
    for (size_t i = 0; i < n; i++) {
        char stem[256];
        pm_error e;
        if (fil_porep_param_stem(stem, sizeof stem, t[i].sector_size, &e)) continue;
        size_t sl = strlen(stem);
        if (!strncmp(base, stem, sl) && !strcmp(base + sl, ".params")) return t[i].sector_size;
    }
    return 0;
}

static pm_status open_key(void **out, const char *path, pm_error *err) {
    *out = NULL;
    uint64_t size = size_of_key(path);
    if (!size)
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                            "not a Filecoin PoRep parameter file (DIR/<stem>.params of a sector size)");
    key_id *id = calloc(1, sizeof *id);
    if (!id) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    id->sector_size = size;
    pm_status st = pm_porep_shape_for_size(&id->s, size, err);
    if (st) {
        free(id);
        return st;
    }
    *out = id;
    return PM_OK;
}

static void close_key(void *id) { free(id); }

static pm_status check_job(const void *idv, const char *key_path, const pm_key_shape *shape, const void *job,
                           pm_error *err) {
    const key_id *id = idv;
    const job_t *j = job;
    char stem[256];
    pm_status st = fil_porep_param_stem(stem, sizeof stem, j->c1.sector_size, err);
    if (st) return st;
    if (j->c1.sector_size != id->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                            "the C1 %s is for %llu-byte sectors (parameters %s.params), these parameters for %llu",
                            j->name, (unsigned long long)j->c1.sector_size, stem, (unsigned long long)id->sector_size);
    if (j->c1.challenges != id->s.challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET, "C1 has %u challenges, circuit %u",
                            j->c1.challenges, id->s.challenges);
    if (shape && shape->n_public + 1 != 3 + 18 * (uint64_t)id->s.challenges + 1)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                            "parameters have %zu public inputs (with ONE), the %llu-byte circuit %u",
                            shape->n_public + 1, (unsigned long long)id->sector_size, 3 + 18 * id->s.challenges + 1);
    return PM_OK;
}

static pm_status record(r1cs_t *out, uint32_t *n_inputs, const void *ctx, pm_error *err) {
    return pm_porep_record(out, n_inputs, &((const key_id *)ctx)->s, err);
}

static pm_status circuit(pm_circuit *c, uint64_t *bytes, const void *idv, const char *key_path, const char *csr_path,
                         pm_error *err) {
    const key_id *id = idv;
    char path[4096];
    const char *p = csr_path ? csr_path : (pm_key_path_beside(path, sizeof path, key_path, ".csr") ? NULL : path);
    if (!c) { /* the estimate: the .csr's size, or the parameter file's for an in-memory recording */
        struct stat sb;
        *bytes = (p && stat(p, &sb) == 0) || stat(key_path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
        return PM_OK;
    }
    size_t n_w;
    uint32_t nin;
    pm_status st = pm_porep_witness_len(&n_w, &nin, &id->s, err);
    if (!st) st = pm_circuit_load_or_record(c, p, csr_path != NULL, id->sector_size, n_w, nin, record, id, err);
    if (!st && bytes) *bytes = pm_circuit_resident_bytes(c);
    return st;
}

static pm_status witness(fr_t **w, size_t *n_w, const void *idv, const void *job, uint32_t part, unsigned threads,
                         pm_error *err) {
    const key_id *id = idv;
    const job_t *j = job;
    *w = NULL;
    if (j->c1.sector_size != id->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET, "C1 sector size %llu, parameters %llu",
                            (unsigned long long)j->c1.sector_size, (unsigned long long)id->sector_size);
    if (part >= j->c1.partitions)
        return pm_error_set(err, PM_ERR_ARG, j->name, PM_NO_OFFSET, "partition %u of %u", part, j->c1.partitions);
    uint32_t nin;
    return pm_porep_witness_mt(w, n_w, &nin, &id->s, &j->c1, part, threads, err);
}

static pm_status public_inputs(fr_t *x, size_t n_x, const void *idv, const void *job, uint32_t part, const fr_t *w,
                               size_t n_w, pm_error *err) {
    (void)idv;
    const job_t *j = job;
    if (n_w < n_x + 1)
        return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET, "witness of %zu values for %zu public inputs",
                            n_w, n_x);
    if (!pm_porep_public_inputs_derivable(&j->c1)) {
        /* a synthetic-PoRep C1: its challenges come from the synthetic proof file, which C2 does not
         * get; the witness's own public inputs are proved and verified */
        memcpy(x, w + 1, n_x * sizeof *x);
        return PM_OK;
    }
    pm_status st = pm_porep_public_inputs(x, n_x, &j->c1, part, err);
    for (size_t i = 0; !st && i < n_x; i++)
        if (!fr_eq(&x[i], &w[1 + i]))
            st = pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET,
                              "partition %u: public input %zu from the vanilla proofs differs from the one derived from "
                              "replica_id/seed/graph (challenge %zu)",
                              part, i + 1, i < 3 ? 0 : (i - 3) / 18);
    return st;
}

static void name_row(pm_error *err, const void *idv, uint32_t row, uint32_t n_rows) {
    pm_porep_unsatisfied(err, &((const key_id *)idv)->s, row, n_rows);
}

static const char *const porep_aliases[] = {"porep", NULL};
static const char *const porep_more_inputs[] = {"registered_proof", "sector_size", NULL};

static const pm_kind porep_c2_kind = {
    .name = "porep-c2",
    .aliases = porep_aliases,
    .summary = "Filecoin PoRep C2: a C1 output (JSON or lotus-bench envelope) -> 192 bytes per partition",
    .conv = GROTH16_BELLPERSON,
    .input_name = "c1",
    .max_inputs = 1,
    .more_inputs = porep_more_inputs,
    .key_hint = "Filecoin's come from `curio fetch-params <sector size>`; "
                "`proofmill porep params-setup` makes test ones",
    .open_job = open_job,
    .close_job = close_job,
    .partitions = partitions,
    .key_path = key_path,
    .key_for_size = key_for_size,
    .shape_for_size = shape_for_size,
    .open_key = open_key,
    .close_key = close_key,
    .check_job = check_job,
    .circuit = circuit,
    .witness = witness,
    .public_inputs = public_inputs,
    .name_row = name_row,
};
PM_KIND_REGISTER(porep_c2_kind)
