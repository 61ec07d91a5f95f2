/*
 * devplan.h — THE place where device memory is decided: one plan per proving key and card, saying
 * what stays on the card, what streams to it from host memory pinned once, and what the CPU
 * computes instead. Host code only (no GPU needed): `proofmill plan` plans cards it cannot see, the
 * engine's admission and status read the same plan, and the GPU operations table (start_gpu.c)
 * only carries it out.
 *
 * What a Groth16 start phase keeps on a card (bytes at the 32 GiB PoRep partition in brackets):
 *   bases      the four G1 base sets A, B1, C/L, H (96 B a point) and the G2 B query (192 B) [~47 GB]
 *   circuit    bellperson: the recorded circuit's CSR matrices for the SpMV a, b, c = A·w, B·w, C·w [~8 GB]
 *   witness    bellperson: 1 or 2 witness slots (n_vars Fr each; two let one GPU worker stage while
 *              another computes) [4.2 GB each]
 *   domain     the NTT domain: n/2 twiddles, power tables and three work buffers of n Fr [~15 GB]
 *   index      bellperson: the A and B density index lists (u32 a point)
 *   MSM        one MSM's scratch at a time (the device's workers take turns in the kernel region),
 *              plus two chunk buffers when its bases stream [~21 GB for a 2^27 MSM in one piece];
 *              where a base set streams, two rooms of half the size when they fit: the witness
 *              MSMs (bus-bound) beside the H MSM (compute-bound) of the same partition
 * Tiers, fastest first; a plan takes the first one whose fixed part leaves room for the MSMs:
 *   0 resident        everything on the card
 *   1 streamed bases  circuit, witness and domain on the card; base sets resident while they fit,
 *                     the witness-like ones first (A, B1, C/L, B2: their MSMs are short, a stream of
 *                     their points would cost more than their arithmetic), H last (uniform scalars:
 *                     its MSM hides its stream); the others stream from pinned host memory in chunks,
 *                     double-buffered on their own stream, overlapped with the previous chunk's MSM
 *   2 host circuit    as 1, the circuit off the card: the CPU SpMV (the synthesis pool) makes a, b, c,
 *                     uploaded into the domain's buffers
 *   3 one slot        as 2 with one witness slot
 *   4 one NTT buffer  bellperson: as 3 with one domain buffer instead of three (H on the GPU through
 *                     it: a, b, c in turn, the coset products staged through host memory and a chunk
 *                     buffer, gpu_bellperson_h_one); snarkjs keys skip it (their H needs three)
 *   5 host H          as 3, the NTTs and the H polynomial on the CPU as well; the card runs the MSMs
 * A card below tier 5's needs is refused, naming the smallest card that would do.
 * MSMs over resident bases run in chunks when one piece's scratch does not fit (the result is the
 * sum of the chunks' MSMs: the same point). Every size comes from gpu/gpu_sizes.h, the formulas the
 * kernels allocate with.
 */
#ifndef PROOFMILL_GROTH16_DEVPLAN_H
#define PROOFMILL_GROTH16_DEVPLAN_H
#include <stddef.h>
#include <stdint.h>
#include "groth16/key.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* What the planner needs to know of a key: counts only (no file is read). */
typedef struct {
    groth16_convention conv;
    uint64_t n_vars, n_public;
    unsigned log_domain;
    uint64_t n_base[GROTH16_N_BASES]; /* points of A, B1, C/L, H */
    uint64_t n_b2;                    /* points of the G2 B query */
    uint64_t circuit_bytes;           /* bellperson: the recorded circuit on the device (gpu_r1cs); 0 snarkjs */
    uint64_t circuit_host_bytes;      /* bellperson: its host bytes (the .csr's, or the recording's estimate);
                                         0 = circuit_bytes (groth16_devplan_host_bytes only) */
} groth16_devplan_shape;

