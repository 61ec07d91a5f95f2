"""Shared by the daemon tests of the Filecoin PoSt / SnapDeals kinds (test_daemon_post*.py): our
seeded TEST parameters and requests made by the `proofmill <kind>` commands, and a request file
(proof_request.h's JSON) turned into the HTTP submit body of its kind."""
import base64
import json
import os
import subprocess
import tempfile

import pmd

if not pmd.BIN or not os.path.exists(pmd.BIN):
    pmd.skip("PROOFMILL_BIN not built")
SLOW = os.environ.get("PROOFMILL_SLOW") == "1"
tmp = tempfile.mkdtemp(prefix="pm-post-")
P = os.path.join(tmp, "params")
STEMS = {"window-post": "0170db1f", "winning-post": "3ea05428", "snapdeals": "fb9e095b"}  # 2 KiB


def pm(*args, timeout=900):
    r = subprocess.run([pmd.BIN] + list(args), capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("proofmill %s: exit %d\n%s%s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
    return r.stdout + r.stderr


# the kinds' further inputs: the request file's fields each kind takes (vanilla_kind.h)
FIELDS = {
    "winning-post": ["randomness", "registered_proof", "sector_size", "miner_id"],
    "window-post": ["randomness", "registered_proof", "partition_index", "sector_size", "miner_id"],
    "snapdeals": ["comm_r_old", "comm_r_new", "comm_d_new", "registered_proof", "sector_size", "sector_number",
                  "miner_id"],
}


def body_of(kind, req_path, **extra):
    """The HTTP submit body of a request file (proof_request.h's JSON): byte fields as <name>_b64,
    numbers as JSON numbers, one {"vanilla_b64": ...} per vanilla proof."""
    with open(req_path) as f:
        r = json.load(f)
    b = {"kind": kind, "params_dir": P, "inputs": [{"vanilla_b64": v} for v in r["vanilla_proofs"]]}
    for k in FIELDS[kind]:
        if k in r:
            b[k if isinstance(r[k], int) else k + "_b64"] = r[k]
    b.update(extra)
    return b


def vanilla(body, i):
    return bytearray(base64.b64decode(body["inputs"][i]["vanilla_b64"]))


def with_vanilla(body, i, blob):
    b = json.loads(json.dumps(body))
    b["inputs"][i] = {"vanilla_b64": base64.b64encode(bytes(blob)).decode()}
    return b


def verify_cli(kind, req, proof_b64):
    """`proofmill KIND verify` of a daemon's proof_b64 against the request's public inputs: (ok, output)."""
    vk = vk_of(kind)
    pp = os.path.join(tmp, kind + ".proof")
    with open(pp, "wb") as f:
        f.write(base64.b64decode(proof_b64))
    r = subprocess.run([pmd.BIN, kind, "verify", "--request", req, "--vk", vk, "--proof", pp], capture_output=True,
                       text=True, timeout=120)
    return r.returncode == 0 and "partition 0: OK" in r.stdout, r.stdout + r.stderr


def vk_of(kind):
    prefix_hex = STEMS[kind]
    for n in os.listdir(P):
        if n.endswith(".vk") and prefix_hex in n:
            return os.path.join(P, n)
    raise RuntimeError("no .vk with " + prefix_hex)


def setup_2k(kind, seed, gen_args=()):
    """Test parameters of kind at 2 KiB in P and a request over our sealed test sectors: its path."""
    pm(kind, "params-setup", "--sector-size", "2KiB", "--dir", P, "--seed", str(seed), timeout=3600)
    req = os.path.join(tmp, kind + ".json")
    pm(kind, "gen", "--sector-size", "2KiB", "--out", req, *gen_args)
    return req
