#!/usr/bin/env bash
# Symbol hygiene (STYLE.md item 13): every global symbol a proofmill static library defines must
# carry one of the project's prefixes, so the library links beside blst, sppark or another prover
# without clashes. usage: check_symbols.sh LIB.a [LIB.a ...]
set -euo pipefail
allowed='^(fp|fr|fp2|fp6|fp12|g1|g2|g1s|g2s|pairing|msm|ntt|r1cs|wtns|zkey|groth16|pm|tower|gpu|engine|daemon|fil|porep|params|setup|proof|cli|FP|FR|FP2|FP6|FP12|G1|G2|PM)(_|$)'
bad=0
for lib in "$@"; do
  while read -r sym; do
    # C++ from src/gpu: names inside namespace pmgpu or an anonymous namespace, and nvcc's
    # registration/fatbinary glue, cannot clash with another library's C symbols.
    case "$sym" in
      _Z*pmgpu*|_Z*_GLOBAL__N_*|__cuda*|__fatbin*|__nv*|_GLOBAL__*) continue ;;
      # protoc's code for the cuzk.v1 interface file and proofmill's own proofmill.v1 one (daemon/grpc,
      # proofmill_grpc): C++ names in the .proto's package namespace (cuzk::v1, proofmill::v1) and
      # its descriptor tables; our C++ is in pmgrpc.
      _Z*4cuzk2v1*|*cuzk_2fv1_2fproving_2eproto*|_Z*9proofmill2v1*|*proofmill_2fv1_2fstatus_2eproto*|_Z*pmgrpc*) continue ;;
    esac
    if ! [[ "$sym" =~ $allowed ]]; then
      echo "check_symbols: $lib exports '$sym' without a project prefix"
      bad=1
    fi
  done < <(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF==3 && $2 ~ /[TDBRC]/ {print $3}')
done
if [ $bad = 0 ]; then echo "check_symbols: all exported symbols carry a project prefix ($*)"; fi
exit $bad
