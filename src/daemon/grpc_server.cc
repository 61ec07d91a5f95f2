// grpc_server.cc — cuzk.v1.ProvingEngine (and proofmill.v1.ProofmillStatus, proofmill's additions
// beside Curio's interface) on gRPC's synchronous C++ server (grpc_server.h). This
// file only moves fields between the generated protobuf classes and the C structs of
// grpc_server.h and loops AwaitProof/Prove waits in slices; what each RPC means is grpc_glue.c's.
// C++ stays in this file: exceptions (std::bad_alloc from protobuf or std::string) are caught in
// every handler and answered as a status, never propagated into gRPC or C.
#include "daemon/grpc_server.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/support/server_interceptor.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "cuzk/v1/proving.grpc.pb.h"
#include "proofmill/v1/status.grpc.pb.h"

namespace pmgrpc {
namespace {

namespace pb = ::cuzk::v1;
constexpr int64_t kSliceMs = 200;

const uint8_t *bytes_of(const std::string &b) { return reinterpret_cast<const uint8_t *>(b.data()); }

grpc::Status to_status(const pm_grpc_status &st) {
    return grpc::Status(static_cast<grpc::StatusCode>(st.code), st.message);
}

void fill_await(pb::AwaitProofResponse *o, const pm_grpc_await_resp &r) {
    o->set_job_id(r.job_id);
    o->set_status(static_cast<pb::AwaitProofResponse_Status>(r.status));
    if (r.proof && r.proof_len) o->set_proof(reinterpret_cast<const char *>(r.proof), r.proof_len);
    o->set_error_message(r.error_message);
    o->set_queue_wait_ms(r.queue_wait_ms);
    o->set_srs_load_ms(r.srs_load_ms);
    o->set_synthesis_ms(r.synthesis_ms);
    o->set_gpu_compute_ms(r.gpu_compute_ms);
    o->set_total_ms(r.total_ms);
}

// A request that does not parse as its message is answered by gRPC itself, before any handler,
// with INTERNAL and no details; say what it was instead (our handlers never send INTERNAL without
// a message).
class ParseStatus final : public grpc::experimental::Interceptor {
  public:
    explicit ParseStatus(grpc::experimental::ServerRpcInfo *info) : method_(info->method() ? info->method() : "") {}
    void Intercept(grpc::experimental::InterceptorBatchMethods *m) override {
        if (m->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
            grpc::Status s = m->GetSendStatus();
            if (s.error_code() == grpc::StatusCode::INTERNAL && s.error_message().empty())
                m->ModifySendStatus(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                                 "the request to " + method_ +
                                                     " does not parse as its cuzk.v1 message (proving.proto)"));
        }
        m->Proceed();
    }

  private:
    std::string method_;
};

class ParseStatusFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
  public:
    grpc::experimental::Interceptor *CreateServerInterceptor(grpc::experimental::ServerRpcInfo *info) override {
        return new ParseStatus(info);
    }
};

class Service final : public pb::ProvingEngine::Service {
  public:
    Service(const pm_grpc_ops *ops, const pm_grpc_server_opts &o)
        : ops_(ops), max_input_(o.max_input_bytes), reserve_(o.reserve), release_(o.release),
          reserve_arg_(o.reserve_arg) {}

