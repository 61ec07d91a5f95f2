#!/usr/bin/env python3
"""Daemon API black-box test: every endpoint, every error a 4xx/5xx JSON body, API fuzz (malformed
JSON, unknown fields, wrong types, huge bodies, missing/unreadable paths, bad base64, unknown ids and
routes), the daemon keeps serving; TCP and unix socket; key preload/evict; metrics; SIGTERM clean
(also under -DPROOFMILL_SANITIZE=ON, where a sanitizer report fails the test). Short: a few seconds."""
import os
import socket
import stat
import tempfile

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
if "multiplier" not in fx:
    pmd.skip("tests/data/multiplier missing")
mkey, mw, mvk = fx["multiplier"]
pkey, pw, pvk = fx.get("powchain", fx["multiplier"])

d = pmd.Daemon({"http.max_body_bytes": "1M", "trace.enabled": "true", "log.level": "debug"}, unix=True)


def is_error(status, body, code, want_status=None):
    ok = isinstance(body, dict) and "error" in body and isinstance(body["error"], dict) and \
        body["error"].get("code") == code and isinstance(body["error"].get("message"), str) and status >= 400
    if want_status:
        ok = ok and status == want_status
    return F.check(ok, "expected error %s (%s), got %s %r" % (code, want_status, status, body))


