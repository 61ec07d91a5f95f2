#!/usr/bin/env bash
# test_porep_circuit_cli.sh — the C2 circuit commands (issue #9), fast parts:
#  - circuit-info prints POREP.md §6.8's numbers for 2 KiB, 8 MiB, 512 MiB, 32 GiB and 64 GiB
#    (32 GiB: 130,278,869 QAP rows = 130,278,541 + 328 input rows, 130,169,893 aux, 328 inputs);
#  - a sealed 2 KiB sector's C1 synthesizes to a satisfied system (streaming check, and SpMV over
#    a recorded .csr), and the same C1 with one changed label is refused: by --check's vanilla
#    verifier naming partition, challenge and field (exit 1, as verify-c1), by the circuit over the
#    .csr naming the constraint (exit 2);
#  - a .csr of another sector size and a FIFO as --csr are refused (exit 2);
#  - partition-dump (the SupraSeal C2 harness's input, issue #37) of that C1: read back by
#    check_c2_dump.py (header, sizes, a·b = c on a sample and every input row, the .csr's bitmaps);
#    refused for the changed label (the vanilla verifier first, as porep prove), a partition out of
#    range, --out naming an input or a directory, a missing option;
#  - usage errors exit 2.
# The 2^22 setup + proof round trip is test_circuits_porep_e2e (PROOFMILL_SLOW=1).
. "$(dirname "$0")/lib.sh"

info() { # size constraints aux inputs
  expect_rc 0 "circuit-info $1" "$PM" porep circuit-info --sector-size "$1"
  expect_msg "circuit-info $1" "circuit constraints  $2" "aux                  $3" "inputs (with ONE)    $4"
}
info 2KiB 2687921 2685673 40
info 8MiB 3844929 3842449 40
info 512MiB 4423433 4420837 40
info 32GiB 130278541 130169893 328
expect_msg "32GiB rows" "rows for the QAP     130278869 (domain 2^27)"
info 64GiB 131185849 131076643 328
expect_rc 0 "circuit-info --json" "$PM" porep circuit-info --sector-size 2KiB --json
expect_msg "json" '"rows": 2687961' '"label_sha256": {"constraints": 2089076'

expect_rc 0 "seal 2KiB" "$PM" porep seal --sector-size 2KiB --zero --out "$TMP/s"
expect_rc 0 "synth --check" "$PM" porep synth --c1 "$TMP/s/c1.json" --check
expect_msg "synth --check" "every constraint satisfied"
expect_rc 0 "circuit-record" "$PM" porep circuit-record --sector-size 2KiB --out "$TMP/2k.csr"
expect_msg "circuit-record" "recorded 2687921 constraints, 40 inputs, 2685673 aux"
expect_rc 0 "synth --csr" "$PM" porep synth --c1 "$TMP/s/c1.json" --csr "$TMP/2k.csr"
expect_msg "synth --csr" "satisfied"
# a .csr recorded for another sector size (here: the 2 KiB file with its tag, the sector size,
# set to 8 MiB) is refused naming the file before anything is sized from it; a FIFO as --csr is
# refused at once (the open used to wait for a writer forever)
cp "$TMP/2k.csr" "$TMP/other.csr"
printf '\000\000\200\000\000\000\000\000' | dd of="$TMP/other.csr" bs=1 seek=48 conv=notrunc status=none
expect_rc 2 "synth --csr of another sector size" "$PM" porep synth --c1 "$TMP/s/c1.json" --csr "$TMP/other.csr"
expect_msg "synth --csr of another sector size" "$TMP/other.csr" "tag 8388608" "needed here: tag 2048" \
  "record the circuit for this sector size"
rm -f "$TMP/other.csr"
mkfifo "$TMP/fifo.csr"
expect_rc 2 "synth --csr FIFO" timeout 20 "$PM" porep synth --c1 "$TMP/s/c1.json" --csr "$TMP/fifo.csr"
expect_msg "synth --csr FIFO" "$TMP/fifo.csr" "FIFO"