/* A card as the planner sees it. */
typedef struct {
    uint64_t mem_total; /* bytes of device memory */
    uint64_t mem_free;  /* bytes free now (after other processes and other keys); 0 = mem_total */
    uint64_t cap;       /* gpu.memory: bytes this key may use at most; 0 = no cap */
    unsigned sm_count;  /* multiprocessors (sizes the MSM's lanes); 0 = 132 */
    unsigned workers;   /* GPU workers sharing the card (witness slots: 2 from 2 workers); 0 = 1 */
    unsigned min_tier;  /* plan at this tier or slower (the gpu.min_tier setting: tests of every tier) */
    /* The host side, when known (the engine's memory.budget, `plan --host-memory`): a bellperson plan
     * whose second witness slot's pinned staging would push one proof's host bytes
     * (groth16_devplan_host_bytes with `devices` cards and `workers` partitions in flight on each)
     * past host_budget keeps one slot: the engine would admit fewer partitions instead, and the CPU
     * side would no longer overlap the card (measured: 32 GiB PoRep at a 32 GB cap, 100 GiB host,
     * docs/perf/devplan.md). 0 = unknown: two slots from two workers. */
    uint64_t host_budget;
    unsigned devices;   /* cards of the machine sharing host_budget; 0 = 1 */
    int one_room;       /* 1: never two MSM rooms (the gpu.two_lanes setting off: one lane per partition) */
    unsigned abc_buffers; /* a, b, c pool buffers per card at tiers 2-5 (the gpu.abc_buffers setting); 0 = 1 */
    char name[64];      /* for messages ("NVIDIA H100 80GB HBM3", "a 24 GiB card") */
} groth16_devplan_card;

/* Operations a plan moves to the CPU (groth16_exec.cpu_ops, start.h). */
#define GROTH16_CPU_EVAL 1u /* a, b, c on the CPU (bellperson SpMV): in the engine's synthesis pool */
#define GROTH16_CPU_H 2u    /* the H polynomial (NTTs) on the CPU */

typedef enum { GROTH16_ON_DEVICE = 0, GROTH16_STREAMED = 1, GROTH16_ON_HOST = 2 } groth16_place;

enum {
    GROTH16_TIER_RESIDENT = 0,
    GROTH16_TIER_STREAMED = 1,
    GROTH16_TIER_HOST_CIRCUIT = 2,
    GROTH16_TIER_ONE_SLOT = 3,
    GROTH16_TIER_ONE_BUFFER = 4,
    GROTH16_TIER_HOST_H = 5,
    GROTH16_TIERS = 6
};

/* Bytes left for the CUDA context's growth, other small keys (a WinningPoSt key beside a PoRep one:
 * its bases and scratch are ~1 GB) and allocator fragmentation: reserved on every card, an eighth
 * of what the card offers when that is less (small caps in tests). */
#define GROTH16_DEVPLAN_RESERVE ((uint64_t)1536 << 20)
/* The reserve on a card offering `offered` bytes (free memory or the cap, whichever is less). */
static inline uint64_t groth16_devplan_reserve(uint64_t offered) {
    return offered / 8 < GROTH16_DEVPLAN_RESERVE ? offered / 8 : GROTH16_DEVPLAN_RESERVE;
}

