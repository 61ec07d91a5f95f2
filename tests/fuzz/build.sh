#!/usr/bin/env bash
# build.sh OUTDIR — build the libFuzzer targets of fuzz_readers.c with clang (ASan + UBSan,
# portable field code, no OpenMP). Not part of the CMake build or CI.
#   tests/fuzz/build.sh /tmp/fz && /tmp/fz/fuzz_zkey -max_total_time=120 -rss_limit_mb=2048 CORPUS
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build.sh OUTDIR}
CC=${CC:-clang}
mkdir -p "$OUT/obj"
FLAGS="-g -O1 -std=c17 -D_GNU_SOURCE -fsanitize=address,undefined -fno-sanitize-recover=undefined -I$SRC/src $(pkg-config --cflags jansson)"
objs=()
for f in "$SRC"/src/{util,field,curve,pairing,msm,ntt,r1cs,groth16}/*.c "$SRC"/src/filecoin/param_names.c; do
  o="$OUT/obj/$(basename "$(dirname "$f")")_$(basename "${f%.c}").o"
  if [ ! -e "$o" ] || [ "$f" -nt "$o" ]; then $CC $FLAGS -fsanitize=fuzzer-no-link -c "$f" -o "$o"; fi
  objs+=("$o")
done
LIBS="$(pkg-config --libs jansson libb2 libcrypto) -lm -lpthread"
for t in zkey wtns r1cs params json points; do
  $CC $FLAGS -fsanitize=fuzzer -DFUZZ_TARGET_$t "$SRC/tests/fuzz/fuzz_readers.c" "${objs[@]}" $LIBS -o "$OUT/fuzz_$t"
done
echo "built: $(ls "$OUT"/fuzz_* | tr '\n' ' ')"
