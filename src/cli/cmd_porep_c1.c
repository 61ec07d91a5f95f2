/*
 * cmd_porep_c1.c — sealing test sectors and C1 files (issue #8):
 *
 *   proofmill porep seal --sector-size S (--data FILE | --zero) --out DIR
 *             [--proof ID | --api-version V] [--ticket HEX64] [--seed HEX64] [--miner-id N]
 *             [--sector N]
 *       Seal an in-memory sector (2 KiB, 8 MiB, 512 MiB; any interactive size that fits in RAM),
 *       make its C1 and write DIR/c1.json (Filecoin's C1 JSON), DIR/c1.lotus-bench.json (the
 *       lotus-bench {SectorNum, Phase1Out, SectorSize} envelope) and DIR/commitments.json
 *       (registered proof, comm_d, comm_c, comm_r_last, comm_r, replica_id, ticket, seed as
 *       lowercase hex of the 32 LE domain bytes, and the time of each step). FILE is either the
 *       padded sector (exactly S bytes, every node < r) or unpadded bytes (at most S·127/128),
 *       which are fr32-padded and zero-filled.
 *   proofmill porep synth-c1 --sector-size S --out FILE [--proof ID | --api-version V]
 *             [--ticket HEX64] [--seed HEX64] [--miner-id N] [--sector N] [--envelope]
 *       Write a synthetic, internally consistent C1 (synth_c1.h; marked as synthetic in the JSON)
 *       — for C2 benchmarks of 32/64 GiB shapes. --envelope writes the lotus-bench form.
 *   proofmill porep verify-c1 FILE
 *       Read a C1 (JSON or lotus-bench envelope) and check every vanilla proof. Prints "OK ..."
 *       and exits 0; exits 1 with "partition K, challenge I (node C): FIELD: what" when a value is
 *       wrong; 2 when the file cannot be read or has the wrong shape.
 * Defaults: the V1_1 registered proof of the size; ticket = 32 bytes 0x01..0x20 (byte 31 trimmed),
 * seed = 32 bytes 0x63, miner id 1000, sector 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/opts.h"
#include "cli/porep_cli.h"
#include "filecoin/c1_json.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "filecoin/synth_c1.h"
#include "filecoin/vanilla_verify.h"
#include "util/file.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/progress.h"

#define SEAL_USAGE                                                                                 \
    "seal --sector-size S (--data FILE | --zero) --out DIR [--proof ID | --api-version V] "            \
    "[--ticket HEX] [--seed HEX] [--miner-id N] [--sector N]"
#define SYNTH_C1_USAGE                                                                             \
    "synth-c1 --sector-size S --out FILE [--proof ID | --api-version V] [--ticket HEX] [--seed HEX] " \
    "[--miner-id N] [--sector N] [--envelope]"

typedef struct {
    uint64_t sector_size;
    int proof;
    const char *api, *data, *out, *ticket_hex, *seed_hex;
    int zero, envelope;
    uint64_t miner_id, sector;
    const char *pos;
} c1_opts_t;

enum { O_SIZE = 256, O_PROOF, O_API, O_DATA, O_OUT, O_TICKET, O_SEED, O_MINER, O_SECTOR, O_ZERO, O_ENVELOPE };
#define OPT_SIZE {"sector-size", O_SIZE, "S", "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes)"}
#define OPT_PICK                                                                                   \
    {"proof", O_PROOF, "ID", "registered proof id (0..19) instead of --sector-size + --api-version"}, \
    {"api-version", O_API, "V", "API version (default 1.1.0)"}
#define OPT_IDS                                                                                    \
    {"ticket", O_TICKET, "HEX", "ticket, 64 hex digits (default 01 02 .. 20)"},                     \
    {"seed", O_SEED, "HEX", "interactive seed, 64 hex digits (default 63 63 .. 63)"},              \
    {"miner-id", O_MINER, "N", "miner actor id of the prover id (default 1000)"},                  \
    {"sector", O_SECTOR, "N", "sector number (default 1)"}

/* Parse argv against spec (a subset of the options below); -1 ok, else the exit code. At most one
 * positional argument (o->pos), and only when allow_pos. */
