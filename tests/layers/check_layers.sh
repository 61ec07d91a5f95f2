#!/usr/bin/env bash
# check_layers.sh — every #include "..." of a file under SRC_DIR must name a header of the file's own
# layer or of a layer below it (../shared/ARCHITECTURE.md; the order is the top-level
# CMakeLists.txt's PROOFMILL_LAYERS, passed here), and no file includes another layer's
# *_internal.h. Prints one line per violation: FILE:LINE: layer A includes HEADER of layer B above it.
#
# usage: check_layers.sh SRC_DIR RANK [RANK ...]   (a RANK is a layer or comma-joined layers of one
#        rank, lowest first, e.g. util field curve pairing,msm,ntt r1cs ...)
# Exit 0 when clean, 1 on a violation or a file in no listed layer, 2 on usage errors.
set -u
src=${1:?usage: check_layers.sh SRC_DIR RANK...}
shift
[ $# -gt 0 ] || { echo "check_layers: no layers given" >&2; exit 2; }
declare -A rank
r=0
for group in "$@"; do
    IFS=, read -ra names <<<"$group"
    for n in "${names[@]}"; do rank[$n]=$r; done
    r=$((r + 1))
done
bad=0
files=0
while IFS= read -r -d '' f; do
    rel=${f#"$src"/}
    layer=${rel%%/*}
    if [ "$layer" = "$rel" ] || [ -z "${rank[$layer]+x}" ]; then
        echo "check_layers: $rel is in no listed layer"
        bad=1
        continue
    fi
    files=$((files + 1))
    mine=${rank[$layer]}
    while IFS=: read -r line inc; do
        first=${inc%%/*}
        if [ "$first" = "$inc" ] || [ -z "${rank[$first]+x}" ]; then
            continue # "x.h" beside the file, or a path that names no layer: the file's own layer
        fi
        if [ "${rank[$first]}" -gt "$mine" ]; then
            echo "$rel:$line: layer $layer includes $inc of layer $first above it"
            bad=1
        elif [ "$first" != "$layer" ] && [[ "$inc" == *_internal.h ]]; then
            echo "$rel:$line: layer $layer includes $inc, internal to layer $first"
            bad=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):[^"]*"([^"]+)".*/\1:\2/')
done < <(find "$src" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.cc' \) -print0)
if [ "$files" = 0 ]; then echo "check_layers: no source files under $src"; exit 1; fi
[ $bad = 0 ] && echo "check_layers: $files files, every include points to its own layer or below"
exit $bad
