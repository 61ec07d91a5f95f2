"""The cuzk.v1 client of the gRPC tests, generated at test time from the committed
src/daemon/grpc/proto/cuzk/v1/proving.proto by Debian's protoc + grpc_python_plugin, on Debian's
python3-grpcio. load() returns (grpc, proving_pb2, proving_pb2_grpc), or exits with ctest's skip
status (77), printing why, when grpcio, protobuf, protoc or the plugin is missing (a failure under
CI=true); after it, load_status() returns (status_pb2, status_pb2_grpc) of proofmill's own
src/daemon/grpc/proto/proofmill/v1/status.proto, generated beside."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "daemon"))
import pmd  # noqa: E402


def load():
    try:
        import grpc
        import google.protobuf  # noqa: F401
    except ImportError as e:
        msg = "Debian's python3-grpcio / python3-protobuf missing (%s; scripts/install-deps.sh): %s" % (sys.executable, e)
        if os.environ.get("CI") == "true":
            print("FAIL:", msg)
            sys.exit(1)
        pmd.skip(msg)
    protoc = os.environ.get("PROOFMILL_PROTOC") or shutil.which("protoc")
    plugin = os.environ.get("PROOFMILL_GRPC_PYTHON_PLUGIN") or shutil.which("grpc_python_plugin")
    if not protoc or not plugin:
        pmd.skip("protoc / grpc_python_plugin missing (protobuf-compiler, protobuf-compiler-grpc)")
    stubs = tempfile.mkdtemp(prefix="pm-grpc-stubs-")
    for proto in ("cuzk/v1/proving.proto", "proofmill/v1/status.proto"):
        subprocess.run([protoc, "-I", os.path.join(pmd.SRC, "src", "daemon", "grpc", "proto"), "--python_out=" + stubs,
                        "--grpc_python_out=" + stubs, "--plugin=protoc-gen-grpc_python=" + plugin, proto], check=True)
    sys.path.insert(0, stubs)
    from cuzk.v1 import proving_pb2 as pb
    from cuzk.v1 import proving_pb2_grpc as pbg
    return grpc, pb, pbg


def load_status():
    """proofmill.v1.ProofmillStatus's messages and stub (after load())."""
    from proofmill.v1 import status_pb2 as spb
    from proofmill.v1 import status_pb2_grpc as spbg
    return spb, spbg
