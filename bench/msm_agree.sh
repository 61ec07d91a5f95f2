#!/usr/bin/env bash
# msm_agree.sh — one device call: builds bench_gpu_msm with CMake (carried .device-deps) and runs it at sizes where the
# bench has no oracle (G1 2^27: bench_gpu_msm checks against [sum k_i t_i]G only up to 2^26), with two accumulation
# algorithms, so that each result is checked against the other's: the default (affine rounds, f_round2) and the
# XYZZ-only path (PROOFMILL_GPU_MSM_ACC=1, TAIL=1000000000, XINLINE=1: no inversion, no affine round). Where the bench
# has no oracle it prints "check unchecked" for the first variant and "same-as-base" or "WRONG" for the others (bench exits
# nonzero on WRONG); sizes up to 2^26 are checked against the oracle ("check ok").
# Usage (repo root on the device): [LOGS="27"] [G2="25"] [REPS=2] [VARIANTS="base X:..."] bash bench/msm_agree.sh
# Output: $OUT/msm-agree.log.
set -u
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source tests/gpu/device_lib.sh
pm_device_log msm-agree name,driver_version,memory.total || exit 1
t0=$(date +%s)
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPROOFMILL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DPROOFMILL_GRPC=OFF "${PM_CMAKE_ARGS[@]}" >/dev/null || exit 1
cmake --build "$B" -j "$(nproc)" --target bench_gpu_msm > /tmp/agree-build.log 2>&1 || { grep -E "error" /tmp/agree-build.log | head -20; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
PM_MSM_FIELD=0 PROOFMILL_BENCH_REPS=${REPS:-2} PM_MSM_G2=${G2-25} \
  PM_MSM_VARIANTS=${VARIANTS:-"base X:ACC=1,TAIL=1000000000,XINLINE=1"} "$B/bench_gpu_msm" ${LOGS:-27}
rc=$?
grep -c "WRONG" "$O/msm-agree.log" | sed 's/^/WRONG lines: /'
echo "msm_agree: done in $(( $(date +%s) - t0 )) s, rc $rc"
exit $rc
