#!/usr/bin/env bash
# test_include_graph.sh — no include cycle between the modules of src/ (include_graph.py --check),
# the dot output is a graph, and the check itself refuses planted cycles: two modules of one
# folder, three across folders, one hidden behind an _internal.h, and one through a header named
# beside the file (a check that cannot fail proves nothing).
# usage: test_include_graph.sh SRC_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$1
py=${PYTHON3:-python3}
fails=0
if out=$("$py" "$here/include_graph.py" --check "$src"); then
    echo "ok   src/ has no include cycle ($out)"
else
    echo "FAIL src/ has an include cycle:"
    echo "$out"
    fails=1
fi
dot=$("$py" "$here/include_graph.py" "$src")
if [ "${dot%%$'\n'*}" = "digraph includes {" ] && grep -q -- '" -> "' <<<"$dot"; then
    echo "ok   the dot output is a digraph"
else
    echo "FAIL no dot output"
    fails=1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pm_include_graph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
plant() { # a fresh tree: FILE TEXT pairs
    rm -rf "$tmp/src"
    mkdir -p "$tmp/src/util" "$tmp/src/daemon" "$tmp/src/engine"
    while [ $# -gt 0 ]; do printf '%s\n' "$2" >"$tmp/src/$1"; shift 2; done
}
expect() { # what, the exit wanted, the text the output must hold
    local what=$1 rc=$2 want=$3 out got
    out=$("$py" "$here/include_graph.py" --check "$tmp/src" 2>&1)
    got=$?
    if [ "$got" = "$rc" ] && grep -qF -- "$want" <<<"$out"; then
        echo "ok   $what"
    else
        echo "FAIL $what (exit $got, wanted $rc and '$want'):"
        echo "$out"
        fails=1
    fi
}
plant util/error.h '' daemon/log.h '#include "util/error.h"' daemon/log.c '#include "daemon/log.h"' \
      daemon/http.h '#include "daemon/log.h"' daemon/http.c '#include "daemon/http.h"'
expect "a tree without a cycle passes" 0 "no cycle"
plant daemon/http.h '' daemon/http.c '#include "daemon/route.h"' daemon/route.h '' \
      daemon/route.c '#include "daemon/http.h"'
expect "refused: http <-> route" 1 "include cycle: daemon/http -> daemon/route -> daemon/http"
plant daemon/api.h '' daemon/api.c '#include "engine/jobs.h"' engine/jobs.h '' \
      engine/jobs.c '#include "util/log.h"' util/log.h '' util/log.c '#include "daemon/api.h"'
expect "refused: a cycle across folders" 1 "daemon/api -> engine/jobs -> util/log -> daemon/api"
plant daemon/jobs.h '' daemon/jobs.c '#include "daemon/daemon_internal.h"' daemon/daemon.h '' \
      daemon/daemon_internal.h '#include "daemon/jobs.h"'
expect "refused: a cycle through an _internal.h" 1 "daemon/daemon -> daemon/jobs -> daemon/daemon"
plant daemon/a.h '' daemon/a.c '#include "b.h"' daemon/b.h '' daemon/b.c '#  include "a.h" /* beside the file */'
expect "refused: includes of a header beside the file" 1 "daemon/b.c:1: daemon/b includes daemon/a"
plant daemon/a.c '#include <stdio.h>' daemon/a.h '#include "daemon/a.h"'
expect "a module including its own header is no cycle" 0 "no cycle"
exit $fails
