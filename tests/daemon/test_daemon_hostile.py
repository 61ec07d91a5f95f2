#!/usr/bin/env python3
"""A hostile local client against the daemon (#17 items 5-8, 13; label hostile: also under ASan).

paths (6): with the defaults only paths.key_dir / paths.input_dir (and filecoin.params_dir beside
  them) are allowed; a path outside, a missing one outside, '..' or a symbolic link below them is
  403 forbidden-path before anything is opened (no magic bytes, no existence), naming the settings
  that allow a directory (a relative path: as such); a witness swapped for a link after its job was
  accepted makes the job fail with forbidden-path, not read the other file.
start refused: a unix socket that cannot be made names listen.unix; a .params in keys.preload
  without its kind names KIND:PATH.
browsers (7): a text/plain POST is 415, a foreign Origin (or Sec-Fetch-Site: cross-site) 403, a
  foreign Host 421; an Origin listed in http.allowed_origins is served.
access (5): TCP without the token, or with a wrong one, is 401; the token file is 0600; the unix
  socket gets listen.unix_mode whatever the umask and needs no token; a token file others can read
  stops the start; a live daemon's socket is not taken over, a regular file is not replaced.
slow clients (8): http.max_connections idle connections that never finish their headers are
  closed after http.idle_timeout_s, so another client is served; http.per_ip_connections refuses
  the connections of one address past it.
SIGTERM during POST /v1/prove (13): the client is answered 503 shutting-down with the job (not
  202 "running"), the log says so, and after the restart the journaled job runs and is done."""
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import threading
import time

import pmd

F = pmd.Failures()
key0, w0, vk = pmd.fixture("powchain")


def err_is(st, b, code, status):
    return F.check(st == status and isinstance(b, dict) and b.get("error", {}).get("code") == code,
                   "expected %d %s, got %s %r" % (status, code, st, b))


# ---------------------------------------------------------------- paths (6)
top = os.path.realpath(__import__("tempfile").mkdtemp(prefix="pmd-host-"))
kd, idir, out = os.path.join(top, "keys"), os.path.join(top, "inputs"), os.path.join(top, "outside")
for p in (kd, idir, out):
    os.mkdir(p)
key, w = os.path.join(kd, "powchain.zkey"), os.path.join(idir, "w.wtns")
shutil.copy(key0, key)
shutil.copy(w0, w)
shutil.copy(w0, os.path.join(out, "w.wtns"))
fil = os.path.join(top, "fil")
os.mkdir(fil)
# the daemon starts in top, so the relative "keys/powchain.zkey" below would resolve inside paths.key_dir: it is
# refused all the same (a journalled job re-read after a restart elsewhere would name another file)
_cwd = os.getcwd()
os.chdir(top)
d = pmd.Daemon(dict(pmd.HOLD, **{"paths.allow_prefix": "", "paths.key_dir": kd, "paths.input_dir": idir,
                                  "prover.msm_threads": 1, "synthesis.workers": 1, "filecoin.params_dir": fil,
                                  "keys.preload": key}))
