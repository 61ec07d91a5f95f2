#!/usr/bin/env bash
# winning_under_load.sh — issue #16's "WinningPoSt ≤ 0.5 s from submit to verified proof on a warm
# daemon, also while PoRep C2 jobs fill the GPU": one daemon, PoRep C2 jobs kept running by a
# background `bench batch --daemon`, and WinningPoSt requests submitted one at a time by a second
# `bench batch --kind winning-post --request --daemon` once the PoRep partitions are on the device.
#
# Usage: bench/winning_under_load.sh BUILD_DIR POREP_C1.json POREP_PARAMS_DIR SIZE [N_WIN (5)] [POREP_COUNT (3)]
#   e.g. (after bench/porep_gpu_32g.sh /tmp/b setup)
#        bench/winning_under_load.sh /tmp/b /tmp/porep-32g/c1.json /tmp/porep-32g/p 32GiB 5 3
# The WinningPoSt request and our own seeded TEST parameters for SIZE are made here (`winning-post
# gen`, `params-setup --seed 7`: 370,590 constraints at 32 GiB, seconds). One warm-up WinningPoSt
# (its key load) runs before the PoRep load starts. Reported: each WinningPoSt's submit-to-proof wall
# time (every proof verified by the engine), alone, under load as soon as PoRep partitions run (the
# first PoRep job's key may still be uploading), and under load once a PoRep job has completed, in
# $OUT/winning-under-load.txt;
# the daemon's log (the urgent lane: synth-urgent, gpuN-urgent; yields) in $OUT/daemon.log. During
# each under-load set a sampler writes every 0.1 s what could stall a submit outside the engine
# ($OUT/sampler-<set>.txt: memory and I/O pressure stall totals from /proc/pressure, direct-reclaim
# counters, MemAvailable, and the daemon's threads in uninterruptible sleep with their wait channels).
# PM_LANE=false runs the daemon with gpu.urgent_lane = false (the comparison); PM_NO_GPU=1 uses the
# CPU backend (to check the script anywhere). Exit 0 when every proof of both benches succeeded.
set -u
B=${1:?usage: winning_under_load.sh BUILD_DIR POREP_C1 POREP_PARAMS SIZE [N_WIN] [POREP_COUNT]}
C1=${2:?C1}; PP=${3:?POREP_PARAMS_DIR}; S=${4:?SIZE}; NW=${5:-5}; NP=${6:-3}
PM="$B/proofmill"
OUT=${OUT:-$PWD/winning-out}
W=${PM_SCRATCH:-/tmp/winning-load}
rm -rf "$W"; mkdir -p "$W" "$OUT"
SUM="$OUT/winning-under-load.txt"
. "$(dirname "$0")/../tests/gpu/device_lib.sh"
pm_gpu_flag
GPUSET=(--set gpu.devices=0)
[ -z "$GPU" ] && GPUSET=()
say "winning_under_load.sh $S: commit $(pm_commit "$(dirname "$0")/.."), lane ${PM_LANE:-true}, $(pm_card), $(date -u +%FT%TZ)"
"$PM" winning-post gen --sector-size "$S" --out "$W/win.json" > "$W/gen.txt" 2>&1 || { cat "$W/gen.txt"; exit 1; }
"$PM" winning-post params-setup --sector-size "$S" --dir "$W/wp" --seed 7 > "$W/setup.txt" 2>&1 || { cat "$W/setup.txt"; exit 1; }
SOCK="$W/d.sock"
"$PM" daemon --unix "$SOCK" --listen "" --set grpc.listen= --set state.dir="$W/state" \
  --set paths.allow_prefix="$(dirname "$(readlink -f "$PP")"),$W,$(dirname "$(readlink -f "$C1")")" \
  --set gpu.urgent_lane="${PM_LANE:-true}" --set log.level=debug "${GPUSET[@]}" > "$OUT/daemon.log" 2>&1 &
