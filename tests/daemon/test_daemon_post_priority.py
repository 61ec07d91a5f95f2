#!/usr/bin/env python3
"""Priorities of the Filecoin kinds through the daemon (issue #16): a winning-post job submitted with
no priority is "critical" (its kind's default) and, behind 10 queued jobs at PoRep C2's priority
("normal") on one synthesis and one GPU worker, finishes before at least 7 of them (up to 3 are in
flight already: one in the GPU stage, one synthesized ahead, one in synthesis); its proof verifies.
By default the 10 are 2 KiB WindowPoSt partitions at "normal" (the same queue a PoRep partition
waits in: a real 2 KiB PoRep partition takes 40-90 s on 2 cores); with PROOFMILL_SLOW=1 they are
10 real 2 KiB PoRep C2 jobs (parameters from PROOFMILL_POREP_PARAMS_DIR, else made here: minutes).
The queued jobs are cancelled once the WinningPoSt is done."""
import os
import shutil
import time

import pmd
import postkit as K

F = pmd.Failures()
t0 = time.time()
win_req = K.setup_2k("winning-post", 6)
if K.SLOW:
    pp = os.environ.get("PROOFMILL_POREP_PARAMS_DIR")
    if not pp:
        pp = os.path.join(K.tmp, "porep")
        K.pm("porep", "params-setup", "--sector-size", "2KiB", "--dir", pp, "--seed", "7", timeout=3600)
    sd = os.path.join(K.tmp, "seal")
    K.pm("porep", "seal", "--sector-size", "2KiB", "--zero", "--out", sd)
    load = {"kind": "porep-c2", "c1": os.path.join(sd, "c1.json"), "params_dir": pp}
else:
    load = K.body_of("window-post", K.setup_2k("window-post", 5, ["--sectors", "2"]))
load["priority"] = "normal"
print("parameters and requests: %.1f s" % (time.time() - t0))

d = pmd.Daemon({"synthesis.workers": 1, "synthesis.lookahead": 1, "gpu.workers_per_device": 1,
                "prover.msm_threads": 2})
try:
    loads = []
    for i in range(10):
        st, j = d.request("POST", "/v1/jobs", dict(load, label="load%d" % i))
        F.check(st == 202, "submit %s %d: %d %r" % (load["kind"], i, st, j))
        loads.append(j.get("id"))
    st, j = d.request("POST", "/v1/jobs", K.body_of("winning-post", win_req, label="winning"))
    F.check(st == 202 and j.get("priority") == "critical", "winning-post submit (critical by default): %d %r" % (st, j))
    st, wj = d.wait(j.get("id"), timeout=1800)
    if F.check(st == 200 and wj["state"] == "done", "winning-post job: %r" % (wj,)):
        win_end = wj["submitted_unix_ms"] + wj["timings_ms"]["total"]
        before = 0
        for jid in loads:
            st, lj = d.request("GET", "/v1/jobs/%s" % jid)
            before += lj["state"] == "done" and lj["submitted_unix_ms"] + lj["timings_ms"]["total"] <= win_end
        print("%s jobs finished before the WinningPoSt: %d of 10 (%.1f s)" % (load["kind"], before, time.time() - t0))
        F.check(before <= 3, "the WinningPoSt finished after %d of the 10 queued jobs" % before)
        ok, out = K.verify_cli("winning-post", win_req, wj["proof_b64"])
        F.check(ok, "winning-post verify: " + out)
    for jid in loads:  # the rest is not needed
        d.request("DELETE", "/v1/jobs/%s" % jid)
    for jid in loads:
        d.wait(jid, timeout=1800)
finally:
    d.stop()
    shutil.rmtree(K.tmp, ignore_errors=True)
print("total %.1f s" % (time.time() - t0))
F.done("test_daemon_post_priority")
