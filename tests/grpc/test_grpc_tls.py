#!/usr/bin/env python3
"""gRPC over mutual TLS (hostile review of the daemon: one GPU box serving several Curio machines).

The recipe of docs/daemon.md ("gRPC over TLS") is run as written (its sh block, with SAN =
127.0.0.1/localhost and NODES = curio1 curio2), twice: the real CA and another CA. Then the daemon
starts with the doc's [grpc] lines (listen on 127.0.0.1:0 instead of 0.0.0.0:9820), and:
- curio1 and curio2 (certificates of the CA) get GetStatus, and prove through Prove (proofmill_toy's
  toy-cube kind as WINNING_POST, when built; otherwise SubmitProof reaches the handler: an
  INVALID_ARGUMENT about the C1);
- a TLS client without a certificate, one with a certificate of the other CA, and a plaintext
  client are refused (UNAVAILABLE: the handshake fails), and the daemon serves on;
Start checks (the daemon exits non-zero with a clear message): a non-loopback grpc.listen
(0.0.0.0) plaintext, or TLS without grpc.tls_client_ca; grpc.tls_cert without grpc.tls_key;
tls_client_ca alone; an unreadable or non-PEM certificate file; TLS on a unix socket. It starts on
0.0.0.0 with mutual TLS (the start line says so) and, logged as plaintext reachable from other
machines, with grpc.allow_insecure_remote = true.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuzk_stubs  # noqa: E402
import pmd  # noqa: E402

grpc, pb, pbg = cuzk_stubs.load()
C = grpc.StatusCode
F = pmd.Failures()
import shutil  # noqa: E402

if not shutil.which("openssl"):
    pmd.skip("the openssl command is missing (Debian: openssl)")
if not pmd.BIN or not os.path.exists(pmd.BIN):
    pmd.skip("PROOFMILL_BIN not built")
W = tempfile.mkdtemp(prefix="pm-grpc-tls-")
DOC = os.path.join(pmd.SRC, "docs", "daemon.md")
doc = open(DOC).read()
m = re.search(r"<!-- tls-recipe -->\n```sh\n(.*?)\n```", doc, re.S)
assert m, "docs/daemon.md: no <!-- tls-recipe --> sh block"
recipe = m.group(1)
assert re.search(r"^SAN=.*$", recipe, re.M) and re.search(r"^NODES=.*$", recipe, re.M), recipe
recipe = re.sub(r"^SAN=.*$", 'SAN="DNS:localhost,IP:127.0.0.1"', recipe, count=1, flags=re.M)
recipe = re.sub(r"^NODES=.*$", 'NODES="curio1 curio2"', recipe, count=1, flags=re.M)
m = re.search(r"```ini\n(\[grpc\]\nlisten = 0\.0\.0\.0:9820\n.*?)```", doc, re.S)
assert m, "docs/daemon.md: no [grpc] ini block of the TLS recipe"
ini = m.group(1)

CA, OTHER = os.path.join(W, "ca"), os.path.join(W, "other")
for d in (CA, OTHER):
    os.makedirs(d)
    r = subprocess.run(["sh", "-c", recipe], cwd=d, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, "the recipe failed in %s:\n%s%s" % (d, r.stdout, r.stderr)
for f in ("ca.pem", "server.pem", "server.key", "curio1.pem", "curio1.key", "curio2.pem", "curio2.key"):
    F.check(os.path.exists(os.path.join(CA, f)), "the recipe makes %s" % f)
F.check(os.stat(os.path.join(CA, "server.key")).st_mode & 0o077 == 0, "server.key is owner-only")
conf = ini.replace("/etc/proofmill/tls/", CA + "/").replace("0.0.0.0:9820", "127.0.0.1:0")


def read(d, f):
    with open(os.path.join(d, f), "rb") as fh:
        return fh.read()


def channel(port, ca=CA, client=None, client_dir=None):
    creds = grpc.ssl_channel_credentials(
        root_certificates=read(ca, "ca.pem"),
        private_key=read(client_dir or ca, client + ".key") if client else None,
        certificate_chain=read(client_dir or ca, client + ".pem") if client else None)
    return grpc.secure_channel("127.0.0.1:%d" % port, creds)


def status(ch):
    try:
        return None, pbg.ProvingEngineStub(ch).GetStatus(pb.GetStatusRequest(), timeout=15)
    except grpc.RpcError as e:
        return e.code(), e.details() or ""
    finally:
        ch.close()


TOY, TOY_PARAMS = os.environ.get("PROOFMILL_TOY_BIN", ""), os.environ.get("PROOFMILL_TOY_PARAMS", "")
have_toy = os.path.exists(TOY) and os.path.exists(TOY_PARAMS)
settings = {"prover.msm_threads": 1}
if have_toy:
    tdir = os.path.join(W, "toy")
    os.makedirs(tdir)
    subprocess.run([TOY_PARAMS, tdir], check=True, timeout=300)
    settings.update({"filecoin.params_dir": tdir, "grpc.proof_kinds": "WINNING_POST=toy-cube"})
else:
    print("NOTE: proofmill_toy not built: the certified clients prove nothing, SubmitProof reaches the handler")

d = pmd.Daemon(settings, grpc="127.0.0.1:0", config_text=conf, bin=TOY if have_toy else None)
try:
    log = d.log_text()
    F.check("over TLS, client certificates required" in log, "start line says TLS: %s" % log[-2000:])
    port = d.grpc_port
    for node in ("curio1", "curio2"):
        code, ans = status(channel(port, client=node))
        F.check(code is None, "%s (the CA's certificate): GetStatus %s %r" % (node, code, ans))
        ch = channel(port, client=node)
        svc = pbg.ProvingEngineStub(ch)
        try:
            if have_toy:
                r = svc.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
                    request_id="tls-" + node, proof_kind=pb.WINNING_POST, vanilla_proof=b"3 35\n5 135\n",
                    registered_proof=3, sector_size=2048, miner_id=1000)), timeout=300).result
                F.check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 2 * 192,
                        "%s proves over TLS: %s %r" % (node, r.status, r.error_message))
            else:
                try:
                    svc.SubmitProof(pb.SubmitProofRequest(request_id="tls-" + node, proof_kind=pb.POREP_SEAL_COMMIT,
                                                          registered_proof=8, vanilla_proof=b"not json"), timeout=30)
                    F.check(False, "a non-JSON C1 accepted")
                except grpc.RpcError as e:
                    F.check(e.code() == C.INVALID_ARGUMENT, "%s: SubmitProof reaches the handler: %s" % (node, e.code()))
        finally:
            ch.close()
    # refused: no client certificate, another CA's certificate, plaintext
    code, det = status(channel(port))
    F.check(code == C.UNAVAILABLE, "TLS client without a certificate: %s %r" % (code, det))
    code, det = status(channel(port, client="curio1", client_dir=OTHER))
    F.check(code == C.UNAVAILABLE, "client certificate of another CA: %s %r" % (code, det))
    code, det = status(grpc.insecure_channel("127.0.0.1:%d" % port))
    F.check(code == C.UNAVAILABLE, "plaintext client: %s %r" % (code, det))
    code, det = status(channel(port, ca=OTHER, client="curio1", client_dir=CA))  # the server unknown to the client
    F.check(code == C.UNAVAILABLE, "a client trusting another CA refuses the server: %s %r" % (code, det))
    code, ans = status(channel(port, client="curio1"))
    F.check(code is None, "still serving certified clients: %s %r" % (code, ans))
finally:
    d.stop()

# --- start checks
TLS = ["--set", "grpc.tls_cert=" + os.path.join(CA, "server.pem"), "--set", "grpc.tls_key=" + os.path.join(CA, "server.key")]
MTLS = TLS + ["--set", "grpc.tls_client_ca=" + os.path.join(CA, "ca.pem")]
junk = os.path.join(W, "junk.pem")
with open(junk, "w") as f:
    f.write("not a certificate\n")


def start(listen, extra, expect_start):
    """Run the daemon with grpc.listen = listen; expect_start: wait for its gRPC line, then SIGTERM.
    Returns its output."""
    sd = tempfile.mkdtemp(prefix="sd-", dir=W)
    args = [pmd.BIN, "daemon", "--set", "listen.tcp=", "--set", "state.dir=" + sd, "--set", "grpc.listen=" + listen] + extra
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not expect_start:
        try:
            out, _ = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
            F.check(False, "%s %s: still running, expected a refusal:\n%s" % (listen, extra, out[-2000:]))
            return out
        F.check(p.returncode != 0, "%s %s: exit %d, expected a refusal:\n%s" % (listen, extra, p.returncode, out[-2000:]))
        return out
    lines = []
    deadline = time.time() + 120
    while time.time() < deadline:
        ln = p.stdout.readline()
        if not ln:
            break
        lines.append(ln)
        if "ProvingEngine listening on" in ln:
            break
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=120)
    text = "".join(lines) + out
    F.check(p.returncode == 0 and "ProvingEngine listening on" in text, "%s %s: did not start:\n%s" % (listen, extra, text[-2000:]))
    return text


out = start("0.0.0.0:0", [], False)
F.check("reachable from other machines" in out and "grpc.allow_insecure_remote" in out and "grpc.tls_client_ca" in out,
        "plaintext 0.0.0.0 refused with the way out: %s" % out[-1500:])
out = start("0.0.0.0:0", TLS, False)
F.check("TLS without client certificates" in out, "0.0.0.0 without grpc.tls_client_ca refused: %s" % out[-1500:])
out = start("127.0.0.1:0", TLS[:2], False)
F.check("grpc.tls_key" in out and "only one is set" in out, "tls_cert without tls_key: %s" % out[-1500:])
out = start("127.0.0.1:0", MTLS[4:], False)
F.check("grpc.tls_client_ca is set but" in out, "tls_client_ca alone: %s" % out[-1500:])
out = start("127.0.0.1:0", ["--set", "grpc.tls_cert=" + os.path.join(W, "missing.pem")] + TLS[2:], False)
F.check("missing.pem" in out and "cannot read" in out, "missing certificate file named: %s" % out[-1500:])
out = start("127.0.0.1:0", ["--set", "grpc.tls_cert=" + junk] + TLS[2:], False)
F.check("junk.pem" in out and "not a PEM" in out, "non-PEM certificate named: %s" % out[-1500:])
out = start("unix://" + os.path.join(W, "g.sock"), MTLS, False)
F.check("unix socket" in out and "TLS" in out, "TLS on a unix socket refused: %s" % out[-1500:])
out = start("0.0.0.0:0", MTLS, True)
F.check("grpc://0.0.0.0:" in out and "over TLS, client certificates required" in out, "0.0.0.0 with mutual TLS: %s" % out[-1500:])
out = start("0.0.0.0:0", ["--set", "grpc.allow_insecure_remote=true"], True)
F.check("PLAINTEXT, reachable from other machines" in out, "allow_insecure_remote: logged: %s" % out[-1500:])
F.done("test_grpc_tls")
