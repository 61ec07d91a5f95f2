# device_lib.sh — shared by the device scripts (tests/gpu/*.sh, bench/*_gpu*.sh); source it after
# setting SUM (the summary file). Gives:
#   pm_gpu_flag      GPU=--gpu, or GPU= when PM_NO_GPU=1 (every step on the CPU, to check a script
#                    anywhere); exits 77 (Skipped) when neither a usable GPU nor PM_NO_GPU=1
#   say TEXT         echo TEXT and append it to $SUM
#   now, sub A B     seconds since the epoch (ns precision); A - B to 2 decimals
#   pm_commit DIR    the commit to print: $PM_COMMIT, else DIR's git HEAD, else "unknown"
#   pm_card          the GPU's name, or "CPU" without --gpu
#   pm_start_ops LOG the mean of the `start ops` lines (gpu.verbose: each partition's start-phase
#                    times) in LOG, the first line left out when there are more (the key's lazy uploads;
#                    with several GPU workers each worker's first partition may carry some, so the mean
#                    can still include upload time); prints nothing when LOG has none
#   pm_cap_gib       the device-memory cap of this environment (gpu.memory: PROOFMILL_GPU_MEMORY or
#                    PROOFMILL_GPU_BUDGET) in GiB, or "none"
pm_gpu_flag() {
  GPU=--gpu
  if [ "${PM_NO_GPU:-0}" = 1 ]; then
    GPU=
  elif ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
    echo "SKIPPED: no usable GPU (PM_NO_GPU=1 runs the steps on the CPU)"; exit 77
  fi
}
say() { echo "$*" | tee -a "$SUM"; }
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
pm_commit() { echo "${PM_COMMIT:-$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)}"; }
pm_start_ops() {
  # not anchored: the line may follow a partial line of the (buffered) stdout in a merged log
  awk 'match($0, /start ops \(/) { n++; line[n] = substr($0, RSTART) }
    END {
      if (!n) exit
      first = n > 1 ? 2 : 1
      for (r = first; r <= n; r++) {
        m = split(line[r], f, " ")
        for (i = 1; i <= m; i++) if (split(f[i], kv, "=") == 2) { if (!(kv[1] in s)) nm[++k] = kv[1]; s[kv[1]] += kv[2] }
      }
      c = n - first + 1
      printf "start ops, mean of %d partition(s)%s (s):", c, first == 2 ? " after the first" : ""
      for (i = 1; i <= k; i++) printf " %s %.3f", nm[i], s[nm[i]] / c
      printf "\n"
    }' "$1"
}
pm_cap_gib() {
  local v=${PROOFMILL_GPU_MEMORY:-${PROOFMILL_GPU_BUDGET:-}}
  [ -n "$v" ] && [ "$v" != 0 ] || { echo none; return; }
  awk -v v="$v" 'BEGIN { n = v + 0; u = toupper(substr(v, length(v))); if (u == "B") { s = toupper(v); u = substr(s, length(s) - 2, 1) }
    m = (u == "K") ? 1 / 1048576 : (u == "M") ? 1 / 1024 : (u == "G") ? 1 : (u == "T") ? 1024 : 1 / 1073741824; printf "%g\n", n * m }'
}
pm_card() { if [ -n "${GPU:-}" ]; then nvidia-smi --query-gpu=name --format=csv,noheader | head -1; else echo CPU; fi; }
# pm_device_log NAME FIELDS: for a device script run from the repository root, everything it prints also
# goes to $OUT/NAME.log (OUT default ./gpu-out); prints "NAME: tree <commit>, <UTC time>" and nvidia-smi's
# FIELDS (a --query-gpu list), then sources the carried Debian libraries (.device-deps/deps.sh,
# tests/gpu/device_env.sh) for a CMake build. Sets O (the output folder) and B (the build folder, default /tmp/b).
pm_device_log() {
  B=${B:-/tmp/b}
  O=${OUT:-$PWD/gpu-out}; mkdir -p "$O"
  exec > >(tee -a "$O/$1.log") 2>&1
  echo "$1: tree $(pm_commit .), $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu="$2" --format=csv,noheader 2>/dev/null
  # shellcheck disable=SC1091
  source .device-deps/deps.sh >/dev/null && source tests/gpu/device_env.sh || return 1
  export LD_LIBRARY_PATH="${PM_LD_LIBRARY_PATH:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
