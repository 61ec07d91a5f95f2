#!/usr/bin/env bash
# engine.sh — throughput sweep of the proving engine (embedded, CPU backend) with `proofmill bench`.
#
# usage: bench/engine.sh [PROOFMILL_BIN] [KEY.zkey WITNESS.wtns] [COUNT]
#   defaults: build-engine/proofmill, ../shared/fixtures/bls12381/merkle_poseidon when present
#   (else tests/data/powchain), COUNT = 8 proofs per configuration.
# Each row is one `proofmill bench batch` run; the ratio column is throughput relative to the
# baseline measured first in the same run (j=1, one GPU worker, serial pipeline).
# CUDA: GPU=1 adds --gpu to every row (start phase on devices 0..N-1; rows' --devices apply).
# Environment: MSM_THREADS (default 1 so that concurrency, not MSM threads, uses the cores),
#              TRACE_DIR (write a Chrome trace + SVG timeline per row).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build-engine/proofmill}
shared=$here/../shared/fixtures/bls12381/merkle_poseidon
if [ $# -ge 3 ]; then key=$2; wtns=$3
elif [ -f "$shared/circuit.zkey" ]; then key=$shared/circuit.zkey; wtns=$shared/witness.wtns
else key=$here/tests/data/powchain/circuit.zkey; wtns=$here/tests/data/powchain/witness.wtns
fi
count=${4:-8}
msm=${MSM_THREADS:-1}
[ -x "$bin" ] || { echo "no proofmill binary at $bin (build: cmake --build build-engine --target proofmill)"; exit 2; }
echo "engine sweep: key $key, $count proofs per row, $(nproc) cores, msm threads $msm"
printf '%-34s %10s %10s %9s %9s %9s %7s\n' config proofs/min s/proof wall_avg start_avg queue_avg ratio
base=""
run() { # name, then bench arguments
  local name=$1; shift
  local extra=()
  if [ -n "${TRACE_DIR:-}" ]; then mkdir -p "$TRACE_DIR"; extra=(--trace "$TRACE_DIR/$name.json" --timeline "$TRACE_DIR/$name.svg"); fi
  local out
  [ -n "${GPU:-}" ] && extra+=(--gpu)
  out=$("$bin" bench batch --key "$key" --witness "$wtns" -c "$count" --msm-threads "$msm" "$@" "${extra[@]}" 2>/dev/null)
  local ppm sp wall gpu queue
  ppm=$(sed -n 's/.* \([0-9.]*\) proofs\/min.*/\1/p' <<<"$out")
  sp=$(sed -n 's/.*, \([0-9.]*\) s\/proof.*/\1/p' <<<"$out")
  wall=$(awk '$1=="wall"{print $3}' <<<"$out"); gpu=$(awk '$1=="start"{print $3}' <<<"$out"); queue=$(awk '$1=="queue"{print $3}' <<<"$out")
  [ -z "$base" ] && base=$ppm
  printf '%-34s %10s %10s %9s %9s %9s %7.2f\n' "$name" "$ppm" "$sp" "$wall" "$gpu" "$queue" "$(echo "$ppm / $base" | bc -l)"
}
run "j1 gw1 synth1 (baseline)"   -j 1 --gpu-workers 1 --synthesis-workers 1
run "j2 gw1 synth2"              -j 2 --gpu-workers 1 --synthesis-workers 2
run "j2 gw2 synth2"              -j 2 --gpu-workers 2 --synthesis-workers 2
run "j4 gw2 synth2"              -j 4 --gpu-workers 2 --synthesis-workers 2
run "j4 gw2 synth2 fin2"         -j 4 --gpu-workers 2 --synthesis-workers 2 --finalize-threads 2
run "j4 2 slots gw1"             -j 4 --gpu-workers 1 --synthesis-workers 2 --devices 2
run "j4 gw2 partitions=2"        -j 4 --gpu-workers 2 --synthesis-workers 2 --partitions 2
