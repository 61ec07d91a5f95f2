/*
 * cmd_plan.c — `proofmill plan`: will my card do? The device-memory plan (groth16/devplan.h) of a
 * kind's key on a card described by its memory, without the card and without the key's files:
 *
 *   proofmill plan --kind K [--sector-size S] [--params DIR | --key FILE] --device-memory 24G
 *                  [--devices N] [--workers-per-device W] [--sm-count N] [--host-memory 128G] [--json]
 *
 * The key's SHAPE comes from, in order: --key FILE (a .zkey's header; a .params header plus the
 * recorded circuit's .csr header beside it), --params DIR when the kind's files for the size are
 * there (the same headers: exact and fast), else the kind's own circuit code (pm_kind
 * shape_for_size: a PM_CS_STATS synthesis; ~45 s for a 32 GiB PoRep partition, with progress on a
 * terminal; nothing cached). The CARD: --device-memory bytes (K/M/G/T suffixes are powers of 1024:
 * 24G = 24 GiB, close enough to a vendor's "24 GB"), free but for a typical CUDA context (512 MiB),
 * --workers-per-device GPU workers (2: up to two witness slots), --sm-count multiprocessors (132, an
 * H100's: sizes the MSM's lanes). With --devices N every card plans alone (the engine gives each
 * its own plan at one tier) and the streamed bases are pinned once, in place, for all.
 *
 * Host memory (the arithmetic of prove.c's pm_prove_plan_bellperson_sizes_on, with the plan):
 * the key (every base set + the vk's IC, 96 B a G1 point, 192 B a G2 point; the recorded circuit as
 * held on the host: the .csr file's size or the recording's; the key view's density marks, and its
 * NTT domain where the plan runs H on the CPU; the streamed sets among its bases are page-locked in
 * place, not copied: shown, not added),
 * the witness staging slots of each card (32 B a wire per slot), at tiers >= 2 the pinned a, b, c pool
 * (devplan.h abc_per_card buffers per card), and per partition in flight (one per GPU worker: devices x
 * workers) its witness and public inputs and 1 MiB of rounding.
 *
 * Exit 0 with a plan (also when it does not fit --host-memory: said in words and in JSON); 2 with
 * the planner's refusal (it names the smallest card that would do) or a usage error.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "filecoin/sizes.h"
#include "groth16/devplan.h"
#include "groth16/key.h"
#include "util/settings.h"
#include "kinds/kind.h"
#include "kinds/shape.h"
#include "util/progress.h"

#define GIB ((uint64_t)1 << 30)
#define MIB ((uint64_t)1 << 20)
#define CONTEXT_BYTES (512 * MIB) /* a typical CUDA context, taken from every card */

/* What the command knows of the key. */
typedef struct {
    groth16_devplan_shape s;
    int have_facts;            /* f from the kind's circuit code */
    pm_cs_facts f;
    uint64_t rows;             /* circuit constraints + input rows; 0 unknown (a .params without .csr) */
    uint64_t circuit_host;     /* the recorded circuit on the host (bellperson) */
    uint64_t key_host_extra;   /* snarkjs: the decoded key beyond the bases (zkey_resident_bytes) */
    uint64_t params_bytes;     /* the parameter file's size (.params or .zkey) */
    uint64_t csr_bytes;        /* bellperson: the recorded circuit's .csr file (as saved, or its size) */
    char source[600];          /* where the shape came from, in words */
} key_shape;

/* "24G", "512M", "80GiB", "1T", "1073741824": bytes (suffix K, M, G, T = powers of 1024, "iB" or
 * "B" after it allowed). -1 on malformed text or overflow. */
static int parse_bytes(uint64_t *out, const char *v) {
    if (!v || *v < '0' || *v > '9') return -1;
    uint64_t n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (UINT64_MAX - 9) / 10) return -1;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    unsigned shift = 0;
    switch (*p) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    case 0: break;
    default: return -1;
    }
    if (shift) {
        p++;
        if (!strcmp(p, "iB") || !strcmp(p, "ib") || !strcmp(p, "B") || !strcmp(p, "b")) p += strlen(p);
    }
    if (*p) return -1;
    if (shift && n > (UINT64_MAX >> shift)) return -1;
    *out = n << shift;
    return 0;
}

