#!/usr/bin/env bash
# porep.sh — sealing and C1 timings for docs/perf/porep.md (issue #8).
# usage: bench/porep.sh PROOFMILL_BIN WORKDIR [SIZES...]   (SIZES default: 2KiB 8MiB)
# For each size: `proofmill porep seal --zero` (prints the per-step wall times and writes
# commitments.json), then `verify-c1` of its C1. Then a synthetic 32 GiB C1: write time, size, and
# parse time with the single-pass reader and with jansson (verify-c1 --jansson), 3 runs each; the
# same C1 in the lotus-bench envelope (base64, ~50 MB) with the single-pass reader.
set -euo pipefail
bin=${1:?proofmill binary}; work=${2:?work dir}; shift 2
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(2KiB 8MiB)
mkdir -p "$work"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
for s in "${sizes[@]}"; do
  /usr/bin/time -f "  [$s] wall %e s, user %U s, max RSS %M KiB" "$bin" porep seal --sector-size "$s" --zero --out "$work/seal-$s"
  grep -E '"comm_d"|"comm_r"' "$work/seal-$s/commitments.json"
  "$bin" porep verify-c1 "$work/seal-$s/c1.json"
done
"$bin" porep synth-c1 --sector-size 32GiB --out "$work/c1-32g.json"
ls -l "$work/c1-32g.json" | awk '{print "  32 GiB synthetic C1: " $5 " bytes"}'
for r in 1 2 3; do "$bin" porep verify-c1 "$work/c1-32g.json"; done
for r in 1 2 3; do "$bin" porep verify-c1 "$work/c1-32g.json" --jansson; done
"$bin" porep synth-c1 --sector-size 32GiB --envelope --out "$work/c1-32g.lotus-bench.json"
ls -l "$work/c1-32g.lotus-bench.json" | awk '{print "  32 GiB synthetic C1, lotus-bench envelope: " $5 " bytes"}'
for r in 1 2 3; do "$bin" porep verify-c1 "$work/c1-32g.lotus-bench.json"; done
