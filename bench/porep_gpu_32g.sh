#!/usr/bin/env bash
# porep_gpu_32g.sh — 32 GiB PoRep C2 on the GPU from a synthetic C1 (issue #13), in two device calls
# chained while the machine stays warm (its /tmp survives between calls then).
#
# Usage: bench/porep_gpu_32g.sh BUILD_DIR setup   # synth-c1 + params-setup --gpu (test parameters)
#        bench/porep_gpu_32g.sh BUILD_DIR bench [J_LIST] [WORKERS_LIST] [COUNT]   # bench/porep_gpu.sh
#        bench/porep_gpu_32g.sh BUILD_DIR caps ["48G 32G 24G 16G"] [J_LIST] [WORKERS_LIST] [COUNT]
#          the bench at each device-memory cap (PROOFMILL_GPU_MEMORY: smaller cards emulated)
# setup writes the synthetic 32 GiB C1 and our own seeded TEST parameters (.params ≈ 47 GB, .csr ≈
# 8.9 GB) under $PM_SCRATCH (default /tmp/porep-32g): ~57 GB of the device machine's 64 GiB disk, so
# nothing else large may be there. Predicted (docs/perf/porep.md): setup ≈ 1.5-2.5 min (record ≈ 40 s,
# points on the GPU ≈ 10 s, writing ≈ 1 min); bench: loading the parameters (47 GB from disk) then
# ≈ 26 s per proof with this commit's in-lock pageable stage, so COUNT 2 at j 1 ≈ 2-3 min.
# Output under $OUT (porep-gpu.tsv rows, bench logs, timelines; setup.txt).
set -u
B=${1:?usage: porep_gpu_32g.sh BUILD_DIR setup|bench ...}
STEP=${2:?setup or bench}
PM="$B/proofmill"
W=${PM_SCRATCH:-/tmp/porep-32g}
OUT=${OUT:-$PWD/porep-gpu-out}
mkdir -p "$W" "$OUT"
T=(); [ -x /usr/bin/time ] && T=(/usr/bin/time -v)
case "$STEP" in
setup)
  df -h /tmp | tee "$OUT/setup.txt"
  "${T[@]}" "$PM" porep synth-c1 --sector-size 32GiB --out "$W/c1.json" >> "$OUT/setup.txt" 2>&1 || exit 1
  "${T[@]}" "$PM" porep params-setup --sector-size 32GiB --dir "$W/p" --seed 7 --gpu >> "$OUT/setup.txt" 2>&1
  rc=$?
  ls -la "$W" "$W/p" >> "$OUT/setup.txt"; df -h /tmp >> "$OUT/setup.txt"
  grep -E "constraints|Elapsed|Maximum resident" "$OUT/setup.txt"
  exit $rc ;;
bench)
  bash "$(dirname "$0")/porep_gpu.sh" "$PM" "$W/c1.json" "$W/p" 32GiB "${3:-1}" "${4:-2}" "${5:-2}" ;;
caps)
  # the same bench under device-memory caps (gpu.memory: emulated smaller cards), each printing the
  # key's device-memory plan (gpu.verbose) into the bench log; rows carry device_cap_gib
  rc=0
  for cap in ${3:-"48G 32G 24G 16G"}; do
    echo "== cap $cap"
    PROOFMILL_GPU_MEMORY=$cap PROOFMILL_GPU_VERBOSE=1 \
      bash "$(dirname "$0")/porep_gpu.sh" "$PM" "$W/c1.json" "$W/p" 32GiB "${4:-1}" "${5:-2}" "${6:-1}" || rc=1
    grep -A12 "^gpu key" "$OUT/bench-32GiB.txt" | tail -13
  done
  exit $rc ;;
*)
  echo "porep_gpu_32g.sh: step is setup, bench or caps" >&2; exit 2 ;;
esac
