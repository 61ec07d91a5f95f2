#!/usr/bin/env python3
"""Scheduling through the daemon: under load a critical job overtakes queued low ones (and FIFO
holds within a priority); cancel removes a queued job at once and stops a running one at its next
stage boundary; memory reservations return to the keys alone afterwards."""
import os
import re
import signal

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "powchain" not in fx:
    pmd.skip("tests/data/powchain missing")
key, w, vk = fx["powchain"]

# one synthesis worker, one start-phase worker, one finalizer: every stage takes the best partition
# in (priority, submit order), so the jobs end in exactly that order once they all wait together
d = pmd.Daemon(dict(pmd.HOLD, **{"synthesis.workers": 1, "gpu.workers_per_device": 1, "finalize.threads": 1,
                                 "prover.msm_threads": 1}))
try:
    d.request("POST", "/v1/keys/preload", {"key": key})
    # all submitted behind a blocker (so that none starts before the last is in: on a fast machine
    # the first low jobs used to end before the critical one was submitted), then released
    blocker = pmd.hold(d)
    lows = []
    for i in range(8):
        st, j = d.submit(key, [w] * 3, priority="low", label="low%d" % i)
        F.check(st == 202 and j["state"] == "queued", "submit low: %r" % (j,))
        lows.append(j["id"])
    st, j = d.submit(key, [w] * 3, priority="normal", label="normal")
    normal = j["id"]
    st, j = d.submit(key, [w] * 3, priority="critical", label="critical")
    crit = j["id"]
    pmd.release(d, blocker)
    for jid in lows + [normal, crit]:
        st, j = d.wait(jid)
        F.check(st == 200 and j["state"] == "done", "job %s: %r" % (jid, j))
    names = {crit: "crit", normal: "norm"}
    names.update({k: "low%d" % i for i, k in enumerate(lows)})
    order = pmd.wait_until(lambda: (lambda o: len(o) == 10 and o)(pmd.done_order(d.log_text(), list(names))),
                           "the 10 done lines in the log")
    print("completion order:", [names[k] for k in order])
    # critical first, then normal, then the lows in submit order (FIFO within a priority)
    F.check(order == [crit, normal] + lows, "completion order: %r" % [names[k] for k in order])

    # cancel: a running job (far too long to end by itself: 4000 partitions, it fills the budget)
    # and one queued for admission behind it
    NA = 4000
    st, a = d.submit(key, [w] * NA, priority="normal")
    st, b = d.submit(key, [w] * 5, priority="normal")
    F.check(b["state"] == "queued", "the second job waits for admission: %r" % (b,))
    pmd.wait_until(lambda: d.request("GET", "/v1/jobs/%s" % a["id"])[1]["partitions_done"] >= 1,
                   "a partition of the running job done")
    st, cb = d.request("DELETE", "/v1/jobs/%s" % b["id"])
    F.check(st == 200 and cb["state"] == "cancelled", "cancel queued: removed at once: %r" % (cb,))
    st, ca = d.request("DELETE", "/v1/jobs/%s" % a["id"])
    F.check(st == 200 and ca["state"] in ("cancelling", "cancelled"), "cancel running: %r" % (ca,))
    st, ja = d.wait(a["id"])
    F.check(ja["state"] == "cancelled" and ja["error"]["code"] == "cancelled" and 1 <= ja["partitions_done"] < NA,
            "running job stopped at a stage boundary: %r" % ({k: ja.get(k) for k in ("state", "partitions_done")},))
    F.check("proofs" not in ja, "a cancelled job returns no proofs")
    st, jb = d.wait(b["id"])
    F.check(jb["state"] == "cancelled", "queued job cancelled: %r" % (jb["state"],))
    st, again = d.request("DELETE", "/v1/jobs/%s" % a["id"])
    F.check(st == 200 and again["state"] == "cancelled", "cancel of a finished job is a no-op: %r" % (again,))
    # the daemon is still healthy and idle with only the key reserved
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200 and j["state"] == "done", "prove after cancels")
    st, s = d.request("GET", "/v1/status")
    F.check(s["jobs"]["cancelled"] == 3, "cancelled count (the blocker, a and b): %r" % (s["jobs"],))
    F.check(s["memory"]["reserved_bytes"] == sum(k["bytes"] for k in s["keys"]), "reservations released: %r" %
            (s["memory"],))
finally:
    d.stop()
# jobs.max: beyond it, submit gets 503 "busy" (and the daemon keeps serving)
d = pmd.Daemon({"jobs.max": 2, "synthesis.workers": 1, "gpu.workers_per_device": 1, "prover.msm_threads": 1})
try:
    ids = [pmd.hold(d, priority="normal") for _ in range(2)]  # in flight until cancelled
    st, b = d.submit(key, [w])
    F.check(st == 503 and b["error"]["code"] == "busy", "jobs.max: %s %r" % (st, b))
    st, s = d.request("GET", "/v1/status")  # both in flight, counted under their kind
    k = s["jobs"]["kinds"].get("snarkjs", {})
    F.check(k.get("queued", 0) + k.get("running", 0) == 2 and list(s["jobs"]["kinds"]) == ["snarkjs"],
            "jobs per kind: %r" % (s["jobs"],))
    for jid in ids:
        d.request("DELETE", "/v1/jobs/%s" % jid)
    for jid in ids:
        d.wait(jid)
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200 and j["state"] == "done", "serving after busy")
finally:
    d.stop()

# graceful drain: with shutdown.drain_s the job in flight at SIGTERM completes before the exit (the job
# waits behind a blocker until the SIGTERM is in, so it cannot end before it; the blocker is cancelled
# during the drain: DELETE is served while the daemon drains); keys.preload loads at start;
# paths.allow_prefix refuses paths outside it (403)
d = pmd.Daemon(dict(pmd.HOLD, **{"shutdown.drain_s": 60, "keys.preload": key, "synthesis.workers": 1,
                                 "gpu.workers_per_device": 1, "prover.msm_threads": 1,
                                 "paths.allow_prefix": os.path.dirname(os.path.dirname(key))}))
try:
    st, s = d.request("GET", "/v1/status")
    F.check(any(k["path"] == key and k["pinned"] and k["state"] == "ready" for k in s["keys"]), "keys.preload")
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": "/etc/hostname"}]})
    F.check(st == 403 and b["error"]["code"] == "forbidden-path", "allow_prefix: %s %r" % (st, b))
    blocker = pmd.hold(d)
    st, j = d.submit(key, [w] * 8)
    F.check(st == 202 and j["state"] == "queued", "submit before drain: %s %r" % (st, j))
    d.proc.send_signal(signal.SIGTERM)
    pmd.wait_until(lambda: "shutting down" in d.log_text(), "the SIGTERM received")
    st, cb = d.request("DELETE", "/v1/jobs/%s" % blocker)
    F.check(st == 200, "cancel during the drain: %s %r" % (st, cb))
finally:
    rc, log = d.stop()
m = re.search(r"job %s done: 8 partitions" % j["id"], log)
F.check(m is not None and log.index("shutting down") < m.start(),
        "the job finished during the drain:\n" + log[-1500:])
F.done("test_daemon_sched")