    grpc::Status SubmitProof(grpc::ServerContext *, const pb::SubmitProofRequest *in,
                             pb::SubmitProofResponse *out) override {
        try {
            pm_grpc_submit_resp r;
            pm_grpc_status st;
            grpc::Status s = submit(*in, &r, &st);
            if (!s.ok()) return s;
            out->set_job_id(r.job_id);
            out->set_queue_position(r.queue_position);
            out->set_assigned_gpu(r.assigned_gpu);
            return grpc::Status::OK;
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

    grpc::Status AwaitProof(grpc::ServerContext *ctx, const pb::AwaitProofRequest *in,
                            pb::AwaitProofResponse *out) override {
        try {
            return await(ctx, in->job_id(), in->timeout_ms(), out);
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

    grpc::Status Prove(grpc::ServerContext *ctx, const pb::ProveRequest *in, pb::ProveResponse *out) override {
        try {
            if (!in->has_submit())
                return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                    "ProveRequest.submit is missing (the SubmitProofRequest to prove)");
            pm_grpc_submit_resp r;
            pm_grpc_status st;
            grpc::Status s = submit(in->submit(), &r, &st);
            if (!s.ok()) return s;
            return await(ctx, r.job_id, 0, out->mutable_result());
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

    grpc::Status CancelProof(grpc::ServerContext *, const pb::CancelProofRequest *in,
                             pb::CancelProofResponse *out) override {
        try {
            int was_running = 0;
            pm_grpc_status st;
            if (in->job_id().find('\0') != std::string::npos) return nul_in("job_id");
            if (ops_->cancel(ops_->self, in->job_id().c_str(), &was_running, &st) != PM_GRPC_OK) return to_status(st);
            out->set_was_running(was_running != 0);
            return grpc::Status::OK;
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

    grpc::Status GetStatus(grpc::ServerContext *, const pb::GetStatusRequest *, pb::GetStatusResponse *out) override {
        pm_grpc_status_resp r;
        std::memset(&r, 0, sizeof r);
        grpc::Status s = grpc::Status::OK;
        try {
            pm_grpc_status st;
            if (ops_->status(ops_->self, &r, &st) != PM_GRPC_OK) {
                s = to_status(st);
            } else {
                for (size_t i = 0; i < r.n_gpus; i++) {
                    pb::GPUStatus *g = out->add_gpus();
                    g->set_ordinal(r.gpus[i].ordinal);
                    g->set_name(r.gpus[i].name);
                    g->set_vram_total_bytes(r.gpus[i].vram_total_bytes);
                    g->set_vram_free_bytes(r.gpus[i].vram_free_bytes);
                    g->set_current_job_id(r.gpus[i].current_job_id);
                    g->set_current_proof_kind(r.gpus[i].current_proof_kind);
                }
                for (size_t i = 0; i < r.n_srs; i++) {
                    pb::SRSStatus *k = out->add_loaded_srs();
                    k->set_circuit_id(r.srs[i].circuit_id);
                    k->set_tier(static_cast<pb::SRSStatus_Tier>(r.srs[i].tier));
                    k->set_size_bytes(r.srs[i].size_bytes);
                    k->set_ref_count(r.srs[i].ref_count);
                }
                for (size_t i = 0; i < r.n_queues; i++) {
                    pb::QueueStatus *q = out->add_queues();
                    q->set_proof_kind(r.queues[i].proof_kind);
                    q->set_pending(r.queues[i].pending);
                    q->set_in_progress(r.queues[i].in_progress);
                }
                out->set_total_proofs_completed(r.total_completed);
                out->set_total_proofs_failed(r.total_failed);
                out->set_uptime_seconds(r.uptime_s);
                out->set_pinned_memory_bytes(r.pinned_bytes);
                out->set_pinned_memory_limit_bytes(r.pinned_limit_bytes);
            }
        } catch (const std::bad_alloc &) {
            s = oom();
        } catch (...) {
            s = internal();
        }
        std::free(r.gpus);
        std::free(r.srs);
        std::free(r.queues);
        return s;
    }

    grpc::Status GetMetrics(grpc::ServerContext *, const pb::GetMetricsRequest *, pb::GetMetricsResponse *out) override {
        char *t = ops_->metrics(ops_->self);
        if (!t) return oom();
        grpc::Status s = grpc::Status::OK;
        try {
            out->set_prometheus_text(t);
        } catch (const std::bad_alloc &) {
            s = oom();
        }
        std::free(t);
        return s;
    }

    grpc::Status PreloadSRS(grpc::ServerContext *, const pb::PreloadSrsRequest *in, pb::PreloadSrsResponse *out) override {
        try {
            int already = 0;
            uint64_t ms = 0;
            pm_grpc_status st;
            if (ops_->preload(ops_->self, in->circuit_id().c_str(), &already, &ms, &st) != PM_GRPC_OK)
                return to_status(st);
            out->set_already_loaded(already != 0);
            out->set_load_time_ms(ms);
            return grpc::Status::OK;
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

    grpc::Status EvictSRS(grpc::ServerContext *, const pb::EvictSrsRequest *in, pb::EvictSrsResponse *out) override {
        try {
            int was = 0;
            uint64_t freed = 0;
            pm_grpc_status st;
            if (ops_->evict(ops_->self, in->circuit_id().c_str(), &was, &freed, &st) != PM_GRPC_OK) return to_status(st);
            out->set_was_loaded(was != 0);
            out->set_freed_bytes(freed);
            return grpc::Status::OK;
        } catch (const std::bad_alloc &) {
            return oom();
        } catch (...) {
            return internal();
        }
    }

  private:
    static grpc::Status oom() { return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "out of memory"); }
    static grpc::Status internal() {
        return grpc::Status(grpc::StatusCode::INTERNAL, "internal error in the gRPC front end");
    }

    // a string field read as a C string: an embedded NUL would cut it short (request_id "a\0b"
    // would be "a"'s twin, job_id "1\0x" job 1)
    static grpc::Status nul_in(const char *field) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(field) + " contains a NUL byte");
    }

    grpc::Status too_big(const char *field, size_t n) const {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            std::string(field) + " is " + std::to_string(n) + " bytes; a vanilla proof is at most " +
                                std::to_string(max_input_) + " bytes (a 32 GiB PoRep C1 is about 50 MB)");
    }

    // The body's bytes held from the memory budget for one submit (grpc_server.h: reserve).
    class Held {
      public:
        Held(const Service *s, uint64_t n) : s_(s), n_(n) {}
        ~Held() {
            if (n_ && s_->release_) s_->release_(s_->reserve_arg_, n_);
        }
        Held(const Held &) = delete;
        Held &operator=(const Held &) = delete;

      private:
        const Service *s_;
        uint64_t n_;
    };

    grpc::Status submit(const pb::SubmitProofRequest &in, pm_grpc_submit_resp *r, pm_grpc_status *st) {
        if (in.request_id().find('\0') != std::string::npos) return nul_in("request_id");
        // the input limit first: nothing of an oversized vanilla proof is spooled or queued
        if (max_input_ && in.vanilla_proof().size() > max_input_)
            return too_big("vanilla_proof", in.vanilla_proof().size());
        for (int i = 0; max_input_ && i < in.vanilla_proofs_size(); i++)
            if (in.vanilla_proofs(i).size() > max_input_)
                return too_big(("vanilla_proofs[" + std::to_string(i) + "]").c_str(), in.vanilla_proofs(i).size());
        // then the body's bytes from the memory budget while it is checked and spooled
        const uint64_t body = in.ByteSizeLong();
        if (reserve_ && reserve_(reserve_arg_, body, st) != PM_GRPC_OK) return to_status(*st);
        Held held(this, reserve_ ? body : 0);
        pm_grpc_submit_req q;
        std::memset(&q, 0, sizeof q);
        q.request_id = in.request_id().c_str();
        q.proof_kind = static_cast<int>(in.proof_kind());
        q.sector_size = in.sector_size();
        q.registered_proof = in.registered_proof();
        q.priority = static_cast<int>(in.priority());
        q.vanilla_proof = bytes_of(in.vanilla_proof());
        q.vanilla_proof_len = in.vanilla_proof().size();
        std::vector<const uint8_t *> vp(static_cast<size_t>(in.vanilla_proofs_size()));
        std::vector<size_t> vl(vp.size());
        for (size_t i = 0; i < vp.size(); i++) {
            vp[i] = bytes_of(in.vanilla_proofs(static_cast<int>(i)));
            vl[i] = in.vanilla_proofs(static_cast<int>(i)).size();
        }
        q.vanilla_proofs = vp.data();
        q.vanilla_proofs_len = vl.data();
        q.n_vanilla_proofs = vp.size();
        q.sector_number = in.sector_number();
        q.miner_id = in.miner_id();
        q.partition_index = in.partition_index();
        q.randomness = bytes_of(in.randomness());
        q.randomness_len = in.randomness().size();
        q.comm_r_old = bytes_of(in.comm_r_old());
        q.comm_r_old_len = in.comm_r_old().size();
        q.comm_r_new = bytes_of(in.comm_r_new());
        q.comm_r_new_len = in.comm_r_new().size();
        q.comm_d_new = bytes_of(in.comm_d_new());
        q.comm_d_new_len = in.comm_d_new().size();
        std::memset(r, 0, sizeof *r);
        if (ops_->submit(ops_->self, &q, r, st) != PM_GRPC_OK) return to_status(*st);
        return grpc::Status::OK;
    }

    // timeout_ms 0 = until the job ends (AwaitProofRequest.timeout_ms); the client's deadline or
    // cancellation and the daemon's shutdown end the wait sooner.
    grpc::Status await(grpc::ServerContext *ctx, const std::string &id, uint64_t timeout_ms, pb::AwaitProofResponse *out) {
        using clock = std::chrono::steady_clock;
        if (id.find('\0') != std::string::npos) return nul_in("job_id");
        // a uint64 of milliseconds: beyond ~292 years its nanoseconds overflow the clock's int64
        // (undefined, and a past deadline: an at-once TIMEOUT); 100 years is as good as forever
        constexpr uint64_t kMaxTimeoutMs = 100ull * 365 * 86400 * 1000;
        if (timeout_ms > kMaxTimeoutMs) timeout_ms = kMaxTimeoutMs;
        const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms ? timeout_ms : 0);
        for (;;) {
            int64_t slice = kSliceMs;
            if (timeout_ms) {
                auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
                slice = left < 0 ? 0 : left < kSliceMs ? left : kSliceMs;
            }
            pm_grpc_await_resp r;
            std::memset(&r, 0, sizeof r);
            pm_grpc_status st;
            if (ops_->await(ops_->self, id.c_str(), slice, &r, &st) != PM_GRPC_OK) {
                std::free(r.proof);
                return to_status(st);
            }
            if (r.status != PM_GRPC_AWAIT_TIMEOUT || (timeout_ms && clock::now() >= deadline)) {
                try {
                    fill_await(out, r);
                } catch (...) {
                    std::free(r.proof);
                    throw;
                }
                std::free(r.proof);
                return grpc::Status::OK;
            }
            std::free(r.proof);
            if (ctx->IsCancelled())
                return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away; the job goes on");
        }
    }

    const pm_grpc_ops *ops_;
    uint64_t max_input_;
    pm_grpc_code (*reserve_)(void *, uint64_t, pm_grpc_status *);
    void (*release_)(void *, uint64_t);
    void *reserve_arg_;
};

bool read_file(const char *path, std::string *out) {
    FILE *f = std::fopen(path, "rb");
    if (!f) return false;
    char buf[8192];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
    bool ok = !std::ferror(f);
    std::fclose(f);
    return ok;
}

bool set(const char *s) { return s && s[0]; }

// A unix socket, or a TCP host that only this machine reaches: 127.0.0.0/8, ::1, localhost.
bool addr_is_local(const std::string &a) {
    if (a.compare(0, 5, "unix:") == 0) return true;
    size_t colon = a.rfind(':');
    std::string host = colon == std::string::npos ? a : a.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.compare(0, 4, "ipv4") == 0 || host.compare(0, 4, "ipv6") == 0) return false; // grpc URI schemes
    return host == "localhost" || host == "::1" || host.compare(0, 4, "127.") == 0;
}

// proofmill.v1.ProofmillStatus (proofmill/v1/status.proto): the keys of GetStatus's status op, with
// what cuzk's SRSStatus has no field for (activity, device-memory plan).
class StatusService final : public ::proofmill::v1::ProofmillStatus::Service {
  public:
    explicit StatusService(const pm_grpc_ops *ops) : ops_(ops) {}

    grpc::Status GetKeys(grpc::ServerContext *, const ::proofmill::v1::GetKeysRequest *,
                         ::proofmill::v1::GetKeysResponse *out) override {
        pm_grpc_status_resp r;
        std::memset(&r, 0, sizeof r);
        pm_grpc_status st;
        grpc::Status s = grpc::Status::OK;
        try {
            if (ops_->status(ops_->self, &r, &st) != PM_GRPC_OK) {
                s = to_status(st);
            } else {
                for (size_t i = 0; i < r.n_srs; i++) {
                    const pm_grpc_srs &k = r.srs[i];
                    ::proofmill::v1::KeyStatus *o = out->add_keys();
                    o->set_kind(k.kind);
                    o->set_circuit_id(k.circuit_id);
                    o->set_state(k.state);
                    o->set_size_bytes(k.size_bytes);
                    o->set_ref_count(k.ref_count);
                    o->set_activity(k.activity);
                    o->set_activity_done_bytes(k.activity_done);
                    o->set_activity_total_bytes(k.activity_total);
                    o->set_activity_device(k.activity_device);
                    o->set_activity_text(k.activity_text);
                    o->set_tier(k.plan_tier);
                    o->set_tier_name(k.plan_tier_name);
                    o->set_streamed(k.plan_streamed);
                    o->set_devices(k.plan_devices);
                    o->set_device_bytes(k.plan_device_bytes);
                    o->set_host_pinned_bytes(k.plan_host_pinned_bytes);
                    o->set_plan(k.plan);
                }
            }
        } catch (const std::bad_alloc &) {
            s = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "out of memory");
        } catch (...) {
            s = grpc::Status(grpc::StatusCode::INTERNAL, "internal error in GetKeys");
        }
        std::free(r.gpus);
        std::free(r.srs);
        std::free(r.queues);
        return s;
    }

  private:
    const pm_grpc_ops *ops_;
};

}  // namespace
}  // namespace pmgrpc

