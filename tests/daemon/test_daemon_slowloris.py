#!/usr/bin/env python3
"""Slow HTTP clients (hostile review of the daemon): 50 connections sending one byte every 10 s made
every normal request fail with resets, and with http.per_ip_connections 32 the 33rd client got a TCP
reset, not an answer.

Here (http.request_timeout_s = 6, http.idle_timeout_s = 15: the slow clients are never idle):
40 connections from 127.0.0.1 send a request head one byte a second: 32 (http.per_ip_connections)
and 8 over it, which fill libmicrohttpd's reserve (a quarter of the limit) and have 2 s to send their
head. Meanwhile
- a client from another address (127.0.0.2) is served at once (200);
- a client from 127.0.0.1 is reset while the reserve is full (libmicrohttpd's limit, documented),
  and once the 8 are cut (2 s) answered 503 busy with Retry-After, not reset;
- every slow connection is closed by the daemon within the request timeout + 2 s (+ margin), and
  then a client from 127.0.0.1 is served again: normal requests succeed within a bound;
- a body trickled after a complete head is cut at the same deadline;
- a long-poll (GET /v1/jobs/{id}?wait=10 on a job held running) is answered after its wait, longer
  than the request timeout: a request being handled has no deadline.
"""
import os
import re
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pmd  # noqa: E402

F = pmd.Failures()
REQ = 6
d = pmd.Daemon(dict(pmd.HOLD, **{"http.request_timeout_s": REQ, "http.idle_timeout_s": 15, "prover.msm_threads": 1}))


def get_status(src="127.0.0.1", timeout=30):
    """GET /v1/status from address src over a raw socket: (status code, headers text) or (None, why)."""
    try:
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((src, 0))
        s.connect(("127.0.0.1", d.port))
        s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n"
                  % d.token.encode())
        got = b""
        while b"\r\n\r\n" not in got:
            b = s.recv(4096)
            if not b:
                break
            got += b
        s.close()
        head = got.split(b"\r\n\r\n")[0].decode("latin-1")
        if not head.startswith("HTTP/1.1 "):
            return None, "no answer: %r" % got[:80]
        return int(head.split()[1]), head
    except OSError as e:
        return None, "%s: %s" % (type(e).__name__, e)


try:
    st, why = get_status()
    F.check(st == 200, "served before the slow clients: %s %s" % (st, why))
    slow, closed_at, stop = [], {}, [False]
    t0 = time.time()
    for i in range(40):
        s = socket.create_connection(("127.0.0.1", d.port))
        s.setblocking(False)
        slow.append(s)
    head = b"GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200

    def trickle():  # one byte a second on each, until the daemon closes it
        k = 0
        while not stop[0] and len(closed_at) < len(slow):
            for i, s in enumerate(slow):
                if i in closed_at:
                    continue
                try:
                    if s.recv(1024) == b"":
                        closed_at[i] = time.time() - t0
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    closed_at[i] = time.time() - t0
                    continue
                try:
                    s.send(head[k % len(head):k % len(head) + 1])
                except OSError:
                    closed_at[i] = time.time() - t0
            k += 1
            time.sleep(1)

    th = threading.Thread(target=trickle)
    th.start()
    time.sleep(0.5)  # the 40 are accepted (in connection order) before the clients below
    t = time.time()
    st, why = get_status("127.0.0.2")
    F.check(st == 200 and time.time() - t < 2, "another address is served at once: %s %s (%.1f s)" % (st, why, time.time() - t))
    # served again once the slow ones are cut (their deadline: REQ s; over the limit: 2 s); 503 +
    # Retry-After meanwhile, once the 8 over the limit have left the reserve
    served, answers = None, []
    while time.time() - t0 < REQ + 20:
        st, why = get_status("127.0.0.1")
        if st == 200:
            served = time.time() - t0
            break
        answers.append((round(time.time() - t0, 1), st))
        if time.time() - t0 > 2.5:
            F.check(st == 503 and "Retry-After:" in why, "over http.per_ip_connections after %.1f s: 503 + Retry-After, "
                    "not a reset: %s %s" % (time.time() - t0, st, why))
        time.sleep(0.25)
    print("from 127.0.0.1 while the slow clients hold it: %r" % answers)
    F.check(any(st == 503 for _, st in answers), "503 answers seen: %r" % answers)
    F.check(served is not None and served < REQ + 5, "served again within %d s: after %s s" % (REQ + 5, served))
    th.join(60)
    stop[0] = True
    F.check(len(closed_at) == 40 and max(closed_at.values()) < REQ + 5,
            "the 40 slow connections closed by the daemon within %d s: %d closed, last at %s s"
            % (REQ + 5, len(closed_at), max(closed_at.values()) if closed_at else None))
    for s in slow:
        s.close()

    # a body trickled after a complete head is cut too
    s = socket.create_connection(("127.0.0.1", d.port))
    s.sendall(b"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{" % d.token.encode())
    s.settimeout(1.5)
    t = time.time()
    cut = None
    while time.time() - t < REQ + 10:
        try:
            if s.recv(1024) == b"":
                cut = time.time() - t
                break
        except socket.timeout:
            pass
        except OSError:
            cut = time.time() - t
            break
        try:
            s.send(b" ")
        except OSError:
            cut = time.time() - t
            break
    s.close()
    F.check(cut is not None and cut < REQ + 3, "a trickled body is cut at the request deadline: %s s" % cut)

    # a long-poll is not a slow request
    blocker = pmd.hold(d)
    t = time.time()
    st, j = d.request("GET", "/v1/jobs/%s?wait=%d" % (blocker, REQ + 4))
    F.check(st == 200 and j["state"] in ("queued", "running") and time.time() - t > REQ + 2,
            "a long-poll longer than http.request_timeout_s is answered: %s %s after %.1f s" % (st, j.get("state"), time.time() - t))
    pmd.release(d, blocker)
finally:
    d.stop()
# ---- descriptors past FD_SETSIZE (#40 probe F1): 1100 idle connections on the gRPC port (no token
# needed) push every later descriptor past 1024; the HTTP listener polls (not select()) and serves on
import resource  # noqa: E402
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = 1400
if hard != resource.RLIM_INFINITY and hard < want:
    print("NOTE: the hard limit of open files is %d (< %d): the FD_SETSIZE check is skipped" % (hard, want))
else:
    resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else max(soft, want), hard))
    d = pmd.Daemon(grpc=True)
    idle = []
    try:
        for _ in range(1100):
            s_ = socket.create_connection(("127.0.0.1", d.grpc_port), timeout=10)
            idle.append(s_)
        time.sleep(0.5)
        st, j = d.request("GET", "/v1/status")
        F.check(st == 200, "HTTP with 1100 idle gRPC connections open (descriptors past 1024): %s" % st)
        m = re.search(r"open files: soft limit raised from (\d+) to the hard limit (\d+)", d.log_text())
        F.check(m is not None or soft == hard, "the daemon raised its soft limit of open files:\n" + d.log_text()[-2000:])
    finally:
        for s_ in idle:
            s_.close()
        d.stop()
F.done("test_daemon_slowloris")
