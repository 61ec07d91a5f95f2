#!/usr/bin/env python3
"""`proofmill bench` against a running daemon (TCP and unix socket) and embedded: per-completion
lines in the documented form, a summary, a Chrome trace that parses, an SVG timeline with one row
per worker; a failing witness makes the bench exit 1 and print FAILED."""
import json
import os
import re
import subprocess
import tempfile

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "powchain" not in fx:
    pmd.skip("tests/data/powchain missing")
key, w, vk = fx["powchain"]
mkey, mw, _ = fx["multiplier"]
tmp = tempfile.mkdtemp(prefix="pmd-bench-")
LINE = re.compile(r"^\[(\d+)/(\d+)\] done \d+\.\d\d s \(start \d+ ms, queue \d+ ms\)$")


def bench(args):
    r = subprocess.run([pmd.BIN, "bench"] + args, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


d = pmd.Daemon({"trace.enabled": "true", "prover.msm_threads": 1}, unix=True)
os.environ["PROOFMILL_TOKEN_FILE"] = os.path.join(d.state_dir, "http.token")  # the bench's default token
try:
    # an older job, then a pause: the bench's timeline must cover the bench only, not the daemon's life
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200, "job before the bench: %s %r" % (st, j))
    import time
    PAUSE = 4.0
    time.sleep(PAUSE)
    trace, svg = os.path.join(tmp, "t.json"), os.path.join(tmp, "t.svg")
    rc, out, errs = bench(["batch", "--key", key, "--witness", w, "--witness", w, "-c", "6", "-j", "3",
                           "--daemon", "http://127.0.0.1:%d" % d.port, "--trace", trace, "--timeline", svg])
    lines = [l for l in out.splitlines() if l.startswith("[")]
    F.check(rc == 0, "bench exit %d: %s %s" % (rc, out, errs))
    F.check(len(lines) == 6 and all(LINE.match(l) for l in lines), "completion lines: %r" % lines)
    F.check(re.search(r"summary: 6/6 proofs ok in [\d.]+ s wall: [\d.]+ proofs/min, [\d.]+ s/proof", out), out)
    # the steady rate: from the 3rd completion (-j 3: the first round) to the 6th, over 3 proofs
    m = re.search(r"^steady: ([\d.]+) s/proof, ([\d.]+) proofs/min over the last 3 of 6 completions "
                  r"\(from completion 3 at ([\d.]+) s to ([\d.]+) s: ", out, re.M)
    wall = float(re.search(r"summary: 6/6 proofs ok in ([\d.]+) s wall", out).group(1))
    F.check(m and float(m.group(3)) <= float(m.group(4)) <= wall + 0.01
            and abs(float(m.group(1)) - (float(m.group(4)) - float(m.group(3))) / 3) < 0.011, "steady line: %s" % out)
    for name in ("wall", "start", "queue"):
        F.check(re.search(r"^\s+%s\s+avg\s+[\d.]+ ms\s+min\s+[\d.]+ ms\s+max\s+[\d.]+ ms$" % name, out, re.M),
                "summary row %s" % name)
    t = json.load(open(trace))
    names = {e["args"]["name"] for e in t["traceEvents"] if e.get("ph") == "M" and e["name"] == "thread_name"}
    # a CPU machine: the start-phase workers are named for the CPU slot they run on
    F.check({"synth-0", "cpu0-w0", "cpu0-w1", "finalize-0"} <= names, "trace rows: %r" % names)
    F.check(sum(1 for e in t["traceEvents"] if e.get("name") == "kernel") >= 6, "kernel events")
    s = open(svg).read()
    F.check(s.startswith("<svg") and s.rstrip().endswith("</svg>") and "cpu0-w1" in s and "<rect" in s, "svg")
    m = re.search(r"proofmill bench — ([\d.]+) s", s)
    wall = re.search(r"proofs ok in ([\d.]+) s wall", out)
    # the window is read from the daemon's uptime just before and after the bench: up to two status
    # calls more than the bench's wall (slow on a loaded machine), always less than the pause, which a
    # window starting before the bench would include
    F.check(m and wall and float(m.group(1)) < float(wall.group(1)) + PAUSE - 1.0,
            "the timeline spans the bench's own window (%s s) not the daemon's life (bench wall %s s)" %
            (m and m.group(1), wall and wall.group(1)))
    # over the unix socket, inline witnesses, a single proof
    rc, out, errs = bench(["single", "--key", key, "--witness", w, "--inline", "--daemon", "unix:" + d.unix_path])
    F.check(rc == 0 and "[1/1] done" in out, "single over unix: %d %s %s" % (rc, out, errs))
    # a foreign witness fails: exit 1, FAILED line with the daemon's error
    rc, out, errs = bench(["batch", "--key", key, "--witness", mw, "-c", "2", "-j", "2",
                           "--daemon", "http://127.0.0.1:%d" % d.port])
    F.check(rc == 1 and "FAILED" in out and "mismatch" in out, "failing bench: %d %s" % (rc, out))
finally:
    d.stop()

# tracing off: the results stand (exit 0) and a line says why there is no picture
d = pmd.Daemon({"prover.msm_threads": 1})
try:
    svg2 = os.path.join(tmp, "off.svg")
    rc, out, errs = bench(["batch", "--key", key, "--witness", w, "-c", "2", "-j", "2",
                           "--daemon", "http://127.0.0.1:%d" % d.port, "--timeline", svg2,
                           "--token-file", os.path.join(d.state_dir, "http.token")])
    F.check(rc == 0 and "summary: 2/2 proofs ok" in out and "no timeline: the daemon's tracing is off" in out
            and not os.path.exists(svg2) and "steady:" not in out, "bench with tracing off: %d %s %s" % (rc, out, errs))
    # with another daemon's token the daemon refuses the bench's requests (401), and the bench has
    # said which token file it read
    wrong = os.path.join(tmp, "other.token")
    with open(wrong, "w") as f:
        f.write("0" * 64 + "\n")
    os.chmod(wrong, 0o600)
    rc, out, errs = bench(["single", "--key", key, "--witness", w, "--daemon", "http://127.0.0.1:%d" % d.port,
                           "--token-file", wrong])
    F.check(rc != 0 and "401" in out + errs, "bench with a wrong token: %d %s %s" % (rc, out, errs))
    F.check("the API token of " + wrong in errs, "the bench says whose token it sent: %s" % errs)
finally:
    d.stop()

# embedded engine
rc, out, errs = bench(["batch", "--key", key, "--witness", w, "-c", "4", "-j", "2", "--partitions", "2",
                       "--msm-threads", "1", "--embedded"])
F.check(rc == 0 and "summary: 4/4 proofs ok" in out and "over the last 2 of 4 completions (from completion 2 at" in out,
        "embedded: %d %s %s" % (rc, out, errs))
rc, out, errs = bench(["batch", "--key", key])
F.check(rc == 2, "usage error exit 2")
F.done("test_daemon_bench")