os.chdir(_cwd)
try:
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200 and j["state"] == "done", "a job inside the allowed directories: %s %r" % (st, j))
    # filecoin.params_dir stays allowed beside paths.key_dir (every gRPC job reads its key there):
    # a PoRep job naming it is refused for its missing C1, not for the path; each directory is
    # listed once (keys.preload's is paths.key_dir)
    st, b = d.request("POST", "/v1/jobs", {"kind": "porep-c2", "c1": os.path.join(idir, "none.json"), "params_dir": fil})
    F.check(st == 422 and b.get("error", {}).get("code") == "io" and "none.json" in json.dumps(b),
            "filecoin.params_dir allowed beside paths.key_dir: %s %r" % (st, b))
    line = [ln for ln in d.log_text().splitlines() if "paths: keys and inputs only below" in ln]
    F.check(line and line[0].count(kd) == 1 and fil in line[0] and idir in line[0], "the paths: line: %r" % line)
    st, b = d.request("POST", "/v1/jobs", {"key": "keys/powchain.zkey", "inputs": [{"wtns": w}]})
    F.check(st == 403 and "relative path" in json.dumps(b), "a relative path is named as such: %s %r" % (st, b))
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": "inputs/w.wtns"}]})
    F.check(st == 403 and "relative path" in json.dumps(b), "a relative input path is refused: %s %r" % (st, b))
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": w}], "label": "x" * 128})
    F.check(st == 400 and "at most 127" in json.dumps(b), "a label of 128 bytes is refused: %s %r" % (st, b))
    for bad in ("/etc/shadow", "/etc/passwd", "/nonexistent/x.zkey", os.path.join(out, "w.wtns"),
                kd + "/../outside/w.wtns", kd + "2/x.zkey"):
        st, b = d.request("POST", "/v1/jobs", {"key": bad, "inputs": [{"wtns": w}]})
        err_is(st, b, "forbidden-path", 403)
        F.check("paths.key_dir" in json.dumps(b) and "paths.allow_prefix" in json.dumps(b),
                "forbidden-path names the settings that allow a directory: %r" % b)
        F.check("magic" not in json.dumps(b) and "No such file" not in json.dumps(b), "no byte or existence leaks: %r" % b)
        st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": bad}]})
        err_is(st, b, "forbidden-path", 403)
        st, b = d.request("POST", "/v1/keys/preload", {"key": bad})
        err_is(st, b, "forbidden-path", 403)
    os.symlink("/etc/passwd", os.path.join(idir, "link.wtns"))
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": os.path.join(idir, "link.wtns")}]})
    err_is(st, b, "forbidden-path", 403)
    os.symlink(out, os.path.join(idir, "sub"))
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": os.path.join(idir, "sub", "w.wtns")}]})
    err_is(st, b, "forbidden-path", 403)
    # the swap: a job that runs until it is cancelled keeps the target queued for admission (jobs
    # ahead of it that end by themselves could end before the swap on a fast machine); then its
    # witness becomes a link to a valid witness outside (which would prove fine if the link were
    # followed), and the target goes
    victim = os.path.join(idir, "victim.wtns")
    shutil.copy(w0, victim)
    blocker = pmd.hold(d, key, w)
    st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": victim}]})
    F.check(st == 202 and j["state"] == "queued", "victim accepted, queued: %s %r" % (st, j))
    os.unlink(victim)
    os.symlink(os.path.join(out, "w.wtns"), victim)
    pmd.release(d, blocker)
    st, j = d.wait(j["id"])
    F.check(st == 200 and j["state"] == "failed" and j["error"]["code"] == "forbidden-path",
            "a witness swapped for a link after submit is not followed: %r" % (j,))
finally:
    d.stop()

# starts refused with what to do: a unix socket the daemon cannot create names listen.unix; a
# Filecoin .params preloaded without its kind says KIND:PATH
fake_params = os.path.join(top, "v28-stacked-proof-of-replication-x.params")
with open(fake_params, "wb") as f:
    f.write(os.urandom(4096))
for what, kw, needle in (
        ("unix socket in a missing directory", {"unix_path": os.path.join(top, "nodir", "pm.sock")}, "listen.unix"),
        ("keys.preload of a .params without its kind", {"settings": {"keys.preload": fake_params}}, "porep-c2:")):
    try:
        pmd.Daemon(**kw).stop()
        F.check(False, "%s: the daemon started" % what)
    except RuntimeError as e:
        F.check(needle in str(e), "%s: the message names %r: %s" % (what, needle, str(e)[-400:]))

# ---------------------------------------------------------------- browsers (7) and access (5)
old = os.umask(0)  # the socket's mode must not follow the umask
try:
    d = pmd.Daemon({"http.allowed_origins": "http://dash.local:8080"}, unix=True)
finally:
    os.umask(old)
