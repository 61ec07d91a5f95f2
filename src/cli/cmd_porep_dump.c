/*
 * cmd_porep_dump.c — `proofmill porep partition-dump`: one C2 partition's prover inputs in the
 * form SupraSeal C2's `generate_groth16_proofs_c` takes them (its `Assignment<fr_t>`: supranational
 * supra_seal c2/cuda/groth16_cuda.cu), so that another Groth16 engine can prove the very partition
 * proofmill proves, from our .params, with the same r and s (issue #37: the SupraSeal C2 harness,
 * bench/anchors/supraseal/). Also a plain record of what the bellperson prover feeds its MSMs.
 *
 *   proofmill porep partition-dump --c1 FILE --csr FILE --partition K --seed N --out FILE
 *
 * File layout ("PMC2DMP1"; every integer little-endian u64; every array starts at a multiple of 8):
 *   magic "PMC2DMP1" (8 bytes)
 *   u64 abc_size        rows: the circuit's constraints, then one row per input (bellperson's
 *                       input rows: a = w_i, b = c = 0), in that order
 *   u64 inp_size        inputs, ONE included (w[0] = 1)
 *   u64 aux_size        aux wires
 *   u64 a_aux_popcount, b_inp_popcount, b_aux_popcount   set bits of the three density bitmaps
 *   u64 partition, seed  what r and s come from: groth16_seeded_scalars(seed + partition), the
 *                       scalars `porep prove --seed N` uses for that partition
 *   r, s                fr_t, 32 bytes each
 *   a, b, c             abc_size fr_t each
 *   inp                 inp_size fr_t (w[0 .. inp_size))
 *   aux                 aux_size fr_t (w[inp_size ..))
 *   a_aux_density       ceil(aux_size / 64) u64 words (bit j of word j/64: aux wire j occurs in A)
 *   b_inp_density       ceil(inp_size / 64) u64 words
 *   b_aux_density       ceil(aux_size / 64) u64 words
 * Every fr_t is 4 u64 limbs, least significant first, in Montgomery form (x·2^256 mod r), the
 * layout of blst's blst_fr and of sppark's fr_t (field/fr.h). The bitmaps are the recorded
 * circuit's (circuits/csr_file.h: bellperson's density); every row is checked (a·b = c) before the
 * file is written, so a dump never carries an unsatisfied partition.
 * Exit codes as in cli.h. Size: 32 GiB, ~17 GB (a, b, c 12.5 GB, the witness 4.2 GB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "circuits/csr_file.h"
#include "circuits/filecoin/porep_circuit.h"
#include "cli/opts.h"
#include "cli/porep_cli.h"
#include "filecoin/c1_json.h"
#include "filecoin/vanilla_verify.h"
#include "groth16/prover.h"
#include "r1cs/r1cs.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/outfile.h"

enum { O_C1 = 256, O_CSR, O_PART, O_SEED, O_OUT };

static size_t popcount_words(const uint64_t *w, size_t bits) {
    size_t n = 0;
    for (size_t i = 0; i < (bits + 63) / 64; i++) n += (size_t)__builtin_popcountll(w[i]);
    return n;
}

static int put(FILE *f, const void *p, size_t len) { return len && fwrite(p, 1, len, f) != len; }

static int porep_partition_dump(int argc, char **argv) {
    const char *c1p = NULL, *csrp = NULL, *outp = NULL;
    uint64_t part = UINT64_MAX, seed = 0;
    int have_seed = 0;
    static const pm_cli_opt opts[] = {{"c1", O_C1, "FILE", "the C1 output"},
                                      {"csr", O_CSR, "FILE", "the recorded circuit of the C1's sector size"},
                                      {"partition", O_PART, "K", "the partition to dump"},
                                      {"seed", O_SEED, "N", "r, s = the scalars `porep prove --seed N` uses for K"},
                                      {"out", O_OUT, "FILE", "the dump to write (~17 GB at 32 GiB)"},
                                      {0}};
    static const pm_cli_spec spec = {
        "porep partition-dump", "porep partition-dump --c1 FILE --csr FILE --partition K --seed N --out FILE",
        "One C2 partition's prover inputs (a, b, c, the witness, bellperson's density bitmaps, r, s) in "
        "SupraSeal C2's Assignment form, for proving it with another engine.",
        opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_C1) c1p = a.arg;
        else if (o == O_CSR) csrp = a.arg;
        else if (o == O_OUT) outp = a.arg;
        else if (o == O_PART) {
            if (pm_cli_opt_u64(&part, "--partition", a.arg, 0, UINT32_MAX - 1)) return PM_EXIT_USAGE;
        } else if (o == O_SEED) {
            if (pm_cli_opt_u64(&seed, "--seed", a.arg, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
        }
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!c1p || !csrp || !outp || part == UINT64_MAX || !have_seed)
        return pm_cli_spec_usage(&spec, "--c1, --csr, --partition, --seed and --out are required");
    if (pm_same_file(outp, c1p) || pm_same_file(outp, csrp))
        return pm_cli_usage("porep partition-dump: --out %s is an input file", outp);

    pm_error err;
    pm_error_clear(&err);
    fil_c1_t c1 = {0};
    pm_csr_t f = {0};
    pm_porep_shape s;
    pm_outfile o = {.fd = -1};
    int rc = PM_EXIT_USAGE, opened = 0;
    fr_t *w = NULL, *va = NULL, *vb = NULL, *vc = NULL;
    size_t cap = 0, n_w = 0;
    uint32_t nin = 0;
    double t0 = pm_now_s();
    if (fil_c1_read_file(&c1, NULL, c1p, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    if (part >= c1.partitions) {
        rc = pm_cli_spec_usage(&spec, "--partition %llu: %s has partitions 0..%u", (unsigned long long)part, c1p,
                               c1.partitions - 1);
        goto out;
    }
    /* the C1 as `porep prove` takes it: its vanilla proofs verified first (a C1 whose challenges are
     * not its seed's would give a satisfied circuit with public inputs no verifier derives) */
    pm_status vst = fil_c1_verify(&c1, NULL, &err);
    if (vst == PM_ERR_UNSATISFIED) {
        fprintf(stderr, "proofmill: %s: INVALID: %s\n", c1p, err.msg);
        goto out;
    }
    /* the output is opened before the heavy work, so a bad --out fails at once */
    if (vst || pm_porep_shape_for_size(&s, c1.sector_size, &err) || pm_porep_witness_len(&cap, &nin, &s, &err) ||
        pm_outfile_open(&o, outp, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    opened = 1;
    if (pm_csr_open(&f, csrp, &err) || pm_csr_expect(&f, csrp, c1.sector_size, cap, nin, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    const size_t n = f.cs.n_constraints, rows = n + f.n_inputs;
    w = aligned_alloc(32, cap * sizeof(fr_t));
    va = aligned_alloc(32, rows * sizeof(fr_t));
    vb = aligned_alloc(32, rows * sizeof(fr_t));
    vc = aligned_alloc(32, rows * sizeof(fr_t));
    if (!w || !va || !vb || !vc) {
        fprintf(stderr, "proofmill: porep partition-dump: out of memory (%.1f GB)\n",
                (double)(cap + 3 * rows) * sizeof(fr_t) / 1e9);
        goto out;
    }
    if (pm_porep_witness_into(w, cap, &n_w, &nin, &s, &c1, (uint32_t)part, 0, &err) ||
        pm_csr_settle(&f, r1cs_spmv(va, vb, vc, n, &f.cs, w, n_w, &err), &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    const size_t bad = r1cs_first_unsatisfied_row(va, vb, vc, n);
    if (bad < n) { /* as `porep synth --csr`: the C1 does not satisfy the circuit (exit 2) */
        fprintf(stderr,
                "proofmill: porep partition-dump: %s partition %llu: constraint %zu not satisfied by its witness in the "
                "recorded circuit %s (a C1 that verifies: is the .csr another circuit's?)\n",
                c1p, (unsigned long long)part, bad, csrp);
        goto out;
    }
    for (size_t i = 0; i < f.n_inputs; i++) { /* bellperson's input rows: w_i · 0 = 0 */
        va[n + i] = w[i];
        memset(&vb[n + i], 0, sizeof(fr_t));
        memset(&vc[n + i], 0, sizeof(fr_t));
    }
    const size_t inp = f.n_inputs, aux = n_w - inp;
    fr_t r, sc;
    groth16_seeded_scalars(&r, &sc, seed + part);
    const uint64_t hdr[8] = {rows,
                             inp,
                             aux,
                             popcount_words(f.a_aux_density, aux),
                             popcount_words(f.b_input_density, inp),
                             popcount_words(f.b_aux_density, aux),
                             part,
                             seed};
    if (put(o.f, "PMC2DMP1", 8) || put(o.f, hdr, 8 * sizeof(uint64_t)) || put(o.f, &r, sizeof r) ||
        put(o.f, &sc, sizeof sc) || put(o.f, va, rows * sizeof(fr_t)) || put(o.f, vb, rows * sizeof(fr_t)) ||
        put(o.f, vc, rows * sizeof(fr_t)) || put(o.f, w, n_w * sizeof(fr_t)) ||
        put(o.f, f.a_aux_density, (aux + 63) / 64 * 8) || put(o.f, f.b_input_density, (inp + 63) / 64 * 8) ||
        put(o.f, f.b_aux_density, (aux + 63) / 64 * 8)) {
        /* a .csr changed under the mapping is the cause to name, else the output's errno */
        if (!pm_csr_settle(&f, PM_OK, &err))
            pm_error_set(&err, PM_ERR_IO, outp, PM_NO_OFFSET, "write failed: %s", strerror(ferror(o.f) ? errno : EIO));
        rc = pm_cli_fail(&err);
        goto out;
    }
    /* the density bitmaps were read from the mapping after the SpMV's settle: settle again before
     * the dump becomes visible, so a .csr truncated meanwhile is an error, not zero bitmaps */
    if (pm_csr_settle(&f, PM_OK, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    opened = 0;
    if (pm_outfile_commit(&o, &err)) {
        rc = pm_cli_fail(&err);
        goto out;
    }
    printf("partition %llu: %zu rows, %zu inputs, %zu aux; density A %llu, B inputs %llu, B aux %llu; seed %llu; "
           "%.1f GB in %.1f s\n",
           (unsigned long long)part, rows, inp, aux, (unsigned long long)hdr[3], (unsigned long long)hdr[4],
           (unsigned long long)hdr[5], (unsigned long long)seed,
           (double)(72 + 64 + (3 * rows + n_w) * 32 + ((aux + 63) / 64 * 2 + (inp + 63) / 64) * 8) / 1e9,
           pm_now_s() - t0);
    rc = PM_EXIT_OK;
out:
    if (opened) pm_outfile_abort(&o);
    free(w);
    free(va);
    free(vb);
    free(vc);
    pm_csr_close(&f);
    fil_c1_free(&c1);
    return rc;
}

PM_POREP_SUBCOMMAND(partition_dump, "partition-dump", "--c1 FILE --csr FILE --partition K --seed N --out FILE",
                    "one C2 partition's prover inputs (a, b, c, witness, density, r, s) for another engine "
                    "(SupraSeal C2's Assignment)",
                    porep_partition_dump)
