"""pmd.py — helpers for the daemon's black-box tests (tests/daemon/test_*.py).

Starts `proofmill daemon` ($PROOFMILL_BIN) on 127.0.0.1 with a free port (port 0; the bound port
is read from the daemon's log) and/or a unix socket (gRPC off unless grpc=True: then also on a free
loopback port, self.grpc_port, or grpc="unix:///path"), talks HTTP/1.1 to it with the standard
library only, and stops it with SIGTERM, checking a clean exit (status 0, no sanitizer report).
bin= runs another build of the command (e.g. proofmill_toy, linked with a test-only kind).
Exit code 77 = skipped (ctest SKIP_RETURN_CODE) when the binary is missing.

Timing: a check never depends on one job being slower or faster than another, or on a sleep being
long enough. A job that must still be queued (or running) while a check runs waits behind hold()
(a job that runs until release() cancels it, on a daemon started with HOLD); a state reached
asynchronously is polled for with wait_until() and a generous deadline (a loaded 2-core machine
under ASan is 10-50 times slower than an idle one).
"""
import base64
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
SRC = os.environ.get("PROOFMILL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("PROOFMILL_BIN", "")
SANITIZE = os.environ.get("PROOFMILL_SANITIZE", "OFF").upper() in ("ON", "1", "TRUE")


def skip(msg):
    print("SKIP:", msg)
    sys.exit(SKIP)


def fixtures():
    """name -> (zkey, wtns, vk) for the repo copies and, when present, ../shared/fixtures."""
    out = {}
    data = os.path.join(os.path.realpath(SRC), "tests", "data")
    for name in ("multiplier", "powchain"):
        d = os.path.join(data, name)
        if os.path.exists(os.path.join(d, "circuit.zkey")):
            out[name] = (os.path.join(d, "circuit.zkey"), os.path.join(d, "witness.wtns"),
                         os.path.join(d, "verification_key.json"))
    shared = os.path.normpath(os.path.join(SRC, "..", "shared", "fixtures", "bls12381"))
    if os.path.isdir(shared):
        for name in ("multiplier", "merkle_poseidon", "sha256_64"):
            d = os.path.join(shared, name)
            d = os.path.realpath(d)  # no symbolic link in a path the daemon opens (paths.allow_prefix)
            if os.path.exists(os.path.join(d, "circuit.zkey")):
                out["shared_" + name] = (os.path.join(d, "circuit.zkey"), os.path.join(d, "witness.wtns"),
                                         os.path.join(d, "verification_key.json"))
    else:
        print("NOTE: ../shared/fixtures absent: using the repo's tests/data fixtures only")
    return out


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=120):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        s.connect(self.unix_path)
        self.sock = s


