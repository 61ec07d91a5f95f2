#!/usr/bin/env python3
"""Durability (#17 item 2): kill -9 at random moments under load, restart over the same state
directory, and every acknowledged job finishes exactly once with a valid proof.

Each round: clients submit powchain jobs (a quarter with inline witnesses, which the journal
spools) as fast as the daemon takes them while a poller records the proofs of jobs it sees done;
after a random 0.3-1.5 s the daemon gets SIGKILL; it is restarted on the same state directory and
the same unix socket path (the killed process's socket file is still there). After the last round
every acknowledged id must end "done" with a proof that verifies (`proofmill groth16 verify`); a
proof seen before a kill must be the very same proof afterwards (the job was not proved twice);
ids are 32 hex digits and never repeat. 3 rounds by default (~20 s); PROOFMILL_SLOW=1: 12 rounds."""
import os
import random
import re
import tempfile
import threading
import time

import pmd

F = pmd.Failures()
key, w, vk = pmd.fixture("powchain")
w64 = pmd.b64_file(w)
seed = int(os.environ.get("PROOFMILL_SEED") or random.randrange(1 << 32))
rng = random.Random(seed)
print("seed: %d (rerun with PROOFMILL_SEED=%d)" % (seed, seed))
rounds = 12 if os.environ.get("PROOFMILL_SLOW") == "1" else 3
ID = re.compile(r"^[0-9a-f]{32}$")
PER_ROUND = 12  # jobs acknowledged per round at most (keeps the default run near 20 s)

base = os.path.realpath(tempfile.mkdtemp(prefix="pmd-dur-"))
state = os.path.join(base, "state")
sock = os.path.join(base, "pm.sock")
settings = {"prover.msm_threads": 1, "synthesis.workers": 1, "jobs.retain_s": 3600}

acked = {}      # id -> round acknowledged
seen = {}       # id -> proof JSON seen before a kill
lock = threading.Lock()


def client(d, stop, k):
    i = 0
    while not stop.is_set():
        with lock:
            if sum(1 for r in acked.values() if r == rnd) >= PER_ROUND:
                break  # enough load for this round; the kill comes at its random moment
        i += 1
        inp = {"wtns_b64": w64} if (i + k) % 4 == 0 else {"wtns": w}
        try:
            st, j = d.request("POST", "/v1/jobs", {"key": key, "inputs": [inp], "label": "c%d-%d" % (k, i)})
        except Exception:
            return  # the daemon was killed
        if st == 202:
            F.check(j.get("durable") is True, "submit answer says durable: %r" % (j,))
            with lock:
                F.check(j["id"] not in acked, "id %s reused" % j["id"])
                acked[j["id"]] = rnd
        elif st != 503:
            F.check(False, "submit: %s %r" % (st, j))
        time.sleep(0.02)


def poller(d, stop):
    while not stop.is_set():
        with lock:
            ids = list(acked)
        if not ids:
            time.sleep(0.05)
            continue
        jid = rng.choice(ids)
        try:
            st, j = d.request("GET", "/v1/jobs/%s" % jid)
        except Exception:
            return
        if st == 200 and j["state"] == "done":
            with lock:
                if jid in seen:
                    F.check(seen[jid] == j["proofs"], "job %s gave another proof before any kill" % jid)
                seen[jid] = j["proofs"]


for rnd in range(rounds):
    d = pmd.Daemon(settings, state_dir=state, unix_path=sock)
    if rnd:
        F.check("re-queued" in d.log_text(), "restart reports the journal:\n" + d.log_text()[-800:])
    stop = threading.Event()
    ts = [threading.Thread(target=client, args=(d, stop, k)) for k in range(3)] + \
         [threading.Thread(target=poller, args=(d, stop))]
    for t in ts:
        t.start()
    time.sleep(rng.uniform(0.3, 1.5))
    d.kill()
    stop.set()
    for t in ts:
        t.join()
    F.check(os.path.exists(sock), "round %d: the killed daemon left its socket file (the restart must cope)" % rnd)
    print("round %d: %d jobs acknowledged so far, %d seen done" % (rnd, len(acked), len(seen)))

# the last restart: everything acknowledged finishes
d = pmd.Daemon(settings, state_dir=state, unix_path=sock)
try:
    F.check(all(ID.match(i) for i in acked), "ids are 128-bit hex")
    finals = {}
    for jid in acked:
        st, j = d.wait(jid, timeout=120)
        finals[jid] = (st, j)
        F.check(st == 200 and j["state"] == "done" and len(j.get("proofs") or []) == 1,
                "acknowledged job %s (round %d) ends done: %s %r" % (jid, acked[jid], st, j))
        if jid in seen and st == 200:
            F.check(j.get("proofs") == seen[jid], "job %s was proved again after a restart (exactly once)" % jid)
    # every distinct proof verifies with our verifier (snarkjs too when installed, on a sample)
    bad = 0
    for jid, (st, j) in finals.items():
        if st == 200 and j.get("proofs"):
            ok, out = pmd.verify_with_cli(vk, j["proofs"][0])
            bad += not ok
    F.check(bad == 0, "%d proofs failed verification" % bad)
    sample = [j for st, j in list(finals.values())[:2] if st == 200 and j.get("proofs")]
    for j in sample:
        r = pmd.snarkjs_verify(vk, j["proofs"][0])
        F.check(r in (None, True), "snarkjs verify")
    # a restart with nothing left to do re-queues nothing; the answers stay in the journal
    st, s = d.request("GET", "/v1/status")
    F.check(st == 200 and s.get("durable") is True, "status says durable")
    print("%d acknowledged jobs over %d kills: all done once, proofs verified" % (len(acked), rounds))
    # unknown ids: 404, never another client's job
    st, b = d.request("GET", "/v1/jobs/%032x" % rng.randrange(1 << 128))
    F.check(st == 404, "an unknown id is 404: %s" % st)
finally:
    d.stop()
F.check(not os.path.exists(sock), "socket removed at a clean stop")
F.done("test_daemon_durability")
