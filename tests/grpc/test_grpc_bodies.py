#!/usr/bin/env python3
"""gRPC request bodies inside the memory bound (hostile review of the daemon, #17): with
memory.budget = 256M, 16 concurrent SubmitProof calls of 100 MB each reached 1.5 GiB VmHWM, each
body written and fsynced to the spool before the 64 MiB input limit refused it.

Checks: a message over the 65 MiB receive limit (64 MiB vanilla proof + 1 MiB) is refused by gRPC
with RESOURCE_EXHAUSTED (its receive limit, or its memory quota resetting the stream) and nothing is ever spooled (the spool directory is watched during the
call); a vanilla proof of 64 MiB + 1 byte (a message under the receive limit) is refused with
INVALID_ARGUMENT naming the limit, nothing spooled; 16 concurrent 100 MB calls keep the daemon's
VmHWM (/proc/PID/status) under 400 MB; 16 concurrent 60 MB calls (under the limit) each get an
answer (RESOURCE_EXHAUSTED when grpc.max_buffered_bytes, here memory.budget / 4, is full; a
format error for the ones let in) and VmHWM stays under 8 of them (480 MB above the start) where
it held every body at once (~720 MB) before (bounds + 300 MB under ASan: its quarantine); the daemon then still serves and stops cleanly.
"""
import os
import sys
import threading
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_stubs  # noqa: E402
import pmd  # noqa: E402

grpc, pb, pbg = cuzk_stubs.load()
C = grpc.StatusCode
F = pmd.Failures()
MIB = 1 << 20
# under ASan, freed blocks wait in its quarantine (256 MB by default) before they are reused
SLACK = 300 * MIB if pmd.SANITIZE else 0

d = pmd.Daemon({"memory.budget": "256M"}, grpc=True)
spool = os.path.join(d.state_dir, "spool")
seen = set()
watching = [True]


def watch():  # every name that ever appears in the spool while the oversized calls run
    while watching[0]:
        try:
            seen.update(os.listdir(spool))
        except OSError:
            pass
        time.sleep(0.001)


ch = grpc.insecure_channel("127.0.0.1:%d" % d.grpc_port, options=[("grpc.max_send_message_length", 256 * MIB)])
svc = pbg.ProvingEngineStub(ch)


def submit(i, n):
    try:
        svc.SubmitProof(pb.SubmitProofRequest(request_id="b%d-%d" % (n, i), proof_kind=pb.POREP_SEAL_COMMIT,
                                              registered_proof=8, vanilla_proof=b"x" * n), timeout=300)
        return "ok", ""
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


try:
    hwm0 = d.rss_peak()
    w = threading.Thread(target=watch)
    w.start()
    code, det = submit(0, 100 * 1000 * 1000)
    # refused by gRPC: its receive limit, or its memory quota (grpc.max_buffered_bytes) resetting the stream
    F.check(code == C.RESOURCE_EXHAUSTED and ("larger than max" in det or "RST_STREAM" in det), "100 MB message: %s %r" % (code, det))
    code, det = submit(0, 64 * MIB + 1)
    F.check(code == C.INVALID_ARGUMENT and "at most %d bytes" % (64 * MIB) in det,
            "64 MiB + 1 vanilla proof: %s %r" % (code, det))
    # 16 at once of 100 MB: each refused by gRPC, none held whole
    res = pmd.run_parallel(16, list(range(16)), lambda i: submit(i, 100 * 1000 * 1000))
    watching[0] = False
    w.join()
    F.check(all(c == C.RESOURCE_EXHAUSTED for c, _ in res), "16 x 100 MB: %r" % Counter(c for c, _ in res))
    F.check(not seen, "nothing spooled for oversized bodies: %r" % sorted(seen))
    hwm = d.rss_peak()
    print("VmHWM %d MB at start, %d MB after 16 x 100 MB" % (hwm0 >> 20, hwm >> 20))
    F.check(hwm < 400 * MIB + SLACK, "16 x 100 MB: VmHWM %d MB (was 1.5 GiB)" % (hwm >> 20))
    # 16 at once of 60 MB (under the limit: a C1 that does not parse): bounded by grpc.max_buffered_bytes
    hwm1 = d.rss_peak()
    # a call refused with UNAVAILABLE (the transport reset under the memory quota on a busy 2-core
    # machine: seen once in CI) is retried as a gRPC client would, up to 3 times; every call must end
    # with an answer of the daemon's
    def submit_retry(i, n):
        for _ in range(3):
            code, det = submit(i, n)
            if code != C.UNAVAILABLE:
                break
            print("60 MB call %d: UNAVAILABLE (%s), retried" % (i, det))
            time.sleep(1)
        return code, det
    res = pmd.run_parallel(16, list(range(16)), lambda i: submit_retry(i, 60 * MIB))
    kinds = Counter((c, "max_buffered" in det or "RST_STREAM" in det) for c, det in res)
    print("16 x 60 MB:", kinds)
    F.check(all(c in (C.RESOURCE_EXHAUSTED, C.INVALID_ARGUMENT) for c, _ in res), "16 x 60 MB answers: %r" % kinds)
    F.check(any(c == C.INVALID_ARGUMENT for c, _ in res), "some 60 MB bodies let in (and refused as no C1)")
    hwm = d.rss_peak()
    print("VmHWM %d MB after 16 x 60 MB" % (hwm >> 20))
    F.check(hwm - hwm1 < 480 * MIB + SLACK, "16 x 60 MB: VmHWM grew %d MB (8 bodies: 480 MB)" % ((hwm - hwm1) >> 20))
    # (a call reset by gRPC's memory quota may still be in its handler, spooling then refusing: bounded)
    t = time.time()
    while os.listdir(spool) and time.time() - t < 60:
        time.sleep(0.1)
    F.check(not os.listdir(spool), "spool empty after: %r" % os.listdir(spool))
    s = svc.GetStatus(pb.GetStatusRequest(), timeout=30)
    F.check(s.uptime_seconds >= 0, "still serving")
finally:
    watching[0] = False
    ch.close()
    d.stop()
F.done("test_grpc_bodies")