try:
    # --- a good proof through both listeners
    st, j = d.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}], "priority": "critical",
                                             "label": "smoke"})
    F.check(st == 200 and j["state"] == "done" and len(j["proofs"]) == 1 and j["label"] == "smoke",
            "prove over TCP: %s %r" % (st, j))
    ok, out = pmd.verify_with_cli(mvk, j["proofs"][0])
    F.check(ok, "our verifier rejects the daemon's proof: " + out)
    st, j = d.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}, {"wtns": mw}]}, via_unix=True)
    F.check(st == 200 and j["state"] == "done" and len(j["proofs"]) == 2, "prove over unix socket: %r" % (j,))

    # --- submit + long-poll + timings
    st, j = d.submit(pkey, [pw, pw], priority="high", inline=True)
    F.check(st == 202 and j["state"] in ("queued", "running", "done"), "submit: %s %r" % (st, j))
    st, j = d.wait(j["id"])
    F.check(st == 200 and j["state"] == "done", "long-poll: %r" % (j,))
    t = j.get("timings_ms", {})
    F.check(all(k in t for k in ("queue", "srs_load", "synthesis", "start", "device_lock_wait", "finalize", "verify", "total")),
            "timings: %r" % (t,))

    # --- malformed requests: 4xx JSON every time
    st, b = d.request("POST", "/v1/jobs", raw=b'{"key": "x", ')
    is_error(st, b, "bad-json", 400)
    st, b = d.request("POST", "/v1/jobs", raw=b'\xff\xfe garbage')
    is_error(st, b, "bad-json", 400)
    st, b = d.request("POST", "/v1/jobs", raw=b'')
    is_error(st, b, "bad-json", 400)
    st, b = d.request("POST", "/v1/jobs", raw=b'[1,2,3]')
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": mw}], "colour": "red"})
    is_error(st, b, "unknown-field", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": mw, "extra": 1}]})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": 42, "inputs": [{"wtns": mw}]})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": []})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"inputs": [{"wtns": mw}]})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": mw}], "priority": "urgent"})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}], "wait_s": -1})
    is_error(st, b, "bad-request", 400)  # a negative wait is out of range, not of the wrong type
    F.check("0 or more" in b.get("error", {}).get("message", ""), "wait_s -1: %r" % (b,))
    st, b = d.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}], "wait_s": "5"})
    is_error(st, b, "bad-request", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns_b64": "!!!not base64"}]})
    is_error(st, b, "bad-base64", 400)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns_b64": "aGVsbG8gd29ybGQ="}]})
    is_error(st, b, "format", 422)
    st, b = d.request("POST", "/v1/jobs", {"key": "/nonexistent/k.zkey", "inputs": [{"wtns": mw}]})
    is_error(st, b, "io", 422)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": "/nonexistent/w.wtns"}]})
    is_error(st, b, "io", 422)
    F.check("/nonexistent/w.wtns" in b["error"]["message"], "the error names the file: %r" % (b,))
    unreadable = os.path.join(tempfile.mkdtemp(), "w.wtns")
    with open(unreadable, "wb") as f:
        f.write(open(mw, "rb").read())
    os.chmod(unreadable, 0)
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": unreadable}]})
    if os.geteuid() != 0:  # root reads anything
        is_error(st, b, "io", 422)
    st, b = d.request("POST", "/v1/jobs", {"key": pkey, "inputs": [{"wtns": mw}]} if pkey != mkey else
                      {"key": mkey, "inputs": [{"wtns": mkey}]})
    F.check(st == 422 and b["error"]["code"] in ("mismatch", "format"), "foreign witness: %s %r" % (st, b))
    st, b = d.request("POST", "/v1/jobs", {"key": mw, "inputs": [{"wtns": mw}]})
    is_error(st, b, "format", 422)
    # huge bodies: refused by Content-Length without being read, and when streamed
    # (the daemon answers 413 as soon as it sees the Content-Length, so send only the headers)
    for length in (2 << 20, (1 << 20) + 1, 1 << 40):
        s = socket.create_connection(("127.0.0.1", d.port))
        s.sendall(b"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Authorization: Bearer %s\r\nContent-Length: %d\r\n\r\n" % (d.token.encode(), length))
        s.settimeout(60)  # answered at once; generous for a loaded machine under ASan
        resp = b""
        try:
            while b"}}" not in resp:
                chunk = s.recv(65536)
                if not chunk:
                    break
                resp += chunk
        except OSError:
            pass
        s.close()
        F.check(resp.startswith(b"HTTP/1.1 413") and b'"body-too-large"' in resp,
                "huge Content-Length %d: %r" % (length, resp[:300]))
    # a chunked upload (no Content-Length) over the limit
    c = d.conn()
    c.putrequest("POST", "/v1/jobs")
    c.putheader("Transfer-Encoding", "chunked")
    c.putheader("Content-Type", "application/json")
    c.putheader("Authorization", "Bearer " + d.token)
    c.endheaders()
    chunk = b"y" * 65536
    for _ in range(20):
        c.send(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
    c.send(b"0\r\n\r\n")
    r = c.getresponse()
    import json as _json
    is_error(r.status, _json.loads(r.read()), "body-too-large", 413)
    c.close()
    # raw garbage on the socket: the daemon must survive it
    s = socket.create_connection(("127.0.0.1", d.port))
    s.sendall(b"\x00\x01\x02 NOT HTTP\r\n\r\n")
    s.settimeout(5)
    try:
        s.recv(4096)
    except OSError:
        pass
    s.close()
    # a directory where a file is expected
    st, b = d.request("POST", "/v1/jobs", {"key": mkey, "inputs": [{"wtns": os.path.dirname(mw)}]})
    F.check(st == 422 and b["error"]["code"] in ("io", "format"), "directory as witness: %s %r" % (st, b))
    # mutation fuzz: random edits of a valid body; every answer is JSON, 202 or a 4xx/507
    import json as _j, random
    seed = int(os.environ.get("PROOFMILL_SEED", str(int.from_bytes(os.urandom(4), "little"))))
    print("fuzz seed: %d (rerun with PROOFMILL_SEED=%d)" % (seed, seed))
    rnd = random.Random(seed)
    valid = _j.dumps({"key": mkey, "inputs": [{"wtns": mw}, {"wtns_b64": "d3RucwIAAAA="}], "priority": "low"}).encode()
    alphabet = b'{}[]":,\\ \x00\xff0123456789abcdefnulltrue-+.eE'
    for it in range(150):
        m = bytearray(valid)
        for _ in range(rnd.randint(1, 6)):
            op, pos = rnd.randint(0, 2), rnd.randrange(len(m))
            if op == 0:
                del m[pos]
            elif op == 1:
                m.insert(pos, rnd.choice(alphabet))
            else:
                m[pos] = rnd.choice(alphabet)
        st, b = d.request("POST", "/v1/jobs", raw=bytes(m))
        ok = isinstance(b, dict) and (st == 202 or (st in (400, 403, 413, 422, 507) and "error" in b))
        if not F.check(ok, "fuzz %d: %s %r for %r" % (it, st, b, bytes(m)[:200])):
            break
    # unknown routes, methods, ids
    st, b = d.request("GET", "/v1/nothing")
    is_error(st, b, "not-found", 404)
    st, b = d.request("GET", "/v1/jobs")
    is_error(st, b, "method-not-allowed", 405)
    st, b = d.request("PUT", "/v1/status")
    is_error(st, b, "method-not-allowed", 405)
    st, b = d.request("GET", "/v1/jobs/999999")
    is_error(st, b, "not-found", 404)
    st, b = d.request("GET", "/v1/jobs/abc")
    is_error(st, b, "not-found", 404)
    st, b = d.request("GET", "/v1/jobs/%s?wait=banana" % ("0" * 32))
    is_error(st, b, "bad-request", 400)
    st, b = d.request("DELETE", "/v1/jobs/999999")
    is_error(st, b, "not-found", 404)

    # --- keys: preload, evict, errors
    st, b = d.request("POST", "/v1/keys/preload", {"key": pkey})
    F.check(st == 200 and b["state"] == "ready", "preload: %s %r" % (st, b))
    st, s_ = d.request("GET", "/v1/status")
    F.check(st == 200 and any(k["path"] == pkey and k["pinned"] for k in s_["keys"]), "status keys: %r" % (s_,))
    # each key says what it does now ("activity": null once loaded) and its device-memory plan (null
    # on a CPU daemon; {tier, tier_name, streamed, ...} on the GPU: docs/daemon.md)
    F.check(all(k.get("activity", 0) is None and k.get("plan", 0) is None for k in s_["keys"]),
            "status keys' activity and plan: %r" % (s_["keys"],))
    st, b = d.request("POST", "/v1/keys/preload", {"key": "/nonexistent.zkey"})
    is_error(st, b, "io", 422)
    st, b = d.request("POST", "/v1/keys/preload", {"key": pkey, "x": 1})
    is_error(st, b, "unknown-field", 400)
    st, b = d.request("POST", "/v1/keys/evict", {"key": pkey})
    F.check(st == 200 and b["state"] == "evicted", "evict: %s %r" % (st, b))
    st, b = d.request("POST", "/v1/keys/evict", {"key": pkey})
    is_error(st, b, "not-found", 404)

    # --- status, metrics, trace
    st, s_ = d.request("GET", "/v1/status")
    F.check(st == 200 and s_["jobs"]["done"] >= 3 and s_["workers"]["start"]["total"] == 2 and
            s_["memory"]["budget_bytes"] > 0 and s_["memory"]["rss_bytes"] > 0 and s_["jobs"]["kinds"] == {} and
            all("job" not in dv for dv in s_["devices"]), "status: %r" % (s_,))
    st, m = d.request("GET", "/metrics")
    F.check(st == 200 and "proofmill_jobs_finished_total{state=\"done\"}" in m and
            "proofmill_memory_budget_bytes" in m and "# TYPE proofmill_http_requests_total counter" in m,
            "metrics: %s" % m[:300])
    # the proof-time histogram per kind (#39 item 7): cumulative buckets ending at +Inf = _count =
    # the done jobs, a _sum, every bucket line well formed (a Prometheus parser's view)
    import re as _re
    bl = _re.findall(r'^proofmill_proof_seconds_bucket\{kind="snarkjs",le="([^"]+)"\} (\d+)$', m, _re.M)
    cnt = _re.search(r'^proofmill_proof_seconds_count\{kind="snarkjs"\} (\d+)$', m, _re.M)
    sm = _re.search(r'^proofmill_proof_seconds_sum\{kind="snarkjs"\} ([0-9.]+)$', m, _re.M)
    F.check("# TYPE proofmill_proof_seconds histogram" in m and len(bl) == 14 and bl[-1][0] == "+Inf" and cnt and sm and
            int(bl[-1][1]) == int(cnt.group(1)) >= 3 and
            all(int(bl[i][1]) <= int(bl[i + 1][1]) for i in range(len(bl) - 1)) and
            all(float(bl[i][0]) < float(bl[i + 1][0]) for i in range(len(bl) - 2)) and float(sm.group(1)) > 0,
            "proof-time histogram: %r %r %r" % (bl, cnt and cnt.group(0), sm and sm.group(0)))
    # every exported family is documented in docs/metrics.md
    with open(os.path.join(pmd.SRC, "docs", "metrics.md")) as f_:
        mdoc = f_.read()
    fams = _re.findall(r"^# TYPE (\w+) ", m, _re.M)
    F.check(fams and all("`%s`" % n in mdoc for n in fams),
            "metrics missing from docs/metrics.md: %r" % [n for n in fams if "`%s`" % n not in mdoc])
    st, tr = d.request("GET", "/v1/trace")
    F.check(st == 200 and any(e.get("name") == "kernel" for e in tr["traceEvents"]), "trace")

    # --- still serving after all of that
    st, j = d.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}]})
    F.check(st == 200 and j["state"] == "done", "daemon still proves after the fuzz: %r" % (j,))
