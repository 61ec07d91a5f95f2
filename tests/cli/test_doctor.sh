#!/usr/bin/env bash
# test_doctor.sh — `proofmill doctor` (issue #39) on a machine without a GPU (Skipped where the GPU
# library reports devices: its GPU lines are checked on the device machine): the machine line,
# "no GPU" said, the parameter directory and what it holds, the synthesis calibration, --json for
# tools (one object: machine, parameters, calibration), --no-calibrate, usage errors.
. "$(dirname "$0")/lib.sh"
if "$PM" version | grep -Eq '[1-9][0-9]* usable device'; then
  echo "SKIP: this machine has a GPU (doctor's GPU lines are checked on the device machine)"
  exit 77
fi
D=$TMP/params
mkdir -p "$D"
expect_rc 0 "doctor, no GPU, empty parameter directory" "$PM" doctor "$D"
expect_msg "doctor" "machine     " " cores (" "GiB memory" "gpus        none reported (CPU proving only)" \
  "parameters  $D: no Filecoin parameter files" "M constraints/s on one core" "one 32 GiB PoRep partition's synthesis" \
  "s/proof per kind needs the GPU calibration"
stem=$("$PM" params names | awk '$1 == 2048 {print $2}')
head -c 2000 /dev/zero >"$D/$stem.vk"
printf '# proofmill TEST parameters\n%s.vk\n' "$stem" >"$D/proofmill-test-parameters"
expect_rc 0 "doctor --json --no-calibrate" env FIL_PROOFS_PARAMETER_CACHE="$D" "$PM" doctor --json --no-calibrate
python3 - "$TMP/out" "$D" <<'PY' && pass "doctor --json: machine, parameters (test files said), no calibration" || fail "doctor --json"
import json, sys
o = json.load(open(sys.argv[1]))
assert list(o) == ["machine", "parameters"], list(o)
m = o["machine"]
assert m["cores"] >= 1 and m["memory_bytes"] > 0 and m["gpus"] == [], m
assert o["parameters"]["dir"] == sys.argv[2], o["parameters"]
assert o["parameters"]["summary"] == "porep 2KiB proofmill test parameters", o["parameters"]
PY
expect_rc 0 "doctor --json" "$PM" doctor --json "$D"
python3 - "$TMP/out" <<'PY' && pass "doctor --json: calibration figures" || fail "doctor --json calibration"
import json, sys
c = json.load(open(sys.argv[1]))["calibration"]
assert c["synthesis_constraints_per_s_one_core"] > 0 and c["porep_32g_partition_synthesis_s"] > 0, c
PY
expect_rc 2 "doctor: an extra argument" "$PM" doctor "$D" extra
expect_rc 2 "doctor: an unknown option" "$PM" doctor --frobnicate
expect_rc 0 "doctor --help" "$PM" doctor --help
expect_msg "doctor --help" "--json" "--no-calibrate"
finish
