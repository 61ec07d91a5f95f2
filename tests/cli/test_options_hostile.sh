#!/usr/bin/env bash
# test_options_hostile.sh — hostile command lines and file arguments (label hostile, ASan in CI):
# option values that are negative, overflowing, trailing garbage or absurd (setup, params prove,
# r1cs synth) are usage errors (exit 2, one line naming the option), never a crash or a huge
# allocation; FIFOs, directories and /dev/zero as inputs fail at once; an output that is also an
# input, or two outputs on one path, are refused before anything is written; a failing output
# leaves no partner file behind.
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data
POW=$D/powchain
MUL=$D/multiplier
T=$TMP

# --- r1cs synth: every numeric option is range-checked ---
synth() { "$PM" r1cs synth --out "$T/s.r1cs" --wtns "$T/s.wtns" "$@"; }
for v in -1 0 5000000000 12abc "" 0x; do
  expect_rc 2 "r1cs synth --constraints '$v'" synth --constraints "$v"
  expect_msg "r1cs synth --constraints '$v'" "--constraints"
done
expect_rc 2 "r1cs synth --density 4000000000" synth --constraints 10 --density 4000000000
expect_msg "r1cs synth --density" "--density"
expect_rc 2 "r1cs synth --public -1" synth --constraints 10 --public -1
expect_rc 2 "r1cs synth --bits 1.5" synth --constraints 10 --bits 1.5
expect_rc 2 "r1cs synth --bits nan" synth --constraints 10 --bits nan
expect_rc 2 "r1cs synth --seed -3" synth --constraints 10 --seed -3
expect_rc 0 "r1cs synth --constraints 6 --seed 0x10" synth --constraints 6 --seed 0x10

# --- setup ---
for v in 0 -1 100000 99999999999 4x; do
  expect_rc 2 "setup --threads '$v'" "$PM" setup "$T/s.r1cs" --out "$T/k.params" --threads "$v" --seed 1
  expect_msg "setup --threads '$v'" "--threads"
done
expect_rc 2 "setup --seed -5" "$PM" setup "$T/s.r1cs" --out "$T/k.params" --seed -5
expect_rc 2 "setup --seed 1x" "$PM" setup "$T/s.r1cs" --out "$T/k.params" --seed 1x
[ -e "$T/k.params" ] && fail "setup with a bad option wrote a key" || pass "no key written on bad options"
expect_rc 0 "setup (good)" "$PM" setup "$T/s.r1cs" --out "$T/k.params" --seed 1

# --- params prove ---
pprove() { "$PM" params prove --params "$T/k.params" --r1cs "$T/s.r1cs" --wtns "$T/s.wtns" "$@"; }
for v in -1 0 4294967297 1e3; do
  expect_rc 2 "params prove --count '$v'" pprove --out "$T/p.bin" --count "$v" --seed 1
  expect_msg "params prove --count '$v'" "--count"
done
expect_rc 2 "params prove --threads -1" pprove --out "$T/p.bin" --threads -1 --seed 1
expect_rc 2 "params prove --seed x" pprove --out "$T/p.bin" --seed x
[ -e "$T/p.bin" ] && fail "params prove with a bad option wrote proofs" || pass "no proofs written on bad options"
cp "$T/k.params" "$T/k2.params"
expect_rc 2 "params prove --out = --params" pprove --out "$T/./k.params" --seed 1
cmp -s "$T/k.params" "$T/k2.params" && pass "params file intact" || fail "params file overwritten by proofs"
expect_rc 2 "params prove --out a directory" pprove --out "$T" --seed 1
expect_msg "params prove --out a directory" "directory"
expect_rc 0 "params prove (good)" pprove --out "$T/p.bin" --seed 1 --count 2

# --- porep parent-cache: a thread count that libgomp cannot create ---
expect_rc 2 "porep parent-cache --threads 1000000" "$PM" porep parent-cache --sector-size 2KiB --digest-only --threads 1000000
expect_msg "porep parent-cache --threads 1000000" "threads"

