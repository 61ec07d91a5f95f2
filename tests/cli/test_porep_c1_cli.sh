#!/usr/bin/env bash
# test_porep_c1_cli.sh — `proofmill porep seal | synth-c1 | verify-c1` end to end:
#  - seal a 2 KiB zero sector: comm_d = POREP.md §4.4; c1.json, the lotus-bench envelope and
#    commitments.json written; verify-c1 accepts both files (one reader: --jansson is refused);
#  - a changed comm_r (JSON edited) exits 1 naming partition, challenge and field;
#  - seal from an unpadded data file (fr32-padded by the command) and from a padded one;
#  - synth-c1 32 GiB: says SYNTHETIC, verify-c1 accepts it and says SYNTHETIC C1;
#  - bad input exits 2: missing file, not JSON, wrong --sector-size, --data of the wrong size,
#    both --data and --zero.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "porep --help lists the C1 subcommands" "$PM" porep --help
expect_msg "porep --help" "seal" "synth-c1" "verify-c1"

expect_rc 0 "seal 2KiB zero" "$PM" porep seal --sector-size 2KiB --zero --out "$TMP/s" --miner-id 1000 --sector 3
expect_msg "seal 2KiB" "sealed StackedDrg2KiBV1_1" "comm_r"
if grep -q '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"' "$TMP/s/commitments.json"; then
  pass "zero 2KiB comm_d = POREP.md §4.4"; else fail "comm_d: $(grep comm_d "$TMP/s/commitments.json")"; fi
expect_rc 0 "verify-c1 c1.json" "$PM" porep verify-c1 "$TMP/s/c1.json"
expect_msg "verify-c1" "OK" "StackedDrg2KiBV1_1" "1 partitions x 2 challenges"
# issue #39: porep prove takes the C1 as its one argument and defaults --params as the daemon does
mkdir -p "$TMP/noparams"
expect_rc 2 "porep prove C1 without --params: the daemon's default directory" env FIL_PROOFS_PARAMETER_CACHE="$TMP/noparams" \
  "$PM" porep prove "$TMP/s/c1.json" --out "$TMP/never.proof"
expect_msg "porep prove: the default directory is named" "$TMP/noparams/v28-stacked-proof-of-replication"
[ -e "$TMP/never.proof" ] && fail "porep prove wrote a proof without parameters" || pass "no proof without parameters"
expect_rc 0 "verify-c1 envelope" "$PM" porep verify-c1 "$TMP/s/c1.lotus-bench.json"
expect_rc 2 "verify-c1 --jansson (the jansson reader lives in tests/ only)" "$PM" porep verify-c1 "$TMP/s/c1.json" --jansson
if grep -q '^{"SectorNum":3,"Phase1Out":"' "$TMP/s/c1.lotus-bench.json"; then pass "envelope shape"; else fail "envelope shape"; fi

# comm_r's first byte changed in the JSON text
python3 - "$TMP/s/c1.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["comm_r"][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(d, separators=(",", ":")))
PY
expect_rc 1 "verify-c1 with a changed comm_r" "$PM" porep verify-c1 "$TMP/bad.json"
expect_msg "changed comm_r" "INVALID" "partition 0, challenge 0" "comm_r"

head -c 2000 /dev/urandom > "$TMP/raw"
expect_rc 0 "seal 2KiB from unpadded data" "$PM" porep seal --sector-size 2KiB --data "$TMP/raw" --out "$TMP/d"
expect_rc 0 "verify-c1 of the data sector" "$PM" porep verify-c1 "$TMP/d/c1.json"
head -c 2048 /dev/zero > "$TMP/padded"
expect_rc 0 "seal 2KiB from a padded zero file" "$PM" porep seal --sector-size 2KiB --data "$TMP/padded" --out "$TMP/p" --miner-id 1000 --sector 3
if cmp -s <(grep comm_r "$TMP/p/commitments.json") <(grep comm_r "$TMP/s/commitments.json"); then
  pass "padded zero file = --zero"; else fail "padded zero file differs from --zero"; fi

expect_rc 0 "synth-c1 32GiB" "$PM" porep synth-c1 --sector-size 32GiB --out "$TMP/c32.json"
expect_msg "synth-c1" "SYNTHETIC"
expect_rc 0 "verify-c1 synthetic 32GiB" "$PM" porep verify-c1 "$TMP/c32.json"
expect_msg "verify-c1 synthetic" "10 partitions x 18 challenges" "SYNTHETIC C1"

expect_rc 2 "verify-c1 missing file" "$PM" porep verify-c1 "$TMP/nope.json"
echo "not json" > "$TMP/garbage"
expect_rc 2 "verify-c1 garbage" "$PM" porep verify-c1 "$TMP/garbage"
expect_rc 2 "seal 3KiB" "$PM" porep seal --sector-size 3KiB --zero --out "$TMP/x"
head -c 3000 /dev/zero > "$TMP/big"
expect_rc 2 "seal with too much data" "$PM" porep seal --sector-size 2KiB --data "$TMP/big" --out "$TMP/x"
expect_rc 2 "seal with --data and --zero" "$PM" porep seal --sector-size 2KiB --data "$TMP/raw" --zero --out "$TMP/x"
expect_rc 2 "synth-c1 of an NI proof" "$PM" porep synth-c1 --proof 18 --out "$TMP/x.json"
finish
