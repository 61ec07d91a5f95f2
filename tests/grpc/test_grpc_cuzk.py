#!/usr/bin/env python3
"""gRPC black-box test (issue #15): Curio's view of proofmill. The client is generated here, at test
time, from the committed interface file src/daemon/grpc/proto/cuzk/v1/proving.proto (Curio's) by
Debian's protoc + grpc_python_plugin and runs on Debian's python3-grpcio: nobody here wrote its
transport. It calls the RPCs the way Curio's lib/cuzk/client.go does (target "dns:///host:port" or
"unix:///path", 256 MiB message limits, Prove with the envelope of lib/ffi/cuzk_funcs.go wrapC1Output,
GetStatus with a 5 s deadline, HasCapacity summing pending + in_progress).

Fast (always, a few seconds): a sealed 2 KiB sector's C1 in Curio's envelope against a stand-in
2 KiB parameter set (right file name and vector counts, zero points: the key load fails cleanly):
every RPC; FAILED with the loader's error; a job queued behind the memory budget (TIMEOUT,
queue_position, per-kind queues, cancel -> was_running false, CANCELLED, repeated request_id = same
job, a retry after cancel = a new job); 32 concurrent clients (8 request_ids -> 8 jobs, queued);
a PoRep job admitted at once beside a running HTTP job (which gRPC cannot await or cancel); a client deadline
ending a wait; a 50 MB message
(a synthetic 32 GiB C1) accepted and answered with the missing 32 GiB parameter file; a message over
grpc.max_message_bytes; malformed messages, unknown kinds, bad fields; PreloadSRS / EvictSRS errors;
the HTTP API's c1_b64; a unix socket; a ProofKind served by a kind registered under its name
(proofmill_toy's test kind as WINNING_POST through grpc.proof_kinds: proved, verified, its default
priority) while a ProofKind mapped to a kind name that is never registered answers UNIMPLEMENTED
naming it (SubmitProof, Prove, PreloadSRS; checked whatever kinds this build registers), and the
default rows whose kind is not registered (yet) too; an inconsistent toy key failing its job as
"key: ..." naming the .params (PM_ERR_KEY); SIGTERM clean (also under ASan: label hostile).
End to end (--e2e, PROOFMILL_SLOW=1): real 2 KiB parameters (made once with `porep params-setup
--seed 7`, cached in $PROOFMILL_POREP_CACHE); PreloadSRS, two Curio-style Prove calls at once, each
proof accepted by `proofmill porep verify-proof` (and refused for the other sector), the repeated
request_id answered with the same bytes, HTTP proof_b64 equal to them, EvictSRS freeing the key.
"""
import base64
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "daemon"))
import pmd  # noqa: E402

E2E = "--e2e" in sys.argv[1:]
if E2E and os.environ.get("PROOFMILL_SLOW") != "1":
    pmd.skip("set PROOFMILL_SLOW=1 (2 KiB parameters + two C2 proofs through gRPC)")
import cuzk_stubs  # noqa: E402

grpc, pb, pbg = cuzk_stubs.load()  # Curio's interface file
spb, spbg = cuzk_stubs.load_status()  # proofmill's own (proofmill/v1/status.proto)
W = tempfile.mkdtemp(prefix="pm-grpc-")

F = pmd.Failures()
# the registered proof kinds (`proofmill prove --list`) and the kind serving each ProofKind by default
KINDS = {ln.split()[0] for ln in subprocess.run([pmd.BIN, "prove", "--list"], capture_output=True, text=True,
                                                 check=True).stdout.splitlines() if ln.strip()}
ROW_KINDS = {pb.POREP_SEAL_COMMIT: "porep-c2", pb.SNAP_DEALS_UPDATE: "snapdeals", pb.WINDOW_POST_PARTITION: "window-post",
             pb.WINNING_POST: "winning-post"}
C = grpc.StatusCode
GIB = 1 << 30


class Curio:
    """The calls of Curio's lib/cuzk/client.go."""

    def __init__(self, addr):
        target = addr if "://" in addr or addr.startswith("unix:") else "dns:///" + addr
        self.ch = grpc.insecure_channel(target, options=[("grpc.max_send_message_length", 256 << 20),
                                                         ("grpc.max_receive_message_length", 256 << 20)])
        self.svc = pbg.ProvingEngineStub(self.ch)

    def prove(self, req, timeout=600):
        return self.svc.Prove(pb.ProveRequest(submit=req), timeout=timeout).result

    def status(self):
        return self.svc.GetStatus(pb.GetStatusRequest(), timeout=5)

    def has_capacity(self, max_pending):
        s = self.status()
        return max(0, max_pending - sum(q.pending + q.in_progress for q in s.queues))

    def close(self):
        self.ch.close()


def rpc_error(fn, *a, **kw):
    """(code, details) of a call expected to fail, or (None, answer)."""
    try:
        return None, fn(*a, **kw)
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


T0 = time.time()


def mark(what):
    print("[%5.1f s] %s" % (time.time() - T0, what))


def expect_error(what, code, needle, fn, *a, **kw):
    t = time.time()
    got, det = rpc_error(fn, *a, **kw)
    # (the bound catches a call that hangs, not a slow one: a 50 MB C1 took 42-67 s on a loaded
    # 2-core machine under ASan; tests do not race)
    F.check(got == code and (needle is None or needle in det) and time.time() - t < 600,
            "%s: expected %s (%r), got %s %r" % (what, code, needle, got, det))
    return det


def bin_():
    return pmd.BIN


def run(*args, check=True):
    r = subprocess.run([bin_()] + list(args), capture_output=True, text=True, timeout=900)
    if check and r.returncode != 0:
        raise RuntimeError("%s: %s%s" % (" ".join(args), r.stdout, r.stderr))
    return r


def seal(name, sector):
    out = os.path.join(W, name)
    run("porep", "seal", "--sector-size", "2KiB", "--zero", "--out", out, "--miner-id", "1000", "--sector",
        str(sector), "--ticket", "%064x" % (sector * 0x1111))
    return os.path.join(out, "c1.json")


def envelope(c1_json, sector_number, sector_size):
    """lib/ffi/cuzk_funcs.go wrapC1Output: json.Marshal of {SectorNum int64, Phase1Out []byte
    (base64, padded), SectorSize uint64}, compact."""
    return json.dumps({"SectorNum": sector_number, "Phase1Out": base64.b64encode(c1_json).decode(),
                       "SectorSize": sector_size}, separators=(",", ":")).encode()


