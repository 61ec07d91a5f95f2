#!/usr/bin/env python3
"""The daemon with gpu.devices set. Without a CUDA build or a GPU it must refuse to start with a clear
error and exit 2 (never prove silently on the CPU); that is checked, then the test is skipped (77).
With a GPU: 12 proofs (mixed fixtures, 4 clients) through the CUDA start phase, all verified by our
verifier, and the device's kernel time shows in /v1/status."""
import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "powchain" not in fx:
    pmd.skip("tests/data/powchain missing")
try:
    d = pmd.Daemon({"gpu.devices": "0", "finalize.threads": 4})
except RuntimeError as e:
    text = str(e)
    F.check("CUDA" in text, "refusal names CUDA: %s" % text[-500:])
    if F.n:
        F.done("test_daemon_gpu")
    pmd.skip("no CUDA backend or GPU here (daemon refused to start, as it should)")

try:
    names = [n for n in ("multiplier", "powchain", "shared_merkle_poseidon") if n in fx]
    items = [names[i % len(names)] for i in range(12)]

    def one(name):
        key, w, vk = fx[name]
        return name, d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}, {"wtns": w}]})

    for name, (st, j) in pmd.run_parallel(4, items, one):
        if F.check(st == 200 and j["state"] == "done", "%s: %s %r" % (name, st, j)):
            for p in j["proofs"]:
                ok, out = pmd.verify_with_cli(fx[name][2], p)
                F.check(ok, "%s: our verifier rejects: %s" % (name, out))
    st, s = d.request("GET", "/v1/status")
    F.check(s["backend"] == "groth16-cuda" and s["devices"][0]["kernel_ms"] > 0, "status: %r" % (s,))
finally:
    d.stop()
F.done("test_daemon_gpu")