python3 - "$TMP/s/c1.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["vanilla_proofs"]
p = v[list(v)[0]][0][1]
p["replica_column_proofs"]["exp_parents"][2]["column"]["rows"][1][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(d, separators=(",", ":")))
PY
# --check runs the vanilla verifier first (as `porep verify-c1`, issue #17): exit 1, the field named
expect_rc 1 "synth --check refuses a changed label" "$PM" porep synth --c1 "$TMP/bad.json" --check
expect_msg "changed label" "INVALID" "partition 0, challenge 1" "replica_column_proofs.exp_parents[2]"
# the circuit itself refuses it too (SpMV over the recorded .csr, no vanilla check)
expect_rc 2 "synth --csr refuses a changed label" "$PM" porep synth --c1 "$TMP/bad.json" --csr "$TMP/2k.csr"
expect_msg "changed label (circuit)" "partition 0: constraint" "not satisfied"

expect_rc 0 "partition-dump" "$PM" porep partition-dump --c1 "$TMP/s/c1.json" --csr "$TMP/2k.csr" --partition 0 \
  --seed 5 --out "$TMP/d.bin"
expect_msg "partition-dump" "2687961 rows, 40 inputs, 2685673 aux"
expect_rc 0 "check_c2_dump.py" python3 "$(dirname "$0")/check_c2_dump.py" "$TMP/d.bin" "$TMP/2k.csr"
expect_msg "check_c2_dump.py" "check_c2_dump: ok"
rm -f "$TMP/d.bin"
expect_rc 2 "partition-dump of a changed label" "$PM" porep partition-dump --c1 "$TMP/bad.json" --csr "$TMP/2k.csr" \
  --partition 0 --seed 5 --out "$TMP/d.bin"
expect_msg "partition-dump of a changed label" "INVALID" "replica_column_proofs.exp_parents[2]"
[ ! -e "$TMP/d.bin" ] || fail "partition-dump wrote a file for a C1 that does not verify"
ls "$TMP"/d.bin.tmp.* >/dev/null 2>&1 && fail "partition-dump left its temporary behind"
cp "$TMP/s/c1.json" "$TMP/c1copy.json"
expect_rc 2 "partition-dump --out = --c1" "$PM" porep partition-dump --c1 "$TMP/c1copy.json" --csr "$TMP/2k.csr" \
  --partition 0 --seed 5 --out "$TMP/c1copy.json"
expect_msg "partition-dump --out = --c1" "is an input file"
cmp -s "$TMP/s/c1.json" "$TMP/c1copy.json" || fail "partition-dump changed its input C1"
mkdir -p "$TMP/outdir"
expect_rc 2 "partition-dump --out a directory" "$PM" porep partition-dump --c1 "$TMP/s/c1.json" --csr "$TMP/2k.csr" \
  --partition 0 --seed 5 --out "$TMP/outdir"
expect_msg "partition-dump --out a directory" "is a directory"
expect_rc 2 "partition-dump partition out of range" "$PM" porep partition-dump --c1 "$TMP/s/c1.json" \
  --csr "$TMP/2k.csr" --partition 1 --seed 5 --out "$TMP/d.bin"
expect_msg "partition-dump partition out of range" "partitions 0..0"
expect_rc 2 "partition-dump without --seed" "$PM" porep partition-dump --c1 "$TMP/s/c1.json" --csr "$TMP/2k.csr" \
  --partition 0 --out "$TMP/d.bin"

expect_rc 2 "circuit-info without size" "$PM" porep circuit-info
expect_rc 2 "circuit-info bad size" "$PM" porep circuit-info --sector-size 3KiB
expect_rc 2 "prove without args" "$PM" porep prove
expect_rc 2 "synth missing file" "$PM" porep synth --c1 "$TMP/nope.json"
finish
