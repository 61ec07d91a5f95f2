#!/usr/bin/env python3
"""The gRPC front end's faults and isolation (label hostile: also under ASan). Runs on Debian's
python3-grpcio (re-executes itself with /usr/bin/python3 when this python lacks it; Skipped without
it, protoc or grpc_python_plugin); the client is generated here from the committed .proto.

Isolation: a gRPC client reaches only jobs submitted over gRPC, by the ids it was given.
AwaitProof(job_id="1") answered an HTTP client's job with its secret id and proof, CancelProof of a
small number cancelled another client's job; an HTTP job's id reached it too. Now: NOT_FOUND, and
the HTTP job runs on.
Durable cancel: CancelProof is journaled before it is answered, as HTTP DELETE: cancel, kill -9,
restart: the job ends cancelled (not proved); a journal that cannot take the cancel (an injected
full disk) answers UNAVAILABLE (it answered OK and the job ran again after a restart).
Transient faults: a SubmitProof the journal cannot take answers UNAVAILABLE (it was
FAILED_PRECONDITION, as if the request were at fault)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pmd

try:
    import grpc
    import google.protobuf  # noqa: F401
except ImportError as e:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    pmd.skip("Debian's python3-grpcio / python3-protobuf missing: %s" % e)

PROTOC = shutil.which("protoc")
PLUGIN = shutil.which("grpc_python_plugin")
if not PROTOC or not PLUGIN:
    pmd.skip("protoc / grpc_python_plugin missing (protobuf-compiler, protobuf-compiler-grpc)")
if not pmd.BIN or not os.path.exists(pmd.BIN):
    pmd.skip("PROOFMILL_BIN not built")
W = os.path.realpath(tempfile.mkdtemp(prefix="pmd-gf-"))
stubs = os.path.join(W, "stubs")
os.makedirs(stubs)
subprocess.run([PROTOC, "-I", os.path.join(pmd.SRC, "src", "daemon", "grpc", "proto"), "--python_out=" + stubs,
                "--grpc_python_out=" + stubs, "--plugin=protoc-gen-grpc_python=" + PLUGIN, "cuzk/v1/proving.proto"],
               check=True)
sys.path.insert(0, stubs)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as pbg  # noqa: E402

F = pmd.Failures()
C = grpc.StatusCode
key, w, vk = pmd.fixture("powchain")


def svc(d):
    ch = grpc.insecure_channel("127.0.0.1:%d" % d.grpc_port)
    return ch, pbg.ProvingEngineStub(ch)


def rpc(fn, req, timeout=60):
    """(code, details or the answer)"""
    try:
        return None, fn(req, timeout=timeout)
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


def http_state(d, jid):
    st, j = d.request("GET", "/v1/jobs/%s" % jid)
    return j.get("state") if st == 200 else "%s" % st


# a sealed 2 KiB sector's C1 (valid input: submit takes it; the stand-in parameters make the job fail
# at its key load, never prove: only whether it is cancelled, or run, matters here)
out = os.path.join(W, "s1")
subprocess.run([pmd.BIN, "porep", "seal", "--sector-size", "2KiB", "--zero", "--out", out, "--miner-id", "1000",
                "--sector", "1", "--ticket", "%064x" % 0x1111], check=True, capture_output=True, timeout=600)
c1 = open(os.path.join(out, "c1.json"), "rb").read()
import base64  # noqa: E402
import json  # noqa: E402
env = json.dumps({"SectorNum": 1, "Phase1Out": base64.b64encode(c1).decode(), "SectorSize": 2048},
                 separators=(",", ":")).encode()
params = os.path.join(W, "params")
os.makedirs(params)
# the stand-in parameter file of tests/grpc/test_grpc_cuzk.py (zero points: the key load fails)
import hashlib  # noqa: E402
import struct  # noqa: E402
ident = ("layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
         "drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges "
         "{ layers: 2, max_count: 2 }, tree: merkletree-poseidon_hasher-8-0-0 }")
stem = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-" + \
       hashlib.sha256(ident.encode()).hexdigest()
g1, g2 = b"\0" * 96, b"\0" * 192
body = g1 + g1 + g2 + g2 + g1 + g2 + struct.pack(">I", 40) + g1 * 40
for pt in (g1, g1, g1, g1, g2):
    body += struct.pack(">I", 1) + pt
open(os.path.join(params, stem + ".params"), "wb").write(body)


def porep(rid):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, vanilla_proof=env, sector_number=1, miner_id=1000)


opts = dict(pmd.hold_settings("80M"), **{"filecoin.params_dir": params, "synthesis.workers": 1,
                                         "prover.msm_threads": 1, "cpu.device_slots": 1, "jobs.retain_s": 3600})

# ---------------------------------------------------------------- isolation, durable cancel
state = os.path.join(W, "state")
d = pmd.Daemon(opts, grpc=True, state_dir=state)
ch, s = svc(d)
try:
    blocker = pmd.hold(d)  # an HTTP client's job, running until released
    for jid in ["0", "1", "2", "3", "5", "18446744073709551615", blocker]:
        code, det = rpc(s.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=1))
        F.check(code == C.NOT_FOUND, "AwaitProof(%s) of an HTTP job / engine number: NOT_FOUND, got %s %r" %
                (jid, code, det))
        code, det = rpc(s.CancelProof, pb.CancelProofRequest(job_id=jid))
        F.check(code == C.NOT_FOUND, "CancelProof(%s): NOT_FOUND, got %s %r" % (jid, code, det))
    F.check(http_state(d, blocker) == "running", "the HTTP job runs on: %s" % http_state(d, blocker))
    code, r = rpc(s.SubmitProof, porep("iso-1"))
    F.check(code is None and re.match(r"^[0-9a-f]{32}$", r.job_id or ""), "SubmitProof: %s %r" % (code, r))
    jid = r.job_id if code is None else ""
    code, a = rpc(s.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=1))
    F.check(code is None and a.status == pb.AwaitProofResponse.TIMEOUT and a.job_id == jid,
            "AwaitProof of its own queued job: %s %r" % (code, a))
    code, c = rpc(s.CancelProof, pb.CancelProofRequest(job_id=jid))
    F.check(code is None, "CancelProof of its own job: %s %r" % (code, c))
    d.kill()  # at once after the answer
finally:
    ch.close()
d = pmd.Daemon(opts, grpc=True, state_dir=state)
ch, s = svc(d)
try:
    st, j = d.wait(jid, timeout=120)
    F.check(st == 200 and j.get("state") == "cancelled", "cancelled over gRPC before kill -9: still cancelled after "
            "the restart, not run: %s %r" % (st, j))
    code, a = rpc(s.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=1))
    F.check(code is None and a.status == pb.AwaitProofResponse.CANCELLED, "AwaitProof after the restart: %s %r" %
            (code, a))
    code, det = rpc(s.AwaitProof, pb.AwaitProofRequest(job_id=blocker, timeout_ms=1))
    F.check(code == C.NOT_FOUND, "an HTTP job after a restart: NOT_FOUND to gRPC, got %s %r" % (code, det))
    pmd.release(d, blocker)
finally:
    ch.close()
    d.stop()

# ---------------------------------------------------------------- a cancel the journal refuses
# writes: 1 the start's purge, 2 the blocker's row, 3 the gRPC job's row, 4 on: full
state = os.path.join(W, "state2")
d = pmd.Daemon(dict(opts, **{"debug.journal_full_at": 4}), grpc=True, state_dir=state)
ch, s = svc(d)
try:
    blocker = pmd.hold(d)
    code, r = rpc(s.SubmitProof, porep("full-1"))
    F.check(code is None, "SubmitProof: %s %r" % (code, r))
    jid = r.job_id if code is None else ""
    code, c = rpc(s.CancelProof, pb.CancelProofRequest(job_id=jid))
    F.check(code == C.UNAVAILABLE, "CancelProof the journal cannot record: UNAVAILABLE (not OK), got %s %r" % (code, c))
    code, r = rpc(s.SubmitProof, porep("full-2"))
    F.check(code == C.UNAVAILABLE, "SubmitProof the journal cannot record: UNAVAILABLE, got %s %r" % (code, r))
    d.kill()
finally:
    ch.close()
d = pmd.Daemon(opts, grpc=True, state_dir=state)
try:
    F.check(http_state(d, jid) in ("queued", "running", "failed"),
            "a cancel answered UNAVAILABLE did not happen: %s" % http_state(d, jid))
    pmd.release(d, blocker)
finally:
    d.stop()
# ---------------------------------------------------------------- a cancel of an end not yet recorded
# writes: 1 the start's purge, 2 the job's row, 3 on: full: the job ends (its stub C1 fails) but its
# end is not journaled: AwaitProof and CancelProof both answer UNAVAILABLE (CancelProof answered OK,
# and after kill -9 the job ran again: #40 probe F3)
state = os.path.join(W, "state3")
d = pmd.Daemon(dict(opts, **{"debug.journal_full_at": 3}), grpc=True, state_dir=state)
ch, s = svc(d)
try:
    code, r = rpc(s.SubmitProof, porep("unrec-1"))
    F.check(code is None, "SubmitProof: %s %r" % (code, r))
    jid = r.job_id if code is None else ""
    code = None
    for _ in range(120):
        code, a = rpc(s.AwaitProof, pb.AwaitProofRequest(job_id=jid, timeout_ms=500))
        if code is not None or a.status != pb.AwaitProofResponse.TIMEOUT:
            break
    F.check(code == C.UNAVAILABLE, "AwaitProof of an end the journal refused: UNAVAILABLE, got %s" % code)
    code, c = rpc(s.CancelProof, pb.CancelProofRequest(job_id=jid))
    F.check(code == C.UNAVAILABLE, "CancelProof of an end the journal refused: UNAVAILABLE (not OK), got %s %r" % (code, c))
finally:
    ch.close()
    d.stop(expect_clean=False)
F.done("test_daemon_grpc_faults")