def porep_request(env, rid, registered_proof=5, sector_size=2048, sector=1, priority=pb.NORMAL, **kw):
    """lib/ffi/cuzk_funcs.go PoRepSnarkCuzk's SubmitProofRequest."""
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                 registered_proof=registered_proof, priority=priority, vanilla_proof=env,
                                 sector_number=sector, miner_id=1000, **kw)


def param_stem(nodes, layers, challenges, tree):
    """rust-fil-proofs parameter cache identifier of the StackedDRG circuit (param_names.h)."""
    ident = ("layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
             "drgraph::BucketGraph{size: %d; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges "
             "{ layers: %d, max_count: %d }, tree: merkletree-poseidon_hasher-%s }" % (nodes, layers, challenges, tree))
    return "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s" % (
        tree, hashlib.sha256(ident.encode()).hexdigest())


STEM_2K = param_stem(64, 2, 2, "8-0-0")
F.check(STEM_2K.split("-")[-1].startswith("032d3138d225"), "2 KiB parameter name: %s" % STEM_2K)  # Filecoin's
STEM_32G = param_stem(1 << 30, 11, 18, "8-8-0")


def stub_params(d):
    """A stand-in 2 KiB parameter file: bellperson layout (vk: alpha_g1, beta_g1, beta_g2, gamma_g2,
    delta_g1, delta_g2, ic; then h, l, a, b_g1, b_g2; u32 big-endian counts), 40 inputs with ONE as
    the circuit has, one point per vector, every point zero bytes (not on the curve): submit
    accepts it (counts), the key load refuses it."""
    os.makedirs(d, exist_ok=True)
    g1, g2 = b"\0" * 96, b"\0" * 192
    body = g1 + g1 + g2 + g2 + g1 + g2 + struct.pack(">I", 40) + g1 * 40
    for pt in (g1, g1, g1, g1, g2):
        body += struct.pack(">I", 1) + pt
    path = os.path.join(d, STEM_2K + ".params")
    with open(path, "wb") as f:
        f.write(body)
    return path


def http_blocker(d):
    """An HTTP snarkjs job that runs until http_cancel ends it (pmd.hold: thousands of powchain
    partitions at critical priority; on a daemon with pmd.hold_settings its window fills the memory
    budget, so every later job waits for admission)."""
    return pmd.hold(d)


def http_cancel(d, job_id):
    pmd.release(d, job_id)


def http_state(d, job_id):
    st, j = d.request("GET", "/v1/jobs/%s" % job_id)
    return j.get("state") if st == 200 else None


# ================================================================ end to end (slow)
if E2E:
    given = os.environ.get("PROOFMILL_POREP_PARAMS_DIR")
    pdir = given or os.environ.get("PROOFMILL_POREP_CACHE") or os.path.join(W, "p2k")
    if not (os.path.exists(os.path.join(pdir, STEM_2K + ".params")) and
            os.path.exists(os.path.join(pdir, STEM_2K + ".vk"))):
        print("making 2 KiB parameters (seed 7) in %s: minutes on 2 cores" % pdir)
        run("porep", "params-setup", "--sector-size", "2KiB", "--dir", pdir, "--seed", "7")
    else:
        print("cached 2 KiB parameters: %s" % pdir)
    vk = os.path.join(pdir, STEM_2K + ".vk")
    c1a, c1b = seal("sa", 1), seal("sb", 2)
    d = pmd.Daemon({"filecoin.params_dir": pdir, "synthesis.workers": 2, "finalize.threads": 2}, grpc=True)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    try:
        r = cu.svc.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=600)
        F.check(not r.already_loaded and r.load_time_ms > 0, "PreloadSRS porep-2k: %r" % r)
        r = cu.svc.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=600)
        F.check(r.already_loaded, "PreloadSRS again: already loaded: %r" % r)
        s = cu.status()
        F.check(any(k.circuit_id == "porep-2k" and k.tier == pb.SRSStatus.HOT and k.size_bytes > 0
                    for k in s.loaded_srs) and s.pinned_memory_bytes > 0, "status loaded_srs: %r" % s)
        envs = {c1a: envelope(open(c1a, "rb").read(), 1, 2048), c1b: envelope(open(c1b, "rb").read(), 2, 2048)}
        res = {}

        def prove(c1, rid, sector):
            res[c1] = Curio("127.0.0.1:%d" % d.grpc_port).prove(porep_request(envs[c1], rid, sector=sector))

        ts = [threading.Thread(target=prove, args=(c1a, "porep-1000-1", 1)),
              threading.Thread(target=prove, args=(c1b, "porep-1000-2", 2))]
        t0 = time.time()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print("two 2 KiB C2 proofs through gRPC in %.1f s" % (time.time() - t0))
        proofs = {}
        for c1, r in res.items():
            F.check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192 and r.total_ms > 0 and
                    r.synthesis_ms > 0 and r.gpu_compute_ms > 0, "Prove %s: %s %d bytes %r" %
                    (c1, r.status, len(r.proof), r.error_message))
            pp = c1 + ".proof"
            with open(pp, "wb") as f:
                f.write(r.proof)
            proofs[c1] = (pp, r)
            v = run("porep", "verify-proof", "--c1", c1, "--vk", vk, "--proof", pp, check=False)
            F.check(v.returncode == 0, "porep verify-proof rejects the gRPC proof: %s%s" % (v.stdout, v.stderr))
        other = run("porep", "verify-proof", "--c1", c1b, "--vk", vk, "--proof", proofs[c1a][0], check=False)
        F.check(other.returncode == 1, "sector A's proof verified for sector B: %d" % other.returncode)
        # the same request_id again: the same job, its proof at once
        t = time.time()
        r = cu.prove(porep_request(envs[c1a], "porep-1000-1"))
        F.check(r.job_id == proofs[c1a][1].job_id and r.proof == proofs[c1a][1].proof and time.time() - t < 10,
                "repeated request_id: %s vs %s" % (r.job_id, proofs[c1a][1].job_id))
        st, j = d.request("GET", "/v1/jobs/%s" % r.job_id)
        F.check(st == 200 and base64.b64decode(j.get("proof_b64", "")) == r.proof, "HTTP proof_b64: %r" % (j,))
        # the HTTP API's inline C1 and daemon-level parameter directory
        st, j = d.request("POST", "/v1/prove", {"kind": "porep", "c1_b64": base64.b64encode(envs[c1b]).decode()})
        ok = st == 200 and j["state"] == "done"
        F.check(ok, "HTTP c1_b64 prove: %s %r" % (st, j))
        if ok:
            hp = c1b + ".http.proof"
            with open(hp, "wb") as f:
                f.write(base64.b64decode(j["proof_b64"]))
            v = run("porep", "verify-proof", "--c1", c1b, "--vk", vk, "--proof", hp, check=False)
            F.check(v.returncode == 0, "HTTP proof_b64 does not verify: %s%s" % (v.stdout, v.stderr))
        r = cu.svc.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"), timeout=30)
        F.check(r.was_loaded and r.freed_bytes > 0, "EvictSRS: %r" % r)
        s = cu.status()
        F.check(s.total_proofs_completed >= 3, "totals: %r" % s)
    finally:
        cu.close()
        d.stop()
    F.done("test_grpc_cuzk --e2e")

