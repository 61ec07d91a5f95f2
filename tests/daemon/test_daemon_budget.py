#!/usr/bin/env python3
"""Memory budget: memory.budget set to the key plus 1.5 jobs' working sets; 8 clients at once
(j = 8). Jobs must wait rather than exceed: the engine's peak reservation stays within the budget,
the daemon's peak resident size (VmHWM from /proc) grows by less than the budget over the idle
process (and, with a real key, stays under the budget outright), and every job finishes.
Uses the largest fixture available (sha256_64 from ../shared/fixtures, else powchain)."""
import os

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
name = next((n for n in ("shared_sha256_64", "shared_merkle_poseidon", "powchain") if n in fx), None)
if not name:
    pmd.skip("no fixture")
key, w, vk = fx[name]
PARTS = 1 if name.startswith("shared_") else 4

# 1. size the key and one job with a generous budget
d = pmd.Daemon({"prover.msm_threads": 1})
st, b = d.request("POST", "/v1/keys/preload", {"key": key})
st, s = d.request("GET", "/v1/status")
key_bytes = sum(k["bytes"] for k in s["keys"])
st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}] * PARTS})
F.check(st == 200 and j["state"] == "done", "sizing job: %r" % (j,))
ws = j["working_set_bytes"]
base_rss = d.rss_peak()
d.stop()

# the key costs its resident size plus, while it loads, the mapped file (plan's key_load_bytes)
load_bytes = os.path.getsize(key)
budget = key_bytes + load_bytes + ws + ws // 2
print("%s: key %.1f MiB resident (+%.1f MiB while loading), job working set %.1f MiB, budget %.1f MiB "
      "(key + 1.5 jobs); sizing run peak RSS %.1f MiB" %
      (name, key_bytes / 2**20, load_bytes / 2**20, ws / 2**20, budget / 2**20, base_rss / 2**20))

# 2. the real run: 8 concurrent clients against a budget for 1.5 jobs
d = pmd.Daemon({"memory.budget": budget, "synthesis.workers": 2, "gpu.workers_per_device": 2,
                "prover.msm_threads": 1})
idle_rss = d.rss_peak()  # the idle process (code, libraries, thread stacks): not engine memory
try:
    res = pmd.run_parallel(8, list(range(8)), lambda i: d.request(
        "POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}] * PARTS, "priority": ["low", "high"][i % 2]}))
    for st, j in res:
        F.check(st == 200 and j["state"] == "done", "job under budget: %s %r" % (st, j))
    st, s = d.request("GET", "/v1/status")
    peak_res = s["memory"]["reserved_peak_bytes"]
    rss = d.rss_peak()
    print("budget %.1f MiB: peak reservation %.1f MiB, peak RSS %.1f MiB (idle process %.1f MiB)" %
          (budget / 2**20, peak_res / 2**20, rss / 2**20, idle_rss / 2**20))
    F.check(peak_res <= budget, "reservation exceeded the budget")
    F.check(rss - idle_rss <= budget, "RSS growth %d above the budget %d" % (rss - idle_rss, budget))
    F.check(peak_res >= key_bytes + ws, "the budget was used (one job at a time at least)")
    if budget > 8 * idle_rss:  # a real key (sha256_64): the whole process stays under the budget too
        F.check(rss <= budget, "peak RSS %d above the budget %d" % (rss, budget))
    F.check(s["jobs"]["done"] == 8, "all 8 jobs done")
finally:
    d.stop()
F.done("test_daemon_budget")
