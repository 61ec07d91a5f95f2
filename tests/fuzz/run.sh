#!/usr/bin/env bash
# run.sh BUILD_DIR [SECONDS] [HARNESS...] — run libFuzzer harnesses one after another (one core:
# one process each, nice), each for SECONDS (default 180) over a working corpus seeded from
# BUILD_DIR/fuzz-corpus/<reader> (fuzz_seeds) and tests/data/hostile/<reader>, with the limits
# docs/fuzzing.md explains (-rss_limit_mb=2048 -malloc_limit_mb=1024: an allocation sized by a
# length field counts as a bug; -timeout=10: a hang does). Default: every fuzz_* harness of BUILD_DIR.
# Work goes to ${FUZZ_WORK:-/tmp/proofmill-fuzz}/<reader>/ (corpus/, artifacts/, log); a summary
# line per harness (executions, findings) is printed at the end.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR [SECONDS] [HARNESS...]}" && pwd)
secs=${2:-180}
shift $(( $# >= 2 ? 2 : 1 ))
work=${FUZZ_WORK:-/tmp/proofmill-fuzz}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$build"/fuzz_*; do
    b=$(basename "$f"); [ "$b" = fuzz_seeds ] || [ ! -x "$f" ] || harnesses+=("${b#fuzz_}")
  done
fi
[ -d "$build/fuzz-corpus" ] || PROOFMILL_SOURCE_DIR="$src" "$build/fuzz_seeds" "$build/fuzz-corpus" || exit 2
summary=()
for h in "${harnesses[@]}"; do
  h=${h#fuzz_}
  d="$work/$h"
  mkdir -p "$d/corpus" "$d/artifacts"
  cp -n "$build/fuzz-corpus/$h"/* "$d/corpus/" 2>/dev/null
  [ -d "$src/tests/data/hostile/$h" ] && cp -n "$src/tests/data/hostile/$h"/* "$d/corpus/" 2>/dev/null
  echo "run.sh: fuzz_$h for ${secs}s (log $d/log)"
  PROOFMILL_SOURCE_DIR="$src" nice "$build/fuzz_$h" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$d/artifacts/" \
    "$d/corpus" >"$d/log" 2>&1
  rc=$?
  runs=$(grep -E "^stat::number_of_executed_units" "$d/log" | awk '{s+=$2} END {print s+0}')
  found=$(ls "$d/artifacts" | wc -l)
  summary+=("fuzz_$h: rc $rc, $runs executions, $found artifacts in $d/artifacts")
done
printf '%s\n' "${summary[@]}"