static uint64_t file_size(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

static void shape_from_facts(key_shape *k) {
    k->rows = k->f.constraints + k->f.inputs;
    k->circuit_host = pm_circuit_recorded_bytes(k->f.constraints, k->f.nnz);
    pm_csr_header_t h = {.version = 2, .n_rows = (uint32_t)k->f.constraints, .n_cols = (uint32_t)(k->f.inputs + k->f.aux),
                         .n_inputs = (uint32_t)k->f.inputs, .n_coef_tab = (uint32_t)k->f.n_coef};
    memcpy(h.nnz, k->f.nnz, sizeof h.nnz);
    k->csr_bytes = pm_csr_file_bytes(&h);
}

/* the kind's own circuit code for the size */
static pm_status shape_by_circuit(key_shape *k, const pm_kind *kind, uint64_t size, pm_error *err) {
    pm_status st = kind->shape_for_size(&k->s, &k->f, size, err);
    if (st) return st;
    k->have_facts = 1;
    shape_from_facts(k);
    k->params_bytes = pm_shape_params_bytes(&k->s);
    return PM_OK;
}

/* a bellperson key file (and its .csr beside it when there; else the circuit's counts need size) */
static pm_status shape_by_params(key_shape *k, const pm_kind *kind, const char *path, uint64_t size, pm_error *err) {
    char csr[4200];
    if (pm_key_path_beside(csr, sizeof csr, path, ".csr")) csr[0] = 0;
    int have_csr = 0;
    pm_status st = pm_shape_of_params(&k->s, NULL, &have_csr, path, csr[0] ? csr : NULL, err);
    if (st) return st;
    k->params_bytes = file_size(path);
    if (have_csr) {
        pm_csr_header_t h;
        if ((st = pm_csr_read_header(&h, csr, err))) return st;
        k->rows = (uint64_t)h.n_rows + h.n_inputs;
        k->circuit_host = k->csr_bytes = file_size(csr);
        snprintf(k->source, sizeof k->source, "%.280s and %.280s (headers)", path, csr);
        return PM_OK;
    }
    if (!size || !kind->shape_for_size)
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                            "no recorded circuit (.csr) beside the key: give --sector-size to count the circuit");
    key_shape c;
    memset(&c, 0, sizeof c);
    if ((st = shape_by_circuit(&c, kind, size, err))) return st;
    if (c.s.n_vars != k->s.n_vars || c.s.n_public != k->s.n_public || c.s.log_domain != k->s.log_domain)
        return pm_error_set(err, PM_ERR_MISMATCH, path, PM_NO_OFFSET,
                            "the key (%llu wires, %llu public, domain 2^%u) is not the %s circuit of this sector size "
                            "(%llu wires, %llu public, domain 2^%u)",
                            (unsigned long long)k->s.n_vars, (unsigned long long)k->s.n_public, k->s.log_domain,
                            kind->name, (unsigned long long)c.s.n_vars, (unsigned long long)c.s.n_public,
                            c.s.log_domain);
    k->s.circuit_bytes = c.s.circuit_bytes;
    k->f = c.f;
    k->have_facts = 1;
    k->rows = c.rows;
    k->circuit_host = c.circuit_host;
    k->csr_bytes = c.csr_bytes;
    snprintf(k->source, sizeof k->source, "%.400s (header; no .csr beside it: the circuit counted by synthesis)", path);
    return PM_OK;
}

static pm_status shape_by_zkey(key_shape *k, const char *path, pm_error *err) {
    zkey_info_t z;
    pm_status st = pm_shape_of_zkey(&k->s, &z, path, err);
    if (st) return st;
    k->params_bytes = z.file_bytes;
    k->key_host_extra = zkey_resident_bytes(&z, ZKEY_SKIP_COEFS_LIST);
    snprintf(k->source, sizeof k->source, "%.500s (header)", path);
    return PM_OK;
}

