#!/usr/bin/env bash
# test_doctor.sh — `proofmill doctor` (issue #39): the machine line, "no GPU" said, the parameter
# directory and what it holds, the calibration (synthesis, CPU NTT), --json for tools (one object:
# machine, parameters, plans, calibration, prediction), --no-calibrate, usage errors. Where the GPU
# library reports devices (the device machine: label gpu), the GPU part instead: each GPU's lines,
# its calibration (MSM, NTT, copy rate) and a prediction per 32 GiB kind beside the H200's figure.
. "$(dirname "$0")/lib.sh"
if "$PM" version | grep -Eq '[1-9][0-9]* usable device'; then
  expect_rc 0 "doctor --json on a GPU machine" "$PM" doctor --json "$TMP"
  python3 - "$TMP/out" <<'PY' && pass "doctor --json: GPU calibration and predictions" || fail "doctor GPU"
import json, sys
o = json.load(open(sys.argv[1]))
gpus = o["machine"]["gpus"]
assert gpus and all(g["vram_total_bytes"] > 0 and g["pin_256mib_s"] > 0 for g in gpus), gpus
assert all(len(g["pci_bus_id"]) == 12 and (g.get("pcie_gen", 1) >= 1) for g in gpus), gpus
assert o["machine"]["cuda_driver"].count(".") == 1, o["machine"]
cal = o["calibration"]["gpus"]
assert len(cal) == len(gpus), cal
for g in cal:
    assert "error" not in g, g
    assert 0 < g["msm_g1_witness_s"] < g["msm_g1_uniform_s"] < 30 and 0 < g["ntt_s"] < 5, g
    assert 1e9 < g["h2d_bytes_per_s"] < 1e12, g
pr = o["prediction"]
kinds = {p["kind"] for p in pr}
assert kinds == {"porep-c2", "window-post", "snapdeals", "winning-post"}, kinds
for p in pr:
    assert p["reference_h200_s_per_proof"] > 0, p
    if "refused" in p:
        continue
    assert p["predicted_s_per_proof"] > 0 and p["model_on_reference_h200_s_per_proof"] > 0, p
    assert 0 <= p["tier"] <= 5 and p["bound"] in ("GPU", "CPU"), p
    print("%s gpu %d: tier %d, predicted %.2f s (H200 measured %.2f s, model there %.2f s)" % (
        p["kind"], p["device"], p["tier"], p["predicted_s_per_proof"], p["reference_h200_s_per_proof"],
        p["model_on_reference_h200_s_per_proof"]))
PY
  expect_rc 0 "doctor on a GPU machine" "$PM" doctor "$TMP"
  expect_msg "doctor GPU lines" "driver      NVIDIA " ", CUDA driver " "gpu 0       " ", PCIe " "gpu 0 calib G1 MSM 2^24: " "predict     porep-c2 32GiB on gpu 0: " \
    "reference H200: measured 18.28 s"
  finish
fi
D=$TMP/params
mkdir -p "$D"
expect_rc 0 "doctor, no GPU, empty parameter directory" "$PM" doctor "$D"
expect_msg "doctor" "machine     " " cores (" "GiB memory" "gpus        none reported (CPU proving only)" \
  "parameters  $D: no Filecoin parameter files" "M constraints/s on one core" "one 32 GiB PoRep partition's synthesis" \
  "cpu ntt     2^20 on " "predict     no GPU here: the s/proof predictions are for GPUs" "plan        no .params in $D to plan; \`proofmill plan"
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
assert c["cpu_ntt_log_n"] == 20 and 0 < c["cpu_ntt_s"] < 10 and c["gpus"] == [], c
assert json.load(open(sys.argv[1]))["prediction"] == []
PY
# the plan section (#39 item 4): real 2 KiB test parameters (.params + .csr) of two kinds: the
# smallest card per tier from the headers; without a GPU no card lines
P=$TMP/p2
expect_rc 0 "porep params-setup 2KiB" "$PM" porep params-setup --sector-size 2KiB --dir "$P" --seed 3
expect_rc 0 "winning-post params-setup 2KiB" "$PM" winning-post params-setup --sector-size 2KiB --dir "$P" --seed 3
expect_rc 0 "doctor with 2 KiB parameters" "$PM" doctor "$P" --no-calibrate
expect_msg "plans per kind" "plan        porep-c2 2KiB: smallest card per tier: 0 resident " \
  "plan        winning-post 2KiB: smallest card per tier: 0 resident " ", 4 one NTT buffer " ", 5 host H "
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
assert w["sector_size"] == 2048 and w["gpus"] == [] and set(m) == {"0", "1", "2", "3", "4", "5"}, w
assert all(m[str(t)] >= m[str(t + 1)] > 0 for t in range(5)), m  # slower tiers fit smaller cards
assert "error" in pl["porep-c2"] and ".csr" in pl["porep-c2"]["error"], pl["porep-c2"]
PY
expect_rc 2 "doctor: an extra argument" "$PM" doctor "$D" extra
expect_rc 2 "doctor: an unknown option" "$PM" doctor --frobnicate
expect_rc 0 "doctor --help" "$PM" doctor --help
expect_msg "doctor --help" "--json" "--no-calibrate"
finish
