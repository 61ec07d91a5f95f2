/*
 * cmd_porep_graph.c — SDR graph tools (issue #8):
 *
 *   proofmill porep parent-cache --sector-size S [--proof ID | --porep-id HEX64 --api-version V]
 *             [--out FILE|DIR | --digest-only] [--threads N] [--quiet]
 *       Generate Filecoin's parent cache for the sector size (default registered proof: the V1_1
 *       one of that size, ids 5-9); write it to FILE (or DIR/v28-sdr-parent-<hash>.cache) and
 *       print its name, SHA-256 digest, time, and whether the digest matches the published
 *       parent_cache.json entry. Exit 0 ok (also when no published entry exists), 1 when a
 *       published digest exists and differs, 2 usage/IO errors.
 *   proofmill porep check-parent-cache PATH...
 *       For every PATH (a file, or a directory whose v28-sdr-parent-*.cache files are taken), hash
 *       the file and compare with the published digest of its name (parent_cache.json), as
 *       Filecoin does before using a cache. Prints "OK", "BAD (digest X, published Y)" or
 *       "UNKNOWN (no published digest for this name)" per file. Exit 1 when any file is BAD, 2 on
 *       IO errors or when no cache file was found.
 *   proofmill porep info
 *       Print the sector-size table (nodes, layers, partitions, challenges, NI values, tree shape)
 *       and the 20 registered proofs with their API version, porep_id and parent-cache name.
 *   proofmill porep parents --sector-size S [--proof ID | --porep-id HEX64 --api-version V] NODE...
 *       Print the 14 parents (6 DRG | 8 expander) of each NODE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/opts.h"
#include "cli/porep_cli.h"
#include "filecoin/graph.h"
#include "filecoin/parent_cache.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "util/clock.h"
#include "util/outfile.h"

#define PARENT_CACHE_USAGE                                                                         \
    "parent-cache --sector-size S [--proof ID | --porep-id HEX --api-version V] "                    \
    "(--out FILE|DIR | --digest-only) [--threads N] [--quiet]"
#define PARENTS_USAGE "parents --sector-size S [--proof ID | --porep-id HEX --api-version V] NODE..."

typedef struct {
    uint64_t sector_size;
    int proof;            /* -1 = none given */
    const char *porep_hex;
    const char *api;
    const char *out;
    unsigned threads;
    int digest_only, quiet;
} graph_opts_t;

/* Parse the options shared by both subcommands; positional args are left in *pos (count *npos). */
enum { O_SIZE = 256, O_PROOF, O_PID, O_API, O_OUT, O_THREADS, O_DIGEST, O_QUIET };
#define OPT_GRAPH                                                                                  \
    {"sector-size", O_SIZE, "S", "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes)"},          \
    {"proof", O_PROOF, "ID", "registered proof id (0..19)"},                                        \
    {"porep-id", O_PID, "HEX", "the porep id itself, 64 hex digits (with --sector-size)"},           \
    {"api-version", O_API, "V", "API version (default 1.1.0)"}

static int parse_opts(graph_opts_t *o, const pm_cli_spec *spec, int argc, char **argv, char **pos, int *npos,
                      int max_pos) {
    memset(o, 0, sizeof *o);
    o->proof = -1;
    *npos = 0;
    pm_error err;
    pm_cli_args a;
    pm_cli_args_init(&a, spec, argc, argv);
    for (int c; (c = pm_cli_next(&a)) != PM_CLI_DONE;) {
        uint64_t x;
        switch (c) {
        case PM_CLI_EXIT: return a.rc;
        case O_SIZE:
            if (fil_sector_size_parse(&o->sector_size, a.arg, &err)) return pm_cli_fail(&err);
            break;
        case O_PROOF:
            if (pm_cli_opt_u64(&x, "--proof", a.arg, 0, 1000)) return PM_EXIT_USAGE;
            o->proof = (int)x;
            break;
        case O_PID: o->porep_hex = a.arg; break;
        case O_API: o->api = a.arg; break;
        case O_OUT: o->out = a.arg; break;
        case O_THREADS:
            if (pm_cli_opt_u64(&x, "--threads", a.arg, 0, 1024)) return PM_EXIT_USAGE;
            o->threads = (unsigned)x;
            break;
        case O_DIGEST: o->digest_only = 1; break;
        case O_QUIET: o->quiet = 1; break;
        default: break;
        }
    }
    if (argc - a.ind > max_pos) return pm_cli_spec_usage(spec, "unexpected argument '%s'", argv[a.ind + max_pos]);
    for (int i = a.ind; i < argc; i++) pos[(*npos)++] = argv[i];
    return -1;
}