/* Host bytes, itemised (file comment). */
typedef struct {
    uint64_t key, staging, pinned, pool, per_part, in_flight, total;
} host_bytes;

static void host_of(host_bytes *h, const key_shape *k, const groth16_devplan *p, unsigned devices, unsigned workers) {
    memset(h, 0, sizeof *h);
    const groth16_devplan_shape *s = &k->s;
    if (s->conv == GROTH16_BELLPERSON) {
        groth16_devplan_shape sh = *s;
        sh.circuit_host_bytes = k->circuit_host; /* the host line's circuit */
        groth16_devplan_host b;
        groth16_devplan_host_items(&b, p, &sh, devices, workers);
        h->key = b.key;
        h->staging = b.staging;
        h->pool = b.pool;
        h->per_part = b.per_part;
    } else {
        const uint64_t m = (uint64_t)1 << s->log_domain;
        h->key = k->key_host_extra + groth16_key_view_bytes(GROTH16_SNARKJS, s->n_vars, m);
        h->per_part = 2 * 32 * s->n_vars + 3 * 32 * m + MIB; /* witness + its plain copy, a | b | c */
    }
    h->pinned = p->host_pinned_bytes;
    h->in_flight = (uint64_t)devices * workers;
    /* the streamed sets are page-locked in place (start_gpu.c pin_take: cudaHostRegister of the key's
     * own arrays), so the pinned bytes are part of the key's, not a copy */
    h->total = h->key + h->staging + h->pool + h->in_flight * h->per_part;
}

static double gib(uint64_t b) { return (double)b / (double)GIB; }

static void print_shape(const key_shape *k, const pm_kind *kind, const char *size_name) {
    const groth16_devplan_shape *s = &k->s;
    const int bp = s->conv == GROTH16_BELLPERSON;
    printf("key       %s%s%s, from %s\n", kind->name, size_name ? " " : "", size_name ? size_name : "", k->source);
    if (k->have_facts)
        printf("  rows      %llu (%llu constraints + %llu input rows), domain 2^%u\n", (unsigned long long)k->rows,
               (unsigned long long)k->f.constraints, (unsigned long long)k->f.inputs, s->log_domain);
    else if (k->rows)
        printf("  rows      %llu (with the input rows), domain 2^%u\n", (unsigned long long)k->rows, s->log_domain);
    else
        printf("  domain    2^%u\n", s->log_domain);
    printf("  wires     %llu (%llu public inputs)\n", (unsigned long long)s->n_vars, (unsigned long long)s->n_public);
    printf("  points    A %llu, B1 %llu, %s %llu, H %llu, B2 %llu (G2)\n", (unsigned long long)s->n_base[GROTH16_BASE_A],
           (unsigned long long)s->n_base[GROTH16_BASE_B1], bp ? "L" : "C", (unsigned long long)s->n_base[GROTH16_BASE_C],
           (unsigned long long)s->n_base[GROTH16_BASE_H], (unsigned long long)s->n_b2);
    if (bp)
        printf("  circuit   %.2f GiB where a plan keeps it on the card, %.2f GiB on the host (recorded CSR matrices)\n",
               gib(s->circuit_bytes), gib(k->circuit_host));
    printf("  key file  %.2f GiB\n", gib(k->params_bytes));
}

