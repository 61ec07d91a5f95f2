#!/usr/bin/env python3
"""A damaged or hostile state directory (label hostile: also under ASan).

journal rows: a journal edited behind the daemon's back (kill -9, then rows with a NULL or BLOB id,
  an id such as "../../victim" that would name spool files outside the spool, a spec that is not
  JSON) does not crash the restart; a row whose id is not a job id is ended as failed, and no file
  outside the spool is removed; a good row beside them is re-queued and runs.
jobs.sqlite a symbolic link: the start is refused, the link's target is not created.
file-size limit (ulimit -f): a spooled inline input past it fails that submit; the daemon lives.
log lines: a label with a line break stays on its line.
token file longer than a token may be: the start is refused (not a silently shortened token that
  a shorter Authorization would match)."""
import base64
import json
import os
import resource
import shutil
import sqlite3
import tempfile

import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
top = os.path.realpath(tempfile.mkdtemp(prefix="pmd-jh-"))
opts = {"prover.msm_threads": 1, "synthesis.workers": 1}


def start_fails(state, needle, **kw):
    try:
        d = pmd.Daemon(dict(opts, **kw), state_dir=state)
    except RuntimeError as e:
        F.check(needle in str(e), "start refused, but not for %r: %s" % (needle, str(e)[-600:]))
        return
    d.stop()
    F.check(False, "the daemon started (expected: %s)" % needle)


# ---------------------------------------------------------------- journal rows
state = os.path.join(top, "state")
d = pmd.Daemon(opts, state_dir=state)
st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
F.check(st == 200 and j.get("state") == "done", "a first job: %s %r" % (st, j))
d.kill()
victim = os.path.join(top, "victim")  # <state>/spool/../../victim.<i>
for i in range(2):
    open("%s.%d" % (victim, i), "w").write("not the daemon's")
good = "0123456789abcdef0123456789abcdef"
spec = json.dumps({"kind": "snarkjs", "key": key, "inputs": [{"path": w}]})
c = sqlite3.connect(os.path.join(state, "jobs.sqlite"))
rows = [(None, 10, "{}", 0), (b"\x00\xff", 11, "{}", 0), ("x1", 12, b"{}", 0), ("../../victim", 13, spec, 0),
        ("../../victim", 14, spec, 1), ("aaaa", 15, "not json", 0), (good, 16, spec, 0)]
for i, (rid, seq, sp, cancel) in enumerate(rows):
    if i == 4:
        rid = rid + "/."  # the same target, another (unique) id, cancelled
    c.execute("INSERT INTO jobs(id, seq, spec, submitted_ms, cancel) VALUES(?, ?, ?, 1, ?)", (rid, seq, sp, cancel))
c.commit()
c.close()
d = pmd.Daemon(opts, state_dir=state)
st, j = d.wait(good, timeout=120)
F.check(st == 200 and j.get("state") == "done", "the good row beside the damaged ones ran: %s %r" % (st, j))
for i in range(2):
    F.check(os.path.exists("%s.%d" % (victim, i)), "%s.%d outside the spool was removed" % (victim, i))
# a label's line break does not forge a log line (the text log shows control bytes as '?')
forged = "2026-12-01T00:00:00Z proofmill[1] error: forged"
st, _ = d.request("POST", "/v1/jobs", {"key": w, "inputs": [{"wtns": w}], "label": "L\n" + forged})
F.check(st == 422, "a witness as the key: %s" % st)
log = d.log_text()
F.check("\n" + forged not in log and "L?" + forged in log, "a label forged a log line:\n" + log[-1500:])
F.check("'../../victim' is not a job" in log, "the bad id is named in the log:\n" + log[-2000:])
d.stop()

# ---------------------------------------------------------------- jobs.sqlite a link
state = os.path.join(top, "linked")
os.mkdir(state)
target = os.path.join(top, "elsewhere.sqlite")
os.symlink(target, os.path.join(state, "jobs.sqlite"))
start_fails(state, "jobs.sqlite")
F.check(not os.path.exists(target), "the link's target was created")

# ---------------------------------------------------------------- a token too long
state = os.path.join(top, "tok")
os.mkdir(state)
tp = os.path.join(state, "http.token")
with open(tp, "w") as f:
    f.write("d" * 200 + "\n")
os.chmod(tp, 0o600)
start_fails(state, "longer than")
with open(tp, "w") as f:
    f.write("e" * 127 + "\n")  # the longest accepted
d = pmd.Daemon(opts, state_dir=state)
st, _ = d.request("GET", "/v1/status")
F.check(st == 200, "a 127-character token works: %s" % st)
st, _ = d.request("GET", "/v1/status", headers={"Authorization": "Bearer " + "e" * 126})
F.check(st == 401, "a prefix of the token is refused: %s" % st)
d.stop()

# ---------------------------------------------------------------- a file-size limit (ulimit -f)
# an inline input spooled past RLIMIT_FSIZE: that submit fails (EFBIG), the daemon lives on (SIGXFSZ
# killed it, and every job it held)
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, hard))
try:
    d = pmd.Daemon(opts, state_dir=os.path.join(top, "fsize"))
finally:
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": base64.b64encode(b"\0" * (400 << 10)).decode()}]})
F.check(st == 422 and "File too large" in json.dumps(b), "a spool write past the file-size limit: %s %r" % (st, b))
F.check(d.proc.poll() is None, "the daemon died of the file-size limit (SIGXFSZ)")
if d.proc.poll() is None:
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200 and j.get("state") == "done", "a job after it: %s %r" % (st, j))
    d.stop()

shutil.rmtree(top, ignore_errors=True)
F.done("daemon_hostile_state")
