#!/usr/bin/env python3
"""Priorities of the Filecoin kinds through the daemon (issue #16): a winning-post job submitted with
no priority is "critical" (its kind's default) and, submitted after 10 jobs at PoRep C2's priority
("normal") on one synthesis, one GPU worker and one finalizer, finishes before all of them (they all
wait behind a blocker until the winning-post job is in: before, the first of them could end before
it was submitted on a fast machine); its proof verifies.
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

# the budget holds the winning-post job (160 MB with its key) beside a 2 KiB WindowPoSt one (90 MB);
# a 2 KiB PoRep C2 job needs more
d = pmd.Daemon(dict(pmd.hold_settings("4G" if K.SLOW else "1G"),
                    **{"synthesis.workers": 1, "gpu.workers_per_device": 1, "finalize.threads": 1,
                       "prover.msm_threads": 2}))
try:
    blocker = pmd.hold(d)
    loads = []
    for i in range(10):
        st, j = d.request("POST", "/v1/jobs", dict(load, label="load%d" % i))
        F.check(st == 202, "submit %s %d: %d %r" % (load["kind"], i, st, j))
        loads.append(j.get("id"))
    st, j = d.request("POST", "/v1/jobs", K.body_of("winning-post", win_req, label="winning"))
    F.check(st == 202 and j.get("priority") == "critical" and j.get("state") == "queued",
            "winning-post submit (critical by default, queued): %d %r" % (st, j))
    pmd.release(d, blocker)
    st, wj = d.wait(j.get("id"), timeout=1800)
    if F.check(st == 200 and wj["state"] == "done", "winning-post job: %r" % (wj,)):
        # the order of the "done" log lines is the order the jobs ended in
        order = pmd.done_order(d.log_text(), [wj["id"]] + loads)
        before = order.index(wj["id"])
        print("%s jobs finished before the WinningPoSt: %d of 10 (%.1f s)" % (load["kind"], before, time.time() - t0))
        F.check(before == 0, "the WinningPoSt finished after %d of the 10 queued jobs" % before)
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