static int parse(c1_opts_t *o, const pm_cli_spec *spec, int allow_pos, int argc, char **argv) {
    memset(o, 0, sizeof *o);
    o->proof = -1;
    o->miner_id = 1000;
    o->sector = 1;
    pm_error err;
    pm_cli_args a;
    pm_cli_args_init(&a, spec, argc, argv);
    for (int c; (c = pm_cli_next(&a)) != PM_CLI_DONE;) {
        int rc = 0;
        switch (c) {
        case PM_CLI_EXIT: return a.rc;
        case O_SIZE:
            if (fil_sector_size_parse(&o->sector_size, a.arg, &err)) return pm_cli_fail(&err);
            break;
        case O_PROOF: {
            uint64_t x;
            if ((rc = pm_cli_parse_u64(&x, "--proof", a.arg, 1000))) return rc;
            o->proof = (int)x;
            break;
        }
        case O_API: o->api = a.arg; break;
        case O_DATA: o->data = a.arg; break;
        case O_OUT: o->out = a.arg; break;
        case O_TICKET: o->ticket_hex = a.arg; break;
        case O_SEED: o->seed_hex = a.arg; break;
        case O_MINER: if ((rc = pm_cli_parse_u64(&o->miner_id, "--miner-id", a.arg, UINT64_MAX))) return rc; break;
        case O_SECTOR: if ((rc = pm_cli_parse_u64(&o->sector, "--sector", a.arg, UINT64_MAX))) return rc; break;
        case O_ZERO: o->zero = 1; break;
        case O_ENVELOPE: o->envelope = 1; break;
        default: break;
        }
    }
    if (allow_pos && a.ind < argc) o->pos = argv[a.ind++];
    if (a.ind < argc) return pm_cli_spec_usage(spec, "unexpected argument '%s'", argv[a.ind]);
    return -1;
}

/* Registered proof from --proof or (--sector-size, --api-version); -1 ok, else an exit code. */
static int pick_proof(const fil_registered_proof_t **rp, const c1_opts_t *o) {
    pm_error err;
    if (o->proof >= 0) {
        *rp = fil_registered_proof((unsigned)o->proof);
        if (!*rp) return pm_cli_usage("--proof %d: registered proof ids are 0..19", o->proof);
        if (o->sector_size && o->sector_size != (*rp)->sector_size)
            return pm_cli_usage("--proof %d is for %" PRIu64 "-byte sectors", o->proof, (*rp)->sector_size);
        return -1;
    }
    if (!o->sector_size) return pm_cli_usage("--sector-size is required");
    fil_api_version_t v = FIL_API_V1_1_0;
    if (o->api && fil_api_version_parse(&v, o->api, &err)) return pm_cli_fail(&err);
    *rp = fil_registered_proof_find(o->sector_size, v, FIL_FEATURE_NONE);
    if (!*rp) return pm_cli_usage("no interactive registered proof for that size and API version");
    return -1;
}

static int randomness(uint8_t ticket[32], uint8_t seed[32], const c1_opts_t *o) {
    for (int i = 0; i < 32; i++) ticket[i] = (uint8_t)(i + 1);
    memset(seed, 0x63, 32);
    if (o->ticket_hex && fil_unhex(ticket, 32, o->ticket_hex)) return pm_cli_usage("--ticket needs 64 hex digits");
    if (o->seed_hex && fil_unhex(seed, 32, o->seed_hex)) return pm_cli_usage("--seed needs 64 hex digits");
    return -1;
}

static int read_data(uint8_t **out, const char *path, uint64_t sector_size) {
    /* pm_file_open refuses directories, FIFOs and devices at once (no hang on a pipe, no
     * "LONG_MAX bytes", no empty read of /dev/zero taken as data). */
    pm_file f;
    pm_error ferr;
    if (pm_file_open(&f, path, &ferr)) return pm_cli_fail(&ferr);
    uint64_t n = f.size;
    uint64_t max_unpadded = sector_size / 128 * 127;
    if (n != sector_size && n > max_unpadded) {
        pm_file_close(&f);
        return pm_cli_usage("--data %s: %" PRIu64 " bytes; expected %" PRIu64 " (padded) or at most %" PRIu64
                            " (unpadded)", path, n, sector_size, max_unpadded);
    }
    uint8_t *raw = malloc((size_t)n + 1), *pad = calloc(1, sector_size + 128);
    if (!raw || !pad) {
        pm_file_close(&f);
        free(raw);
        free(pad);
        return pm_cli_usage("--data %s: out of memory", path);
    }
    if (n) memcpy(raw, f.data, (size_t)n);
    if (pm_file_settle(&f, PM_OK, &ferr)) {
        pm_file_close(&f);
        free(raw);
        free(pad);
        return pm_cli_fail(&ferr);
    }
    pm_file_close(&f);
    if ((uint64_t)n == sector_size)
        memcpy(pad, raw, (size_t)n);
    else
        fil_fr32_pad(pad, raw, (size_t)n);
    free(raw);
    *out = pad;
    return -1;
}

static void hexline(FILE *f, const char *k, const uint8_t b[32], int comma) {
    char h[65];
    fil_hex(h, b, 32);
    fprintf(f, "  \"%s\": \"%s\"%s\n", k, h, comma ? "," : "");
}