# --- groth16 prove: outputs ---
prove() { "$PM" groth16 prove "$POW/circuit.zkey" "$POW/witness.wtns" "$@"; }
cp "$POW/circuit.zkey" "$T/c.zkey"
expect_rc 2 "proof.json = the zkey" "$PM" groth16 prove "$T/c.zkey" "$POW/witness.wtns" "$T/./c.zkey" "$T/x.json"
expect_msg "proof.json = the zkey" "also an input"
cmp -s "$T/c.zkey" "$POW/circuit.zkey" && pass "zkey intact" || fail "zkey overwritten"
expect_rc 2 "proof.json = public.json" prove "$T/pp.json" "$T/pp.json"
expect_msg "proof.json = public.json" "two outputs"
[ -e "$T/pp.json" ] && fail "pp.json written" || pass "nothing written for proof = public"
expect_rc 2 "proof.json in a missing directory" prove "$T/missing/p.json" "$T/pub.json"
expect_msg "proof.json in a missing directory" "$T/missing/p.json"
[ -e "$T/pub.json" ] && fail "public.json written without its proof" || pass "no public.json without its proof"
expect_rc 2 "proof.json is a directory" prove "$T" "$T/pub.json"
[ -e "$T/pub.json" ] && fail "public.json written without its proof (directory)" || pass "no public.json (directory)"
expect_rc 2 "--gpu and --cpu together" prove "$T/p4.json" "$T/x4.json" --gpu --cpu
expect_msg "--gpu and --cpu together" "either --gpu or --cpu"
# a target that is not a regular file is refused, never replaced (a FIFO, and a link to one)
mkfifo "$T/out.fifo"
ln -s "$T/out.fifo" "$T/to-fifo.json"
expect_rc 2 "public.json is a FIFO" prove "$T/p2.json" "$T/out.fifo"
expect_msg "public.json is a FIFO" "$T/out.fifo" "FIFO" "not a regular file"
expect_rc 2 "proof.json is a link to a FIFO" prove "$T/to-fifo.json" "$T/p3.json"
expect_msg "proof.json is a link to a FIFO" "$T/to-fifo.json" "FIFO"
[ -p "$T/out.fifo" ] && [ -L "$T/to-fifo.json" ] && pass "the FIFO and the link stay as they were" || fail "the FIFO or the link was replaced"
{ [ -e "$T/p2.json" ] || [ -e "$T/p3.json" ]; } && fail "an output written beside a refused one" || pass "nothing written beside a refused output"
expect_rc 2 "export-vk over its own zkey" "$PM" groth16 export-vk "$T/c.zkey" "$T/c.zkey"
cmp -s "$T/c.zkey" "$POW/circuit.zkey" && pass "zkey intact after export-vk" || fail "zkey overwritten by export-vk"
ls "$T" | grep -q '\.tmp\.' && fail "temporary files left in $T" || pass "no temporary files left"

