/*
 * grpc_server.h — the gRPC server of cuzk.v1.ProvingEngine (the service Curio's lib/cuzk/client.go
 * calls; interface file src/daemon/grpc/proto/cuzk/v1/proving.proto, copied from Curio) behind a
 * plain C edge. The C++ side (grpc_server.cc: Debian's gRPC C++ 1.51 + protobuf 3.21, code generated
 * from the .proto at build time) only translates messages: every decision is made by the C
 * operations table below (grpc_glue.c implements it over the engine).
 *
 * Shapes: strings are NUL-terminated UTF-8 (protobuf `string`), byte fields are pointer + length
 * and borrowed for the call. Status codes are gRPC's canonical codes (grpc/doc/statuscodes.md:
 * the numeric values of grpc::StatusCode). An operation returns PM_GRPC_OK and fills its answer,
 * or another code and a message in *st (sent as the call's status and details; the answer is
 * then not sent).
 *
 * Transport: plaintext on loopback or a unix socket; TLS, with client certificates required and
 * verified against a CA (mutual TLS), wherever else (pm_grpc_server_opts). Bodies: the receive limit
 * and a memory quota bound what gRPC buffers; a reserve hook bounds what the handlers hold.
 *
 * Threads: gRPC's synchronous server runs each call on a thread of its pool (at most max_threads;
 * beyond, calls get RESOURCE_EXHAUSTED from gRPC itself); operations are called concurrently.
 * AwaitProof and Prove wait in slices of at most 200 ms (ops->await with a bounded timeout), so a
 * client that goes away (deadline, cancel) or a server shutdown ends the wait promptly.
 */
#ifndef PROOFMILL_DAEMON_GRPC_SERVER_H
#define PROOFMILL_DAEMON_GRPC_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gRPC canonical status codes (values of grpc::StatusCode). */
typedef enum {
    PM_GRPC_OK = 0,
    PM_GRPC_CANCELLED = 1,
    PM_GRPC_UNKNOWN = 2,
    PM_GRPC_INVALID_ARGUMENT = 3,
    PM_GRPC_DEADLINE_EXCEEDED = 4,
    PM_GRPC_NOT_FOUND = 5,
    PM_GRPC_ALREADY_EXISTS = 6,
    PM_GRPC_RESOURCE_EXHAUSTED = 8,
    PM_GRPC_FAILED_PRECONDITION = 9,
    PM_GRPC_UNIMPLEMENTED = 12,
    PM_GRPC_INTERNAL = 13,
    PM_GRPC_UNAVAILABLE = 14
} pm_grpc_code;

typedef struct {
    pm_grpc_code code;
    char message[1200];
} pm_grpc_status;

/* SubmitProofRequest, every field (what each means for a job: grpc_glue.h). Enum fields keep their
 * wire value (proto3 enums are open); bytes are borrowed for the call. */
typedef struct {
    const char *request_id;
    int proof_kind;          /* cuzk.v1.ProofKind */
    uint64_t sector_size;
    uint64_t registered_proof;
    int priority;            /* cuzk.v1.Priority */
    const uint8_t *vanilla_proof;
    size_t vanilla_proof_len;
    const uint8_t *const *vanilla_proofs; /* repeated bytes: n_vanilla_proofs pointers and lengths */
    const size_t *vanilla_proofs_len;
    size_t n_vanilla_proofs;
    uint64_t sector_number, miner_id;
    uint32_t partition_index;
    const uint8_t *randomness, *comm_r_old, *comm_r_new, *comm_d_new;
    size_t randomness_len, comm_r_old_len, comm_r_new_len, comm_d_new_len;
} pm_grpc_submit_req;

typedef struct {
    char job_id[48];
    uint32_t queue_position;
    char assigned_gpu[128];
} pm_grpc_submit_resp;

/* AwaitProofResponse.Status */
enum { PM_GRPC_AWAIT_UNKNOWN = 0, PM_GRPC_AWAIT_COMPLETED = 1, PM_GRPC_AWAIT_FAILED = 2,
       PM_GRPC_AWAIT_CANCELLED = 3, PM_GRPC_AWAIT_TIMEOUT = 4 };

typedef struct {
    char job_id[48];
    int status;          /* PM_GRPC_AWAIT_* */
    uint8_t *proof;      /* COMPLETED: malloc'd proof_len bytes (free with free()); else NULL */
    size_t proof_len;
    char error_message[1200];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} pm_grpc_await_resp;

typedef struct {
    uint32_t ordinal;
    char name[256];
    uint64_t vram_total_bytes, vram_free_bytes;
    char current_job_id[48];     /* "" when idle */
    char current_proof_kind[32];
} pm_grpc_gpu;

/* One key of the SRS cache: cuzk's SRSStatus (circuit_id .. ref_count) and what proofmill's own
 * ProofmillStatus.GetKeys adds (proofmill/v1/status.proto KeyStatus: kind .. plan). */
typedef struct {
    char circuit_id[512];
    int tier; /* SRSStatus.Tier: 0 HOT, 1 WARM, 2 COLD */
    uint64_t size_bytes;
    uint32_t ref_count;
    char kind[32];
    char state[12];                   /* "reserved", "loading", "ready" */
    char activity[40];                /* "" idle (engine.h pm_key_info.activity) */
    uint64_t activity_done, activity_total;
    int activity_device;              /* -1: none */
    char activity_text[96];           /* pm_key_activity_format */
    int plan_tier;                    /* -1: no plan (engine.h pm_key_plan_info) */
    char plan_tier_name[24];
    char plan_streamed[48];
    unsigned plan_devices;
    uint64_t plan_device_bytes, plan_host_pinned_bytes;
    char plan[160];                   /* pm_key_plan_format */
} pm_grpc_srs;