static int porep_seal(int argc, char **argv) {
    static const pm_cli_opt opts[] = {
        OPT_SIZE, OPT_PICK,
        {"data", O_DATA, "FILE", "the sector's data (padded size, or unpadded and Fr32-padded here)"},
        {"zero", O_ZERO, NULL, "an all-zero sector instead of --data"},
        {"out", O_OUT, "DIR", "output directory: c1.json, the lotus-bench envelope, commitments"},
        OPT_IDS, {0}};
    static const pm_cli_spec spec = {"porep seal", "porep " SEAL_USAGE,
                                     "Seals a test sector in memory and writes its C1 output. Progress on stderr "
                                     "when it is a terminal.", opts};
    c1_opts_t o;
    int rc = parse(&o, &spec, 0, argc, argv);
    if (rc >= 0) return rc;
    const fil_registered_proof_t *rp = NULL;
    if ((rc = pick_proof(&rp, &o)) >= 0) return rc;
    if (!o.out) return pm_cli_usage("porep seal: --out DIR is required");
    if (!!o.data == !!o.zero) return pm_cli_usage("porep seal: give exactly one of --data FILE and --zero");
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp->id;
    p.sector_id = o.sector;
    fil_prover_id_from_miner(p.prover_id, o.miner_id);
    uint8_t seed[32];
    if ((rc = randomness(p.ticket, seed, &o)) >= 0) return rc;
    uint8_t *data = NULL;
    if (o.data && (rc = read_data(&data, o.data, rp->sector_size)) >= 0) return rc;
    p.data = data;
    if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
        free(data);
        return pm_cli_usage("--out %s: %s", o.out, strerror(errno));
    }
    fil_seal_t s;
    pm_error err;
    double t0 = pm_now_s();
    pm_progress_start("porep seal");
    pm_status st = fil_seal_run(&s, &p, &err);
    pm_progress_stop();
    free(data);
    /* a data node that is not an fr32 element: the offset is the --data file's (taken as padded) */
    if (st == PM_ERR_ENCODING && !err.file[0] && o.data) snprintf(err.file, sizeof err.file, "%s", o.data);
    if (st) return pm_cli_fail(&err);
    double t_seal = pm_now_s() - t0;
    fil_c1_t c1;
    t0 = pm_now_s();
    if (fil_c1_from_seal(&c1, &s, seed, &err)) {
        fil_seal_free(&s);
        return pm_cli_fail(&err);
    }
    double t_c1 = pm_now_s() - t0;
    char path[4096];
    snprintf(path, sizeof path, "%s/c1.json", o.out);
    t0 = pm_now_s();
    st = fil_c1_write_json_file(path, &c1, &err);
    if (!st) {
        snprintf(path, sizeof path, "%s/c1.lotus-bench.json", o.out);
        st = fil_c1_write_envelope_file(path, &c1, o.sector, &err);
    }
    double t_write = pm_now_s() - t0;
    if (st) {
        fil_c1_free(&c1);
        fil_seal_free(&s);
        return pm_cli_fail(&err);
    }
    snprintf(path, sizeof path, "%s/commitments.json", o.out);
    pm_outfile of;
    if (pm_outfile_open(&of, path, &err)) {
        fil_c1_free(&c1);
        fil_seal_free(&s);
        return pm_cli_fail(&err);
    }
    FILE *f = of.f;
    fprintf(f, "{\n  \"registered_proof\": \"%s\",\n  \"sector_size\": %" PRIu64 ",\n  \"miner_id\": %" PRIu64
               ",\n  \"sector\": %" PRIu64 ",\n",
            rp->name, rp->sector_size, o.miner_id, o.sector);
    hexline(f, "comm_d", s.comm_d, 1);
    hexline(f, "comm_c", s.comm_c, 1);
    hexline(f, "comm_r_last", s.comm_r_last, 1);
    hexline(f, "comm_r", s.comm_r, 1);
    hexline(f, "replica_id", s.replica_id, 1);
    hexline(f, "ticket", s.ticket, 1);
    hexline(f, "seed", seed, 1);
    fprintf(f, "  \"seconds\": {\"tree_d\": %.3f, \"labels\": %.3f, \"tree_c\": %.3f, \"tree_r_last\": %.3f, "
               "\"seal_total\": %.3f, \"c1\": %.3f, \"write\": %.3f}\n}\n",
            s.sec_tree_d, s.sec_labels, s.sec_tree_c, s.sec_tree_r, t_seal, t_c1, t_write);
    if (pm_outfile_commit(&of, &err)) {
        fil_c1_free(&c1);
        fil_seal_free(&s);
        return pm_cli_fail(&err);
    }
    char h[65];
    fil_hex(h, s.comm_r, 32);
    printf("sealed %s: comm_r %s; seal %.3f s (tree D %.3f, labels %.3f, tree C %.3f, tree R_last %.3f), "
           "C1 %.3f s; wrote %s/{c1.json,c1.lotus-bench.json,commitments.json}\n",
           rp->name, h, t_seal, s.sec_tree_d, s.sec_labels, s.sec_tree_c, s.sec_tree_r, t_c1, o.out);
    fil_c1_free(&c1);
    fil_seal_free(&s);
    return PM_EXIT_OK;
}

