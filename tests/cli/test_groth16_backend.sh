#!/usr/bin/env bash
# groth16 prove --cpu | --gpu | (default): the backend choice (issue #4). With snarkjs's r, s
# every backend must give proof_det.json byte for byte; --gpu on a machine without a CUDA device
# (or a build without CUDA) is a clear input error (exit 2), never a silent CPU proof.
. "$(dirname "$0")/lib.sh"

have_gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then have_gpu=1; fi

for fx in $(fixtures); do
  name=${fx#"$SRC/"}
  r=$(json_str "$fx/proof_det_rs.json" r)
  s=$(json_str "$fx/proof_det_rs.json" s)
  modes="--cpu default"
  [ $have_gpu = 1 ] && modes="$modes --gpu"
  for m in $modes; do
    flag=$m; [ "$m" = default ] && flag=
    expect_rc 0 "$name: prove $m" "$PM" groth16 prove $flag -v --r "$r" --s "$s" "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p.json" "$TMP/q.json"
    want=cpu; { [ "$m" = --gpu ] || { [ "$m" = default ] && [ $have_gpu = 1 ]; }; } && want=gpu
    expect_msg "$name: $m reports its backend" "backend        $want"
    if cmp -s "$TMP/p.json" "$fx/proof_det.json"; then pass "$name: $m proof equals proof_det.json"; else fail "$name: $m proof differs from proof_det.json"; fi
  done
done

if [ $have_gpu = 0 ]; then
  fx=$SRC/tests/data/multiplier
  rm -f "$TMP/p.json" "$TMP/q.json"
  expect_rc 2 "--gpu without a CUDA device" "$PM" groth16 prove --gpu "$fx/circuit.zkey" "$fx/witness.wtns" "$TMP/p.json" "$TMP/q.json"
  expect_msg "--gpu without a device: message" "--gpu"
  if [ ! -e "$TMP/p.json" ]; then pass "--gpu without a device writes no proof"; else fail "--gpu without a device wrote a proof"; fi
fi
finish
