#!/usr/bin/env python3
"""The spool across restarts (label hostile: also under ASan).

A moved state directory keeps working: the journal keeps a spooled inline input's path relative to
state.dir ("spool/<id>.<i>"), so a queued inline job killed (kill -9) in one directory runs after a
restart from the directory it was moved to (it failed "cannot open" the old absolute path).
An orphaned spool file (written, its row never committed: a kill between the two) is removed at
start; the spool files of a journaled unfinished job stay, and files of other names are left alone."""
import os
import sqlite3
import tempfile

import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
top = os.path.realpath(tempfile.mkdtemp(prefix="pmd-sp-"))
opts = dict(pmd.HOLD, **{"prover.msm_threads": 1, "synthesis.workers": 1, "jobs.retain_s": 3600})

a = os.path.join(top, "a")
d = pmd.Daemon(opts, state_dir=a)
blocker = pmd.hold(d)
st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns_b64": pmd.b64_file(w)}], "label": "inline"})
F.check(st == 202, "inline submit: %s %r" % (st, j))
jid = j.get("id")
F.check(pmd.n_queued(d) == 1, "the inline job waits behind the blocker")
d.kill()
c = sqlite3.connect(os.path.join(a, "jobs.sqlite"))
spec = c.execute("SELECT spec FROM jobs WHERE id = ?", (jid,)).fetchone()[0]
c.close()
F.check('"path":"spool/%s.0"' % jid in spec, "the journal keeps the spool path relative to state.dir: %s" % spec)

b = os.path.join(top, "b")
os.rename(a, b)
orphan = os.path.join(b, "spool", "%032x.0" % 0xabcdef)
other = os.path.join(b, "spool", "README")
for p in (orphan, other):
    with open(p, "w") as f:
        f.write("x")
d = pmd.Daemon(opts, state_dir=b)
try:
    F.check(not os.path.exists(orphan), "an orphaned spool file is removed at start")
    F.check(os.path.exists(other), "a file of another name is left alone")
    F.check(os.path.exists(os.path.join(b, "spool", "%s.0" % jid)), "the queued job's spool file stays")
    F.check("orphaned files removed" in d.log_text(), "the start logs the removal")
    pmd.release(d, blocker)
    st, j = d.wait(jid, timeout=300)
    F.check(st == 200 and j.get("state") == "done" and j.get("proofs"),
            "the inline job runs from the moved state directory: %s %r" % (st, j))
    if st == 200 and j.get("proofs"):
        ok, out = pmd.verify_with_cli(vk, j["proofs"][0])
        F.check(ok, "its proof verifies: %s" % out)
finally:
    d.stop()
F.done("test_daemon_spool")