typedef struct {
    unsigned tier;                          /* GROTH16_TIER_* */
    int bellperson;                         /* the key's convention is GROTH16_BELLPERSON */
    groth16_place base[GROTH16_N_BASES];    /* ON_DEVICE or STREAMED */
    groth16_place b2;
    groth16_place circuit;                  /* bellperson: ON_DEVICE (GPU SpMV) or ON_HOST (CPU SpMV) */
    groth16_place h;                        /* ON_DEVICE (GPU NTTs) or ON_HOST (CPU NTTs) */
    unsigned h_buffers;                     /* domain work buffers on the card: 3, 1 (tier 4) or 0 (host H) */
    uint64_t h_chunk_points;                /* tier 4: points of the chunk buffer the coset products pass through */
    unsigned witness_slots;                 /* bellperson device witness slots (0 snarkjs) */
    uint64_t usable;        /* bytes the plan may use: min(cap, free) - groth16_devplan_reserve(that) */
    uint64_t fixed_bytes;   /* circuit + witness slots + domain + index lists on the card */
    uint64_t bases_bytes;   /* resident base sets on the card */
    uint64_t msm_bytes;     /* what one MSM may use (scratch, + chunk buffers when streamed) */
    uint64_t chunk_g1;      /* points per chunk of a G1 MSM over resident bases (0: one piece) */
    uint64_t chunk_g2;      /* the same for G2 */
    uint64_t stream_g1;     /* points per chunk of a G1 MSM over streamed bases (0: none stream) */
    uint64_t stream_g2;
    int keep_scratch;       /* 1: each base set's MSM keeps its scratch between proofs (all fit) */
    unsigned msm_rooms;     /* 1, or 2 where a base set streams and two rooms of half the room keep
                               chunks of >= 2^21 points: the witness MSMs (A, B1, C/L, B2: lane W)
                               run in one room beside the H phase and the H MSM (lane H) in the other
                               (groth16_start_finish); msm_bytes counts both */
    uint64_t peak_bytes;    /* fixed + bases + MSM: <= usable */
    uint64_t host_pinned_bytes; /* streamed base sets pinned in host memory (once per key, all cards) */
    uint64_t host_abc_bytes;    /* per partition in flight: a, b, c made on the host (tiers 2-5) */
    unsigned host_abc_buffers;  /* the key's pinned a, b, c pool (start.h groth16_abc_pool): devices x
                                   abc_per_card buffers, 0 at tiers 0-1 */
    unsigned abc_per_card;      /* pool buffers per card: card.abc_buffers, else 1 (tiers 2-4), or one per GPU
                                   worker with H on the CPU (tier 5); 1 with one_slot_for_host. A buffer is held
                                   from a partition's CPU eval to the end of its H phase, and the H phases of a
                                   card run one at a time, so one buffer keeps a card fed while the rest of its
                                   kernel region (the MSMs) outlasts one CPU SpMV (docs/perf/devplan.md, twelfth
                                   session). At tier 5 the H MSM reads h out of the buffer: held to its end */
    int one_slot_for_host;      /* 1: one witness slot because two would not fit the card's host_budget */
} groth16_devplan;

/* The shape of a loaded key view (circuit_bytes: the caller's gpu_r1cs_device_bytes, 0 snarkjs). */
void groth16_devplan_shape_of_key(groth16_devplan_shape *s, const groth16_key *k, uint64_t circuit_bytes);

/* The plan for key shape s on card c, at tier min_tier or slower (0: the fastest that fits; the
 * engine passes a key's tier so that every card of a machine runs the same operations on the CPU).
 * Errors: PM_ERR_NOMEM when even tier 5 does not fit, with a message naming the card, the bytes it
 * offers, what the smallest plan needs and the smallest card that would do (whole GiB); PM_ERR_ARG
 * for an empty shape. */
pm_status groth16_devplan_make(groth16_devplan *p, const groth16_devplan_shape *s, const groth16_devplan_card *c,
                               unsigned min_tier, pm_error *err);

/* The smallest card memory (bytes, a whole GiB) on which shape s gets a plan at tier <= max_tier with
 * `workers` workers and no other use of the card. */
uint64_t groth16_devplan_min_card(const groth16_devplan_shape *s, unsigned workers, unsigned max_tier);

/* The tier's name ("resident", "streamed bases", "host circuit", "one witness slot", "one NTT buffer",
 * "host H"). */
const char *groth16_devplan_tier_name(unsigned tier);

/* The name of base set `set` (a groth16_base, or GROTH16_N_BASES for B2) in plan p's convention: "A",
 * "B1", "L" (bellperson: the private wires' set) or "C" (snarkjs), "H", "B2"; "?" past B2. The names
 * every line about a set uses (the plan, gpu.verbose, the engine's status). */
const char *groth16_devplan_set_name(const groth16_devplan *p, unsigned set);

/* The plan in words, one line per part (for logs, /v1/status, `proofmill plan`); returns out. */
char *groth16_devplan_format(char *out, size_t cap, const groth16_devplan *p, const groth16_devplan_shape *s);