static int porep_synth_c1(int argc, char **argv) {
    static const pm_cli_opt opts[] = {
        OPT_SIZE, OPT_PICK, {"out", O_OUT, "FILE", "the C1 JSON (or envelope) to write"}, OPT_IDS,
        {"envelope", O_ENVELOPE, NULL, "write the lotus-bench envelope instead of bare C1 JSON"}, {0}};
    static const pm_cli_spec spec = {"porep synth-c1", "porep " SYNTH_C1_USAGE,
                                     "A synthetic consistent C1 (benchmark input for 32/64 GiB C2; not a sealed "
                                     "sector).", opts};
    c1_opts_t o;
    int rc = parse(&o, &spec, 0, argc, argv);
    if (rc >= 0) return rc;
    const fil_registered_proof_t *rp = NULL;
    if ((rc = pick_proof(&rp, &o)) >= 0) return rc;
    if (!o.out) return pm_cli_usage("porep synth-c1: --out FILE is required");
    fil_synth_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp->id;
    p.sector_id = o.sector;
    fil_prover_id_from_miner(p.prover_id, o.miner_id);
    if ((rc = randomness(p.ticket, p.seed, &o)) >= 0) return rc;
    fil_c1_t c1;
    pm_error err;
    double t0 = pm_now_s();
    if (fil_synth_c1(&c1, &p, &err)) return pm_cli_fail(&err);
    double t_synth = pm_now_s() - t0;
    t0 = pm_now_s();
    pm_status st = o.envelope ? fil_c1_write_envelope_file(o.out, &c1, o.sector, &err)
                              : fil_c1_write_json_file(o.out, &c1, &err);
    double t_write = pm_now_s() - t0;
    char h[65];
    fil_hex(h, c1.comm_r, 32);
    fil_c1_free(&c1);
    if (st) return pm_cli_fail(&err);
    printf("SYNTHETIC C1 (benchmark input, not a sealed sector) %s: comm_r %s; made in %.3f s, written in %.3f s to %s\n",
           rp->name, h, t_synth, t_write, o.out);
    return PM_EXIT_OK;
}

static int porep_verify_c1(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"porep verify-c1", "porep verify-c1 FILE",
                                     "Reads a C1 (JSON or lotus-bench envelope) and checks every vanilla proof: "
                                     "exit 0 OK,\n1 INVALID (naming partition, challenge and field), 2 unreadable.",
                                     opts};
    c1_opts_t o;
    int rc = parse(&o, &spec, 1, argc, argv);
    if (rc >= 0) return rc;
    if (!o.pos) return pm_cli_usage("porep verify-c1: FILE is required");
    fil_c1_t c1;
    pm_error err;
    double t0 = pm_now_s();
    if (fil_c1_read_file(&c1, NULL, o.pos, &err)) return pm_cli_fail(&err);
    double t_read = pm_now_s() - t0;
    fil_verify_failure_t w;
    t0 = pm_now_s();
    pm_status st = fil_c1_verify(&c1, &w, &err);
    double t_verify = pm_now_s() - t0;
    const fil_registered_proof_t *rp = fil_registered_proof(c1.registered_proof);
    if (st == PM_ERR_UNSATISFIED) {
        fprintf(stderr, "proofmill: %s: INVALID: %s\n", o.pos, err.msg);
        fil_c1_free(&c1);
        return PM_EXIT_INVALID;
    }
    if (st) {
        fil_c1_free(&c1);
        return pm_cli_fail(&err);
    }
    printf("OK %s: %s, %u partitions x %u challenges%s; read %.3f s, verified %.3f s\n", o.pos, rp->name,
           c1.partitions, c1.challenges, c1.synthetic ? " (SYNTHETIC C1)" : "", t_read, t_verify);
    fil_c1_free(&c1);
    return PM_EXIT_OK;
}

PM_POREP_SUBCOMMAND(seal, "seal", SEAL_USAGE + 5,
                    "seal a test sector in memory; write its C1 JSON, lotus-bench envelope, commitments",
                    porep_seal)
PM_POREP_SUBCOMMAND(synth_c1, "synth-c1", SYNTH_C1_USAGE + 9,
                    "write a synthetic consistent C1 (benchmark input for 32/64 GiB C2)", porep_synth_c1)
PM_POREP_SUBCOMMAND(verify_c1, "verify-c1", "FILE",
                    "read a C1 (JSON or lotus-bench envelope) and check every vanilla proof", porep_verify_c1)
