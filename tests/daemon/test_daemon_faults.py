#!/usr/bin/env python3
"""Faults of the daemon's own storage and restarts (label hostile: also under ASan).

A full disk must not change a finished job's answer (debug.journal_full_at makes the Nth journal
write and every later one fail as SQLITE_FULL; the start's purge of expired rows is write 1, each
submit's row one more, each job's end one more):
  - a job whose end the journal cannot record is not reported done: GET answers 503 with
    Retry-After (code "unavailable"), again and again while the disk stays full; its spooled inline
    input stays on disk; after kill -9 and a restart on a healthy disk the job is proved again
    (it was never reported) and its proof verifies. (It was reported done, and after the restart
    the inline job failed "cannot open" its deleted spool file, a by-path one was proved again with
    another proof.)
  - a submit the journal cannot take answers 503 with Retry-After (it was 422, as if the request
    were at fault).
  - once the disk has room again (debug.journal_full_count), the next successful journal write
    retries the refused end: recorded, spool file removed, done, with no client asking for it.
A DELETE of such a job answers 503 as well (it answered 200 with the unrecorded state).
A process out of file descriptors answers a submit 503 (EMFILE is the daemon's, not the request's).
A restart with a smaller jobs.max re-queues every journaled job (jobs.max bounds new submits only;
they were failed "too many jobs in flight"), and all of them finish; a new submit past jobs.max
still gets 503 busy."""
import http.client
import json
import os
import sqlite3
import tempfile

import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
top = os.path.realpath(tempfile.mkdtemp(prefix="pmd-faults-"))
opts = {"prover.msm_threads": 1, "synthesis.workers": 1, "jobs.retain_s": 3600}


def raw(d, method, path, body=None):
    """(status, headers dict (lower-case names), parsed JSON body)"""
    c = d.conn()
    h = {"Content-Type": "application/json"}
    if d.token:
        h["Authorization"] = "Bearer " + d.token
    c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=h)
    r = c.getresponse()
    text = r.read().decode("utf-8", "replace")
    hd = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    try:
        j = json.loads(text)
    except ValueError:
        j = text
    return r.status, hd, j


def transient(st, hd, j, what):
    F.check(st == 503 and hd.get("retry-after", "").isdigit() and isinstance(j, dict) and
            j.get("error", {}).get("code") == "unavailable",
            "%s: 503 unavailable with Retry-After, got %s %r %r" % (what, st, hd.get("retry-after"), j))


# ---------------------------------------------------------------- a submit the journal refuses
state = os.path.join(top, "s0")
d = pmd.Daemon(dict(opts, **{"debug.journal_full_at": 2}), state_dir=state)
try:
    st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": w}]})
    transient(st, hd, j, "submit on a full disk")
    st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": pmd.b64_file(w)}]})
    transient(st, hd, j, "inline submit on a full disk")
    F.check(os.listdir(os.path.join(state, "spool")) == [], "a refused inline submit leaves no spool file: %r" %
            os.listdir(os.path.join(state, "spool")))
finally:
    d.stop()

# ---------------------------------------------------------------- a job's end the journal refuses
for inline in (False, True):
    state = os.path.join(top, "s1-inline" if inline else "s1-path")
    what = "inline" if inline else "by path"
    # write 1: the start's purge; 2: the submit's row; 3 on: the job's end (and every retry)
    d = pmd.Daemon(dict(opts, **{"debug.journal_full_at": 3}), state_dir=state)
    inp = {"wtns_b64": pmd.b64_file(w)} if inline else {"wtns": w}
    st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [inp], "label": "full-" + what})
    F.check(st == 202, "%s: submit accepted: %s %r" % (what, st, j))
    jid = j.get("id") if isinstance(j, dict) else None

    def ended():
        s, h, b = raw(d, "GET", "/v1/jobs/%s?wait=5" % jid)
        return (s, h, b) if s != 200 or b.get("state") not in ("queued", "running") else None

    st, hd, j = pmd.wait_until(ended, "%s: the job ends" % what, timeout=300)
    transient(st, hd, j, "%s: GET of a job whose end the journal cannot record" % what)
    st, hd, j = raw(d, "GET", "/v1/jobs/%s" % jid)  # a retry of the write, failing again
    transient(st, hd, j, "%s: GET again (still full)" % what)
    F.check("cannot record its end" in d.log_text(), "%s: the log says the end is not recorded" % what)
    # a cancel of it is not answered either (it was 200 "failed"/"done", and after kill -9 the job ran
    # again): 503 until the end is recorded
    st, hd, j = raw(d, "DELETE", "/v1/jobs/%s" % jid)
    transient(st, hd, j, "%s: DELETE of a job whose end the journal cannot record" % what)
    if inline:
        F.check(("%s.0" % jid) in os.listdir(os.path.join(state, "spool")),
                "inline: the spooled input stays until the end is durable: %r" % os.listdir(os.path.join(state, "spool")))
    d.kill()
    d = pmd.Daemon(opts, state_dir=state)  # the disk has room again
    try:
        st, j = d.wait(jid, timeout=300)
        F.check(st == 200 and j.get("state") == "done" and j.get("proofs"),
                "%s: after a restart the job is proved: %s %r" % (what, st, j))
        if st == 200 and j.get("proofs"):
            ok, out = pmd.verify_with_cli(vk, j["proofs"][0])
            F.check(ok, "%s: its proof verifies: %s" % (what, out))
        pmd.wait_until(lambda: not os.listdir(os.path.join(state, "spool")), "%s: spool emptied once the end is "
                       "recorded" % what, timeout=60)
    finally:
        d.stop()

