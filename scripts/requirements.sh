#!/usr/bin/env bash
# requirements.sh — the README's "Requirements" tables, from `proofmill plan --json` (the device-memory
# planner, src/groth16/devplan.h, over each kind's key shape counted from our circuit code):
# per kind and sector size, the smallest card per tier (the whole card free; 2 GPU workers), the host
# memory of one proof in flight (2 GPU workers: 2 partitions) on the smallest resident and the
# smallest host-H card, and the disk of the parameter file (.params) and the recorded circuit (.csr).
#
# usage: scripts/requirements.sh [PROOFMILL_BIN] > table.md     (default build/proofmill)
#        scripts/requirements.sh --update-readme [PROOFMILL_BIN]   (replaces the table in README.md)
# The 32 and 64 GiB PoRep partitions are counted by synthesis (~45 s each on 2 cores); the rest take
# seconds. Nothing is cached.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [ "${1:-}" = "--update-readme" ]; then update=1; shift; fi
PM=${1:-$SRC/build/proofmill}
[ -x "$PM" ] || { echo "requirements.sh: no proofmill at $PM (build first)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pm_req.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

for k in porep-c2 window-post winning-post snapdeals; do
  for s in 2KiB 8MiB 512MiB 32GiB 64GiB; do
    # a card of 1 TiB plans every key; the JSON holds the smallest card per tier either way
    if "$PM" plan --kind "$k" --sector-size "$s" --device-memory 1024G --json >"$TMP/$k-$s.json" 2>"$TMP/err"; then
      echo "$k $s $TMP/$k-$s.json"
    elif grep -q "no circuit\|not a supported\|no such" "$TMP/err"; then
      continue # the kind has no circuit of this size
    else
      cat "$TMP/err" >&2
      exit 1
    fi
  done
done >"$TMP/list"

python3 - "$TMP/list" >"$TMP/table.md" <<'PY'
import json, sys
G = 2**30
def gib(b):
    return "-" if not b else ("%.0f GiB" % (b / G) if b >= 10 * G else "%.1f GiB" % (b / G))
def card(b):
    return "-" if not b else "%d GB" % round(b / G)  # whole GiB, the size vendors call GB
print("| kind | sector | rows | resident | streamed bases | host circuit | one NTT buffer | host H | host RAM, 1 proof | .params | .csr |")
print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for line in open(sys.argv[1]):
    k, s, path = line.split()
    j = json.load(open(path))
    sh, mc, ha = j["shape"], j["min_card"], j["host_bytes_at_min_card"]
    host = gib(ha.get("0"))
    if ha.get("5") and ha.get("5") != ha.get("0"):
        host += " (%s on a host-H card)" % gib(ha["5"])
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        k, s, "{:,}".format(sh["rows"]), card(mc["0"]), card(mc["1"]), card(mc["2"]), card(mc.get("4")), card(mc["5"]), host,
        gib(sh["params_bytes"]), gib(sh.get("csr_bytes"))))
PY

if [ "$update" = 1 ]; then
  python3 - "$SRC/README.md" "$TMP/table.md" <<'PY'
import sys
readme, table = sys.argv[1], open(sys.argv[2]).read()
s = open(readme).read()
a, b = "<!-- requirements.sh: begin -->\n", "<!-- requirements.sh: end -->\n"
i, j = s.index(a) + len(a), s.index(b)
open(readme, "w").write(s[:i] + table + s[j:])
PY
else
  cat "$TMP/table.md"
fi