# ================================================================ fast
c1 = seal("s1", 1)
c1_bytes = open(c1, "rb").read()
env = envelope(c1_bytes, 1, 2048)
stub = os.path.join(W, "stub")
stub_file = stub_params(stub)
common = {"filecoin.params_dir": stub, "synthesis.workers": 1, "gpu.workers_per_device": 1, "cpu.device_slots": 1,
          "prover.msm_threads": 1, "log.level": "debug"}

# --- D1: memory.budget 80M: a long powchain job (its window of partitions fills the budget) and a PoRep job
# (64 MiB of MSM scratch) do not fit together, so the PoRep job waits for admission (QUEUED)
s1 = dict(common)
# pmd.hold_settings: the blocker's window (the partitions of one job the engine lets into the
# pipeline, and charges to the budget, at once) is as many of its partitions as fit, so it fills the budget
s1.update(pmd.hold_settings("80M"))
s1["grpc.max_message_bytes"] = "1M"
mark("sealed a 2 KiB sector, wrote the stand-in parameters")
d = pmd.Daemon(s1, grpc=True)
addr = "127.0.0.1:%d" % d.grpc_port
cu = Curio(addr)
try:
    # a job that fails: FAILED with the loader's error naming the parameter file, timings filled
    r = cu.prove(porep_request(env, "porep-1000-1"))
    F.check(r.status == pb.AwaitProofResponse.FAILED and STEM_2K in r.error_message and not r.proof and r.job_id,
            "stub parameters: FAILED naming the file: %s %r" % (r.status, r.error_message))
    print("FAILED as expected:", r.error_message[:200])
    # queued
    blocker = http_blocker(d)
    rs = cu.svc.SubmitProof(porep_request(env, "porep-1000-2"), timeout=30)
    jid = rs.job_id
    F.check(re.match(r"^[0-9a-f]{32}$", jid) and rs.assigned_gpu == "cpu", "SubmitProof: %r" % rs)
    F.check(http_state(d, jid) == "queued", "the job waits for admission: %s" % http_state(d, jid))
    F.check(rs.queue_position == 0, "queue_position (nothing ahead of it): %d" % rs.queue_position)
    rs2 = cu.svc.SubmitProof(porep_request(env, "porep-1000-3"), timeout=30)
    F.check(rs2.queue_position == 1, "queue_position of the second queued job: %d" % rs2.queue_position)
    s = cu.status()
    q = {x.proof_kind: (x.pending, x.in_progress) for x in s.queues}
    F.check(q.get("porep-c2") == (2, 0) and q.get("snarkjs") == (0, 1), "queues per kind (the engine's): %r" % q)
    F.check(cu.has_capacity(10) == 7, "HasCapacity(10): %d, %r" % (cu.has_capacity(10), q))
    F.check(cu.svc.SubmitProof(porep_request(env, "porep-1000-2"), timeout=30).job_id == jid,
            "a repeated request_id returns the same job")
    det = expect_error("same request_id, another registered_proof", C.ALREADY_EXISTS, jid, cu.svc.SubmitProof,
                       porep_request(env, "porep-1000-2", registered_proof=0), timeout=30)
    t = time.time()
    a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=jid, timeout_ms=300), timeout=30)
    dt = time.time() - t
    # (the job is queued until the blocker goes: only the timeout ends this wait; 25 s, less than the
    # call's deadline, leaves room for a loaded machine under ASan)
    F.check(a.status == pb.AwaitProofResponse.TIMEOUT and a.job_id == jid and 0.29 <= dt < 25,
            "AwaitProof timeout 300 ms: %s after %.3f s" % (a.status, dt))
    a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id="porep-1000-2", timeout_ms=50), timeout=30)
    F.check(a.status == pb.AwaitProofResponse.TIMEOUT and a.job_id == jid, "AwaitProof by request_id: %r" % a)
    # a client deadline ends a wait (timeout_ms 0 = forever); the job goes on
    t = time.time()
    got, _ = rpc_error(cu.svc.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=0), timeout=0.5)
    F.check(got == C.DEADLINE_EXCEEDED and time.time() - t < 25, "client deadline: %s" % got)
    F.check(http_state(d, jid) == "queued", "the job survives its client's deadline")
    # hostile: a timeout_ms past the clock's range waits as long as one of 100 years (it was an
    # at-once TIMEOUT, and 10^13 ms overflowed std::chrono's nanoseconds: UBSan)
    for huge in (10 ** 13, 2 ** 64 - 1):
        got, det = rpc_error(cu.svc.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=huge), timeout=0.5)
        F.check(got == C.DEADLINE_EXCEEDED, "timeout_ms %d: waits (client deadline), got %s %r" % (huge, got, det))
    c = cu.svc.CancelProof(pb.CancelProofRequest(job_id=jid), timeout=30)
    F.check(not c.was_running, "cancel of a queued job: was_running false")
    a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=jid, timeout_ms=0), timeout=30)
    F.check(a.status == pb.AwaitProofResponse.CANCELLED, "queued job cancelled: %r" % a)
    rs3 = cu.svc.SubmitProof(porep_request(env, "porep-1000-2"), timeout=30)
    F.check(rs3.job_id != jid, "a retry after cancel is a new job")
    for j_ in (rs2.job_id, rs3.job_id):
        cu.svc.CancelProof(pb.CancelProofRequest(job_id=j_), timeout=30)
    # over grpc.max_message_bytes (1M here): refused by gRPC, the daemon still serving
    expect_error("2 MB message over a 1 MiB limit", C.RESOURCE_EXHAUSTED, None, cu.svc.SubmitProof,
                 porep_request(env + b" " * (2 << 20), "big"), timeout=30)
    F.check(http_state(d, blocker) == "running", "the HTTP job goes on")
    http_cancel(d, blocker)
    # 32 concurrent clients, 8 request_ids: 8 jobs (queued for admission behind an HTTP job that
    # fills the budget, so that no job ends before its twins are submitted: a failed job's
    # request_id proves again); every client sees its job fail (stub parameters) once it goes
    blocker = http_blocker(d)
    out = [None] * 32
    barrier = threading.Barrier(32)

    def client(i):
        c_ = Curio(addr)
        try:
            barrier.wait()
            sub = c_.svc.SubmitProof(porep_request(env, "porep-2000-%d" % (i % 8)), timeout=60)
            st_ = c_.status()
            submitted.wait()
            aw = c_.svc.AwaitProof(pb.AwaitProofRequest(job_id=sub.job_id, timeout_ms=0), timeout=120)
            out[i] = (sub.job_id, aw.status, aw.error_message, len(st_.queues))
        except grpc.RpcError as e:
            out[i] = ("error", e.code(), e.details(), 0)
        finally:
            c_.close()

    submitted = threading.Barrier(33)  # all 32 submitted: then the HTTP job goes and the stub jobs run
    ts = [threading.Thread(target=client, args=(i,)) for i in range(32)]
    for t in ts:
        t.start()
    try:
        submitted.wait(timeout=120)
    except threading.BrokenBarrierError:
        F.check(False, "the 32 clients did not all submit")
    http_cancel(d, blocker)
    for t in ts:
        t.join()
    ids = {}
    for i, o in enumerate(out):
        ok = o and o[0] != "error" and o[1] == pb.AwaitProofResponse.FAILED and STEM_2K in o[2] and o[3] >= 1
        F.check(ok, "client %d: %r" % (i, o))
        if ok:
            ids.setdefault(i % 8, set()).add(o[0])
    F.check(len(ids) == 8 and all(len(v) == 1 for v in ids.values()) and
            len(set.union(*ids.values())) == 8, "8 request_ids -> 8 jobs: %r" % ids)

    # the HTTP API: inline C1 (the envelope, base64) and the daemon's parameter directory
    st, j = d.request("POST", "/v1/prove", {"kind": "porep", "c1_b64": base64.b64encode(env).decode(), "wait_s": 60})
    F.check(st == 422 and j["job"]["state"] == "failed" and STEM_2K in j["error"]["message"],
            "HTTP c1_b64 against the stub: %s %r" % (st, j))
    st, j = d.request("POST", "/v1/jobs", {"kind": "porep", "c1_b64": "!!!"})
    F.check(st == 400 and j["error"]["code"] == "bad-base64", "HTTP bad c1_b64: %s %r" % (st, j))
    st, j = d.request("POST", "/v1/jobs", {"kind": "porep", "c1_b64": base64.b64encode(b"{\"x\":1}").decode()})
    F.check(st == 422 and j["error"]["code"] == "format", "HTTP c1_b64 not a C1: %s %r" % (st, j))
