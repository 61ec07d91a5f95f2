#!/usr/bin/env python3
"""A damaged journal (label hostile: also under ASan).

The journal is checked at start (PRAGMA quick_check): with a page of jobs.sqlite zeroed, the start
is refused with a message naming the file and the recovery command (it started and read what it
could: jobs in the damaged page were dropped silently). `proofmill daemon --recover-journal` keeps
the damaged file as jobs.sqlite.damaged-<time>, salvages the readable rows into a new journal and
says how many jobs were kept and lost, naming each lost id; the daemon then starts, every kept job
answers as before (the same proof), and every job not kept was named lost (none dropped silently).
The same for a damaged first page (the schema): the start is refused, the recovery says the table
is unreadable, the daemon starts on the new, empty journal."""
import os
import subprocess
import tempfile

import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
top = os.path.realpath(tempfile.mkdtemp(prefix="pmd-jc-"))
opts = {"prover.msm_threads": 1, "synthesis.workers": 1, "jobs.retain_s": 3600}
N = 40


def start_fails(state, needles):
    try:
        d = pmd.Daemon(opts, state_dir=state)
    except RuntimeError as e:
        for n in needles:
            F.check(n in str(e), "start refused, but the message lacks %r: %s" % (n, str(e)[-800:]))
        return
    d.stop()
    F.check(False, "the daemon started on a damaged journal")


def recover(state):
    r = subprocess.run([pmd.BIN, "daemon", "--set", "state.dir=" + state, "--recover-journal"], capture_output=True,
                       text=True, timeout=300)
    print(r.stdout[-2000:], r.stderr[-2000:])
    return r


def zero_page(path, page):
    with open(path, "r+b") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(16)
        ps = int.from_bytes(f.read(2), "big")
        ps = 65536 if ps == 1 else ps
        F.check(size >= ps * (page + 1), "journal has %d pages, need page %d" % (size // ps, page))
        f.seek((page - 1) * ps)
        f.write(b"\0" * ps)
    return size // ps


state = os.path.join(top, "state")
d = pmd.Daemon(opts, state_dir=state)
proofs = {}
try:
    for i in range(N):
        st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}], "label": "j%d" % i})
        F.check(st == 200 and j.get("state") == "done", "job %d: %s %r" % (i, st, j))
        if st == 200:
            proofs[j["id"]] = j["proofs"]
finally:
    d.stop()  # a clean stop: the write-ahead log is checkpointed into jobs.sqlite
db = os.path.join(state, "jobs.sqlite")
with open(db, "rb") as f:
    f.seek(16)
    ps = int.from_bytes(f.read(2), "big")
pages = os.path.getsize(db) // ps
zero_page(db, pages // 2 + 1)  # a page among the rows
start_fails(state, [db, "damaged", "proofmill daemon --recover-journal"])
r = recover(state)
F.check(r.returncode == 0, "--recover-journal: exit %d" % r.returncode)
F.check(any(n.startswith("jobs.sqlite.damaged-") for n in os.listdir(state)), "the damaged file kept aside: %r" %
        os.listdir(state))
out = r.stdout
import re  # noqa: E402
m = re.search(r"(\d+) jobs kept, (\d+) jobs lost", out)
F.check(m is not None, "the recovery says how many jobs were kept and lost: %r" % out)
lost_ids = set(re.findall(r"lost job ([0-9a-f]{32})", out))
if m:
    kept, lost = int(m.group(1)), int(m.group(2))
    F.check(kept + lost == N and lost == len(lost_ids) and kept > 0,
            "kept %d + lost %d == %d jobs, lost ones named (%d)" % (kept, lost, N, len(lost_ids)))
d = pmd.Daemon(opts, state_dir=state)
try:
    for jid, pr in proofs.items():
        st, j = d.request("GET", "/v1/jobs/%s" % jid)
        if jid in lost_ids:
            F.check(st == 404, "a lost job is unknown: %s" % st)
        else:
            F.check(st == 200 and j.get("state") == "done" and j.get("proofs") == pr,
                    "a kept job answers as before: %s %r" % (st, j))
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}]})
    F.check(st == 200 and j.get("state") == "done", "a job on the new journal: %s %r" % (st, j))
finally:
    d.stop()

# a damaged first page (the schema): refused; the recovery says every job there is lost
zero_page(db, 1)
start_fails(state, [db, "proofmill daemon --recover-journal"])
r = recover(state)
F.check(r.returncode == 0 and "unreadable" in r.stdout, "recovery of a damaged schema: %d %r" % (r.returncode, r.stdout))
d = pmd.Daemon(opts, state_dir=state)
d.stop()
# a daemon running on the state directory: the recovery refuses to touch it
d = pmd.Daemon(opts, state_dir=state)
try:
    r = recover(state)
    F.check(r.returncode == 2 and "stop it first" in r.stderr, "recovery beside a running daemon: %d %r" %
            (r.returncode, r.stderr))
finally:
    d.stop()
# a damaged frame of the write-ahead log with committed frames after it (#40 probe F4): SQLite reads
# the log up to the bad frame and would drop every job committed later, silently ("0 jobs
# re-queued"); the start is refused naming the log, and the recovery keeps what is readable
state = os.path.join(top, "state-wal")
d = pmd.Daemon(opts, state_dir=state)
try:
    blocker = pmd.hold(d)
    for i in range(20):
        st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": w}], "label": "wal%d" % i})
        F.check(st == 202, "queued job %d: %s %r" % (i, st, j))
finally:
    d.kill()  # no checkpoint: the rows are in jobs.sqlite-wal
wal = os.path.join(state, "jobs.sqlite-wal")
with open(wal, "r+b") as f:
    hdr = f.read(32)
    ps = int.from_bytes(hdr[8:12], "big")
    frames = (os.path.getsize(wal) - 32) // (24 + ps)
    F.check(frames >= 8, "the log holds %d frames" % frames)
    f.seek(32 + 3 * (24 + ps) + 24)  # frame 3's page
    f.write(b"\0" * ps)
start_fails(state, ["jobs.sqlite-wal", "frame 3 fails its checksum", "proofmill daemon --recover-journal"])
r = recover(state)
F.check(r.returncode == 0, "--recover-journal of a damaged log: exit %d" % r.returncode)
d = pmd.Daemon(opts, state_dir=state)
d.stop()
F.done("test_daemon_journal_check")