# ---------------------------------------------------------------- a disk that has room again
# write 3 (job A's end) fails once: A is not reported done until a later write succeeds; the next
# submit's row (write 4) succeeds and A's end is retried at once, without any client asking for A
state = os.path.join(top, "s2")
d = pmd.Daemon(dict(opts, **{"debug.journal_full_at": 3, "debug.journal_full_count": 1}), state_dir=state)
try:
    st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": pmd.b64_file(w)}], "label": "A"})
    F.check(st == 202, "A accepted: %s %r" % (st, j))
    a_id = j.get("id") if isinstance(j, dict) else None
    pmd.wait_until(lambda: "cannot record its end" in d.log_text(), "A's end refused by the journal", timeout=300)
    F.check(("%s.0" % a_id) in os.listdir(os.path.join(state, "spool")), "A's spooled input kept meanwhile")
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}], "label": "B"})
    F.check(st == 200 and j.get("state") == "done", "B proved (its writes succeed): %s %r" % (st, j))
    c = sqlite3.connect("file:%s?mode=ro" % os.path.join(state, "jobs.sqlite"), uri=True)
    row = c.execute("SELECT state FROM jobs WHERE id = ?", (a_id,)).fetchone()
    c.close()
    F.check(row == ("done",), "A's end recorded after the disk had room again, no client asking: %r" % (row,))
    F.check(("%s.0" % a_id) not in os.listdir(os.path.join(state, "spool")), "A's spool file removed once recorded")
    st, hd, j = raw(d, "GET", "/v1/jobs/%s" % a_id)
    F.check(st == 200 and j.get("state") == "done" and j.get("proofs"), "A answers done now: %s %r" % (st, j))
finally:
    d.stop()

# ---------------------------------------------------------------- a restart with a smaller jobs.max
state = os.path.join(top, "s3")
settings = dict(opts, **pmd.HOLD)
d = pmd.Daemon(dict(settings, **{"jobs.max": 8}), state_dir=state)
blocker = pmd.hold(d)
ids = []
for i in range(6):
    st, j = d.submit(key, [w], label="q%d" % i)
    F.check(st == 202, "submit %d: %s %r" % (i, st, j))
    ids.append(j.get("id"))
F.check(pmd.n_queued(d) == 6, "6 jobs wait behind the blocker: %d" % pmd.n_queued(d))
d.kill()
d = pmd.Daemon(dict(settings, **{"jobs.max": 2}), state_dir=state)
try:
    F.check("7 jobs re-queued, 0 could not run again" in d.log_text(),
            "every journaled job re-queued under jobs.max = 2:\n" + d.log_text()[-1500:])
    st, j = d.submit(key, [w], label="new")
    F.check(st == 503 and j.get("error", {}).get("code") == "busy",
            "a new submit past jobs.max is refused: %s %r" % (st, j))
    pmd.release(d, blocker)
    for jid in ids:
        st, j = d.wait(jid, timeout=300)
        F.check(st == 200 and j.get("state") == "done", "re-queued job %s finishes: %s %r" % (jid, st, j))
finally:
    d.stop()
# ---------------------------------------------------------------- out of file descriptors
# the daemon's soft limit lowered to what it holds (prlimit(1), util-linux): an inline submit cannot
# create its spool file (EMFILE): 503 with Retry-After, not 422
import shutil as _sh
import subprocess as _sp
if _sh.which("prlimit"):
    state = os.path.join(top, "s-emfile")
    d = pmd.Daemon(opts, state_dir=state)
    try:
        import resource as _rs
        hard = _rs.getrlimit(_rs.RLIMIT_NOFILE)[1]  # the daemon's too (inherited); raising it needs privilege
        nfd = len(os.listdir("/proc/%d/fd" % d.proc.pid))
        hard = "unlimited" if hard == _rs.RLIM_INFINITY else str(hard)
        r = _sp.run(["prlimit", "--pid", str(d.proc.pid), "--nofile=%d:%s" % (nfd + 1, hard)], capture_output=True, text=True)
        if r.returncode == 0:
            st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": pmd.b64_file(w)}]})
            transient(st, hd, j, "a submit while the daemon is out of file descriptors")
            _sp.run(["prlimit", "--pid", str(d.proc.pid), "--nofile=%s:%s" % (hard, hard)], capture_output=True)
            st, hd, j = raw(d, "POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": pmd.b64_file(w)}]})
            F.check(st == 202, "descriptors again: the submit is accepted: %s %r" % (st, j))
        else:
            print("NOTE: prlimit --pid refused (%s): the EMFILE check is skipped" % r.stderr.strip())
    finally:
        d.stop(expect_clean=False)
else:
    print("NOTE: no prlimit: the EMFILE check is skipped")

F.done("test_daemon_faults")