finally:
    rc, log = d.stop(expect_clean=False)

F.check(rc == 0, "SIGTERM exit status %d" % rc)
F.check("ERROR: AddressSanitizer" not in log and "ERROR: LeakSanitizer" not in log and "runtime error:" not in log,
        "sanitizer report in the log:\n" + log[-6000:])
F.check(not os.path.exists(d.unix_path), "unix socket removed at shutdown")
if pmd.SANITIZE:
    print("(ran under AddressSanitizer + UBSan)")

# --- configuration errors are reported, not crashed on
import subprocess
r = subprocess.run([pmd.BIN, "daemon", "--set", "gpu.workers_per_device=0"], capture_output=True, text=True)
F.check(r.returncode == 2 and "outside" in r.stderr, "bad knob: %d %s" % (r.returncode, r.stderr))
r = subprocess.run([pmd.BIN, "daemon", "--set", "no.such=1"], capture_output=True, text=True)
F.check(r.returncode == 2 and "unknown setting" in r.stderr, "unknown knob: %s" % r.stderr)
cf = os.path.join(tempfile.mkdtemp(), "bad.conf")
with open(cf, "w") as f:
    f.write("[synthesis]\nworkers = 2\n[memory]\nbudget = lots\n")
r = subprocess.run([pmd.BIN, "daemon", "--config", cf], capture_output=True, text=True)
F.check(r.returncode == 2 and "line 4" in r.stderr and "memory.budget" in r.stderr, "bad file: %s" % r.stderr)
r = subprocess.run([pmd.BIN, "daemon", "--dump-config"], capture_output=True, text=True)
F.check(r.returncode == 0 and "workers_per_device = 2" in r.stdout, "dump-config")
# SIGHUP re-reads the reloadable knobs; a bad file is refused and the old settings stay
import signal
d2 = pmd.Daemon(config_text="[http]\nmax_body_bytes = 1M\nmax_buffered_bytes = 4K\n")
cfgp = os.path.join(d2.tmp, "proofmill.conf")
body3k = b'{"key":"/' + b"k" * 3000 + b'","inputs":[{"wtns":"/x"}]}'  # absolute: a relative path is refused (403)
st, b = d2.request("POST", "/v1/jobs", raw=body3k)
F.check(st == 422, "3 KB body accepted before reload: %s %r" % (st, b))
# all connections together may not hold more than http.max_buffered_bytes of bodies
st, b = d2.request("POST", "/v1/jobs", raw=b'{"key":"' + b"k" * 6000 + b'"}')
is_error(st, b, "busy", 503)
st, b = d2.request("POST", "/v1/jobs", raw=body3k)
F.check(st == 422, "buffer accounting released after a refused body: %s %r" % (st, b))
with open(cfgp, "w") as f:
    f.write("[http]\nmax_body_bytes = 2K\n[log]\nlevel = debug\n")