/* Build the graph from the options; returns -1 on success or an exit code. */
static int make_graph(fil_graph_t *g, const graph_opts_t *o, const fil_registered_proof_t **rp) {
    pm_error err;
    uint8_t pid[32];
    fil_api_version_t v = FIL_API_V1_1_0;
    *rp = NULL;
    if (o->porep_hex) {
        if (o->proof >= 0) return pm_cli_usage("--proof and --porep-id exclude each other");
        if (fil_unhex(pid, 32, o->porep_hex)) return pm_cli_usage("--porep-id needs 64 hex digits");
        if (!o->sector_size) return pm_cli_usage("--sector-size is required");
        if (o->api && fil_api_version_parse(&v, o->api, &err)) return pm_cli_fail(&err);
    } else {
        if (o->proof >= 0) {
            *rp = fil_registered_proof((unsigned)o->proof);
            if (!*rp) return pm_cli_usage("--proof %d: registered proof ids are 0..19", o->proof);
            if (o->sector_size && o->sector_size != (*rp)->sector_size)
                return pm_cli_usage("--proof %d is for %llu-byte sectors", o->proof,
                                    (unsigned long long)(*rp)->sector_size);
        } else {
            if (!o->sector_size) return pm_cli_usage("--sector-size is required");
            if (o->api && fil_api_version_parse(&v, o->api, &err)) return pm_cli_fail(&err);
            *rp = fil_registered_proof_find(o->sector_size, v, FIL_FEATURE_NONE);
            if (!*rp)
                return pm_cli_usage("no registered proof for %llu-byte sectors and %s; give "
                                    "--porep-id HEX64",
                                    (unsigned long long)o->sector_size, fil_api_version_name(v));
        }
        fil_porep_id(pid, (*rp)->id);
        v = (*rp)->api_version;
    }
    uint64_t size = *rp ? (*rp)->sector_size : o->sector_size;
    if (fil_graph_init(g, size / 32, pid, v, &err)) return pm_cli_fail(&err);
    return -1;
}

static void progress(uint64_t done, uint64_t total, void *ctx) {
    time_t *last = ctx, now = time(NULL);
    if (now != *last || done == total) {
        fprintf(stderr, "\r%5.1f%%  %llu / %llu nodes", 100.0 * (double)done / (double)total,
                (unsigned long long)done, (unsigned long long)total);
        if (done == total) fputc('\n', stderr);
        *last = now;
    }
}