finally:
    cu.close()
    rc, log = d.stop(expect_clean=False)
    F.check(rc == 0 and "ERROR: AddressSanitizer" not in log and "ERROR: LeakSanitizer" not in log and
            "runtime error:" not in log, "D1 exit %d / sanitizer report:\n%s" % (rc, log[-6000:]))

# --- D2: default budget: a PoRep job is admitted at once beside a running HTTP job
mark("D1: failed, queued, cancelled, idempotent, 32 concurrent clients, over-limit, HTTP c1_b64")
d = pmd.Daemon(common, grpc=True)
addr = "127.0.0.1:%d" % d.grpc_port
cu = Curio(addr)
try:
    blocker = http_blocker(d)
    rs = cu.svc.SubmitProof(porep_request(env, "porep-1000-5"), timeout=30)
    # admitted at once: running, or already failed on its stub parameters (a stub job fails as soon
    # as a synthesis worker loads its key, which the blocker's window does not hold off for long)
    F.check(http_state(d, rs.job_id) in ("running", "failed") and rs.queue_position == 0,
            "admitted at once: %s %r" % (http_state(d, rs.job_id), rs))
    # the queues count every front end's jobs; but the HTTP blocker is not a gRPC client's to
    # await or cancel (docs/daemon.md "Who can reach which job": gRPC reaches gRPC jobs only)
    s = cu.status()
    q = {x.proof_kind: (x.pending, x.in_progress) for x in s.queues}
    F.check(q.get("snarkjs") == (0, 1) and q.get("porep-c2", (0, 0))[0] == 0, "queues, running jobs: %r" % q)
    expect_error("AwaitProof of an HTTP job", C.NOT_FOUND, None, cu.svc.AwaitProof,
                 pb.AwaitProofRequest(job_id=blocker, timeout_ms=200), timeout=30)
    expect_error("CancelProof of an HTTP job", C.NOT_FOUND, None, cu.svc.CancelProof,
                 pb.CancelProofRequest(job_id=blocker), timeout=30)
    F.check(http_state(d, blocker) == "running", "the HTTP job runs on")
    http_cancel(d, blocker)
    a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=rs.job_id, timeout_ms=0), timeout=60)
    F.check(a.status == pb.AwaitProofResponse.FAILED and STEM_2K in a.error_message,
            "the admitted PoRep job fails on its stub parameters: %r" % a)

    mark("D2: admitted at once, HTTP jobs out of reach")
    # a 50 MB message: a synthetic 32 GiB C1 in Curio's envelope, parsed whole, then refused for the
    # missing 32 GiB parameter file
    big = os.path.join(W, "c1_32g.json")
    run("porep", "synth-c1", "--sector-size", "32GiB", "--out", big)
    env32 = envelope(open(big, "rb").read(), 7, 32 * GIB)
    os.unlink(big)
    F.check(len(env32) > 50e6, "50 MB message: %d bytes" % len(env32))
    t = time.time()
    det = expect_error("50 MB C1, no 32 GiB parameters", C.FAILED_PRECONDITION, STEM_32G + ".params",
                       cu.svc.SubmitProof, porep_request(env32, "porep-1000-32", registered_proof=8,
                                                         sector_size=32 * GIB), timeout=120)
    print("50 MB message answered in %.1f s: %s" % (time.time() - t, det[:160]))
    F.check("no parameters here" in det and "curio fetch-params" in det,
            "missing parameters: the message says where Filecoin's come from: %r" % det)
    del env32

    mark("D2: 50 MB message")
    # malformed messages and bad fields: each a clear status, at once
    raw = cu.ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof")  # bytes in, bytes out
    got, det = rpc_error(raw, b"\xff\xff\xff\xff not a protobuf", timeout=10)
    F.check(got == C.INVALID_ARGUMENT and "does not parse" in det, "garbage message: %s %r" % (got, det))
    got, det = rpc_error(cu.ch.unary_unary("/cuzk.v1.ProvingEngine/NoSuchMethod"), b"", timeout=10)
    F.check(got == C.UNIMPLEMENTED, "unknown method: %s" % got)
    got, det = rpc_error(cu.ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof"),
                         porep_request(env, "x").SerializeToString()[:-20], timeout=10)
    F.check(got == C.INVALID_ARGUMENT and "does not parse" in det, "truncated message: %s %r" % (got, det))
    S = cu.svc.SubmitProof
    expect_error("vanilla_proof not JSON", C.INVALID_ARGUMENT, "inputs[0]", S, porep_request(b"not json", "m1"), timeout=10)
    expect_error("truncated envelope", C.INVALID_ARGUMENT, "inputs[0]", S, porep_request(env[: len(env) // 2], "m2"),
                 timeout=10)
    expect_error("envelope SectorSize of another size", C.INVALID_ARGUMENT, "SectorSize",
                 S, porep_request(envelope(c1_bytes, 1, 4096), "m2b"), timeout=10)
    expect_error("empty vanilla_proof", C.INVALID_ARGUMENT, "vanilla_proof", S, porep_request(b"", "m3"), timeout=10)
    expect_error("vanilla_proofs for PoRep", C.INVALID_ARGUMENT, "vanilla_proofs", S,
                 porep_request(env, "m4", vanilla_proofs=[b"x"]), timeout=10)
    expect_error("proof_kind unspecified", C.INVALID_ARGUMENT, "PROOF_KIND_UNSPECIFIED", S,
                 pb.SubmitProofRequest(vanilla_proof=env), timeout=10)
    expect_error("unknown proof_kind", C.INVALID_ARGUMENT, "99", S, pb.SubmitProofRequest(proof_kind=99), timeout=10)
    expect_error("unknown registered_proof", C.INVALID_ARGUMENT, "registered_proof", S,
                 porep_request(env, "m5", registered_proof=99), timeout=10)
    expect_error("registered_proof of another PoRep", C.INVALID_ARGUMENT, "NonInteractive", S,
                 porep_request(env, "m6", registered_proof=15), timeout=10)
    expect_error("sector_size vs registered_proof", C.INVALID_ARGUMENT, "sector_size", S,
                 porep_request(env, "m7", sector_size=8 << 20), timeout=10)
    expect_error("2 KiB C1 sent as 8 MiB", C.INVALID_ARGUMENT, "StackedDrg2KiBV1_1", S,
                 porep_request(env, "m8", registered_proof=6, sector_size=8 << 20), timeout=10)
    # a wrong sector_size with registered_proof left at proto3's 0: the sector size is named, not the 0
    expect_error("sector_size 1, registered_proof unset", C.INVALID_ARGUMENT, "sector_size 1 is given", S,
                 porep_request(env, "m8b", registered_proof=0, sector_size=1), timeout=10)
    expect_error("bad priority", C.INVALID_ARGUMENT, "priority", S, porep_request(env, "m9", priority=9), timeout=10)
    expect_error("long request_id", C.INVALID_ARGUMENT, "request_id", S, porep_request(env, "r" * 300), timeout=10)
    # hostile: a request_id is logged: its line breaks do not forge a log line (checked at the
    # end); a NUL would cut the C string short ("m11\0b" the twin of "m11"); job_id likewise
    expect_error("request_id with a newline", C.INVALID_ARGUMENT, "inputs[0]", S,
                 porep_request(b"not json", "m11\n2026-12-01T00:00:00Z proofmill[1] info: forged"), timeout=10)
    expect_error("request_id with a NUL", C.INVALID_ARGUMENT, "NUL", S, porep_request(env, "m11\0b"), timeout=10)
    expect_error("AwaitProof job_id with a NUL", C.INVALID_ARGUMENT, "NUL", cu.svc.AwaitProof,
                 pb.AwaitProofRequest(job_id=rs.job_id + "\0x", timeout_ms=1), timeout=10)
    expect_error("CancelProof job_id with a NUL", C.INVALID_ARGUMENT, "NUL", cu.svc.CancelProof,
                 pb.CancelProofRequest(job_id=rs.job_id + "\0x"), timeout=10)
    expect_error("Prove without submit", C.INVALID_ARGUMENT, "submit", cu.svc.Prove, pb.ProveRequest(), timeout=10)
    expect_error("randomness for a PoRep", C.INVALID_ARGUMENT, "randomness", S,
                 porep_request(env, "m10", randomness=b"\1" * 32), timeout=10)
    # the other ProofKinds: UNIMPLEMENTED at once while their kind is not registered (never a hang);
    # once it is, the same request reaches the kind (and fails there: "v" is no vanilla proof)
    for kind, name in ((pb.WINNING_POST, "WinningPoSt"), (pb.WINDOW_POST_PARTITION, "WindowPoSt"),
                       (pb.SNAP_DEALS_UPDATE, "SnapDeals")):
        req = pb.SubmitProofRequest(request_id="k-%d" % kind, proof_kind=kind, sector_size=32 * GIB,
                                    registered_proof=8, vanilla_proofs=[b"v"])
        if ROW_KINDS[kind] in KINDS:
            got, det = rpc_error(S, req, timeout=30)
            F.check(got not in (None, C.UNIMPLEMENTED) and det, "%s with its kind registered: %s %r" % (name, got, det))
            continue
        expect_error(name + " SubmitProof", C.UNIMPLEMENTED, name, S, req, timeout=10)
        expect_error(name + " Prove", C.UNIMPLEMENTED, "'%s'" % ROW_KINDS[kind], cu.svc.Prove,
                     pb.ProveRequest(submit=req), timeout=10)
    # unknown ids
    A = cu.svc.AwaitProof
    expect_error("AwaitProof unknown id", C.NOT_FOUND, "999999", A, pb.AwaitProofRequest(job_id="999999"), timeout=10)
    expect_error("AwaitProof unknown request_id", C.NOT_FOUND, "nope", A, pb.AwaitProofRequest(job_id="nope"), timeout=10)
    expect_error("AwaitProof empty id", C.INVALID_ARGUMENT, "empty", A, pb.AwaitProofRequest(job_id=""), timeout=10)
    expect_error("CancelProof unknown id", C.NOT_FOUND, "424242", cu.svc.CancelProof,
                 pb.CancelProofRequest(job_id="424242"), timeout=10)
    # SRS management by circuit id
    P, E = cu.svc.PreloadSRS, cu.svc.EvictSRS
    expect_error("PreloadSRS stub", C.FAILED_PRECONDITION, STEM_2K, P, pb.PreloadSrsRequest(circuit_id="porep-2k"),
                 timeout=60)
    expect_error("PreloadSRS missing 32 GiB", C.FAILED_PRECONDITION, STEM_32G, P,
                 pb.PreloadSrsRequest(circuit_id="porep-32g"), timeout=60)
    expect_error("PreloadSRS bad size", C.INVALID_ARGUMENT, "porep-7x", P, pb.PreloadSrsRequest(circuit_id="porep-7x"),
                 timeout=10)
    expect_error("PreloadSRS unknown", C.INVALID_ARGUMENT, "zk-1g", P, pb.PreloadSrsRequest(circuit_id="zk-1g"),
                 timeout=10)
    expect_error("PreloadSRS empty", C.INVALID_ARGUMENT, "empty", P, pb.PreloadSrsRequest(), timeout=10)
    if "window-post" not in KINDS:
        expect_error("PreloadSRS wpost", C.UNIMPLEMENTED, "window-post", P, pb.PreloadSrsRequest(circuit_id="wpost-32g"),
                     timeout=10)
    # the PoSt and SnapDeals kinds name their keys by size too: their 2 KiB files (absent here) in
    # filecoin.params_dir, as `proofmill <kind> circuit-info` names them
    for cid, kind in (("wpost-2k", "window-post"), ("winning-2k", "winning-post"), ("snap-2k", "snapdeals")):
        if kind in KINDS:
            stem = re.search(r"parameters\s+(\S+)\.params", run(kind, "circuit-info", "--sector-size", "2KiB").stdout)
            expect_error("PreloadSRS " + cid, C.FAILED_PRECONDITION, os.path.join(stub, stem.group(1) + ".params"), P,
                         pb.PreloadSrsRequest(circuit_id=cid), timeout=60)
    r = E(pb.EvictSrsRequest(circuit_id="porep-2k"), timeout=10)
    F.check(not r.was_loaded and r.freed_bytes == 0, "EvictSRS of a key not cached: %r" % r)
    # status, metrics
    s = cu.status()
    F.check(s.total_proofs_failed >= 1 and s.uptime_seconds >= 0 and len(s.gpus) == 0 and
            s.pinned_memory_limit_bytes > 0 and any(x.proof_kind == "porep-c2" for x in s.queues),
            "GetStatus: %r" % s)
    m = cu.svc.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
    F.check("# TYPE proofmill_jobs_submitted_total counter" in m and
            'proofmill_jobs_finished_total{state="failed"}' in m, "GetMetrics: %s" % m[:300])
    # still serving
    r = cu.prove(porep_request(env, "porep-1000-9"))
    F.check(r.status == pb.AwaitProofResponse.FAILED and STEM_2K in r.error_message, "still serving: %r" % r)
finally:
    cu.close()
    rc, log = d.stop(expect_clean=False)
    F.check(rc == 0 and "ERROR: AddressSanitizer" not in log and "ERROR: LeakSanitizer" not in log and
            "runtime error:" not in log, "D2 exit %d / sanitizer report:\n%s" % (rc, log[-6000:]))
    F.check("grpc SubmitProof request_id=porep-1000-5" in log, "the daemon logs each SubmitProof")
    F.check("\n2026-12-01T00:00:00Z proofmill[1] info: forged" not in log and "m11?2026-12-01" in log,
            "a request_id's line break forged a log line")

mark("D2: malformed, unknown kinds, SRS, status, metrics")
# --- D3: a unix socket (Curio: Address = "unix:///run/curio/cuzk.sock"), gRPC only
sock = os.path.join(W, "cuzk.sock")
d = pmd.Daemon({"filecoin.params_dir": stub, "jobs.retain_s": 1}, tcp=False, grpc="unix://" + sock)
cu = Curio("unix://" + sock)
try:
    s = cu.status()
    F.check(any(x.proof_kind == "porep-c2" for x in s.queues), "GetStatus over a unix socket: %r" % s)
    r = cu.prove(porep_request(env, "porep-1000-10"))
    F.check(r.status == pb.AwaitProofResponse.FAILED, "Prove over a unix socket: %r" % r)
    # hostile review: once the engine forgets the job (jobs.retain_s), AwaitProof answers from the
    # journal as GET /v1/jobs/<id> does (it was NOT_FOUND naming the engine's internal id)
    time.sleep(2.5)
    a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=r.job_id, timeout_ms=100), timeout=10)
    F.check(a.status == pb.AwaitProofResponse.FAILED and STEM_2K in a.error_message and a.job_id == r.job_id,
            "AwaitProof after jobs.retain_s: %r" % a)
