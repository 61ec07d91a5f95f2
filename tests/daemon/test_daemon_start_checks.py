#!/usr/bin/env python3
"""What the daemon says at start (issue #39). It logs its Filecoin parameter directory and what it holds (issue #39): with
no files "no Filecoin parameter files"; a .vk under the 2 KiB PoRep name listed in the directory's
marker as "proofmill test parameters"; the same file unlisted as "NOT Filecoin's". A log.level that
is not error, warn, info or debug is refused at start, as a bad log.format is. A gRPC port that
another process holds is refused naming it and saying that another prover (cuzk) may hold it."""
import os
import re
import socket
import subprocess
import tempfile

import pmd

F = pmd.Failures()
pdir = tempfile.mkdtemp(prefix="pmd-params-")
names = subprocess.run([pmd.BIN, "params", "names"], capture_output=True, text=True).stdout
stem = [l.split()[1] for l in names.splitlines() if l.split()[0] == "2048"][0]


def start_log():
    d = pmd.Daemon({"filecoin.params_dir": pdir})
    rc, log = d.stop()
    m = re.search(r"info: parameters: (.*)", log)
    F.check(m, "a parameters line:\n" + log)
    return m.group(1) if m else ""


line = start_log()
F.check(line == "%s: no Filecoin parameter files" % pdir, "empty directory: %r" % line)
with open(os.path.join(pdir, stem + ".vk"), "wb") as f:
    f.write(b"\0" * 1000)
with open(os.path.join(pdir, "proofmill-test-parameters"), "w") as f:
    f.write("# proofmill TEST parameters\n%s.vk\n" % stem)
line = start_log()
F.check("porep 2KiB proofmill test parameters" in line, "a marked test file: %r" % line)
os.unlink(os.path.join(pdir, "proofmill-test-parameters"))
line = start_log()
F.check("porep 2KiB NOT Filecoin's" in line, "an unmarked foreign file: %r" % line)
os.unlink(os.path.join(pdir, stem + ".vk"))
os.rmdir(pdir)
r = subprocess.run([pmd.BIN, "daemon", "--set", "log.level=verbose", "--set", "grpc.listen=", "--listen",
                    "127.0.0.1:0", "--set", "state.dir=off"], capture_output=True, text=True, timeout=60)
F.check(r.returncode == 2 and "log.level" in r.stderr and "'verbose' is not error, warn, info or debug" in r.stderr,
        "log.level=verbose: exit %d, %r" % (r.returncode, r.stderr))
# a gRPC port in use
busy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
busy.bind(("127.0.0.1", 0))
busy.listen(1)
port = busy.getsockname()[1]
r = subprocess.run([pmd.BIN, "daemon", "--set", "grpc.listen=127.0.0.1:%d" % port, "--set", "listen.tcp=",
                    "--set", "state.dir=off"],
                   capture_output=True, text=True, timeout=60)
busy.close()
out = r.stdout + r.stderr
if "gRPC" in out and "not built" in out:
    print("gRPC not built: the port check is skipped")
else:
    F.check(r.returncode == 2 and ("127.0.0.1:%d" % port) in out and "cuzk" in out,
            "a gRPC port in use: exit %d, %r" % (r.returncode, out))
F.done("test_daemon_start_checks")
