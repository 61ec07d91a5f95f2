#!/usr/bin/env bash
# groth16_cpu.sh — proofmill vs snarkjs, Groth16 prove on the CPU, same inputs, same run.
#
# usage: bench/groth16_cpu.sh [BUILD_DIR] [FIXTURES_DIR...]
#   BUILD_DIR     holds the proofmill binary (default: build)
#   FIXTURES_DIR  folders with circuit.zkey + witness.wtns + verification_key.json (default: every
#                 ../shared/fixtures/bls12381/* and tests/data/*)
# Environment: THREADS (proofmill threads, default 2), REPS (proofmill repetitions, best taken,
# default 3), SNARKJS_REPS (default 1), SNARKJS (default tests/oracles/node_modules/.bin/snarkjs).
# For each fixture: wall time of `snarkjs groth16 prove` and of `proofmill groth16 prove`
# (including loading the zkey and witness, writing the JSON, and proofmill's self-check), both
# proofs checked with `proofmill groth16 verify`, then the ratio snarkjs / proofmill.
# snarkjs uses all cores it finds (its worker threads); proofmill is given THREADS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
PM=$build/proofmill
SNARKJS=${SNARKJS:-$root/tests/oracles/node_modules/.bin/snarkjs}
THREADS=${THREADS:-2}
REPS=${REPS:-3}
SNARKJS_REPS=${SNARKJS_REPS:-1}
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=16384}
[ -x "$PM" ] || { echo "no proofmill binary at $PM (build first)"; exit 2; }
[ -x "$SNARKJS" ] || { echo "no snarkjs at $SNARKJS (npm ci in tests/oracles)"; exit 2; }
if [ $# -gt 0 ]; then fixtures=("$@"); else
  fixtures=()
  for d in "$root"/../shared/fixtures/bls12381/*/ "$root"/tests/data/*/; do
    [ -f "$d/circuit.zkey" ] && [ -f "$d/witness.wtns" ] && fixtures+=("${d%/}")
  done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# best N CMD...: runs CMD N times; prints "wall cpu" (seconds) of the fastest run by wall time,
# cpu = user + sys of the command and its threads (robust-ish when other jobs load the machine)
best() {
  local n=$1 bw="" bc="" w c
  shift
  for ((i = 0; i < n; i++)); do
    TIMEFORMAT='%R %U %S'
    { time "$@" >/dev/null 2>"$tmp/err"; } 2>"$tmp/time" || { cat "$tmp/err"; exit 1; }
    read -r w u sy <"$tmp/time"
    c=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.3f", u + s }')
    if [ -z "$bw" ] || awk -v t="$w" -v b="$bw" 'BEGIN { exit !(t < b) }'; then bw=$w; bc=$c; fi
  done
  echo "$bw $bc"
}
echo "groth16_cpu: $(date -u +%Y-%m-%dT%H:%MZ), $(uname -m), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "proofmill $("$PM" version | cut -d' ' -f2-), $THREADS threads, best of $REPS; snarkjs $("$SNARKJS" --version 2>/dev/null | head -n1 | grep -o '[0-9.]*' | head -n1), best of $SNARKJS_REPS"
printf "%-18s %11s | %9s %9s %7s | %9s %9s %7s\n" fixture constraints "snarkjs" "proofmill" "ratio" "snarkjs" "proofmill" "ratio"
printf "%-18s %11s | %27s | %27s\n" "" "" "wall seconds" "CPU seconds (user+sys)"
for fx in "${fixtures[@]}"; do
  name=$(basename "$fx")
  cons=$(grep -o 'Constraints: [0-9]*' "$fx/r1cs_info.txt" 2>/dev/null | grep -o '[0-9]*' || echo "?")
  read -r ts tsc < <(best "$SNARKJS_REPS" "$SNARKJS" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$tmp/sp.json" "$tmp/sx.json")
  read -r tp tpc < <(best "$REPS" "$PM" groth16 prove "$fx/circuit.zkey" "$fx/witness.wtns" "$tmp/pp.json" "$tmp/px.json" --threads "$THREADS")
  "$PM" groth16 verify "$fx/verification_key.json" "$tmp/sx.json" "$tmp/sp.json" >/dev/null
  "$PM" groth16 verify "$fx/verification_key.json" "$tmp/px.json" "$tmp/pp.json" >/dev/null
  printf "%-18s %11s | %9.3f %9.3f %6.1fx | %9.3f %9.3f %6.1fx\n" "$name" "$cons" "$ts" "$tp" \
    "$(awk -v a="$ts" -v b="$tp" 'BEGIN { print a / b }')" "$tsc" "$tpc" "$(awk -v a="$tsc" -v b="$tpc" 'BEGIN { print a / b }')"
done
echo "stage breakdown of the last fixture (proofmill -v):"
"$PM" groth16 prove "${fixtures[-1]}/circuit.zkey" "${fixtures[-1]}/witness.wtns" "$tmp/pp.json" "$tmp/px.json" --threads "$THREADS" -v 2>&1 | sed 's/^/  /'
