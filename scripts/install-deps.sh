#!/usr/bin/env bash
# Installs what proofmill needs on Debian 12: the build toolchain and libraries (apt-get) and the
# test oracles (snarkjs, @noble/curves, circom2 from npm, into tests/oracles/node_modules).
# Idempotent: skips what is already there. Needs root (or sudo) for apt-get.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# gRPC (the daemon's cuzk.v1 API, issue #15): the C++ library, protoc with the C++ and Python
# plugins, and Debian's Python gRPC for the test client generated from the same .proto.
pkgs=(build-essential cmake pkg-config libgmp-dev libjansson-dev libmicrohttpd-dev libcmocka-dev
      libb2-dev libinih-dev libssl-dev python3 nodejs npm curl
      libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc python3-grpcio python3-protobuf)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A machine whose Node.js came from elsewhere (node on PATH, no Debian package) keeps it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
missing=($(printf '%s\n' "${missing[@]}" | sed '/^$/d'))
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "install-deps: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -x "$root/tests/oracles/node_modules/.bin/snarkjs" ] || [ ! -d "$root/tests/oracles/node_modules/@noble/curves" ]; then
  echo "install-deps: npm ci in tests/oracles (snarkjs, @noble/curves, circom2)"
  (cd "$root/tests/oracles" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
echo "install-deps: ok"