try:
    mode = stat.S_IMODE(os.stat(d.unix_path).st_mode)
    F.check(mode == 0o660, "unix socket mode %o (listen.unix_mode 0660 under umask 000)" % mode)
    F.check(stat.S_IMODE(os.stat(d.token_path).st_mode) == 0o600, "token file is 0600")
    body = {"key": key0, "inputs": [{"wtns": w0}]}
    st, b = d.request("POST", "/v1/prove", body, headers={"Content-Type": "text/plain"})
    err_is(st, b, "unsupported-media-type", 415)
    st, b = d.request("POST", "/v1/prove", body, headers={"Content-Type": None})
    err_is(st, b, "unsupported-media-type", 415)
    st, b = d.request("POST", "/v1/prove", body, headers={"Origin": "http://evil.example"})
    err_is(st, b, "foreign-origin", 403)
    st, b = d.request("GET", "/v1/status", headers={"Origin": "null"})
    err_is(st, b, "foreign-origin", 403)
    st, b = d.request("GET", "/v1/status", headers={"Sec-Fetch-Site": "cross-site"})
    err_is(st, b, "foreign-origin", 403)
    st, b = d.request("POST", "/v1/jobs", body, headers={"Origin": "http://evil.example"}, via_unix=True)
    err_is(st, b, "foreign-origin", 403)
    st, b = d.request("GET", "/v1/status", headers={"Host": "attacker.example:%d" % d.port})
    err_is(st, b, "wrong-host", 421)
    st, b = d.request("GET", "/v1/status", headers={"Origin": "http://dash.local:8080"})
    F.check(st == 200, "an allowed Origin is served: %s" % st)
    st, b = d.request("GET", "/v1/status", headers={"Host": "localhost:%d" % d.port})
    F.check(st == 200, "Host localhost is served: %s" % st)
    d.send_token = False
    st, b = d.request("GET", "/v1/status")
    err_is(st, b, "unauthorized", 401)
    st, b = d.request("POST", "/v1/jobs", body, headers={"Authorization": "Bearer " + "0" * 64})
    err_is(st, b, "bad-token", 401)
    st, b = d.request("GET", "/v1/status", via_unix=True)
    F.check(st == 200, "the unix socket needs no token: %s" % st)
    d.send_token = True
    st, j = d.request("POST", "/v1/prove", body)
    F.check(st == 200 and j["state"] == "done", "with the token: %s" % st)
    # a second daemon on the live socket is refused; the socket keeps working
    r = subprocess.run([pmd.BIN, "daemon", "--set", "listen.tcp=", "--unix", d.unix_path, "--set",
                        "state.dir=" + os.path.join(d.tmp, "s2")], capture_output=True, text=True, timeout=60)
    F.check(r.returncode == 2 and "another daemon is listening" in r.stderr, "live socket kept: %s" % r.stderr)
    st, b = d.request("GET", "/v1/status", via_unix=True)
    F.check(st == 200, "first daemon still serves its socket")
    # its state directory stays its own even after `rm state/lock` (#40 item 8): the directory
    # itself is locked, so a second daemon there does not re-run the first one's jobs
    os.unlink(os.path.join(d.state_dir, "lock"))
    r = subprocess.run([pmd.BIN, "daemon", "--listen", "127.0.0.1:0", "--set", "state.dir=" + d.state_dir],
                       capture_output=True, text=True, timeout=60)
    F.check(r.returncode != 0 and "another daemon uses this state directory" in r.stderr,
            "a second daemon on the same state dir after rm lock: %d %s" % (r.returncode, r.stderr))
finally:
    d.stop()
regular = os.path.join(top, "not-a-socket")
open(regular, "w").write("keep me")
r = subprocess.run([pmd.BIN, "daemon", "--set", "listen.tcp=", "--unix", regular, "--set",
                    "state.dir=" + os.path.join(top, "s3")], capture_output=True, text=True, timeout=60)
F.check(r.returncode == 2 and "not a socket" in r.stderr and open(regular).read() == "keep me",
        "a regular file at listen.unix is not replaced: %s" % r.stderr)
tf = os.path.join(top, "loose.token")
open(tf, "w").write("x" * 64)
os.chmod(tf, 0o644)
r = subprocess.run([pmd.BIN, "daemon", "--listen", "127.0.0.1:0", "--set", "http.token_file=" + tf, "--set",
                    "state.dir=" + os.path.join(top, "s4")], capture_output=True, text=True, timeout=60)
F.check(r.returncode == 2 and "chmod 600" in r.stderr, "a token others can read stops the start: %s" % r.stderr)

# ---------------------------------------------------------------- slow clients (8)
IDLE = 2  # http.idle_timeout_s; the default (15) is what an ignored setting would give
d = pmd.Daemon(dict(pmd.HOLD, **{"http.max_connections": 16, "http.idle_timeout_s": IDLE,
                                 "http.per_ip_connections": 16, "prover.msm_threads": 1}))
