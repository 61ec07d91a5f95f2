#!/usr/bin/env python3
"""Where the daemon's start phase runs (gpu.devices, the engine builder's choice). Empty: every CUDA
device the GPU backend sees, else the CPU, and the start line says which and why; none: the CPU;
a malformed list: refused naming gpu.devices. With gpu.devices set, without a CUDA build or a GPU it
must refuse to start with a clear error and exit 2 (never prove silently on the CPU); that is checked,
then the test is skipped (77). With a GPU: 12 proofs (mixed fixtures, 4 clients) through the CUDA
start phase, all verified by our verifier, and the device's kernel time shows in /v1/status."""
import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "powchain" not in fx:
    pmd.skip("tests/data/powchain missing")

# gpu.devices empty (the default) and none: the builder's line, and what status reports
for devices in ("", "none"):
    d = pmd.Daemon({"gpu.devices": devices})
    try:
        st, s = d.request("GET", "/v1/status")
        line = [l for l in d.log_text().splitlines() if "engine groth16-" in l]
        F.check(st == 200 and len(line) == 1, "gpu.devices=%r: one engine line: %r" % (devices, line))
        on = s.get("start_phase_on")
        if devices == "none" or s.get("backend") == "groth16-cpu":
            F.check(s.get("backend") == "groth16-cpu" and on == "cpu" and all(v["kind"] == "cpu" for v in s["devices"]),
                    "gpu.devices=%r: CPU backend: %r" % (devices, s))
            why = "(chosen)" if devices == "none" else "(no CUDA device: "
            F.check(line and "start phase on the CPU, 1 slot(s) " + why in line[0], "why: %r" % line)
        else:  # a GPU machine: every device the GPU backend sees
            F.check(on == "gpu" and line and "(every device the GPU backend sees, none named)" in line[0],
                    "gpu.devices empty on a GPU machine: %r %r" % (s, line))
    finally:
        d.stop()
try:
    pmd.Daemon({"gpu.devices": "0,x"}).stop()
    F.check(False, "gpu.devices=0,x accepted")
except RuntimeError as e:
    F.check("gpu.devices" in str(e) and "not a list of device ids" in str(e), "refusal: %s" % str(e)[-500:])
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