typedef struct {
    char proof_kind[32];
    uint32_t pending, in_progress;
} pm_grpc_queue;

/* GetStatusResponse; the arrays are malloc'd by ops->status and freed by the server with free(). */
typedef struct {
    pm_grpc_gpu *gpus;
    size_t n_gpus;
    pm_grpc_srs *srs;
    size_t n_srs;
    pm_grpc_queue *queues;
    size_t n_queues;
    uint64_t total_completed, total_failed, uptime_s, pinned_bytes, pinned_limit_bytes;
} pm_grpc_status_resp;

typedef struct {
    void *self;
    /* SubmitProof (and the first half of Prove). */
    pm_grpc_code (*submit)(void *self, const pm_grpc_submit_req *req, pm_grpc_submit_resp *resp, pm_grpc_status *st);
    /* Wait up to timeout_ms (0..200: the server slices longer waits) for job_id to end; resp->status
     * is TIMEOUT while it has not. Errors: NOT_FOUND (unknown/expired id), UNAVAILABLE (shutting down). */
    pm_grpc_code (*await)(void *self, const char *job_id, int64_t timeout_ms, pm_grpc_await_resp *resp,
                          pm_grpc_status *st);
    pm_grpc_code (*cancel)(void *self, const char *job_id, int *was_running, pm_grpc_status *st);
    pm_grpc_code (*status)(void *self, pm_grpc_status_resp *resp, pm_grpc_status *st);
    /* Prometheus text, malloc'd (the server frees it); NULL on OOM. */
    char *(*metrics)(void *self);
    pm_grpc_code (*preload)(void *self, const char *circuit_id, int *already_loaded, uint64_t *load_ms,
                            pm_grpc_status *st);
    pm_grpc_code (*evict)(void *self, const char *circuit_id, int *was_loaded, uint64_t *freed_bytes,
                          pm_grpc_status *st);
} pm_grpc_ops;

typedef struct pm_grpc_server pm_grpc_server;

/* How the server listens and what it lets in (pm_grpc_server_start). Strings are borrowed for the
 * call ("" or NULL = unset). */
typedef struct {
    const char *addr;           /* "host:port" (port 0 = a free one) or "unix:///path" */
    uint64_t max_message_bytes; /* largest message sent, and received unless max_receive_bytes */
    uint64_t max_receive_bytes; /* largest message received (0: max_message_bytes); gRPC itself
                                   answers RESOURCE_EXHAUSTED beyond, before any handler */
    uint64_t max_input_bytes;   /* largest vanilla proof (each of SubmitProofRequest.vanilla_proof /
                                   vanilla_proofs), checked before ops->submit (0: none):
                                   INVALID_ARGUMENT, nothing spooled */
    unsigned max_threads;
    uint64_t memory_quota_bytes; /* gRPC's own buffers (grpc::ResourceQuota::Resize; 0: unbounded):
                                    under pressure gRPC shrinks its reads and cancels calls whose
                                    messages do not fit (RESOURCE_EXHAUSTED) */
    /* TLS (PEM files): tls_cert + tls_key serve TLS; tls_client_ca besides requires every client
     * to present a certificate signed by one of its CAs (mutual TLS:
     * GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY). All unset: plaintext. */
    const char *tls_cert, *tls_key, *tls_client_ca;
    /* A TCP address other than loopback (127.0.0.0/8, ::1, localhost) without mutual TLS is
     * refused unless this is set (the API has no other authentication). */
    int allow_insecure_remote;
    /* The request body's bytes (the received message's size) reserved from the daemon's memory
     * budget while a SubmitProof/Prove call checks and spools it, released when the call's submit
     * returns; NULL: none. reserve returns PM_GRPC_OK, or another code (RESOURCE_EXHAUSTED) with
     * st filled, which is the call's answer. */
    pm_grpc_code (*reserve)(void *arg, uint64_t bytes, pm_grpc_status *st);
    void (*release)(void *arg, uint64_t bytes);
    void *reserve_arg;
} pm_grpc_server_opts;

/* Start serving as o says, plaintext on loopback or a unix socket (as cuzk), or TLS. *port = the
 * bound TCP port (0 for a unix socket). ops (and ops->self) must outlive the server. Errors:
 * PM_ERR_IO (cannot bind, the message naming the address; a TLS file unreadable, naming it),
 * PM_ERR_ARG (bad limits; tls_cert without tls_key or the reverse; tls_client_ca without them; a
 * non-loopback address without mutual TLS and without allow_insecure_remote), PM_ERR_NOMEM. */
pm_status pm_grpc_server_start(pm_grpc_server **out, const pm_grpc_server_opts *o, const pm_grpc_ops *ops,
                               unsigned *port, pm_error *err);
/* Stop accepting calls, give calls in flight up to grace_ms to return (waits end within one slice
 * once ops->await reports UNAVAILABLE), cancel the rest, free. NULL is a no-op. */
void pm_grpc_server_stop(pm_grpc_server *s, unsigned grace_ms);

#ifdef __cplusplus
}
#endif
#endif
