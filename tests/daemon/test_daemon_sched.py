#!/usr/bin/env python3
"""Scheduling through the daemon: under load a critical job overtakes queued low ones (and FIFO
holds within a priority); cancel removes a queued job at once and stops a running one at its next
stage boundary; memory reservations return to the keys alone afterwards."""
import os
import re
import time

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "powchain" not in fx:
    pmd.skip("tests/data/powchain missing")
key, w, vk = fx["powchain"]

# one synthesis worker and one GPU worker: a queue forms behind them
d = pmd.Daemon({"synthesis.workers": 1, "synthesis.lookahead": 1, "gpu.workers_per_device": 1,
                "prover.msm_threads": 1})
try:
    d.request("POST", "/v1/keys/preload", {"key": key})
    lows = []
    for i in range(8):
        st, j = d.submit(key, [w] * 3, priority="low", label="low%d" % i)
        F.check(st == 202, "submit low: %r" % (j,))
        lows.append(j["id"])
    st, j = d.submit(key, [w] * 3, priority="normal", label="normal")
    normal = j["id"]
    st, j = d.submit(key, [w] * 3, priority="critical", label="critical")
    crit = j["id"]
    done = {}
    for jid in lows + [normal, crit]:
        st, j = d.wait(jid)
        F.check(st == 200 and j["state"] == "done", "job %s: %r" % (jid, j))
        done[jid] = j["submitted_unix_ms"] + j["timings_ms"]["total"]
    order = sorted(done, key=lambda k: done[k])
    pos = {k: i for i, k in enumerate(order)}
    print("completion order:", ["crit" if k == crit else "norm" if k == normal else "low" for k in order])
    # admission is immediate (big budget): the first low jobs may already have partitions in flight,
    # but the critical one must overtake the rest, and normal must finish before the last lows
    F.check(pos[crit] <= 2, "critical finished at position %d" % pos[crit])
    F.check(pos[crit] < pos[normal] < pos[lows[-1]], "normal after critical, before the last low")
    F.check([pos[k] for k in lows] == sorted(pos[k] for k in lows), "FIFO within priority 'low'")

    # cancel: a long running job and a queued one behind it
    st, a = d.submit(key, [w] * 40, priority="normal")
    st, b = d.submit(key, [w] * 5, priority="normal")
    deadline = time.time() + 60
    while time.time() < deadline:
        st, ja = d.request("GET", "/v1/jobs/%s" % a["id"])
        if ja["partitions_done"] >= 1:
            break
        time.sleep(0.05)
    st, cb = d.request("DELETE", "/v1/jobs/%s" % b["id"])
    F.check(st == 200 and cb["state"] in ("cancelled", "cancelling"), "cancel queued: %r" % (cb,))
    st, ca = d.request("DELETE", "/v1/jobs/%s" % a["id"])
    F.check(st == 200 and ca["state"] in ("cancelling", "cancelled"), "cancel running: %r" % (ca,))
    st, ja = d.wait(a["id"])
    F.check(ja["state"] == "cancelled" and ja["error"]["code"] == "cancelled" and 1 <= ja["partitions_done"] < 40,
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
    F.check(s["jobs"]["cancelled"] == 2, "cancelled count: %r" % (s["jobs"],))
    F.check(s["memory"]["reserved_bytes"] == sum(k["bytes"] for k in s["keys"]), "reservations released: %r" %
            (s["memory"],))
finally:
    d.stop()
# jobs.max: beyond it, submit gets 503 "busy" (and the daemon keeps serving)
d = pmd.Daemon({"jobs.max": 2, "synthesis.workers": 1, "gpu.workers_per_device": 1, "prover.msm_threads": 1})
try:
    ids = [d.submit(key, [w] * 6)[1]["id"] for _ in range(2)]
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

# graceful drain: with shutdown.drain_s the job in flight at SIGTERM completes before the exit;
# keys.preload loads at start; paths.allow_prefix refuses paths outside it (403)
d = pmd.Daemon({"shutdown.drain_s": 60, "keys.preload": key, "synthesis.workers": 1,
                "gpu.workers_per_device": 1, "prover.msm_threads": 1,
                "paths.allow_prefix": os.path.dirname(os.path.dirname(key))})
try:
    st, s = d.request("GET", "/v1/status")
    F.check(any(k["path"] == key and k["pinned"] and k["state"] == "ready" for k in s["keys"]), "keys.preload")
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": "/etc/hostname"}]})
    F.check(st == 403 and b["error"]["code"] == "forbidden-path", "allow_prefix: %s %r" % (st, b))
    st, j = d.submit(key, [w] * 8)
    F.check(st == 202, "submit before drain")
    time.sleep(0.2)
finally:
    rc, log = d.stop()
F.check(re.search(r"job %s done: 8 partitions" % j["id"], log) is not None, "the job finished during the drain:\n" + log[-1500:])
F.done("test_daemon_sched")
