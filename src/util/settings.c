/*
 * settings.c — the table of settings and the one read of the process environment (settings.h).
 *
 * Storage: each row has a slot holding its current value as text and as a number, both published
 * with atomic stores, so a reader on another thread sees the old or the new value, never half of
 * one. A value's text is allocated once and kept (linked from `g_texts`) for the life of the
 * process: a pointer handed out by pm_setting_str never dangles. Sets take a mutex.
 */
#include "util/settings.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/verify.h"

extern char **environ;

#define E1(a) {a, NULL, NULL}
#define E2(a, b) {a, b, NULL}
#define U64MAX UINT64_MAX
#define DEBUG_KNOB "Tests/benchmarks only: "

/* The table. Keep rows of one section together (dumps group by section). */
static const pm_setting_def table[] = {
    /* device memory and the GPU start phase (read by groth16/start_gpu.c) */
    {"gpu.memory", E2("PROOFMILL_GPU_MEMORY", "PROOFMILL_GPU_BUDGET"), PM_SETTING_SIZE, "0", 0, U64MAX, NULL,
     "Device memory a key may use per card (bytes, K/M/G suffixes): its device-memory plan (groth16/devplan.h, "
     "`proofmill plan`) streams the bases that do not fit from pinned host memory, then moves the SpMV and the "
     "NTTs to the CPU; a card too small for every plan is refused, naming the smallest that would do. 0: the "
     "card's free memory."},
    {"gpu.chunk_points", E1("PROOFMILL_GPU_CHUNK_POINTS"), PM_SETTING_UINT, "0", 0, U64MAX, NULL,
     DEBUG_KNOB "stream every base set in chunks of this many points. 0: resident bases, or chunks sized "
     "from gpu.memory."},
    {"gpu.min_tier", E1("PROOFMILL_GPU_MIN_TIER"), PM_SETTING_UINT, "0", 0, 5, NULL,
     DEBUG_KNOB "plan every key at this device-memory tier or a slower one (groth16/devplan.h: 0 resident, "
     "1 streamed bases, 2 host circuit, 3 one witness slot, 4 one NTT buffer, 5 host H). 0: the fastest that fits."},
    {"gpu.verbose", E1("PROOFMILL_GPU_VERBOSE"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     "Print the device-memory decisions of each key (resident or streamed, chunk sizes) and each "
     "partition's start-phase times (stage, eval, H, every MSM; a `start ops` line), each MSM's device phases "
     "(a `gpu msm` line: chunks, window, scalars, sort, accumulation, reduction) and each device allocation of "
     "1 MiB or more (a `gpu alloc` line: size, bytes in use after it) on stderr."},
    {"gpu.sync", E1("PROOFMILL_GPU_SYNC"), PM_SETTING_STR, "auto", 0, 0, "auto|spin|yield|blocking",
     "How a thread waiting for its card waits (CUDA's device schedule flags, set on every device when the process "
     "first looks for devices): auto (CUDA's choice: spin while there are fewer CUDA contexts than cores), spin, "
     "yield (spin, yielding the core), blocking (sleep until the card signals: a waiting thread takes no core from "
     "synthesis and wakes at the interrupt). A streamed MSM waits tens of times per chunk."},
    /* GPU kernel variants (src/gpu): benchmark switches, defaults measured in docs/perf/gpu.md */
    {"gpu.msm_window", E1("PROOFMILL_GPU_MSM_WINDOW"), PM_SETTING_UINT, "0", 0, 22, NULL,
     DEBUG_KNOB "force the MSM window to this many bits (1..22). 0: the cost model's choice."},
    {"gpu.msm_inv", E1("PROOFMILL_GPU_MSM_INV"), PM_SETTING_UINT, "1", 0, 1, NULL,
     DEBUG_KNOB "the affine rounds' inversion: 1 Bernstein-Yang divsteps (default: 0.95x of Fermat's time at G1 2^27 "
     "uniform on an H100), 0 Fermat (a^(p-2)); the same result (docs/perf/gpu.md \"Round 7\")."},
    {"gpu.msm_tail_bounds", E1("PROOFMILL_GPU_MSM_TAIL_BOUNDS"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "a window group whose items are too few for the affine rounds (witness-like chunks, the ones bucket) "
     "runs the XYZZ tail with levels and buffers from host-side bounds and reads nothing back (1, default); 0 reads "
     "each level's task count, a wait for the card per level (msm_core.cuh msm_tail_bounded)."},
    {"gpu.msm_lanes", E1("PROOFMILL_GPU_MSM_LANES"), PM_SETTING_UINT, "0", 0, U64MAX, NULL,
     DEBUG_KNOB "force the number of copy lanes of a streamed MSM. 0: sized from the chunk."},
    {"gpu.msm_acc", E1("PROOFMILL_GPU_MSM_ACC"), PM_SETTING_UINT, "2", 0, 2, NULL,
     DEBUG_KNOB "bucket accumulation of the MSM: 2 the two-round form (f_round2), 0 or 1 the plain one."},
    {"gpu.msm_prefetch", E1("PROOFMILL_GPU_MSM_PREFETCH"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "prefetch the next point in the MSM's accumulation loop."},
    {"gpu.msm_xinline", E1("PROOFMILL_GPU_MSM_XINLINE"), PM_SETTING_UINT, "2", 0, 2, NULL,
     DEBUG_KNOB "XYZZ additions of the MSM tail and reduction: 1 inlined, 0 called, 2 inlined for G1 and called "
     "for G2."},
    {"gpu.msm_tail", E1("PROOFMILL_GPU_MSM_TAIL"), PM_SETTING_UINT, "0", 0, U64MAX, NULL,
     DEBUG_KNOB "MSM tail size override (msm_core.cuh). 0: built-in."},
    {"gpu.msm_kmin", E1("PROOFMILL_GPU_MSM_KMIN"), PM_SETTING_UINT, "0", 0, 1024, NULL,
     DEBUG_KNOB "MSM minimum bucket batch override (msm_core.cuh). 0: built-in (32 with the divstep inversion, 128 "
     "with Fermat's)."},
    {"gpu.msm_parts", E1("PROOFMILL_GPU_MSM_PARTS"), PM_SETTING_UINT, "0", 0, U64MAX, NULL,
     DEBUG_KNOB "split large MSMs in this many parts (2..16; 1: never). 0: 2 parts from 2^26 points."},
    {"gpu.msm_keep_buckets", E1("PROOFMILL_GPU_MSM_KEEP_BUCKETS"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "a chunked MSM (streamed bases, or resident ones in chunks) keeps its buckets across its chunks and "
     "reduces every window once (msm_core.cuh msm_persist_begin); false: each chunk's windows reduced on their own "
     "(the form before 2026-12-06)."},
    {"gpu.msm_count_window", E1("PROOFMILL_GPU_MSM_COUNT_WINDOW"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "a chunked MSM whose scalars are on the device counts each chunk's scalars other than 0 and 1 first and "
     "keeps its buckets at the window those counts make cheapest (gpu_sizes.h gpu_sizes_count_window): witness-like "
     "sets get a narrow window and one window group per chunk. false: the window of the chunk size, right for uniform "
     "scalars (the form before 2026-12-07)."},
    {"gpu.msm_skip_zero", E1("PROOFMILL_GPU_MSM_SKIP_ZERO"), PM_SETTING_UINT, "0", 0, 2, NULL,
     DEBUG_KNOB "an MSM over streamed bases with its scalars on the device sends only the points whose scalars are not 0 "
     "(msm_stream.cuh): 1 when a count of them finds at most a quarter non-zero (the device reads those points at "
     "about a third of the bulk copy's rate: docs/perf/devplan.md), 2 always, 0 never (every point crosses the "
     "bus, no count)."},
    {"gpu.msm_times", E1("PROOFMILL_GPU_MSM_TIMES"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "time each MSM's device phases (scalars, sort, accumulation, reduction: gpu.h gpu_msm_timing_t) "
     "without gpu.verbose's lines. Reading the times waits for each window group's kernels, so they are off "
     "unless asked for (gpu.verbose turns them on)."},
    {"gpu.two_lanes", E1("PROOFMILL_GPU_TWO_LANES"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "true: where a plan streams base sets and two MSM rooms of half the size fit (devplan.h msm_rooms), a "
     "partition's witness MSMs (A, B1, C/L, B2: bus-bound when streamed) run in one room beside its H phase and H MSM "
     "(compute-bound) in the other (groth16_start_finish). Off by default until measured on a card "
     "(docs/perf/devplan.md, ninth session); false: one room, one MSM at a time."},
    {"gpu.abc_pinned", E1("PROOFMILL_GPU_ABC_PINNED"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "the a, b, c pool of a plan with the SpMV on the CPU (tiers 2-5; start.h groth16_abc_pool) is pinned "
     "memory, uploaded at the bus's pinned rate; false: the same pool in malloc'd memory, uploaded through the "
     "staging pair (~13 GB/s on the H100 host: the form before 2026-12-06, for the comparison)."},
    {"gpu.abc_buffers", E1("PROOFMILL_GPU_ABC_BUFFERS"), PM_SETTING_UINT, "0", 0, 16, NULL,
     DEBUG_KNOB "buffers per card of the pinned a, b, c pool (tiers 2-5; devplan.h abc_per_card). A buffer is held "
     "from a partition's CPU eval to the end of its H phase; 0: one per card (a card runs one H phase at a time). "
     "2 with 2 GPU workers is the pool of before 2026-12-07, for the comparison."},
    {"gpu.h_overlap", E1("PROOFMILL_GPU_H_OVERLAP"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "where the CPU's SpMV made a, b, c in the pinned pool (tiers 2-3: the recorded circuit off the card), "
     "the bellperson H queues their three uploads on a copy stream of their own and starts A's transforms while b "
     "and c are on the bus (gpu.h gpu_bellperson_h_upload); false: the three copies land before the first "
     "transform (the form before 2026-12-07, for the comparison)."},
    {"gpu.h_c_product", E1("PROOFMILL_GPU_H_C_PRODUCT"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "with gpu.h_overlap, c is not uploaded but formed on the card as a o b (the CPU eval has checked "
     "every row, so C.w = A.w o B.w on every row and zero past them): 4 GiB less over the bus per 32 GiB "
     "partition. Off until measured on a card (docs/perf/devplan.md, sixteenth session)."},
    {"gpu.h_preload", E1("PROOFMILL_GPU_H_PRELOAD"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "with gpu.h_overlap (tiers 2-3), the partition waiting for the card sends its a and b from the "
     "pinned pool into the NTT domain's two idle buffers while the partition on the card runs its H MSM, so its "
     "own H starts with them on the card: 8.6 GB less on the bus inside the kernel region per 32 GiB partition, "
     "no device memory added (groth16/devplan.h groth16_preload_gate, gpu.h gpu_bellperson_h_preload). Not with "
     "gpu.prefetch (the same buffers). Off until measured on a card (docs/perf/devplan.md, seventeenth "
     "session)."},
    {"gpu.h_swap", E1("PROOFMILL_GPU_H_SWAP"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "the one-buffer H of tier 4 (16 GB cards at 32 GiB) sends each of its two downloads (A^, D) beside "
     "the upload that follows it (b, c), piece by piece on two streams, where a, b, c are in the pinned pool: the "
     "link's two directions at once (gpu.h gpu_bellperson_h_one); false: each download, then the upload. "
     "Measured on an H100 capped to 16 GB: h 0.82 -> 0.68 s per 32 GiB partition, 34.2 -> 32.8 s/proof "
     "(docs/perf/devplan.md, seventeenth session)."},
    {"gpu.prefetch", E1("PROOFMILL_GPU_PREFETCH"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "where a plan streams base sets and runs H on the card through the NTT domain's three buffers "
     "(tiers 1-3, one MSM room), a bellperson partition runs its witness MSMs before its eval and H, and while "
     "its H MSM computes, the two domain buffers H no longer needs are filled with the first points of "
     "streamed witness sets (B2, B1, A, L, in that order), which the next partition's witness MSMs read without "
     "the bus (groth16/start_gpu.c). Off by default: measured slower on an H100 at 24 and 48 GB "
     "(docs/perf/devplan.md, thirteenth session); false: the order and the transfers of before."},
    {"gpu.ntt_tile", E1("PROOFMILL_GPU_NTT_TILE"), PM_SETTING_UINT, "0", 0, 11, NULL,
     DEBUG_KNOB "NTT tile bits, 9..11. 0: built-in."},
    {"gpu.ntt_lr", E1("PROOFMILL_GPU_NTT_LR"), PM_SETTING_UINT, "0", 0, 3, NULL,
     DEBUG_KNOB "largest NTT radix log, 2 or 3. 0: built-in."},
    {"gpu.ntt_minb", E1("PROOFMILL_GPU_NTT_MINB"), PM_SETTING_UINT, "0", 0, 16, NULL,
     DEBUG_KNOB "NTT minimum blocks per SM of the full passes (3 or 4 select a kernel). 0: 4 with gpu.ntt_lr 2, "
     "else 1."},
    {"gpu.ntt_split", E1("PROOFMILL_GPU_NTT_SPLIT"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "NTT pass sizes for the fewest rounds (network_plan round_split)."},
    {"gpu.ntt_twshare", E1("PROOFMILL_GPU_NTT_TWSHARE"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "radix-4 NTT passes load a round's shared twiddle once."},
    {"gpu.ntt_fourstep", E1("PROOFMILL_GPU_NTT_FOURSTEP"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "NTT passes after the first in four-step form."},
    {"gpu.r1cs_rp64", E1("PROOFMILL_GPU_R1CS_RP64"), PM_SETTING_BOOL, "false", 0, 1, NULL,
     DEBUG_KNOB "keep 64-bit row pointers of the recorded circuit on the card."},
    /* the engine's threads (engine/engine_stage.c) */
    {"synthesis.nice", E1("PROOFMILL_SYNTHESIS_NICE"), PM_SETTING_UINT, "0", 0, 19, NULL,
     "Nice value the engine's synthesis and finalize threads add to their own at start (Linux: per thread; their "
     "OpenMP teams inherit it). The threads that drive the GPU keep theirs, so when synthesis fills every core "
     "they still wake at once to launch the next kernel or copy. 0: every thread at the process's priority."},
    /* CPU field kernels (src/field) */
    {"field.backend", E1("PROOFMILL_FIELD_BACKEND"), PM_SETTING_STR, "auto", 0, 0, "auto|adx|portable",
     "Field arithmetic kernels: auto (BMI2+ADX when the CPU has them) or portable (portable C); read at the "
     "first field operation."},
    {"field.fr_bfly_backend", E1("PROOFMILL_FR_BFLY_BACKEND"), PM_SETTING_STR, "auto", 0, 0,
     "auto|ifma|adx|portable|model",
     "Fr butterfly rows of the NTT: auto (IFMA when the CPU has it; portable when field.backend is), adx, "
     "portable, model (tests: the IFMA kernel's C model)."},
    {"field.fr_bfly_step2", E1("PROOFMILL_FR_BFLY_STEP2"), PM_SETTING_BOOL, "true", 0, 1, NULL,
     DEBUG_KNOB "IFMA butterfly rows two vector steps at a time (false: one)."},
    /* the terminal's progress line (util/progress.c) */
    {"progress.mode", E1("PROOFMILL_PROGRESS"), PM_SETTING_STR, "auto", 0, 0, "auto|1|0",
     "Progress line of long commands on stderr: auto (when stderr is a terminal), 1 (always), 0 (never)."},
    {"progress.interval_ms", E1("PROOFMILL_PROGRESS_MS"), PM_SETTING_UINT, "1000", 0, 86400000, NULL,
     "Milliseconds between progress lines (0 reads as 1)."},
    /* clients of a daemon (cli/cmd_bench.c) */
    {"client.token_file", E1("PROOFMILL_TOKEN_FILE"), PM_SETTING_STR, "", 0, 0, NULL,
     "API token file a client of the HTTP daemon sends. Empty: the default state directory's http.token."},
    /* Filecoin */
    {"filecoin.params_dir", E1("FIL_PROOFS_PARAMETER_CACHE"), PM_SETTING_STR, "", 0, 0, NULL,
     "Filecoin parameter directory of commands that name none (as Filecoin's tools). Empty: "
     "/var/tmp/filecoin-proof-parameters."},
    {"filecoin.data_dir", E1("PROOFMILL_FILECOIN_DATA"), PM_SETTING_STR, "", 0, 0, NULL,
     "Filecoin's published data that `proofmill selfcheck` checks against (seal regression records, "
     "parameters.json, a calibnet WindowPoSt). Empty: share/proofmill/filecoin beside the installed binary."},
};
#define N_SETTINGS (sizeof table / sizeof table[0])

typedef struct text_node {
    struct text_node *next;
    char s[];
} text_node;

typedef struct {
    _Atomic(const char *) text;
    _Atomic uint64_t num;
} slot_t;

static slot_t g_slots[N_SETTINGS];
static text_node *g_texts;          /* every value text ever made (kept: readers may hold them) */
static char **g_env;                /* the snapshot: "NAME=value" copies, NULL-terminated */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* ---- parsers ---- */

int pm_settings_parse_u64(uint64_t *out, const char *v, int size_suffix) {
    while (isspace((unsigned char)*v)) v++;
    if (!isdigit((unsigned char)*v)) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno) return -1;
    uint64_t mul = 1;
    if (size_suffix && *end && !isspace((unsigned char)*end)) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mul = 1ull << 10; break;
        case 'M': mul = 1ull << 20; break;
        case 'G': mul = 1ull << 30; break;
        case 'T': mul = 1ull << 40; break;
        default: return -1;
        }
        end++;
        if (toupper((unsigned char)*end) == 'I') end++;
        if (toupper((unsigned char)*end) == 'B') end++;
    }
    while (isspace((unsigned char)*end)) end++;
    if (*end) return -1;
    if (mul > 1 && x > UINT64_MAX / mul) return -1;
    *out = x * mul;
    return 0;
}

int pm_settings_parse_bool(int *out, const char *v) {
    static const char *t[] = {"true", "yes", "on", "1"}, *f[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(v, t[i])) return *out = 1, 0;
        if (!strcasecmp(v, f[i])) return *out = 0, 0;
    }
    return -1;
}

void pm_settings_size_text(uint64_t x, char *out, size_t n) {
    static const char suf[] = "KMGT";
    int u = -1;
    while (u < 3 && x && x % 1024 == 0) x /= 1024, u++;
    if (u < 0) snprintf(out, n, "%" PRIu64, x);
    else snprintf(out, n, "%" PRIu64 "%c", x, suf[u]);
}

static int one_of(const char *choices, const char *v) {
    size_t n = strlen(v);
    for (const char *p = choices; *p;) {
        size_t l = strcspn(p, "|");
        if (l == n && !strncmp(p, v, n)) return 1;
        p += l + (p[l] == '|');
    }
    return 0;
}

/* Parse v for row d: 0 with *num and the canonical text in text[n], or -1 with why filled. */
static int parse_value(const pm_setting_def *d, const char *v, uint64_t *num, char *text, size_t n, char *why,
                       size_t nwhy) {
    int b;
    switch (d->type) {
    case PM_SETTING_STR:
        if (d->choices && !one_of(d->choices, v))
            return snprintf(why, nwhy, "'%.200s' is not one of %s", v, d->choices), -1;
        if (strlen(v) >= n) return snprintf(why, nwhy, "a value longer than %zu bytes", n - 1), -1;
        *num = 0;
        snprintf(text, n, "%s", v);
        return 0;
    case PM_SETTING_UINT:
    case PM_SETTING_SIZE:
        if (pm_settings_parse_u64(num, v, d->type == PM_SETTING_SIZE) != 0)
            return snprintf(why, nwhy, "'%.200s' is not %s", v,
                            d->type == PM_SETTING_SIZE ? "a size (a number with an optional K, M, G or T suffix)"
                                                       : "a number"),
                   -1;
        if (*num < d->min || *num > d->max)
            return snprintf(why, nwhy, "%" PRIu64 " is outside [%" PRIu64 ", %" PRIu64 "]", *num, d->min, d->max),
                   -1;
        if (d->type == PM_SETTING_SIZE) pm_settings_size_text(*num, text, n);
        else snprintf(text, n, "%" PRIu64, *num);
        return 0;
    case PM_SETTING_BOOL:
        if (pm_settings_parse_bool(&b, v) != 0)
            return snprintf(why, nwhy, "'%.200s' is not a boolean (true/false, yes/no, on/off, 1/0)", v), -1;
        *num = (uint64_t)b;
        snprintf(text, n, "%s", b ? "true" : "false");
        return 0;
    }
    return snprintf(why, nwhy, "bad type"), -1;
}

#define VALUE_MAX 1100

/* Publish a parsed value in slot i; called with g_mu held (or from the once-init). */
static void publish(size_t i, uint64_t num, const char *text) {
    size_t l = strlen(text);
    text_node *t = malloc(sizeof *t + l + 1);
    const char *s = table[i].def; /* out of memory: the default's text; num stays what it was */
    if (t) {
        memcpy(t->s, text, l + 1);
        t->next = g_texts;
        g_texts = t;
        s = t->s;
        atomic_store(&g_slots[i].num, num);
    }
    atomic_store(&g_slots[i].text, s);
}

/* ---- the environment snapshot: the only read of the process environment in src/ ---- */

static void env_free(void) {
    if (!g_env) return;
    for (char **e = g_env; *e; e++) free(*e);
    free(g_env);
    g_env = NULL;
}

static void env_take(const char *const *envp) {
    env_free();
    if (!envp) envp = (const char *const *)environ;
    size_t n = 0;
    while (envp && envp[n]) n++;
    g_env = calloc(n + 1, sizeof *g_env);
    if (!g_env) return;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((g_env[k] = strdup(envp[i]))) k++;
    g_env[k] = NULL;
}

static const char *env_lookup(const char *var) {
    if (!g_env) return NULL;
    size_t n = strlen(var);
    for (char **e = g_env; *e; e++)
        if (!strncmp(*e, var, n) && (*e)[n] == '=') return *e + n + 1;
    return NULL;
}

/* Every row from its default, then its environment variable; a bad variable is reported once. */
static void apply_defaults_and_env(void) {
    char text[VALUE_MAX], why[300];
    for (size_t i = 0; i < N_SETTINGS; i++) {
        const pm_setting_def *d = &table[i];
        uint64_t num = 0;
        int ok = parse_value(d, d->def, &num, text, sizeof text, why, sizeof why) == 0;
        PM_VERIFY_CHECK(ok); /* every default is a valid value of its row */
        if (ok) publish(i, num, text);
        for (int k = 0; k < 3 && d->env[k]; k++) {
            const char *v = env_lookup(d->env[k]);
            if (!v || !v[0]) continue;
            if (parse_value(d, v, &num, text, sizeof text, why, sizeof why) == 0) publish(i, num, text);
            else
                fprintf(stderr, "proofmill: environment %s: %s; %s keeps its default %s\n", d->env[k], why, d->name,
                        d->def[0] ? d->def : "\"\"");
            break;
        }
    }
}

static void init_once(void) {
#ifdef PM_VERIFY
    /* the table's own invariants: dotted unique names, bounds in order, a doc on every row */
    for (size_t i = 0; i < N_SETTINGS; i++) {
        PM_VERIFY_CHECK(strchr(table[i].name, '.') != NULL);
        PM_VERIFY_CHECK(table[i].min <= table[i].max);
        PM_VERIFY_CHECK(table[i].doc && table[i].doc[0]);
        PM_VERIFY_CHECK(table[i].type == PM_SETTING_STR || table[i].choices == NULL);
        for (size_t j = 0; j < i; j++) PM_VERIFY_CHECK(strcmp(table[i].name, table[j].name) != 0);
    }
#endif
    env_take(NULL);
    apply_defaults_and_env();
}

static void ensure(void) { pthread_once(&g_once, init_once); }

static long find(const char *name) {
    if (!name) return -1;
    for (size_t i = 0; i < N_SETTINGS; i++)
        if (!strcmp(table[i].name, name)) return (long)i;
    return -1;
}

/* ---- the API ---- */

const char *pm_setting_str(const char *name) {
    ensure();
    long i = find(name);
    PM_VERIFY_CHECK(i >= 0);
    return i < 0 ? NULL : atomic_load(&g_slots[i].text);
}

uint64_t pm_setting_u64(const char *name) {
    ensure();
    long i = find(name);
    PM_VERIFY_CHECK(i >= 0 && table[i].type != PM_SETTING_STR);
    return i < 0 || table[i].type == PM_SETTING_STR ? 0 : atomic_load(&g_slots[i].num);
}

int pm_setting_bool(const char *name) {
    ensure();
    long i = find(name);
    PM_VERIFY_CHECK(i >= 0 && table[i].type == PM_SETTING_BOOL);
    return i < 0 || table[i].type != PM_SETTING_BOOL ? 0 : atomic_load(&g_slots[i].num) != 0;
}

static pm_status check_or_set(const char *name, const char *value, int set, pm_error *err) {
    ensure();
    long i = find(name);
    if (i < 0) return pm_error_set(err, PM_ERR_ARG, "settings", PM_NO_OFFSET, "unknown setting '%s'", name ? name : "");
    char text[VALUE_MAX], why[300];
    uint64_t num;
    if (!value || parse_value(&table[i], value, &num, text, sizeof text, why, sizeof why) != 0)
        return pm_error_set(err, PM_ERR_FORMAT, "settings", PM_NO_OFFSET, "%s: %s", name,
                            value ? why : "no value");
    if (set) {
        pthread_mutex_lock(&g_mu);
        publish((size_t)i, num, text);
        pthread_mutex_unlock(&g_mu);
    }
    return PM_OK;
}

pm_status pm_setting_set(const char *name, const char *value, pm_error *err) {
    return check_or_set(name, value, 1, err);
}

pm_status pm_setting_check(const char *name, const char *value, pm_error *err) {
    return check_or_set(name, value, 0, err);
}

const char *pm_settings_env(const char *var) {
    ensure();
    return var ? env_lookup(var) : NULL;
}

void pm_settings_env_reset(const char *const *envp) {
    ensure();
    pthread_mutex_lock(&g_mu);
    env_take(envp);
    apply_defaults_and_env();
    pthread_mutex_unlock(&g_mu);
}

size_t pm_settings_count(void) { return N_SETTINGS; }

const pm_setting_def *pm_settings_def(size_t i) {
    PM_VERIFY_CHECK(i < N_SETTINGS);
    return i < N_SETTINGS ? &table[i] : NULL;
}

const char *pm_settings_value(size_t i) {
    ensure();
    PM_VERIFY_CHECK(i < N_SETTINGS);
    return i < N_SETTINGS ? atomic_load(&g_slots[i].text) : NULL;
}

const pm_setting_def *pm_settings_find(const char *name) {
    long i = find(name);
    return i < 0 ? NULL : &table[i];
}