static int porep_parent_cache(int argc, char **argv) {
    graph_opts_t o;
    static const pm_cli_opt opts[] = {
        OPT_GRAPH,
        {"out", O_OUT, "FILE|DIR", "the cache file, or a directory for Filecoin's file name"},
        {"digest-only", O_DIGEST, NULL, "compute and check the digest, write nothing"},
        {"threads", O_THREADS, "N", "threads (default 0: all cores)"},
        {"quiet", O_QUIET, NULL, "no progress line"},
        {0}};
    static const pm_cli_spec spec = {"porep parent-cache", "porep " PARENT_CACHE_USAGE,
                                     "Writes Filecoin's SDR parent cache and checks its digest against "
                                     "parent_cache.json.", opts};
    char *pos[1];
    int npos, rc = parse_opts(&o, &spec, argc, argv, pos, &npos, 0);
    if (rc >= 0) return rc;
    if (!o.out && !o.digest_only) return pm_cli_usage("porep parent-cache needs --out FILE|DIR or --digest-only");
    fil_graph_t g;
    const fil_registered_proof_t *rp;
    if ((rc = make_graph(&g, &o, &rp)) >= 0) return rc;
    char name[88], path[4096];
    fil_parent_cache_name(name, &g);
    FILE *f = NULL;
    pm_outfile of;
    pm_error err;
    if (o.out && !o.digest_only) {
        struct stat sb;
        if (!stat(o.out, &sb) && S_ISDIR(sb.st_mode)) snprintf(path, sizeof path, "%s/%s", o.out, name);
        else snprintf(path, sizeof path, "%s", o.out);
        if (pm_outfile_open(&of, path, &err)) return pm_cli_fail(&err);
        f = of.f;
    }
    double t0 = pm_now_s();
    time_t last = 0;
    uint8_t d[32];
    pm_status st = fil_parent_cache_generate(d, &g, f, f ? path : NULL, o.threads,
                                             o.quiet ? NULL : progress, &last, &err);
    if (f && st) pm_outfile_abort(&of);
    else if (f) st = pm_outfile_commit(&of, &err);
    if (st) return pm_cli_fail(&err);
    double t1 = pm_now_s();
    char hex[65];
    fil_hex(hex, d, 32);
    const char *want = fil_parent_cache_published_digest(name);
    printf("proof   %s\n", rp ? rp->name : "(custom porep_id)");
    printf("api     %s\n", fil_api_version_name(g.api_version));
    printf("nodes   %llu\n", (unsigned long long)g.nodes);
    printf("name    %s\n", name);
    if (f) printf("file    %s (%llu bytes)\n", path, (unsigned long long)(g.nodes * FIL_PARENT_CACHE_ROW_BYTES));
    printf("digest  %s\n", hex);
    printf("time    %.2f s\n", t1 - t0);
    if (!want) {
        printf("published: none for this name in parent_cache.json\n");
        return PM_EXIT_OK;
    }
    if (strcmp(want, hex)) {
        printf("published: %s MISMATCH\n", want);
        return PM_EXIT_INVALID;
    }
    printf("published: match (parent_cache.json)\n");
    return PM_EXIT_OK;
}

static int porep_parents(int argc, char **argv) {
    graph_opts_t o;
    static const pm_cli_opt opts[] = {OPT_GRAPH, {0}};
    static const pm_cli_spec spec = {"porep parents", "porep " PARENTS_USAGE,
                                     "Prints the 6 DRG and 8 expander parents of each NODE.", opts};
    char *pos[256];
    int npos, rc = parse_opts(&o, &spec, argc, argv, pos, &npos, 256);
    if (rc >= 0) return rc;
    if (!npos) return pm_cli_usage("porep parents needs at least one NODE");
    fil_graph_t g;
    const fil_registered_proof_t *rp;
    if ((rc = make_graph(&g, &o, &rp)) >= 0) return rc;
    for (int i = 0; i < npos; i++) {
        char *end;
        unsigned long long v = strtoull(pos[i], &end, 0);
        if (*end || v >= g.nodes) return pm_cli_usage("node '%s' is not in 0..%llu", pos[i],
                                                      (unsigned long long)g.nodes - 1);
        uint32_t p[14];
        fil_graph_drg_parents(p, &g, v);
        fil_graph_exp_parents(p + 6, &g, v);
        printf("%llu:", v);
        for (int k = 0; k < 14; k++) printf("%s %u", k == 6 ? " |" : "", p[k]);
        printf("\n");
    }
    return PM_EXIT_OK;
}

/* Check one file; returns 0 ok/unknown, 1 bad, 2 IO error. */
static int check_one(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uint8_t d[32];
    uint64_t bytes;
    pm_error err;
    if (fil_parent_cache_file_digest(d, &bytes, path, &err)) {
        pm_cli_fail(&err);
        return 2;
    }
    char hex[65];
    fil_hex(hex, d, 32);
    const char *want = fil_parent_cache_published_digest(base);
    if (!want || strncmp(base, "v28-sdr-parent-", 15)) {
        printf("UNKNOWN %s (no published digest for this name; digest %s)\n", path, hex);
        return 0;
    }
    if (strcmp(want, hex)) {
        printf("BAD %s (digest %s, published %s, %llu bytes)\n", path, hex, want, (unsigned long long)bytes);
        return 1;
    }
    printf("OK %s\n", path);
    return 0;
}