# --- inputs that are not regular files ---
mkfifo "$T/fifo"
expect_rc 2 "zkey is a FIFO" timeout 20 "$PM" groth16 prove "$T/fifo" "$POW/witness.wtns" "$T/p.json" "$T/x.json"
expect_msg "zkey is a FIFO" "$T/fifo" "FIFO"
expect_rc 2 "witness is a FIFO" timeout 20 "$PM" groth16 prove "$POW/circuit.zkey" "$T/fifo" "$T/p.json" "$T/x.json"
expect_rc 2 "vk.json is a FIFO without writer" timeout 20 "$PM" groth16 verify "$T/fifo" "$POW/public.json" "$POW/proof.json"
expect_msg "vk.json is a FIFO without writer" "$T/fifo"
expect_rc 2 ".vk is a FIFO" timeout 20 "$PM" params verify-bytes "$T/fifo" "$T/p.bin" 1
expect_rc 2 "r1cs is a FIFO" timeout 20 "$PM" setup "$T/fifo" --out "$T/f.zkey"
expect_rc 2 "vk.json is a directory" "$PM" groth16 verify "$T" "$POW/public.json" "$POW/proof.json"
expect_msg "vk.json is a directory" "directory"
expect_rc 2 "public.json is /dev/zero" "$PM" groth16 verify "$POW/verification_key.json" /dev/zero "$POW/proof.json"
expect_msg "public.json is /dev/zero" "/dev/zero" "character device"
expect_rc 2 "params check --manifest FIFO" timeout 20 "$PM" params check "$T" --manifest "$T/fifo"
expect_msg "params check --manifest FIFO" "$T/fifo" "FIFO"
mkdir "$T/pc"
mkfifo "$T/pc/v28-x.vk"
printf '{"v28-x.vk": {"cid": "x", "digest": "0123456789abcdef0123456789abcdef", "sector_size": 2048}}' >"$T/pc/m.json"
expect_rc 1 "params check: a FIFO named like a parameter file" timeout 20 "$PM" params check "$T/pc" --manifest "$T/pc/m.json"
expect_msg "params check: a FIFO named like a parameter file" "BAD v28-x.vk" "FIFO"
expect_rc 2 "porep check-parent-cache FIFO" timeout 20 "$PM" porep check-parent-cache "$T/fifo"
expect_msg "porep check-parent-cache FIFO" "FIFO"
expect_rc 2 "porep check-parent-cache /dev/zero" timeout 20 "$PM" porep check-parent-cache /dev/zero
expect_msg "porep check-parent-cache /dev/zero" "character device"
expect_rc 0 "JSON through pipes (process substitution)" "$PM" groth16 verify <(cat "$POW/verification_key.json") <(cat "$POW/public.json") <(cat "$POW/proof.json")
expect_rc 0 "multiplier still verifies" "$PM" groth16 verify "$MUL/verification_key.json" "$MUL/public.json" "$MUL/proof.json"

# porep inputs that are not regular files, and numbers that do not parse
mkdir -p "$T/cdir"
expect_rc 2 "porep verify-c1 on a directory" timeout 20 "$PM" porep verify-c1 "$T/cdir"
expect_msg "porep verify-c1 on a directory" "not a regular file" "directory"
expect_rc 2 "porep verify-c1 on a FIFO" timeout 20 "$PM" porep verify-c1 "$T/fifo"
expect_msg "porep verify-c1 on a FIFO" "FIFO"
expect_rc 2 "porep seal --data FIFO" timeout 20 "$PM" porep seal --sector-size 2KiB --data "$T/fifo" --out "$T/so"
expect_msg "porep seal --data FIFO" "FIFO"
expect_rc 2 "porep seal --data /dev/zero" timeout 20 "$PM" porep seal --sector-size 2KiB --data /dev/zero --out "$T/so"
expect_msg "porep seal --data /dev/zero" "character device"
expect_rc 2 "porep seal --miner-id -1" "$PM" porep seal --sector-size 2KiB --zero --out "$T/so" --miner-id -1
expect_msg "porep seal --miner-id -1" "--miner-id"
expect_rc 2 "porep seal --sector 12abc" "$PM" porep seal --sector-size 2KiB --zero --out "$T/so" --sector 12abc
expect_rc 2 "porep parent-cache --threads -1" "$PM" porep parent-cache --sector-size 2KiB --digest-only --threads -1
expect_msg "porep parent-cache --threads -1" "--threads"

expect_rc 2 "porep synth --partition -1" "$PM" porep synth --c1 "$T/cdir/none.json" --partition -1
expect_msg "porep synth --partition -1" "--partition"
"$PM" porep seal --sector-size 2KiB --zero --out "$T/s2" >/dev/null 2>&1
expect_rc 2 "porep synth --partition past the C1" "$PM" porep synth --c1 "$T/s2/c1.json" --partition 5
expect_msg "porep synth --partition past the C1" "partitions 0..0"
# --stats: the zero-sector witness's aux values (51.6 % zero, 46.8 % one, 1.6 % other at 2 KiB)
expect_rc 0 "porep synth --stats" "$PM" porep synth --c1 "$T/s2/c1.json" --stats
expect_msg "porep synth --stats" "partition 0: aux values: 51.6 % zero, 46.8 % one, 1.6 % other; " "blocks of 4096 wires all zero"
expect_rc 2 "porep verify-proof --proof FIFO" timeout 20 "$PM" porep verify-proof --c1 "$T/s2/c1.json" --vk "$T/fifo" --proof "$T/fifo"