struct pm_grpc_server {
    std::unique_ptr<pmgrpc::StatusService> status_service;
    std::unique_ptr<pmgrpc::Service> service;
    std::unique_ptr<grpc::Server> server;
};

extern "C" pm_status pm_grpc_server_start(pm_grpc_server **out, const pm_grpc_server_opts *o, const pm_grpc_ops *ops,
                                          unsigned *port, pm_error *err) {
    *out = nullptr;
    if (port) *port = 0;
    if (!o || !o->addr || !o->addr[0] || !ops)
        return pm_error_set(err, PM_ERR_ARG, "grpc.listen", PM_NO_OFFSET, "no gRPC listen address");
    const char *addr = o->addr;
    const uint64_t max_recv = o->max_receive_bytes ? o->max_receive_bytes : o->max_message_bytes;
    if (o->max_message_bytes == 0 || o->max_message_bytes > 2147483647u || max_recv > 2147483647u)
        return pm_error_set(err, PM_ERR_ARG, "grpc.max_message_bytes", PM_NO_OFFSET,
                            "%llu is not a gRPC message limit (1..2^31-1)", (unsigned long long)o->max_message_bytes);
    const bool tls = pmgrpc::set(o->tls_cert) || pmgrpc::set(o->tls_key);
    if (tls && !(pmgrpc::set(o->tls_cert) && pmgrpc::set(o->tls_key)))
        return pm_error_set(err, PM_ERR_ARG, pmgrpc::set(o->tls_cert) ? "grpc.tls_key" : "grpc.tls_cert", PM_NO_OFFSET,
                            "TLS needs both grpc.tls_cert (the server's certificate chain, PEM) and grpc.tls_key "
                            "(its private key, PEM); only one is set");
    if (!tls && pmgrpc::set(o->tls_client_ca))
        return pm_error_set(err, PM_ERR_ARG, "grpc.tls_client_ca", PM_NO_OFFSET,
                            "grpc.tls_client_ca is set but grpc.tls_cert and grpc.tls_key are not: client "
                            "certificates are checked only over TLS");
    if (!std::strncmp(addr, "unix:", 5) && tls)
        return pm_error_set(err, PM_ERR_ARG, "grpc.tls_cert", PM_NO_OFFSET,
                            "grpc.listen = \"%s\" is a unix socket: TLS is for TCP (its file permissions guard it; "
                            "unset grpc.tls_cert and grpc.tls_key)", addr);
    const bool mtls = tls && pmgrpc::set(o->tls_client_ca);
    if (!pmgrpc::addr_is_local(addr) && !mtls && !o->allow_insecure_remote)
        return pm_error_set(err, PM_ERR_ARG, "grpc.listen", PM_NO_OFFSET,
                            "grpc.listen = \"%s\" is reachable from other machines but %s: anyone who reaches the "
                            "port could submit, cancel and evict. Set grpc.tls_cert, grpc.tls_key and "
                            "grpc.tls_client_ca (mutual TLS; docs/daemon.md \"gRPC over TLS\"), listen on loopback "
                            "(127.0.0.1:9820) or a unix socket, or set grpc.allow_insecure_remote = true to accept it",
                            addr, tls ? "grpc.tls_client_ca is not set (TLS without client certificates)"
                                      : "the gRPC API is plaintext without client certificates");
    try {
        std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
        if (tls) {
            grpc::SslServerCredentialsOptions so(mtls ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                                      : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
            grpc::SslServerCredentialsOptions::PemKeyCertPair kc;
            const struct {
                const char *knob, *path;
                std::string *to;
            } files[] = {{"grpc.tls_cert", o->tls_cert, &kc.cert_chain},
                         {"grpc.tls_key", o->tls_key, &kc.private_key},
                         {"grpc.tls_client_ca", mtls ? o->tls_client_ca : nullptr, &so.pem_root_certs}};
            for (const auto &f : files) {
                if (!f.path) continue;
                if (!pmgrpc::read_file(f.path, f.to))
                    return pm_error_set(err, PM_ERR_IO, f.path, PM_NO_OFFSET, "%s: cannot read: %s", f.knob,
                                        std::strerror(errno));
                if (f.to->find("-----BEGIN ") == std::string::npos)
                    return pm_error_set(err, PM_ERR_FORMAT, f.path, PM_NO_OFFSET,
                                        "%s: not a PEM file (no -----BEGIN line)", f.knob);
            }
            so.pem_key_cert_pairs.push_back(kc);
            creds = grpc::SslServerCredentials(so);
            if (!creds)
                return pm_error_set(err, PM_ERR_FORMAT, "grpc.tls_cert", PM_NO_OFFSET,
                                    "gRPC refused the TLS certificate, key or client CA (%s, %s, %s)", o->tls_cert,
                                    o->tls_key, mtls ? o->tls_client_ca : "-");
        }
        std::unique_ptr<pm_grpc_server> s(new pm_grpc_server);
        s->service.reset(new pmgrpc::Service(ops, *o));
        s->status_service.reset(new pmgrpc::StatusService(ops));
        grpc::ServerBuilder b;
        int selected = 0;
        b.AddListeningPort(addr, creds, &selected);
        // no SO_REUSEPORT: a second daemon on the same port must fail to start, not share the calls
        b.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
        b.SetMaxReceiveMessageSize(static_cast<int>(max_recv));
        b.SetMaxSendMessageSize(static_cast<int>(o->max_message_bytes));
        grpc::ResourceQuota quota("proofmill-grpc");
        quota.SetMaxThreads(static_cast<int>(o->max_threads));
        if (o->memory_quota_bytes) quota.Resize(static_cast<size_t>(o->memory_quota_bytes));
        b.SetResourceQuota(quota);
        b.RegisterService(s->service.get());
        b.RegisterService(s->status_service.get());
        std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> icpt;
        icpt.emplace_back(new pmgrpc::ParseStatusFactory);
        b.experimental().SetInterceptorCreators(std::move(icpt));
        s->server = b.BuildAndStart();
        if (!s->server || selected == 0)
            return pm_error_set(err, PM_ERR_IO, "grpc.listen", PM_NO_OFFSET,
                                "cannot listen on %s (address in use: another prover, for example cuzk, or another "
                                "proofmill daemon may hold it; or not host:port / unix:///path%s)",
                                addr, tls ? "; or gRPC refused the TLS certificate, key or client CA" : "");
        if (port && std::strncmp(addr, "unix:", 5) != 0) *port = static_cast<unsigned>(selected);
        *out = s.release();
        return PM_OK;
    } catch (const std::bad_alloc &) {
        return pm_error_set(err, PM_ERR_NOMEM, "grpc.listen", PM_NO_OFFSET, "out of memory starting the gRPC server");
    } catch (...) {
        return pm_error_set(err, PM_ERR_INTERNAL, "grpc.listen", PM_NO_OFFSET, "the gRPC server failed to start");
    }
}

extern "C" void pm_grpc_server_stop(pm_grpc_server *s, unsigned grace_ms) {
    if (!s) return;
    try {
        s->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(grace_ms));
        s->server->Wait();
    } catch (...) {
    }
    delete s;
}
