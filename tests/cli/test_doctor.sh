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
  "s/proof per kind needs the GPU calibration" "plan        no .params in $D to plan; \`proofmill plan"
stem=$("$PM" params names | awk '$1 == 2048 {print $2}')
head -c 2000 /dev/zero >"$D/$stem.vk"
printf '# proofmill TEST parameters\n%s.vk\n' "$stem" >"$D/proofmill-test-parameters"
expect_rc 0 "doctor --json --no-calibrate" env FIL_PROOFS_PARAMETER_CACHE="$D" "$PM" doctor --json --no-calibrate
python3 - "$TMP/out" "$D" <<'PY' && pass "doctor --json: machine, parameters (test files said), no calibration" || fail "doctor --json"
import json, sys
o = json.load(open(sys.argv[1]))
assert list(o) == ["machine", "parameters", "plans"], list(o)
assert o["plans"] == [], o["plans"]  # a .vk alone: nothing to plan
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
# the plan section (#39 item 4): real 2 KiB test parameters (.params + .csr) of two kinds: the
# smallest card per tier from the headers; without a GPU no card lines
P=$TMP/p2
expect_rc 0 "porep params-setup 2KiB" "$PM" porep params-setup --sector-size 2KiB --dir "$P" --seed 3
expect_rc 0 "winning-post params-setup 2KiB" "$PM" winning-post params-setup --sector-size 2KiB --dir "$P" --seed 3
expect_rc 0 "doctor with 2 KiB parameters" "$PM" doctor "$P" --no-calibrate
expect_msg "plans per kind" "plan        porep-c2 2KiB: smallest card per tier: 0 resident " \
  "plan        winning-post 2KiB: smallest card per tier: 0 resident " ", 4 host H "
rm -f "$P"/v28-stacked-proof-of-replication-*.csr
expect_rc 0 "doctor, a .params without its .csr" "$PM" doctor "$P" --no-calibrate
expect_msg "the missing .csr named" "plan        porep-c2 2KiB: no recorded circuit (.csr) beside $P/v28-stacked" \
  "proofmill plan --kind porep-c2 --sector-size 2KiB"
expect_rc 0 "doctor --json with 2 KiB parameters" "$PM" doctor "$P" --no-calibrate --json
python3 - "$TMP/out" <<'PY' && pass "doctor --json: plans" || fail "doctor --json plans"
import json, sys
pl = {p["kind"]: p for p in json.load(open(sys.argv[1]))["plans"]}
assert set(pl) == {"porep-c2", "winning-post"}, pl
w = pl["winning-post"]
m = w["min_card_bytes_by_tier"]
assert w["sector_size"] == 2048 and w["gpus"] == [] and set(m) == {"0", "1", "2", "3", "4"}, w
assert all(m[str(t)] >= m[str(t + 1)] > 0 for t in range(4)), m  # slower tiers fit smaller cards
assert "error" in pl["porep-c2"] and ".csr" in pl["porep-c2"]["error"], pl["porep-c2"]
PY
expect_rc 2 "doctor: an extra argument" "$PM" doctor "$D" extra
expect_rc 2 "doctor: an unknown option" "$PM" doctor --frobnicate
expect_rc 0 "doctor --help" "$PM" doctor --help
expect_msg "doctor --help" "--json" "--no-calibrate"
finish