d2.proc.send_signal(signal.SIGHUP)
# the reload is logged once the new settings are in (a fixed 5 s of polling could end before it on
# a loaded machine, and the next request then met the old limit)
pmd.wait_until(lambda: "reloaded" in d2.log_text(), "SIGHUP reload logged")
st, b = d2.request("POST", "/v1/jobs", raw=body3k)
is_error(st, b, "body-too-large", 413)
with open(cfgp, "w") as f:
    f.write("[http]\nmax_body_bytes = tiny\n")
d2.proc.send_signal(signal.SIGHUP)
try:
    pmd.wait_until(lambda: "reload failed" in d2.log_text(), "bad reload logged")
except AssertionError as e:
    F.check(False, "bad reload is logged: %s" % e)
st, j = d2.request("POST", "/v1/prove", {"key": mkey, "inputs": [{"wtns": mw}]})
F.check(st == 200 and j["state"] == "done", "serving after a failed reload")
rc2, _ = d2.stop(expect_clean=False)
F.check(rc2 == 0, "second daemon exit %d" % rc2)

# a body of many tiny JSON values (found while fuzzing the job-spec reader, docs/fuzzing.md): jansson
# held ~40 bytes per value before anything looked at the body (a 128 MB body of "0," 2.6 GB); the
# values are counted first and more than 100000 refused as bad-json, the memory never taken; a NUL
# byte, which jansson lets pass after a number, is refused too
d3 = pmd.Daemon(config_text="[http]\nmax_body_bytes = 40M\n")
rss0 = d3.rss_peak()
st, b = d3.request("POST", "/v1/jobs", raw=b'{"label":"x","inputs":[' + b"0," * (16 << 20) + b'0]}')
is_error(st, b, "bad-json", 400)
F.check("JSON values" in b.get("error", {}).get("message", ""), "many values: %r" % (b,))
grew = d3.rss_peak() - rss0
F.check(grew < (200 << 20), "a 32 MB body of tiny values grew the daemon by %d MB" % (grew >> 20))
st, b = d3.request("POST", "/v1/prove", raw=b'{"key":"k.zkey","inputs":[{"wtns":"w.wtns"}],"wait_s":1\x00}')
is_error(st, b, "bad-json", 400)  # jansson alone would drop the NUL after the number
st, b = d3.request("POST", "/v1/jobs", raw=b'{"label":"' + b"0," * (1 << 20) + b'","inputs":[{"wtns":"x"}]}')
F.check(st != 400 or b.get("error", {}).get("code") != "bad-json", "commas inside a string are no values: %r" % (b,))
rc3, _ = d3.stop(expect_clean=False)
F.check(rc3 == 0, "third daemon exit %d" % rc3)