finally:
    cu.close()
    rc, log = d.stop(expect_clean=False)
F.check(rc == 0 and not os.path.exists(sock), "unix socket daemon: exit %d, socket removed: %s" %
        (rc, not os.path.exists(sock)))

# --- D4: a kind registered under a ProofKind's name proves through gRPC with nothing of the front end
# changed: proofmill_toy (the command linked with the test-only toy kind, tests/kinds/toy/) serves
# WINNING_POST as toy-cube (grpc.proof_kinds); its main input is vanilla_proof, its key the kind's
# in filecoin.params_dir, its default priority the kind's (high); the proof bytes verify with
# `groth16 verify-bytes` against each partition's public input
mark("D3: unix socket")
TOY, TOY_PARAMS = os.environ.get("PROOFMILL_TOY_BIN", ""), os.environ.get("PROOFMILL_TOY_PARAMS", "")
if os.path.exists(TOY) and os.path.exists(TOY_PARAMS):
    tdir = os.path.join(W, "toy")
    os.makedirs(tdir)
    subprocess.run([TOY_PARAMS, tdir], check=True, timeout=300)
    # and WINDOW_POST_PARTITION to a name no kind will ever have: UNIMPLEMENTED whatever is registered
    NEVER = "never-registered-kind"
    assert NEVER not in KINDS
    d = pmd.Daemon({"filecoin.params_dir": tdir, "grpc.proof_kinds": "WINNING_POST=toy-cube,WINDOW_POST_PARTITION=" + NEVER,
                    "prover.msm_threads": 1}, grpc=True, bin=TOY)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    try:
        def toy(rid, text, **kw):
            return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST, vanilla_proof=text,
                                         registered_proof=3, sector_size=2048, miner_id=1000, **kw)
        r = cu.prove(toy("toy-1", b"3 35\n5 135\n"))
        F.check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 2 * 192,
                "toy-cube as WINNING_POST: %s %d bytes %r" % (r.status, len(r.proof), r.error_message))
        vk = os.path.join(tdir, "toy-cube.vk")
        for k, y, want in ((0, "35", 0), (1, "135", 0), (0, "135", 1)):  # the last: another public input
            pp = os.path.join(tdir, "p%d.bin" % k)
            with open(pp, "wb") as f:
                f.write(r.proof[192 * k:192 * (k + 1)])
            v = subprocess.run([TOY, "groth16", "verify-bytes", vk, pp, y], capture_output=True, text=True)
            F.check(v.returncode == want, "verify-bytes partition %d y=%s: %d (want %d) %s%s" %
                    (k, y, v.returncode, want, v.stdout, v.stderr))
        st, j = d.request("GET", "/v1/jobs/%s" % r.job_id)
        F.check(j.get("kind") == "toy-cube" and j.get("priority") == "high" and
                base64.b64decode(j.get("proof_b64", "")) == r.proof, "the kind's job, default priority: %r" % (j,))
        r = cu.prove(toy("toy-2", b"2 15\n", priority=pb.LOW))
        st, j = d.request("GET", "/v1/jobs/%s" % r.job_id)
        F.check(r.status == pb.AwaitProofResponse.COMPLETED and j.get("priority") == "low", "priority LOW: %r" % (j,))
        r = cu.prove(toy("toy-3", b"3 36\n"))
        F.check(r.status == pb.AwaitProofResponse.FAILED and "claimed y = 36" in r.error_message,
                "a false claim fails in the kind: %r" % r)
        expect_error("a field the kind does not take", C.INVALID_ARGUMENT, "toy-cube", cu.svc.SubmitProof,
                     toy("toy-4", b"3 35\n", randomness=b"\1" * 32), timeout=10)
        expect_error("two vanilla proofs for a one-input kind", C.INVALID_ARGUMENT, "1..1", cu.svc.SubmitProof,
                     toy("toy-5", b"3 35\n", vanilla_proofs=[b"5 135\n"]), timeout=10)
        expect_error("PreloadSRS of a kind without key_for_size", C.UNIMPLEMENTED, "toy-cube", cu.svc.PreloadSRS,
                     pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=10)
        s = cu.status()
        F.check(any(x.proof_kind == "toy-cube" for x in s.queues) and
                any(k.circuit_id.endswith("toy-cube.params") for k in s.loaded_srs), "GetStatus with toy-cube: %r" % s)
        # proofmill's own status service on the same port: the key's kind, state, activity (idle) and
        # device-memory plan (none on a CPU daemon: tier -1), beside what cuzk's GetStatus says
        ks = spbg.ProofmillStatusStub(cu.ch).GetKeys(spb.GetKeysRequest(), timeout=5).keys
        toy_keys = [k for k in ks if k.circuit_id.endswith("toy-cube.params")]
        F.check(len(toy_keys) == 1 and toy_keys[0].kind == "toy-cube" and toy_keys[0].state == "ready" and
                toy_keys[0].activity == "" and toy_keys[0].activity_text == "" and toy_keys[0].activity_device == -1 and
                toy_keys[0].tier == -1 and toy_keys[0].plan == "" and toy_keys[0].size_bytes > 0,
                "ProofmillStatus.GetKeys: %r" % (ks,))
        wreq = pb.SubmitProofRequest(request_id="w-1", proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=8,
                                     sector_size=32 * GIB, vanilla_proofs=[b"v"], randomness=b"\1" * 32)
        for what, fn, req in (("SubmitProof", cu.svc.SubmitProof, wreq), ("Prove", cu.svc.Prove, pb.ProveRequest(submit=wreq)),
                              ("PreloadSRS", cu.svc.PreloadSRS, pb.PreloadSrsRequest(circuit_id="wpost-32g"))):
            det = expect_error("%s of a ProofKind whose kind is not registered" % what, C.UNIMPLEMENTED,
                               "'%s'" % NEVER, fn, req, timeout=10)
            F.check("WindowPoSt" in det and "toy-cube" in det, "the message names the ProofKind and the kinds: %r" % det)
        F.check(cu.svc.GetStatus(pb.GetStatusRequest(), timeout=5) is not None, "still serving after UNIMPLEMENTED")
        if "snapdeals" not in KINDS:  # the rows without a registered kind still answer UNIMPLEMENTED
            expect_error("SnapDeals in proofmill_toy", C.UNIMPLEMENTED, "snapdeals", cu.svc.SubmitProof,
                         pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE, vanilla_proofs=[b"v"]), timeout=10)
    finally:
        cu.close()
        rc, log = d.stop(expect_clean=False)
    F.check(rc == 0 and "ERROR: AddressSanitizer" not in log and "runtime error:" not in log and
            "WINNING_POST=toy-cube" in log and "WINDOW_POST_PARTITION=never-registered-kind (not registered" in log,
            "D4 exit %d:\n%s" % (rc, log[-4000:]))
    # gRPC jobs are journaled (#17, docs/daemon.md): kill -9 right after 12 submits, restart on the
    # same state directory: every job_id answers COMPLETED with a proof (re-queued, or from the
    # journal), a proof seen before the kill is the same after it
    sd = os.path.join(W, "toy-state")
    tset = {"filecoin.params_dir": tdir, "grpc.proof_kinds": "WINNING_POST=toy-cube", "prover.msm_threads": 1,
            "synthesis.workers": 1}
    d = pmd.Daemon(tset, grpc=True, bin=TOY, state_dir=sd)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    subs = [cu.svc.SubmitProof(toy("dur-%d" % i, b"3 35\n5 135\n"), timeout=30) for i in range(12)]
    # the first job done before the kill, by construction (a slow machine may not have finished it
    # while the 12 submits ran): await it to its end; its COMPLETED answer is journaled by then
    deadline = time.time() + 120
    while True:
        first = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=subs[0].job_id, timeout_ms=200), timeout=60)
        if first.status != pb.AwaitProofResponse.TIMEOUT or time.time() > deadline:
            break
    cu.close()
    d.kill()
    d = pmd.Daemon(tset, grpc=True, bin=TOY, state_dir=sd)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    try:
        F.check(all(re.match(r"^[0-9a-f]{32}$", s_.job_id) for s_ in subs), "gRPC job ids are the daemon's")
        for s_ in subs:
            a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=s_.job_id, timeout_ms=0), timeout=120)
            F.check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 2 * 192 and a.job_id == s_.job_id,
                    "gRPC job %s after kill -9 and restart: %s %r" % (s_.job_id, a.status, a.error_message))
        a = cu.svc.AwaitProof(pb.AwaitProofRequest(job_id=subs[0].job_id, timeout_ms=0), timeout=60)
        F.check(first.status == pb.AwaitProofResponse.COMPLETED and a.proof == first.proof,
                "the proof of a job done before the kill is kept (not proved again)")
        st, j = d.request("GET", "/v1/jobs/%s" % subs[-1].job_id)
        F.check(st == 200 and j.get("state") == "done", "a gRPC job through the HTTP API: %s %r" % (st, j.get("state")))
    finally:
        cu.close()
        d.stop()