static json_t *shape_json(const key_shape *k) {
    const groth16_devplan_shape *s = &k->s;
    json_t *o = json_pack("{s:s,s:I,s:I,s:i,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:s}", "convention",
                          s->conv == GROTH16_BELLPERSON ? "bellperson" : "snarkjs", "n_vars", (json_int_t)s->n_vars,
                          "n_public", (json_int_t)s->n_public, "log_domain", (int)s->log_domain, "points_a",
                          (json_int_t)s->n_base[GROTH16_BASE_A], "points_b1", (json_int_t)s->n_base[GROTH16_BASE_B1],
                          "points_c", (json_int_t)s->n_base[GROTH16_BASE_C], "points_h",
                          (json_int_t)s->n_base[GROTH16_BASE_H], "points_b2", (json_int_t)s->n_b2, "circuit_bytes",
                          (json_int_t)s->circuit_bytes, "params_bytes", (json_int_t)k->params_bytes, "source", k->source);
    if (k->rows) json_object_set_new(o, "rows", json_integer((json_int_t)k->rows));
    if (k->csr_bytes) json_object_set_new(o, "csr_bytes", json_integer((json_int_t)k->csr_bytes));
    if (k->have_facts) {
        json_object_set_new(o, "constraints", json_integer((json_int_t)k->f.constraints));
        json_object_set_new(o, "inputs", json_integer((json_int_t)k->f.inputs));
        json_object_set_new(o, "aux", json_integer((json_int_t)k->f.aux));
        json_object_set_new(o, "nnz", json_pack("[I,I,I]", (json_int_t)k->f.nnz[0], (json_int_t)k->f.nnz[1],
                                                (json_int_t)k->f.nnz[2]));
        json_object_set_new(o, "distinct_coefficients", json_integer((json_int_t)k->f.n_coef));
    }
    return o;
}

/* For each tier: the smallest card on which the shape plans at that tier or faster
 * (groth16_devplan_min_card: the whole card free), and the host bytes of the plan such a card gets
 * (host_of, devices cards). */
static json_t *min_cards_json(json_t **host_at, const key_shape *k, unsigned devices, unsigned workers) {
    const groth16_devplan_shape *s = &k->s;
    json_t *o = json_object();
    *host_at = json_object();
    for (unsigned t = 0; t < GROTH16_TIERS; t++) {
        if (s->conv == GROTH16_SNARKJS &&
            (t == GROTH16_TIER_HOST_CIRCUIT || t == GROTH16_TIER_ONE_SLOT || t == GROTH16_TIER_ONE_BUFFER))
            continue;
        char key[8];
        snprintf(key, sizeof key, "%u", t);
        const uint64_t mc = groth16_devplan_min_card(s, workers, t);
        json_object_set_new(o, key, json_integer((json_int_t)mc));
        groth16_devplan_card c = {.mem_total = mc, .workers = workers};
        groth16_devplan p;
        pm_error e;
        /* planned at tier t or slower: where two tiers share a minimum card (a small key's host H
         * and one buffer), the host bytes are tier t's (a host H adds the CPU NTT domain) */
        if (mc && !groth16_devplan_make(&p, s, &c, t, &e)) {
            host_bytes h;
            host_of(&h, k, &p, devices, workers);
            json_object_set_new(*host_at, key, json_integer((json_int_t)h.total));
        }
    }
    return o;
}