class Daemon:
    """settings: --set overrides. By default the daemon keeps its journal and token in <tmp>/state
    (state_dir= another directory, e.g. to restart over the same journal) and may open any path
    (paths.allow_prefix = /); requests over TCP carry the token (token=False: none)."""

    def __init__(self, settings=None, unix=False, tcp=True, config_text=None, grpc=False, bin=None, state_dir=None,
                 token=True, unix_path=None):
        bin = bin or BIN
        if not bin or not os.path.exists(bin):
            skip("%s not built" % (bin or "PROOFMILL_BIN"))
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="pmd-"))
        self.state_dir = state_dir or os.path.join(self.tmp, "state")
        self.send_token = token
        settings = dict(settings or {})
        settings.setdefault("state.dir", self.state_dir)
        settings.setdefault("paths.allow_prefix", "/")
        if settings["state.dir"] == "off":
            settings.setdefault("http.token_file", os.path.join(self.tmp, "http.token"))
        self.token_path = settings.get("http.token_file") or os.path.join(self.state_dir, "http.token")
        self.log_path = os.path.join(self.tmp, "daemon.log")
        self.unix_path = unix_path or (os.path.join(self.tmp, "pm.sock") if unix else None)
        unix = unix or bool(unix_path)
        grpc_addr = "127.0.0.1:0" if grpc is True else (grpc or "")
        args = [bin, "daemon", "--set", "grpc.listen=" + grpc_addr, "--listen", "127.0.0.1:0" if tcp else ""]
        if not tcp:
            args[-2:] = ["--set", "listen.tcp="]
        if config_text is not None:
            cp = os.path.join(self.tmp, "proofmill.conf")
            with open(cp, "w") as f:
                f.write(config_text)
            args += ["--config", cp]
        if unix:
            args += ["--unix", self.unix_path]
        for k, v in settings.items():
            args += ["--set", "%s=%s" % (k, v)]
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.port = None
        self.grpc_port = None
        deadline = time.time() + 120  # ASan on a loaded 2-core machine: seconds to start
        while time.time() < deadline:
            text = self.log_text()
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text)
            g = re.search(r"ProvingEngine listening on (grpc://127\.0\.0\.1:(\d+)|unix:)", text)
            if (not tcp or m) and (not unix or "listening on unix:" in text) and (not grpc_addr or g):
                self.port = int(m.group(1)) if m else None
                self.grpc_port = int(g.group(2)) if g and g.group(2) else None
                self.token = None
                tp = self.token_path
                if os.path.exists(tp):
                    with open(tp) as f:
                        self.token = f.read().strip()
                return
            if self.proc.poll() is not None:
                raise RuntimeError("daemon exited at start:\n" + text)
            time.sleep(0.05)
        raise RuntimeError("daemon did not start:\n" + self.log_text())

    def log_text(self):
        with open(self.log_path) as f:
            return f.read()

    def conn(self, timeout=300):
        if self.port:
            return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        return UnixHTTPConnection(self.unix_path, timeout=timeout)

    def request(self, method, path, body=None, raw=None, headers=None, via_unix=False):
        """Returns (status, parsed JSON or text)."""
        c = UnixHTTPConnection(self.unix_path) if via_unix else self.conn()
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        h = {"Content-Type": "application/json"}
        if self.token and self.send_token and not via_unix and self.port:
            h["Authorization"] = "Bearer " + self.token
        h.update(headers or {})
        h = {k: v for k, v in h.items() if v is not None}  # headers=None values: leave that header out
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        text = r.read().decode("utf-8", "replace")
        c.close()
        ctype = r.getheader("Content-Type", "")
        if ctype.startswith("application/json"):
            return r.status, json.loads(text)
        return r.status, text

    def submit(self, key, wtns_list, priority="normal", label=None, inline=False):
        inputs = []
        for w in wtns_list:
            if inline:
                inputs.append({"wtns_b64": b64_file(w)})
            else:
                inputs.append({"wtns": w})
        body = {"key": key, "inputs": inputs, "priority": priority}
        if label:
            body["label"] = label
        return self.request("POST", "/v1/jobs", body)

    def wait(self, job_id, timeout=300):
        deadline = time.time() + timeout
        while True:
            st, j = self.request("GET", "/v1/jobs/%s?wait=30" % job_id)
            if st != 200 or j["state"] in ("done", "failed", "cancelled") or time.time() > deadline:
                return st, j

    def rss_peak(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        return 0

    def kill(self):
        """SIGKILL (no shutdown at all: the journal and a stale socket file stay behind)."""
        self.proc.kill()
        self.proc.wait(timeout=60)
        self.log.close()
        return self.log_text()

    def stop(self, expect_clean=True):
        """SIGTERM; the daemon must exit 0 within 120 s with no sanitizer report."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("daemon did not stop within 120 s of SIGTERM")
        self.log.close()
        text = self.log_text()
        if expect_clean:
            assert rc == 0, "daemon exit status %d:\n%s" % (rc, text[-4000:])
            assert "ERROR: AddressSanitizer" not in text and "ERROR: LeakSanitizer" not in text and \
                "runtime error:" not in text, "sanitizer report:\n" + text[-8000:]
            assert "stopped" in text, text[-2000:]
            if self.unix_path:
                assert not os.path.exists(self.unix_path), "unix socket left behind"
        return rc, text


# Settings (merge them into a daemon's) under which hold() keeps every later job waiting for
# admission: with the synthesis lookahead out of the way, the blocker's window (the partitions of one
# job the engine lets into the pipeline and charges to memory.budget at once) is as many powchain
# partitions as fit the budget beside its key, so less than one partition's worth stays free, and
# any other job (one partition more, or another key) waits until the blocker ends. The budget must
# hold the largest job the test runs alone (pass a bigger one, e.g. "1G", for Filecoin kinds).
def hold_settings(budget="16M"):
    return {"memory.budget": budget, "synthesis.lookahead": 65536}


HOLD = hold_settings()


def hold(d, key=None, wtns=None, n=4000, priority="critical", label="hold"):
    """Submit the blocker: n partitions of the powchain fixture (key, wtns: copies of it where the
    daemon confines paths), far more than any test needs (a fast machine proves one in ~17 ms), so it
    runs until release(). Returns its id."""
    if key is None:
        key, wtns, _ = fixture("powchain")
    st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": wtns}] * n, "priority": priority,
                                           "label": label})
    if st != 202:
        raise AssertionError("the blocker job was refused: %s %r" % (st, j))
    return j["id"]


def release(d, job_id):
    """Cancel the blocker and wait for its end: the jobs behind it go. Raises unless it ends cancelled
    (a blocker that ended by itself would have let the jobs behind it go early)."""
    st, j = d.request("DELETE", "/v1/jobs/%s" % job_id)
    if st != 200:
        raise AssertionError("cancel of the blocker: %s %r" % (st, j))
    st, j = d.wait(job_id)
    if st != 200 or j.get("state") != "cancelled":
        raise AssertionError("the blocker did not end cancelled: %s %r" % (st, j))
    return j


def wait_until(pred, what, timeout=120, step=0.02):
    """Poll pred() until it returns a true value (returned); AssertionError naming what after
    timeout seconds."""
    deadline = time.time() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.time() > deadline:
            raise AssertionError("%s: not within %d s" % (what, timeout))
        time.sleep(step)


def done_order(log, ids):
    """The ids among ids that have a "done" log line, in the order of those lines (the daemon writes
    them in completion order: one notifier thread, docs/engine.md)."""
    at = {}
    for m in re.finditer(r"job ([0-9a-f]{32}) \[[^]]*\] done: ", log):
        at.setdefault(m.group(1), m.start())
    return sorted((i for i in ids if i in at), key=lambda i: at[i])


def n_queued(d):
    """Jobs waiting for admission (every priority)."""
    st, s = d.request("GET", "/v1/status")
    return sum(s["jobs"]["queued"].values()) if st == 200 else 0


def fixture(name):
    """(zkey, wtns, vk) of fixture name, or skip the test when it is missing."""
    fx = fixtures()
    if name not in fx:
        skip("fixture %s missing" % name)
    return fx[name]


def b64_file(path):
    """The file's bytes as base64 text (an inline input, "<input>_b64")."""
    with open(path, "rb") as f:
        return base64.b64encode(f.read()).decode()


def snarkjs():
    p = os.path.join(SRC, "tests", "oracles", "node_modules", ".bin", "snarkjs")
    return p if os.path.exists(p) else None


def snarkjs_verify(vk_path, proof_obj):
    """Run `snarkjs groth16 verify` on one engine proof; returns True/False, or None without snarkjs."""
    sj = snarkjs()
    if not sj:
        return None
    d = tempfile.mkdtemp(prefix="pmd-sj-")
    pp, xp = os.path.join(d, "proof.json"), os.path.join(d, "public.json")
    with open(pp, "w") as f:
        json.dump(proof_obj["proof"], f)
    with open(xp, "w") as f:
        json.dump(proof_obj["public"], f)
    r = subprocess.run([sj, "groth16", "verify", vk_path, xp, pp], capture_output=True, text=True, timeout=300)
    return r.returncode == 0 and "OK" in r.stdout


def verify_with_cli(vk_path, proof_obj):
    """Our verifier through `proofmill groth16 verify` (the CLI engineer's command)."""
    d = tempfile.mkdtemp(prefix="pmd-v-")
    pp, xp = os.path.join(d, "proof.json"), os.path.join(d, "public.json")
    with open(pp, "w") as f:
        json.dump(proof_obj["proof"], f)
    with open(xp, "w") as f:
        json.dump(proof_obj["public"], f)
    r = subprocess.run([BIN, "groth16", "verify", vk_path, xp, pp], capture_output=True, text=True, timeout=120)
    return r.returncode == 0, r.stdout + r.stderr


class Failures:
    def __init__(self):
        self.n = 0

    def check(self, cond, msg):
        if not cond:
            self.n += 1
            print("FAIL:", msg)
        return cond

    def done(self, name):
        if self.n:
            print("%s: %d failure(s)" % (name, self.n))
            sys.exit(1)
        print("%s: all checks passed" % name)
        sys.exit(0)


def run_parallel(n_threads, items, fn):
    """Call fn(item) for every item with n_threads client threads; returns the results in item order."""
    results = [None] * len(items)
    lock = threading.Lock()
    nxt = [0]

    def worker():
        while True:
            with lock:
                i = nxt[0]
                nxt[0] += 1
            if i >= len(items):
                return
            results[i] = fn(items[i])

    ts = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return results