else:
    F.check(os.environ.get("CI") != "true", "proofmill_toy / grpc_toy_params not built")
    print("NOTE: proofmill_toy / grpc_toy_params not built: the toy-kind part is not run")
mark("D4: a registered kind under a ProofKind")

# --- D5: an inconsistent key (the toy's .params with delta_2 negated: its proof of a satisfying
# witness fails its own .vk) fails the job with the key named and the "key" class, not as the
# request's fault (HTTP: 422 "key"; gRPC: AwaitProof FAILED with "key: ..." in error_message)
if os.path.exists(TOY) and os.path.exists(TOY_PARAMS):
    bdir = os.path.join(W, "toy-bad")
    os.makedirs(bdir)
    subprocess.run([TOY_PARAMS, bdir, "--inconsistent"], check=True, timeout=300)
    d = pmd.Daemon({"filecoin.params_dir": bdir, "grpc.proof_kinds": "WINNING_POST=toy-cube",
                    "prover.msm_threads": 1}, grpc=True, bin=TOY)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    try:
        r = cu.prove(pb.SubmitProofRequest(request_id="bad-key-1", proof_kind=pb.WINNING_POST, vanilla_proof=b"3 35\n",
                                           registered_proof=3, sector_size=2048, miner_id=1000))
        F.check(r.status == pb.AwaitProofResponse.FAILED and r.error_message.startswith("key: ") and
                "toy-cube.params" in r.error_message and "inconsistent" in r.error_message,
                "an inconsistent key: %s %r" % (r.status, r.error_message))
    finally:
        cu.close()
        rc, log = d.stop(expect_clean=False)
    F.check(rc == 0 and "ERROR: AddressSanitizer" not in log and "runtime error:" not in log, "D5 exit %d:\n%s" % (rc, log[-4000:]))