static int porep_check_parent_cache(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"porep check-parent-cache", "porep check-parent-cache FILE|DIR...",
                                     "Checks parent-cache files (v28-sdr-parent-*.cache, or every one in DIR) "
                                     "against\nparent_cache.json by name: exit 0 all match, 1 a digest differs.",
                                     opts};
    pm_cli_args a;
    int rc0 = pm_cli_args_plain(&a, &spec, argc, argv);
    if (rc0 >= 0) return rc0;
    if (a.ind >= argc) return pm_cli_spec_usage(&spec, "needs FILE or DIR arguments");
    int worst = 0, files = 0;
    for (int i = a.ind; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb)) {
            pm_error err;
            pm_error_set(&err, PM_ERR_IO, argv[i], PM_NO_OFFSET, "cannot stat: %m");
            pm_cli_fail(&err);
            worst = 2;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            int rc = check_one(argv[i]);
            files++;
            if (rc == 2 || (rc == 1 && worst == 0)) worst = rc;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            pm_error err;
            pm_error_set(&err, PM_ERR_IO, argv[i], PM_NO_OFFSET, "cannot open directory: %m");
            pm_cli_fail(&err);
            worst = 2;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t n = strlen(e->d_name);
            if (strncmp(e->d_name, "v28-sdr-parent-", 15) || n < 6 || strcmp(e->d_name + n - 6, ".cache")) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            int rc = check_one(path);
            files++;
            if (rc == 2 || (rc == 1 && worst == 0)) worst = rc;
        }
        closedir(dir);
    }
    if (!files && !worst) return pm_cli_usage("porep check-parent-cache: no cache file found");
    return worst == 2 ? PM_EXIT_USAGE : worst;
}

static int porep_info(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"porep info", "porep info",
                                     "Sector sizes, registered proofs, porep ids and parent-cache names.", opts};
    pm_cli_args a;
    int rc0 = pm_cli_args_plain(&a, &spec, argc, argv);
    if (rc0 >= 0) return rc0;
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "takes no arguments");
    size_t n;
    const fil_sector_info_t *s = fil_sector_infos(&n);
    printf("%-7s %11s %6s %5s %5s %5s %6s %6s %5s %-6s %5s %s\n", "size", "nodes", "layers", "parts",
           "minch", "ch/p", "NIpart", "NIminc", "NIc/p", "shape", "trees", "published");
    for (size_t i = 0; i < n; i++)
        printf("%-7s %11llu %6u %5u %5u %5u %6u %6u %5u %u-%u-%u  %5u %s\n", s[i].name,
               (unsigned long long)s[i].nodes, s[i].layers, s[i].partitions, s[i].min_challenges,
               s[i].challenges_per_partition, s[i].ni_partitions, s[i].ni_min_challenges,
               s[i].ni_challenges_per_partition, s[i].base_arity, s[i].sub_arity, s[i].top_arity,
               s[i].base_tree_count, s[i].published ? "yes" : "no");
    printf("\n%-3s %-46s %-7s %-18s %s\n", "id", "registered proof", "api", "porep_id (hex, 16 of 32 bytes)",
           "parent cache");
    for (unsigned id = 0; id < FIL_REGISTERED_PROOF_COUNT; id++) {
        const fil_registered_proof_t *p = fil_registered_proof(id);
        uint8_t pid[32];
        fil_porep_id(pid, id);
        char hex[65], name[88];
        fil_hex(hex, pid, 16);
        fil_graph_t g;
        if (fil_graph_init(&g, p->sector_size / 32, pid, p->api_version, NULL)) return PM_EXIT_USAGE;
        fil_parent_cache_name(name, &g);
        printf("%-3u %-46s %-7s %-32s %s\n", id, p->name, fil_api_version_name(p->api_version), hex, name);
    }
    return PM_EXIT_OK;
}

PM_POREP_SUBCOMMAND(info, "info", "", "sector sizes, registered proofs, porep ids, cache names", porep_info)
PM_POREP_SUBCOMMAND(check_parent_cache, "check-parent-cache", "FILE|DIR...",
                    "check parent-cache files against parent_cache.json by name", porep_check_parent_cache)
PM_POREP_SUBCOMMAND(parent_cache, "parent-cache", PARENT_CACHE_USAGE + 13,
                    "write Filecoin's SDR parent cache and check its digest", porep_parent_cache)
PM_POREP_SUBCOMMAND(parents, "parents", PARENTS_USAGE + 8,
                    "print the 6 DRG and 8 expander parents of nodes", porep_parents)