/* The streamed witness sets whose first points the CUDA table copies into the NTT domain's buffers 1
 * and 2 while the H MSM computes (start_gpu.c, setting gpu.prefetch): for a bellperson key whose plan
 * runs H on the card through the domain's three buffers (tiers 1-3) with one MSM room, at most two
 * sets, taken in the order B2, B1, A, L among those streamed (H never: its MSM is the one running), each
 * for min(its bytes, one buffer = 2^log_domain x 32 bytes). set[i]: a groth16_base, or GROTH16_N_BASES
 * for B2 (G2); bytes[i] what is prefetched. Returns the count, 0 when the plan has none (resident
 * witness sets, tier 4 or 5, two rooms, snarkjs keys). */
unsigned groth16_devplan_prefetch(const groth16_devplan *p, const groth16_devplan_shape *s, int set[2], uint64_t bytes[2]);

/* Operations that run on the CPU under plan p (bits for groth16_exec.cpu_ops, start.h): the SpMV of
 * a bellperson key without its circuit on the card, H at tier 5. (A snarkjs key's a, b come from
 * its zkey section 4 on the CPU whatever the plan: no bit.) */
unsigned groth16_devplan_cpu_ops(const groth16_devplan *p);

/* Host bytes per partition in flight that the plan adds (a, b, c made on the host): 0 at tiers 0-1. */
uint64_t groth16_devplan_host_part_bytes(const groth16_devplan *p);

/* Host bytes of one bellperson proof under plan p with `devices` cards and `workers` partitions in
 * flight on each (the engine's pipeline): the key (its bases, the recorded circuit, the key view),
 * the pinned witness staging (witness_slots per card, 32 bytes a wire), the a, b, c pool at tiers 2-5
 * (p->abc_per_card buffers per card of host_abc_bytes each) and per partition its witness, its public
 * inputs and 1 MiB. The same sum as `proofmill plan`'s host line and prove.c's admission sizes, from
 * the shape alone. 0 for a snarkjs shape. */
uint64_t groth16_devplan_host_bytes(const groth16_devplan *p, const groth16_devplan_shape *s, unsigned devices,
                                    unsigned workers);

/* The same host bytes, itemised (bytes each): the key (its bases, the recorded circuit:
 * s->circuit_host_bytes, else s->circuit_bytes; the key view, less the CPU NTT domain when H is on
 * the card), the pinned witness staging, the a, b, c pool, one partition's bytes and the partitions in
 * flight (devices x workers); total = key + staging + pool + in_flight x per_part, which is what
 * groth16_devplan_host_bytes returns. All zero for a snarkjs shape. */
typedef struct {
    uint64_t key, staging, pool, per_part, in_flight, total;
} groth16_devplan_host;
void groth16_devplan_host_items(groth16_devplan_host *h, const groth16_devplan *p, const groth16_devplan_shape *s,
                                unsigned devices, unsigned workers);

/* ---- one pinned host copy for every card ----
 * A key's streamed base sets are page-locked once, whatever the number of cards and workers that
 * stream them: a table of host ranges with reference counts. The GPU table (start_gpu.c) passes the
 * driver's calls; tests pass doubles. */
typedef struct {
    int (*pin)(void *ctx, const void *p, size_t bytes);   /* 0 ok; non-zero: refused (stays pageable) */
    void (*unpin)(void *ctx, const void *p, size_t bytes);
    void *ctx;
} groth16_pin_ops;
typedef struct {
    const void *p;
    size_t bytes;
    uint64_t *ledger; /* the key's groth16_ledger.host_pinned, or NULL */
    unsigned refs;
    int pinned;
} groth16_pin_ent;
#define GROTH16_PIN_SLOTS 64
typedef struct {
    groth16_pin_ent e[GROTH16_PIN_SLOTS];
} groth16_pin_table;
/* One more user of [p, p + bytes) (a device copy that streams it): pinned by the first (ops->pin;
 * *ledger += bytes when it succeeds), counted by the others. Returns 1 when the range is pinned, 0
 * when the driver refused (copies from it run pageable: slower, the same result) or the table is
 * full. Not thread-safe: the caller holds its lock. */
