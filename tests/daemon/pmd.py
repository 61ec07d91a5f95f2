"""pmd.py — helpers for the daemon's black-box tests (tests/daemon/test_*.py).

Starts `proofmill daemon` ($PROOFMILL_BIN) on 127.0.0.1 with a free port (port 0; the bound port
is read from the daemon's log) and/or a unix socket (gRPC off unless grpc=True: then also on a free
loopback port, self.grpc_port, or grpc="unix:///path"), talks HTTP/1.1 to it with the standard
library only, and stops it with SIGTERM, checking a clean exit (status 0, no sanitizer report).
bin= runs another build of the command (e.g. proofmill_toy, linked with a test-only kind).
Exit code 77 = skipped (ctest SKIP_RETURN_CODE) when the binary is missing.
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
    data = os.path.join(SRC, "tests", "data")
    for name in ("multiplier", "powchain"):
        d = os.path.join(data, name)
        if os.path.exists(os.path.join(d, "circuit.zkey")):
            out[name] = (os.path.join(d, "circuit.zkey"), os.path.join(d, "witness.wtns"),
                         os.path.join(d, "verification_key.json"))
    shared = os.path.normpath(os.path.join(SRC, "..", "shared", "fixtures", "bls12381"))
    if os.path.isdir(shared):
        for name in ("multiplier", "merkle_poseidon", "sha256_64"):
            d = os.path.join(shared, name)
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
    def __init__(self, settings=None, unix=False, tcp=True, config_text=None, grpc=False, bin=None):
        bin = bin or BIN
        if not bin or not os.path.exists(bin):
            skip("%s not built" % (bin or "PROOFMILL_BIN"))
        self.tmp = tempfile.mkdtemp(prefix="pmd-")
        self.log_path = os.path.join(self.tmp, "daemon.log")
        self.unix_path = os.path.join(self.tmp, "pm.sock") if unix else None
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
        for k, v in (settings or {}).items():
            args += ["--set", "%s=%s" % (k, v)]
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.port = None
        self.grpc_port = None
        deadline = time.time() + 30
        while time.time() < deadline:
            text = self.log_text()
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text)
            g = re.search(r"ProvingEngine listening on (grpc://127\.0\.0\.1:(\d+)|unix:)", text)
            if (not tcp or m) and (not unix or "listening on unix:" in text) and (not grpc_addr or g):
                self.port = int(m.group(1)) if m else None
                self.grpc_port = int(g.group(2)) if g and g.group(2) else None
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
        h.update(headers or {})
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
                with open(w, "rb") as f:
                    inputs.append({"wtns_b64": base64.b64encode(f.read()).decode()})
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

    def stop(self, expect_clean=True):
        """SIGTERM; the daemon must exit 0 within 60 s with no sanitizer report."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("daemon did not stop within 60 s of SIGTERM")
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