# --- messages name the file and the option the user typed ---
# a short option inside a cluster, after positional arguments (getopt has permuted them): the letter
expect_rc 2 "groth16 prove ... -zz" "$PM" groth16 prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$T/p.json" "$T/pub.json" -zz
expect_msg "groth16 prove ... -zz" "unknown option '-z'"
"$PM" setup "$MUL/circuit.r1cs" --out "$T/m.params" --seed 1 >/dev/null 2>&1
expect_rc 2 "params verify-bytes ... -33" "$PM" params verify-bytes "$T/m.vk" "$T/p.bin" -33
expect_msg "params verify-bytes ... -33" "unknown option '-3'" "negative"
expect_rc 2 "params prove -vz (cluster)" pprove --out "$T/p.bin" --seed 1 -vz
expect_msg "params prove -vz (cluster)" "unknown option '-z'"
# a key for another circuit, a witness for another circuit: both files named
expect_rc 2 "params prove: key of another circuit" "$PM" params prove --params "$T/m.params" --r1cs "$POW/circuit.r1cs" --wtns "$POW/witness.wtns" --out "$T/x.bin" --seed 1
expect_msg "params prove: key of another circuit" "$T/m.params" "not the key of $POW/circuit.r1cs"
expect_rc 2 "params prove: witness of another circuit" "$PM" params prove --params "$T/m.params" --r1cs "$MUL/circuit.r1cs" --wtns "$POW/witness.wtns" --out "$T/x.bin" --seed 1
expect_msg "params prove: witness of another circuit" "$POW/witness.wtns" "$MUL/circuit.r1cs"
[ -e "$T/x.bin" ] && fail "params prove wrote a proof for a mismatched input" || pass "no proof written for mismatched inputs"
# a public input at or above r names which one
"$PM" params prove --params "$T/m.params" --r1cs "$MUL/circuit.r1cs" --wtns "$MUL/witness.wtns" --out "$T/m.bin" --seed 1 >/dev/null 2>&1
R=52435875175126190479447740508185965837690552500527637822603658699938581184513
expect_rc 2 "params verify-bytes: public input = r" "$PM" params verify-bytes "$T/m.vk" "$T/m.bin" "$R"
expect_msg "params verify-bytes: public input = r" "public input 1 of 1" "not below the group order"
# sector data that is not fr32-padded: the --data file and its offset
head -c 2048 /dev/zero | tr '\0' '\377' > "$T/d.bin"
expect_rc 2 "porep seal --data (not fr32)" "$PM" porep seal --sector-size 2KiB --data "$T/d.bin" --out "$T/sd"
expect_msg "porep seal --data (not fr32)" "$T/d.bin: offset 0:" "not a canonical field element"
# zero blinding scalars are refused (no proof without zero knowledge)
expect_rc 2 "groth16 prove --r 0" "$PM" groth16 prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$T/z.json" "$T/zpub.json" --r 0 --s 5
expect_msg "groth16 prove --r 0" "--r 0" "1..r-1"
expect_rc 2 "groth16 prove --s 0" "$PM" groth16 prove "$MUL/circuit.zkey" "$MUL/witness.wtns" "$T/z.json" "$T/zpub.json" --r 5 --s 0
expect_msg "groth16 prove --s 0" "--s 0"
[ -e "$T/z.json" ] && fail "groth16 prove wrote a proof with a zero blinding" || pass "no proof written with a zero blinding"
# bench --daemon with a scheme it does not speak: a usage error before any connection
expect_rc 2 "bench --daemon ftp://x" "$PM" bench single --key "$MUL/circuit.zkey" --witness "$MUL/witness.wtns" --daemon ftp://x
expect_msg "bench --daemon ftp://x" "ftp://x" "http://HOST:PORT or unix:/path"

finish