static int cmd_plan(int argc, char **argv) {
    enum { O_KIND = 256, O_SIZE, O_PARAMS, O_KEY, O_DEVMEM, O_DEVICES, O_WORKERS, O_SMS, O_HOST, O_JSON };
    static const pm_cli_opt opts[] = {
        {"kind", O_KIND, "K", "the proof kind (porep-c2, window-post, winning-post, snapdeals, snarkjs, or an alias such as porep)"},
        {"sector-size", O_SIZE, "S", "the sector size of a Filecoin kind (2KiB, 8MiB, 512MiB, 32GiB, 64GiB, ...)"},
        {"params", O_PARAMS, "DIR", "use the kind's parameter files for the size from DIR when they are there\n"
                                    "                           (.params and .csr headers: exact and fast)"},
        {"key", O_KEY, "FILE", "plan this key: a .params (its .csr beside it) or a snarkjs .zkey"},
        {"device-memory", O_DEVMEM, "BYTES", "the card's memory (required): 24G = 24 GiB (K/M/G/T: powers of 1024;\n"
                                             "                           a vendor's \"24 GB\" card is close enough)"},
        {"devices", O_DEVICES, "N", "cards of that size in the machine (1; each plans alone)"},
        {"workers-per-device", O_WORKERS, "W", "GPU workers per card (2: up to two witness slots on the card, as its tier allows)"},
        {"sm-count", O_SMS, "N", "the card's multiprocessors (132, an H100's; sizes the MSM's lanes)"},
        {"host-memory", O_HOST, "BYTES", "the machine's memory: say whether the host side fits"},
        {"json", O_JSON, NULL, "print JSON (for tools; scripts/requirements.sh reads it)"},
        {0}};
    static const pm_cli_spec spec = {
        "plan",
        "plan --kind K [--sector-size S] [--params DIR | --key FILE] --device-memory 24G [--devices N] "
        "[--workers-per-device W] [--sm-count N] [--host-memory 128G] [--json]",
        "Will my card do? The device-memory plan of the kind's key on such a card (tier, what stays on\n"
        "the card, what streams from pinned host memory, what the CPU computes), the device bytes at\n"
        "peak and the host memory it needs; a card too small is refused naming the smallest that would\n"
        "do (exit 2). The card is assumed free but for a CUDA context (512 MiB). Without files the\n"
        "key's shape comes from the kind's circuit (a 32 GiB PoRep partition is counted in ~45 s).\n"
        "docs/devices.md explains the tiers.",
        opts};
    const char *kind_name = NULL, *size_text = NULL, *params_dir = NULL, *key_path = NULL;
    uint64_t devmem = 0, host = 0, devices = 1, workers = 2, sms = 132;
    int json = 0, have_devmem = 0;
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        switch (o) {
        case PM_CLI_EXIT: return a.rc;
        case O_KIND: kind_name = a.arg; break;
        case O_SIZE: size_text = a.arg; break;
        case O_PARAMS: params_dir = a.arg; break;
        case O_KEY: key_path = a.arg; break;
        case O_DEVMEM:
            if (parse_bytes(&devmem, a.arg) || devmem == 0)
                return pm_cli_spec_usage(&spec, "--device-memory: '%s' is not a size (e.g. 24G, 80G, 16384M)", a.arg);
            have_devmem = 1;
            break;
        case O_HOST:
            if (parse_bytes(&host, a.arg) || host == 0)
                return pm_cli_spec_usage(&spec, "--host-memory: '%s' is not a size (e.g. 128G)", a.arg);
            break;
        case O_DEVICES:
            if (pm_cli_opt_u64(&devices, "--devices", a.arg, 1, GROTH16_MAX_DEVICES)) return PM_EXIT_USAGE;
            break;
        case O_WORKERS:
            if (pm_cli_opt_u64(&workers, "--workers-per-device", a.arg, 1, 64)) return PM_EXIT_USAGE;
            break;
        case O_SMS:
            if (pm_cli_opt_u64(&sms, "--sm-count", a.arg, 1, 4096)) return PM_EXIT_USAGE;
            break;
        case O_JSON: json = 1; break;
        default: return PM_EXIT_USAGE;
        }
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!kind_name) return pm_cli_spec_usage(&spec, "--kind is required");
    if (!have_devmem) return pm_cli_spec_usage(&spec, "--device-memory is required");
    if (params_dir && key_path) return pm_cli_spec_usage(&spec, "--params and --key exclude each other");
    const pm_kind *kind = pm_kind_find(kind_name);
    if (!kind) {
        char names[512];
        return pm_cli_spec_usage(&spec, "no kind '%s' (kinds: %s)", kind_name, pm_kind_names(names, sizeof names));
    }
    pm_error err;
    pm_error_clear(&err);
    uint64_t size = 0;
    const char *size_name = NULL;
    if (size_text) {
        if (!kind->shape_for_size && !kind->key_for_size)
            return pm_cli_spec_usage(&spec, "--sector-size: %s keys have no size (give --key)", kind->name);
        if (fil_sector_size_parse(&size, size_text, &err)) return pm_cli_spec_usage(&spec, "--sector-size: %s", err.msg);
        const fil_sector_info_t *si = fil_sector_info(size);
        size_name = si ? si->name : size_text;
    }
    if (!key_path && !size) {
        if (!kind->shape_for_size) return pm_cli_spec_usage(&spec, "a %s key is given with --key FILE", kind->name);
        return pm_cli_spec_usage(&spec, "--sector-size is required without --key");
    }

    key_shape k;
    memset(&k, 0, sizeof k);
    pm_status st = PM_OK;
    char path[4200];
    int have_files = 0;
    if (!key_path && params_dir) {
        if (!kind->key_for_size)
            return pm_cli_spec_usage(&spec, "--params: %s keys are not in a parameter directory", kind->name);
        if ((st = kind->key_for_size(path, sizeof path, params_dir, size, &err))) return pm_cli_fail(&err);
        have_files = file_size(path) > 0;
    }
    if (!key_path && !have_files && !kind->shape_for_size)
        return pm_cli_spec_usage(&spec, "%s: no key for this size here, and its shape has no other source", kind->name);
    /* a synthesis may run for most of a minute (a .zkey's header never does) */
    const int progress = kind->conv == GROTH16_BELLPERSON && pm_progress_start("plan");
    if (key_path && kind->conv == GROTH16_SNARKJS) {
        st = shape_by_zkey(&k, key_path, &err);
    } else if (key_path || have_files) {
        st = shape_by_params(&k, kind, key_path ? key_path : path, size, &err);
    } else {
        st = shape_by_circuit(&k, kind, size, &err);
        snprintf(k.source, sizeof k.source, "its circuit (counted by synthesis%s)",
                 params_dir ? "; no parameter files for this size in --params" : "");
    }
    if (progress) pm_progress_stop();
    if (st) return pm_cli_fail(&err);

    groth16_devplan_card card;
    memset(&card, 0, sizeof card);
    card.mem_total = devmem;
    card.mem_free = devmem > CONTEXT_BYTES ? devmem - CONTEXT_BYTES : 0;
    card.sm_count = (unsigned)sms;
    card.workers = (unsigned)workers;
    card.one_room = !pm_setting_bool("gpu.two_lanes");
    card.abc_buffers = (unsigned)pm_setting_u64("gpu.abc_buffers");
    card.devices = (unsigned)devices;
    card.host_budget = host; /* --host-memory: one witness slot when two would not fit (devplan.h) */
    snprintf(card.name, sizeof card.name, "a %.1f GiB card", gib(devmem));
    groth16_devplan p;
    if (card.mem_free == 0) return pm_cli_spec_usage(&spec, "--device-memory: a card needs more than 512 MiB");
    k.s.circuit_host_bytes = k.circuit_host; /* the host line's circuit, for the host-budget decision */
    st = groth16_devplan_make(&p, &k.s, &card, 0, &err);
    host_bytes h;
    if (!st) host_of(&h, &k, &p, (unsigned)devices, (unsigned)workers);
    const int host_fits = !st && host ? h.total <= host : -1;

    if (json) {
        json_t *host_at, *mins = min_cards_json(&host_at, &k, (unsigned)devices, (unsigned)workers);
        json_t *o = json_pack("{s:s,s:o,s:{s:I,s:I,s:i,s:i,s:i},s:o}", "kind", kind->name, "shape", shape_json(&k), "card",
                              "memory", (json_int_t)devmem, "free", (json_int_t)card.mem_free, "devices", (int)devices,
                              "workers", (int)workers, "sm_count", (int)sms, "min_card", mins);
        json_object_set_new(o, "host_bytes_at_min_card", host_at);
        if (size) json_object_set_new(o, "sector_size", json_integer((json_int_t)size));
        if (st) {
            json_object_set_new(o, "fits", json_false());
            json_object_set_new(o, "refusal", json_string(err.msg));
        } else {
            char text[4096];
            json_object_set_new(o, "fits", json_true());
            json_object_set_new(
                o, "plan",
                json_pack("{s:i,s:s,s:I,s:I,s:I,s:I,s:I,s:i,s:I,s:I,s:I,s:i,s:b,s:b,s:b,s:s}", "tier", (int)p.tier, "tier_name",
                          groth16_devplan_tier_name(p.tier), "peak_bytes", (json_int_t)p.peak_bytes, "usable_bytes",
                          (json_int_t)p.usable, "fixed_bytes", (json_int_t)p.fixed_bytes, "bases_bytes",
                          (json_int_t)p.bases_bytes, "msm_bytes", (json_int_t)p.msm_bytes, "msm_rooms", (int)p.msm_rooms, "host_pinned_bytes",
                          (json_int_t)p.host_pinned_bytes, "host_abc_bytes", (json_int_t)p.host_abc_bytes, "stream_g1",
                          (json_int_t)p.stream_g1, "witness_slots", (int)p.witness_slots, "circuit_on_device",
                          p.circuit == GROTH16_ON_DEVICE, "h_on_device", p.h == GROTH16_ON_DEVICE,
                          "one_slot_for_host", p.one_slot_for_host, "text",
                          groth16_devplan_format(text, sizeof text, &p, &k.s)));
            json_object_set_new(o, "host",
                                json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "key_bytes", (json_int_t)h.key, "staging_bytes",
                                          (json_int_t)h.staging, "pinned_bytes", (json_int_t)h.pinned,
                                          "abc_pool_bytes", (json_int_t)h.pool,
                                          "per_partition_bytes", (json_int_t)h.per_part, "partitions_in_flight",
                                          (json_int_t)h.in_flight, "total_bytes", (json_int_t)h.total));
            if (host) {
                json_object_set_new(o, "host_memory", json_integer((json_int_t)host));
                json_object_set_new(o, "host_fits", json_boolean(host_fits));
            }
        }
        char *txt = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(o);
        if (!txt) {
            pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
            return pm_cli_fail(&err);
        }
        printf("%s\n", txt);
        free(txt);
        fflush(stdout);
        return st ? pm_cli_fail(&err) : PM_EXIT_OK;
    }

    print_shape(&k, kind, size_name);
    printf("card      %.1f GiB (%.1f GiB free: a CUDA context's 512 MiB taken), %llu SMs, %llu GPU worker%s\n",
           gib(devmem), gib(card.mem_free), (unsigned long long)sms, (unsigned long long)workers, workers == 1 ? "" : "s");
    if (devices > 1)
        printf("          x %llu cards: each card plans alone (the same plan on every card below)\n",
               (unsigned long long)devices);
    if (st) {
        fflush(stdout);
        return pm_cli_fail(&err);
    }
    char text[4096];
    printf("plan      %s", groth16_devplan_format(text, sizeof text, &p, &k.s));
    printf("tier      %u (%s)\n", p.tier, groth16_devplan_tier_name(p.tier));
    printf("device    %.2f GiB at peak of %.2f GiB usable (%.1f GiB kept in reserve)\n", gib(p.peak_bytes), gib(p.usable),
           gib(GROTH16_DEVPLAN_RESERVE));
    printf("host      %.2f GiB: key %.2f GiB (bases%s; %.2f GiB of its bases pinned in place%s), witness staging "
           "%.2f GiB,\n",
           gib(h.total), gib(h.key), k.s.conv == GROTH16_BELLPERSON ? " + recorded circuit" : "", gib(h.pinned),
           devices > 1 && h.pinned ? ", one copy for every card" : "", gib(h.staging));
    if (h.pool)
        printf("          the pinned a, b, c pool %.2f GiB (%u buffer%s),\n", gib(h.pool), p.abc_per_card * (unsigned)devices,
               p.abc_per_card * devices == 1 ? "" : "s");
    printf("          %llu partition%s in flight (one per GPU worker) x %.2f GiB\n", (unsigned long long)h.in_flight,
           h.in_flight == 1 ? "" : "s", gib(h.per_part));
    if (host)
        printf("          %s --host-memory %.1f GiB\n", host_fits ? "fits" : "does NOT fit", gib(host));
    return PM_EXIT_OK;
}

PM_CLI_COMMAND(plan,
               "plan --kind K [--sector-size S] [--params DIR | --key FILE] --device-memory 24G [--devices N] "
               "[--workers-per-device W] [--sm-count N] [--host-memory 128G] [--json]",
               "will my card do? the device-memory plan of a kind's key on a card of that size", cmd_plan)