DPID=$!
trap 'kill -TERM $DPID 2>/dev/null; wait $DPID 2>/dev/null' EXIT
for _ in $(seq 600); do [ -S "$SOCK" ] && break; sleep 0.1; done
[ -S "$SOCK" ] || { say "FAIL: the daemon did not start"; tail -20 "$OUT/daemon.log"; exit 1; }
rc=0
sampler() { # file: until killed, a line every 0.1 s
  local f=$1 pid=$DPID
  echo "# t_s mem_some_us mem_full_us io_some_us io_full_us allocstall pgscan_direct memavail_kb D-threads(wchan:count)" > "$f"
  while :; do
    local ms mf is if_ as pd ma d
    ms=$(awk '/^some/ { sub("total=", "", $5); print $5 }' /proc/pressure/memory 2>/dev/null)
    mf=$(awk '/^full/ { sub("total=", "", $5); print $5 }' /proc/pressure/memory 2>/dev/null)
    is=$(awk '/^some/ { sub("total=", "", $5); print $5 }' /proc/pressure/io 2>/dev/null)
    if_=$(awk '/^full/ { sub("total=", "", $5); print $5 }' /proc/pressure/io 2>/dev/null)
    as=$(awk '/^allocstall/ { s += $2 } END { print s + 0 }' /proc/vmstat)
    pd=$(awk '/^pgscan_direct/ { s += $2 } END { print s + 0 }' /proc/vmstat)
    ma=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
    d=$(for t in /proc/$pid/task/*; do
          [ "$(awk '{ print $3 }' "$t/stat" 2>/dev/null)" = D ] && { cat "$t/wchan" 2>/dev/null; echo; }
        done | sort | uniq -c | awk '{ printf "%s:%s ", $2 == "" ? "?" : $2, $1 }')
    echo "$(date +%s.%N | cut -c1-14) ${ms:--} ${mf:--} ${is:--} ${if_:--} $as $pd $ma $d" >> "$f"
    sleep 0.1
  done
}
win() { # label count
  "$PM" bench batch --kind winning-post --params "$W/wp" --request "$W/win.json" -c "$2" -j 1 --daemon "unix:$SOCK" \
    > "$W/win-${1// /-}.txt" 2>&1 || rc=1
  awk -v l="$1" '/^\[[0-9]+\/[0-9]+\] done/ { n++; s += $3; if (!m || $3 < m) m = $3; if ($3 > x) x = $3; v = v " " $3 }
    END { if (n) printf "WinningPoSt %s: %d proofs, submit -> verified proof min %.3f avg %.3f max %.3f s (each:%s)\n", l, n, m, s / n, x, v;
          else printf "WinningPoSt %s: no proof\n", l }' "$W/win-${1// /-}.txt" | tee -a "$SUM"
  grep -E "FAILED" "$W/win-${1// /-}.txt" | head -3 | tee -a "$SUM"
}
win warmup 1 # the key load
win alone "$NW"
# the PoRep load: NP proofs at j 2 in the background; the WinningPoSts start once its partitions run
"$PM" bench batch --type porep --c1 "$C1" --params "$PP" -c "$NP" -j 2 --daemon "unix:$SOCK" > "$W/porep.txt" 2>&1 &
BPID=$!
/usr/bin/env python3 - "$SOCK" <<'PY' || say "NOTE: the PoRep partitions were not seen on the device within 600 s"
import http.client, json, socket, sys, time
class U(http.client.HTTPConnection):
    def __init__(self, p): super().__init__("localhost"); self.p = p
    def connect(self): self.sock = socket.socket(socket.AF_UNIX); self.sock.connect(self.p)
t = time.time()
while time.time() - t < 600:
    c = U(sys.argv[1]); c.request("GET", "/v1/status"); s = json.loads(c.getresponse().read())
    if s["jobs"]["running"] and (any(d.get("in_kernel") for d in s.get("devices", [])) or s["workers"]["start"]["busy"]):
        sys.exit(0)
    time.sleep(0.5)
sys.exit(1)
PY
sleep 3 # a partition inside the kernel region, the next one staged (the first PoRep job's key may still
         # be making its first upload: the transient of a key (re)load)
sampler "$OUT/sampler-under-load.txt" & SPID=$!
win "under PoRep load" "$NW"
kill $SPID 2>/dev/null; wait $SPID 2>/dev/null
# the steady state: once a PoRep job has completed (its key resident, no first upload), while the
# other PoRep jobs still run
/usr/bin/env python3 - "$SOCK" <<'PY' || say "NOTE: no PoRep job completed within 600 s"
import http.client, json, socket, sys, time
class U(http.client.HTTPConnection):
    def __init__(self, p): super().__init__("localhost"); self.p = p
    def connect(self): self.sock = socket.socket(socket.AF_UNIX); self.sock.connect(self.p)
def status():
    c = U(sys.argv[1]); c.request("GET", "/v1/status"); return json.loads(c.getresponse().read())
done0 = status()["jobs"]["done"]
t = time.time()
while time.time() - t < 600:
    s = status()
    if s["jobs"]["done"] > done0:
        sys.exit(0 if s["jobs"]["running"] else 1)
    time.sleep(0.5)
sys.exit(1)
PY
sampler "$OUT/sampler-steady.txt" & SPID=$!
win "steady under PoRep load" "$NW"
kill $SPID 2>/dev/null; wait $SPID 2>/dev/null
wait $BPID || rc=1
grep -E "^summary" "$W/porep.txt" | sed 's/^/PoRep load: /' | tee -a "$SUM"
say "winning_under_load.sh: rc $rc"
exit $rc
