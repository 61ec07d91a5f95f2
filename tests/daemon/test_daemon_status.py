#!/usr/bin/env python3
"""/v1/status counts work waiting at every stage (#17 items 11-12): with one CPU slot, two
start-phase workers and jobs of many partitions, a poll must see partitions waiting for a stage
and a worker waiting for the device lock while jobs run (before, "queued 0, running N" hid them),
and the names say what runs where on a CPU machine (start phase on "cpu", pool "start", timings
"start" without the lock wait, which is "device_lock_wait")."""
import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
# every state the poll looks for is held, not passing: a blocker that runs until it is cancelled
# keeps both start-phase workers busy on the one CPU slot (one in its kernel region, the other
# waiting for the lock: start is the slow stage) and fills the budget, so that a second job waits
# for admission (before, 4 jobs of 8 partitions could all end between two polls on a fast machine)
d = pmd.Daemon(dict(pmd.HOLD, **{"prover.msm_threads": 1, "synthesis.workers": 2, "gpu.workers_per_device": 2,
                                 "cpu.device_slots": 1}))
try:
    blocker = pmd.hold(d)
    st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": w}] * 8})
    jid = j["id"]
    seen = {"admission": 0, "synthesis": 0, "start": 0, "device_lock": 0, "finalize": 0}

    def all_seen():
        st, s = d.request("GET", "/v1/status")
        for k in seen:
            seen[k] = max(seen[k], s["waiting"][k])
        return s if seen["device_lock"] >= 1 and seen["start"] + seen["synthesis"] >= 1 and seen["admission"] >= 1 \
            else None

    try:
        s = pmd.wait_until(all_seen, "the waiting states", step=0.01)
    except AssertionError:
        st, s = d.request("GET", "/v1/status")
    print("most waiting seen per stage: %r" % seen)
    F.check(s["start_phase_on"] == "cpu" and "start" in s["workers"] and "gpu" not in s["workers"],
            "names on a CPU machine: %r" % {k: s[k] for k in ("start_phase_on", "workers")})
    F.check(seen["device_lock"] >= 1, "a start-phase worker seen waiting for the device lock")
    F.check(seen["start"] + seen["synthesis"] >= 1, "partitions seen waiting for a stage")
    F.check(seen["admission"] >= 1, "a job seen waiting for admission while another runs")
    F.check(all(s["devices"][0].get(k) is not None for k in ("lock_waiting", "in_kernel")), "device fields")
    # the blocker's partitions waited for the lock (one was seen waiting): its timings say so
    b = pmd.release(d, blocker)
    t = b["timings_ms"]
    F.check("gpu" not in t and t["start"] > 0 and t["device_lock_wait"] > 0,
            "timings name the start phase and its lock wait: %r" % t)
    st, j = d.wait(jid)
    t = j["timings_ms"]
    F.check(j["state"] == "done" and "gpu" not in t and t["start"] > 0 and t["device_lock_wait"] >= 0,
            "the job behind it: done, timings %r" % t)
    st, m = d.request("GET", "/metrics")
    F.check("proofmill_device_lock_waiting" in m and 'pool="start"' in m, "metrics")
finally:
    d.stop()
F.done("test_daemon_status")