# the example config parses; every knob of the table is documented in docs/engine.md
ex = os.path.join(pmd.SRC, "proofmill.conf.example")
r = subprocess.run([pmd.BIN, "daemon", "--config", ex, "--dump-config"], capture_output=True, text=True)
F.check(r.returncode == 0, "proofmill.conf.example: %s" % r.stderr)
# ... and its comments are --dump-config's, key for key (#39 item 7): every setting of the table is in
# it, under its section, with the same comment lines above it (scripts/conf-example.sh regenerates it)
def conf_entries(text):
    out, sect, com = {}, "", []
    for ln in text.splitlines():
        t = ln.strip()
        if t.startswith("["):
            sect, com = t, []
        elif t.startswith(";"):
            com.append(t)
        elif "=" in t:
            out[sect + t.split("=", 1)[0].strip()] = com
            com = []
        else:
            com = []
    return out
dump = conf_entries(subprocess.run([pmd.BIN, "daemon", "--dump-config"], capture_output=True, text=True).stdout)
exe = conf_entries(open(ex).read())
F.check(len(dump) > 30 and set(dump) == set(exe),
        "proofmill.conf.example's settings differ from --dump-config's: %r" % sorted(set(dump) ^ set(exe)))
F.check(all(exe.get(k) == c for k, c in dump.items()),
        "proofmill.conf.example's comments differ from --dump-config's for %r" % [k for k, c in dump.items() if exe.get(k) != c])
r = subprocess.run([pmd.BIN, "daemon", "--dump-config-markdown"], capture_output=True, text=True)
doc = open(os.path.join(pmd.SRC, "docs", "engine.md")).read()
for line in r.stdout.splitlines()[2:]:
    name = line.split("|")[1].strip()
    F.check(name in doc, "knob %s missing from docs/engine.md" % name)
F.done("test_daemon_api")
