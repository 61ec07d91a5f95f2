#!/usr/bin/env python3
"""The Filecoin PoSt kinds through the daemon (issue #16), by kind name only:
 - window-post at 2 KiB end to end over HTTP: our seeded TEST parameters (`proofmill window-post
   params-setup`), a request over our sealed test sectors (`window-post gen`), given as the kind's
   inputs (one {"vanilla_b64"} per sector in "inputs", randomness_b64, registered_proof etc. as JSON
   numbers); the job is "high" by the kind's default, its proof_b64 is 192 bytes (filecoin-ffi's
   layout) and `proofmill window-post verify` accepts it;
 - hostile inputs get a clear 4xx naming the input: truncated, empty and garbage bincode, a huge
   length, trailing bytes, a changed comm_r (the partition's constraint check names sector and
   field), missing / foreign / non-numeric / negative registered_proof, short randomness, too many
   sectors for the size, no vanilla proof, another kind's field, bad base64;
 - with PROOFMILL_SLOW=1 also winning-post and snapdeals 2 KiB end to end (their parameters take
   10 s and minutes to make on 2 cores).
"""
import base64
import json
import shutil
import time

import pmd
import postkit as K

F = pmd.Failures()
t0 = time.time()
kinds = ["window-post"] + (["winning-post", "snapdeals"] if K.SLOW else [])
reqs = {k: K.setup_2k(k, 5 + i, ["--sectors", "2"] if k == "window-post" else []) for i, k in enumerate(kinds)}
print("parameters and requests: %.1f s" % (time.time() - t0))
want_prio = {"window-post": "high", "winning-post": "critical", "snapdeals": "normal"}

d = pmd.Daemon({"prover.msm_threads": 2})
try:
    for k in kinds:  # end to end
        t1 = time.time()
        st, j = d.request("POST", "/v1/prove", K.body_of(k, reqs[k], wait_s=1800))
        print("%s: %d in %.2f s: %s" % (k, st, time.time() - t1, json.dumps(j)[:200]))
        if F.check(st == 200 and j.get("state") == "done", "%s prove: %r" % (k, j)):
            F.check(j["kind"] == k and j["priority"] == want_prio[k], "kind / default priority: %r" % (j,))
            F.check(len(base64.b64decode(j["proof_b64"])) == 192 * j["partitions"], "proof_b64: 192 bytes a partition")
            ok, out = K.verify_cli(k, reqs[k], j["proof_b64"])
            F.check(ok, "%s verify of the daemon's proof: %s" % (k, out))

    # hostile inputs: a clear 4xx each, naming the input ("inputs[k]": the body's k-th vanilla proof)
    wd = K.body_of("window-post", reqs["window-post"], wait_s=120)
    v0 = K.vanilla(wd, 0)
    huge = bytearray(v0)
    huge[8 + 32:8 + 32 + 8] = b"\xff" * 8  # the length of vanilla_proof.sectors (after sector_id, comm_r)
    bad_comm = bytearray(v0)
    bad_comm[8 + 3] ^= 1  # comm_r of the first sector
    no_rp = {k: v for k, v in wd.items() if k != "registered_proof"}
    b64 = lambda b: base64.b64encode(b).decode()
    cases = [
        ("truncated vanilla", K.with_vanilla(wd, 0, v0[:100]), 422, "inputs[0]: offset 40: vanilla_proof.sectors"),
        ("one byte of vanilla", K.with_vanilla(wd, 0, b"\x00"), 422, "inputs[0]: offset 0: truncated"),
        ("huge length", K.with_vanilla(wd, 0, huge), 422, "inputs[0]: offset 40"),
        ("trailing bytes", K.with_vanilla(wd, 1, K.vanilla(wd, 1) + b"\x01"), 422, "inputs[1]: offset"),
        ("garbage", K.with_vanilla(wd, 1, b"\xa5" * 4000), 422, "inputs[1]"),
        ("changed comm_r", K.with_vanilla(wd, 0, bad_comm), 422, "not satisfied (sector 0, comm_r)"),
        ("no registered_proof", no_rp, 400, "needs its registered_proof"),
        ("a WinningPoSt registered_proof", dict(wd, registered_proof=0), 400, "is not a WindowPoSt proof"),
        ("unknown registered_proof", dict(wd, registered_proof=99), 400, "99 is not a PoSt proof"),
        ("registered_proof not a number", dict(no_rp, registered_proof_b64=b64(b"ten")), 422, "not a decimal digit"),
        ("negative registered_proof", dict(wd, registered_proof=-1), 400, "registered_proof must be"),
        ("short randomness", dict(wd, randomness_b64=b64(b"\x01" * 31)), 422, "randomness: 31 bytes"),
        ("three sectors at 2 KiB", dict(wd, inputs=wd["inputs"] + wd["inputs"][:1]), 400, "partition of 2 sectors"),
        ("no vanilla proof", dict(wd, inputs=[]), 400, "vanilla inputs"),
        ("a PoRep field", dict(wd, c1="/nonexistent"), 400, "input of kind porep-c2"),
        ("a PoRep field in inputs", dict(wd, inputs=wd["inputs"] + [{"c1_b64": "AA=="}]), 400,
         "inputs[%d]: 'c1_b64' is an input of kind porep-c2" % len(wd["inputs"])),
        ("a SnapDeals field", dict(wd, comm_r_old_b64="AA=="), 400, "input of kind snapdeals"),
        ("bad base64", dict(wd, randomness_b64="!!"), 400, "bad-base64"),
    ]
    for name, body, want_status, want in cases:
        st, j = d.request("POST", "/v1/prove", body)
        text = json.dumps(j)
        print("%-32s %d %.240s" % (name, st, text))
        F.check(st == want_status and want in text, "%s: want %d with %r" % (name, want_status, want))
finally:
    d.stop()
    shutil.rmtree(K.tmp, ignore_errors=True)
print("total %.1f s" % (time.time() - t0))
F.done("test_daemon_post")
