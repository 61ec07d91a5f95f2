#!/usr/bin/env python3
"""Log lines (#17 item 15): job lines carry the job id and label ("job <id> [<label>] ..."), a
refused submit is logged at info with why, and log.format = json writes one JSON object per line
(ts, level, pid, msg; job and label on job lines)."""
import json
import re

import pmd

F = pmd.Failures()
fx = pmd.fixtures()
key, w, vk = fx["multiplier"]

d = pmd.Daemon()
try:
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}], "label": "sector-7"})
    F.check(st == 200, "prove: %s" % st)
    jid = j["id"]
    st, b = d.request("POST", "/v1/jobs", {"key": key, "inputs": [{"wtns": key}], "label": "bad-one"})
    F.check(st == 422, "a refused submit: %s" % st)
    # the requests a client must fix are logged at info too, with the client's address (#39 item 7)
    st, b = d.request("POST", "/v1/jobs", raw=b"{not json")
    F.check(st == 400, "bad JSON: %s" % st)
    st, b = d.request("GET", "/v1/status", headers={"Authorization": "Bearer wrong"})
    F.check(st == 401, "wrong token: %s" % st)
    st, b = d.request("GET", "/v1/status", headers={"Origin": "https://evil.example"})
    F.check(st == 403, "foreign origin: %s" % st)
    st, b = d.request("GET", "/v1/jobs/0123456789abcdef0123456789abcdef")
    F.check(st == 404, "unknown job: %s" % st)
finally:
    rc, log = d.stop()
F.check(re.search(r"info: job %s \[sector-7\] accepted" % jid, log), "accepted line with id and label:\n" + log)
F.check(re.search(r"info: job %s \[sector-7\] done: 1 partitions" % jid, log), "done line with id and label:\n" + log)
F.check(re.search(r"info: submit \[bad-one\] refused \(422 format\)", log), "refused submit at info:\n" + log)
F.check(re.search(r"info: refused 400 bad-json from 127\.0\.0\.1: ", log), "400 at info with the client:\n" + log)
F.check(re.search(r"info: refused 401 bad-token from 127\.0\.0\.1: a GET request with a wrong token", log),
        "401 at info with the client:\n" + log)
F.check(re.search(r"info: refused 403 foreign-origin from 127\.0\.0\.1: .*evil\.example", log),
        "403 at info with the client:\n" + log)
F.check(len(re.findall(r"refused 403", log)) == 1, "the 403 logged once:\n" + log)
F.check(not re.search(r"info: refused 404", log), "a 404 is not an info line:\n" + log)

d = pmd.Daemon({"log.format": "json"})
try:
    st, j = d.request("POST", "/v1/prove", {"key": key, "inputs": [{"wtns": w}], "label": "L"})
    F.check(st == 200, "prove (json log): %s" % st)
finally:
    rc, log = d.stop()
lines = [l for l in log.splitlines() if l.strip()]
objs = []
for l in lines:
    try:
        objs.append(json.loads(l))
    except ValueError:
        F.check(False, "not a JSON line: %r" % l)
F.check(all({"ts", "level", "pid", "msg"} <= set(o) for o in objs), "fields of every line")
done = [o for o in objs if o.get("job") == j["id"] and o["msg"].startswith("done")]
F.check(len(done) == 1 and done[0]["label"] == "L" and done[0]["level"] == "info", "the job's done line: %r" % done)
F.done("test_daemon_logs")