try:
    idle = []
    t_open = time.time()
    for _ in range(16):
        s = socket.create_connection(("127.0.0.1", d.port))
        s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        idle.append(s)
    # the 16 fill http.max_connections until the first of them has been idle for IDLE s: a client is
    # served then, not before (the daemon accepts in connection order), and well before the
    # default's 15 s (bounds: the idle timeout less a second of timer granularity below, the
    # default above; a loaded machine only delays the answer by scheduling, far less than that)
    served = None
    while time.time() - t_open < 60:
        try:
            st, b = d.request("GET", "/v1/status")
            if st == 200:
                served = time.time() - t_open
                break
        except OSError:
            pass
        time.sleep(0.1)
    F.check(served is not None and IDLE - 1 <= served < 14,
            "a client is served once the idle connections time out (%d s), not before, not at the default "
            "15 s: after %s s" % (IDLE, served))
    for s in idle:
        s.close()
    # a long wait for an answer is not idleness: POST /v1/prove waiting longer than the idle timeout
    # (queued behind a blocker released after 2 x http.idle_timeout_s) is answered
    blocker = pmd.hold(d)
    res = {}

    def waiting_prove():
        t = time.time()
        res["r"] = d.request("POST", "/v1/prove", {"key": key0, "inputs": [{"wtns": w0}]})
        res["t"] = time.time() - t

    th = threading.Thread(target=waiting_prove)
    th.start()
    pmd.wait_until(lambda: pmd.n_queued(d) == 1, "the POST /v1/prove job queued behind the blocker")
    time.sleep(2 * IDLE)  # its connection sends nothing meanwhile
    pmd.release(d, blocker)
    th.join(300)
    st, j = res.get("r", (None, None))
    F.check(st == 200 and j["state"] == "done" and res["t"] > 2 * IDLE,
            "a prove waiting longer than http.idle_timeout_s is answered: %s after %s s" % (st, res.get("t")))
finally:
    d.stop()
d = pmd.Daemon({"http.per_ip_connections": 4})
try:
    held = [socket.create_connection(("127.0.0.1", d.port)) for _ in range(4)]
    # the daemon accepts in connection order, so the 5th is refused whenever it gets to it: 503
    # busy + Retry-After, then closed (30 s: an answer comes well within that)
    s = socket.create_connection(("127.0.0.1", d.port))
    s.settimeout(30)
    s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n" % d.token.encode())
    try:
        got = s.recv(100)
    except OSError:
        got = b""
    F.check(got.startswith(b"HTTP/1.1 503"), "a 5th connection from one address is answered 503 (http.c's reserve), "
            "not served, not reset: %r" % got[:40])
    s.close()
    for h in held:
        h.close()

    def status_ok():  # once the daemon has seen the 4 close (asynchronously), a request is served
        try:
            return d.request("GET", "/v1/status")[0] == 200
        except OSError:
            return False

    F.check(pmd.wait_until(status_ok, "served again", step=0.1), "served again once the address holds fewer connections")
finally:
    d.stop()

# ---------------------------------------------------------------- SIGTERM during /v1/prove (13)
# The /v1/prove job waits for admission behind a blocker that runs until it is cancelled, so the
# SIGTERM finds it unfinished whatever the machine's speed (a job that could end first raced the
# signal). Both stay accepted in the journal: after the restart the blocker is cancelled and the
# job runs.
sd = os.path.join(top, "state13")
d = pmd.Daemon(dict(pmd.HOLD, **{"prover.msm_threads": 1, "synthesis.workers": 1}), state_dir=sd)
blocker = pmd.hold(d)
res = {}
N13 = 4


def prove():
    res["r"] = d.request("POST", "/v1/prove", {"key": key0, "inputs": [{"wtns": w0}] * N13, "label": "long"})


t = threading.Thread(target=prove)
t.start()
pmd.wait_until(lambda: pmd.n_queued(d) == 1, "the POST /v1/prove job queued behind the blocker")
d.proc.send_signal(signal.SIGTERM)
t.join(300)
rc, log = d.stop()
st, b = res.get("r", (None, None))
F.check(st == 503 and b["error"]["code"] == "shutting-down" and b["job"]["state"] == "cancelled",
        "SIGTERM during POST /v1/prove: answered %s %r" % (st, b))
F.check("shutdown while POST /v1/prove waited" in log and "[long]" in log, "logged:\n" + log[-1500:])
if st == 503:
    d = pmd.Daemon({"prover.msm_threads": 1}, state_dir=sd)
    try:
        st2, jb = d.request("DELETE", "/v1/jobs/%s" % blocker)  # re-queued too: not needed any more
        F.check(st2 == 200, "the journaled blocker is there after the restart: %s %r" % (st2, jb))
        st2, j = d.wait(b["job"]["id"])
        F.check(st2 == 200 and j["state"] == "done" and len(j["proofs"]) == N13,
                "the journaled job ran after the restart: %s %r" % (st2, j.get("state")))
    finally:
        d.stop()
F.done("test_daemon_hostile")