mark("D5: an inconsistent key")

# --- a taken gRPC port, a bad grpc.proof_kinds: clear start errors
# (each with a state directory of its own: the default one is shared with any other daemon of the
# user, whose lock would refuse the start for another reason)
r = subprocess.run([pmd.BIN, "daemon", "--listen", "127.0.0.1:0", "--set", "grpc.listen=127.0.0.1:0", "--set",
                    "grpc.proof_kinds=WINNING_POST=x,NOPE=y", "--set", "state.dir=" + os.path.join(W, "state-k")],
                   capture_output=True, text=True, timeout=120)
F.check(r.returncode == 2 and "grpc.proof_kinds" in r.stderr and "NOPE" in r.stderr, "bad grpc.proof_kinds: %d %s" %
        (r.returncode, r.stderr[-400:]))
import socket as _s  # noqa: E402
hold = _s.socket()
hold.bind(("127.0.0.1", 0))
hold.listen(1)
r = subprocess.run([pmd.BIN, "daemon", "--listen", "127.0.0.1:0", "--set",
                    "grpc.listen=127.0.0.1:%d" % hold.getsockname()[1], "--set", "state.dir=" + os.path.join(W, "state-p")],
                   capture_output=True, text=True, timeout=120)
hold.close()
F.check(r.returncode == 2 and "grpc.listen" in r.stderr and "cannot listen" in r.stderr, "port in use: %d %s" %
        (r.returncode, r.stderr[-400:]))

# --- on a machine with a CUDA device: GetStatus lists it (name, VRAM) and jobs name it
v = run("version", check=False).stdout
if "usable device" in v and " 0 usable" not in v:
    d = pmd.Daemon({"filecoin.params_dir": stub, "gpu.devices": "0"}, grpc=True)
    cu = Curio("127.0.0.1:%d" % d.grpc_port)
    try:
        s = cu.status()
        F.check(len(s.gpus) == 1 and s.gpus[0].ordinal == 0 and s.gpus[0].name and s.gpus[0].vram_total_bytes > 0,
                "GetStatus gpus: %r" % s)
        rs = cu.svc.SubmitProof(porep_request(env, "porep-1000-11"), timeout=30)
        F.check(rs.assigned_gpu == "0", "assigned_gpu: %r" % rs)
    finally:
        cu.close()
        d.stop()
else:
    print("NOTE: no CUDA device: the GetStatus GPU list is checked only on a GPU machine")
mark("port in use, GPU")
shutil.rmtree(W, ignore_errors=True)
if pmd.SANITIZE:
    print("(ran under AddressSanitizer + UBSan)")
F.done("test_grpc_cuzk")
