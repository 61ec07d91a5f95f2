#!/usr/bin/env bash
# demo.sh — the first thing to run on a fresh Debian 12 machine: installs what is missing, builds
# proofmill and runs its two main jobs on inputs made here or kept in the repository:
#   1. a circom/snarkjs Groth16 proof: tests/data/powchain (its .zkey and .wtns), verified with
#      proofmill and, when the oracles are installed, with `snarkjs groth16 verify`;
#   2. a Filecoin PoRep C2 at 2 KiB through the proving daemon: seal a test sector (-> its C1
#      output), make test parameters for the C2 circuit (seeded: NOT for real sectors; kept in
#      DEMO_DIR/params and reused next time), start `proofmill daemon` on a unix socket, submit the C1
#      over the HTTP API (POST /v1/jobs), follow the job (GET /v1/jobs/ID?wait=), write the
#      192-byte proof and verify it with `proofmill porep verify-proof`.
# Then it says what to run next. About 13-16 minutes on 2 idle cores the first time (compiling and
# npm ci ~14 min, the 2 KiB parameters ~70 s, the C2 ~30 s; several times that on a busy machine),
# a few minutes after that.
# Environment: BUILD_DIR (default build), PROOFMILL_BIN (use this binary: no install, no build),
# DEMO_DIR (work directory, default $BUILD_DIR/demo: the parameters stay in DEMO_DIR/params and are
# reused; each run's files go to DEMO_DIR/run.*, removed at the end unless DEMO_KEEP=1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
if [ -n "${PROOFMILL_BIN:-}" ]; then
  pm=$PROOFMILL_BIN
else
  bash scripts/install-deps.sh
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc)" --target proofmill
  pm=$build/proofmill
fi
pm=$(cd "$(dirname "$pm")" && pwd)/$(basename "$pm")
work=${DEMO_DIR:-$root/$build/demo}
mkdir -p "$work"
work=$(cd "$work" && pwd)
out=$(mktemp -d "$work/run.XXXXXX")
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  [ "${DEMO_KEEP:-0}" = 1 ] || rm -rf "$out"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }

# ---- 1. circom/snarkjs
step "1/2 Groth16 proof of tests/data/powchain (circom + snarkjs key, 495 constraints)"
fx=tests/data/powchain
"$pm" groth16 prove -v "$fx/circuit.zkey" "$fx/witness.wtns" "$out/proof.json" "$out/public.json"
"$pm" groth16 verify "$fx/verification_key.json" "$out/public.json" "$out/proof.json"
if [ -x tests/oracles/node_modules/.bin/snarkjs ]; then
  tests/oracles/node_modules/.bin/snarkjs groth16 verify "$fx/verification_key.json" "$out/public.json" "$out/proof.json" | sed "s/\x1b\[[0-9;]*m//g"
fi

# ---- 2. Filecoin PoRep C2 at 2 KiB through the daemon
step "2/2 Filecoin PoRep C2 at 2 KiB through the daemon"
params=$work/params
echo "-- seal a 2 KiB test sector (all zeros) and write its C1 output"
"$pm" porep seal --sector-size 2KiB --zero --out "$out/sector"
stem=$("$pm" params names | awk '$1 == 2048 {print $2}')
if [ -f "$params/$stem.params" ] && [ -f "$params/$stem.vk" ]; then
  echo "-- test parameters: $params (made by an earlier run)"
else
  echo "-- test parameters for the 2 KiB C2 circuit (seeded: for this demo only; ~70 s on 2 idle cores)"
  "$pm" porep params-setup --sector-size 2KiB --dir "$params" --seed 1
fi
sock=$out/proofmill.sock
echo "-- start the daemon on $sock (no TCP listener: HTTP on the socket, the gRPC API off)"
# its job journal in the run directory (removed at the end), not the user's default state directory
"$pm" daemon --listen "" --unix "$sock" --set grpc.listen= --set "paths.allow_prefix=$work" --set log.level=warn \
  --set "state.dir=$out/state" >"$out/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "demo: the daemon did not start:"; cat "$out/daemon.log"; exit 1; }
api() { curl -sS --unix-socket "$sock" -H 'Content-Type: application/json' "$@"; }
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
body="{\"kind\": \"porep-c2\", \"c1\": \"$out/sector/c1.json\", \"params_dir\": \"$params\", \"label\": \"demo\"}"
echo "-- POST /v1/jobs $body"
sub=$(api -X POST http://localhost/v1/jobs -d "$body")
id=$(printf '%s' "$sub" | json 'd.get("id", "")')
[ -n "$id" ] || { echo "demo: submit failed: $sub"; exit 1; }
t0=$(date +%s)
while :; do
  job=$(api "http://localhost/v1/jobs/$id?wait=2")
  state=$(printf '%s' "$job" | json 'd["state"]')
  # the stages finished so far (the daemon fills a stage's time when it ends)
  printf '   job %s: %-9s %s/%s partitions, %ss%s\n' "$id" "$state" \
    "$(printf '%s' "$job" | json 'd["partitions_done"]')" "$(printf '%s' "$job" | json 'd["partitions"]')" \
    "$(($(date +%s) - t0))" "$(printf '%s' "$job" | json '"".join("; %s %.1f s" % (k, v / 1e3) for k, v in
      d["timings_ms"].items() if v > 0 and k not in ("total", "queue"))')"
  case $state in done|failed|cancelled) break ;; esac
done
[ "$state" = done ] || { echo "demo: the C2 job ended $state: $job"; exit 1; }
printf '%s' "$job" | python3 -c '
import json, sys
job = json.load(sys.stdin)
with open(sys.argv[1], "wb") as f:
    for p in sorted(job["proofs"], key=lambda p: p["partition"]):
        f.write(bytes.fromhex(p["proof"]))' "$out/c2.proof"
echo "-- $(stat -c %s "$out/c2.proof") proof bytes; verified with the .vk and the C1's public inputs:"
"$pm" porep verify-proof --c1 "$out/sector/c1.json" --vk "$params/$stem.vk" --proof "$out/c2.proof"
kill "$daemon_pid"
wait "$daemon_pid" 2>/dev/null || true
daemon_pid=""

pm=${pm#"$root"/} # shown relative to the checkout
printf '\ndemo: both proofs verified.\nWhat to run next:\n'
# a command longer than the column gets its description on the next line
next() { if [ ${#1} -gt 54 ]; then printf '  %s\n  %-54s %s\n' "$1" "" "$2"; else printf '  %-54s %s\n' "$1" "$2"; fi; }
next "$pm --help" "every command; \`proofmill <command> --help\` lists its options"
next "$pm porep --help" "PoRep tools: seal, C1, circuit, C2 (docs/filecoin.md)"
next "$pm daemon --config proofmill.conf.example --set listen.unix=" "the proving service: HTTP on 127.0.0.1:9821, gRPC on 9820 (when built with it); its token, journal and spool in ~/.local/state/proofmill (docs/daemon.md)"
next "sudo cmake --install $build" "install proofmill, a config, the systemd unit (docs/install.md)"
next "bash scripts/test.sh" "the whole test suite, then the hostile inputs under ASan"
if [ "${DEMO_KEEP:-0}" = 1 ]; then echo "demo: work files kept in $out"; fi