int groth16_pin_take(groth16_pin_table *t, const groth16_pin_ops *ops, const void *p, size_t bytes, uint64_t *ledger);
/* One user fewer; the last one unpins (ops->unpin; *ledger -= bytes). Unknown p: no-op. */
void groth16_pin_drop(groth16_pin_table *t, const groth16_pin_ops *ops, const void *p);
/* Users of p (0: not in the table). */
unsigned groth16_pin_refs(const groth16_pin_table *t, const void *p);

/* ---- the next partition's a and b sent under the H MSM (setting gpu.h_preload) ----
 * At tiers 2-3 the CPU eval leaves each partition's a, b, c in the pinned pool, and the H phase
 * uploads them inside the kernel region (8.6 GB of a and b at 2^27, on the bus the witness MSMs
 * stream their bases over). While the partition on the card runs its H MSM (~1.3 s at 2^27, the bus
 * ~75 % idle), the domain's two buffers that do not hold H's coefficients are idle. The gate lets the
 * partitions waiting for the card (the other GPU workers of the device, after their stage) send
 * their a and b into them then, so that their H finds them there: they queue in the order they
 * offer, and the head's copies are queued ("issued") while the domain is open, one preload at a
 * time. The domain is open from an H MSM's start until an operation writes it (a zeroed gate is open:
 * nothing has used the domain). Every such operation claims the domain first: it closes the gate,
 * takes its own issued preload (the head leaves the queue), or else drops the head's copies
 * (ops->drop waits for them; the head keeps its place and is issued again at the next opening) and
 * leaves the queue where it stood in it (its H uploads as before). The CUDA table (start_gpu.c)
 * passes gpu_bellperson_h_preload and gpu_ntt_domain_preload_drop; tests pass doubles. Not
 * thread-safe: the caller holds its lock. */
typedef struct {
    int (*issue)(void *ctx, uint64_t token, const void *a, const void *b); /* 0: queued; else refused */
    void (*drop)(void *ctx, uint64_t token); /* the issued copies landed and forgotten */
    void *ctx;
} groth16_preload_ops;
#define GROTH16_PRELOAD_QUEUE 8
typedef struct {
    struct {
        uint64_t token;     /* the partition's (not 0) */
        const void *a, *b;  /* its host a and b */
    } q[GROTH16_PRELOAD_QUEUE];
    unsigned n;             /* partitions queued; q[0] is the head */
    int issued;             /* the head's copies are queued */
    int closed;             /* a partition writes the domain: from its claim until an H MSM begins */
} groth16_preload_gate;
/* Partition `token` (not 0, not queued already) offers its host a and b. Returns 1 when it is queued
 * (and issued at once where it is the head, the gate is open and ops->issue takes it), 0 when the
 * queue is full (or token 0, a or b NULL, token queued already). A refused issue takes the head
 * out of the queue (its H uploads as before) and tries the next. */
int groth16_preload_offer(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token, const void *a,
                          const void *b);
/* An H MSM has begun: the gate opens and the head, when not issued yet, is issued. */
void groth16_preload_open(groth16_preload_gate *g, const groth16_preload_ops *ops);
/* Before partition `token`'s operation (0: an operation of no partition) writes the domain: the
 * gate closes. Returns `token` when that partition is the head and issued (the caller's H reads the
 * preload and uses it up; the head leaves the queue), else 0: the head's issued copies are dropped
 * (ops->drop) and the caller leaves the queue if it was in it. */
uint64_t groth16_preload_claim(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token);
/* Partition `token` gives back its table state before its H took a preload (freed, or its witness
 * released): it leaves the queue, its issued copies dropped; the next head is issued where the gate
 * is open. Not queued: nothing. */
void groth16_preload_release(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token);

#ifdef __cplusplus
}
#endif
#endif
