#!/usr/bin/env bash
# test_post_kinds_cli.sh — `proofmill winning-post | window-post | snapdeals` end to end:
#  - circuit-info: counts (SnapDeals 2 KiB 1,705,039 as published; the 32 GiB ones are checked by
#    the unit tests) and Filecoin's parameter names;
#  - gen over our sealed 2 KiB test sectors, verify-vanilla and check accept the requests, also with
#    the vanilla proofs given as Curio's [][]byte JSON; a request with a changed commitment exits 1
#    naming sector/partition, challenge and field; gen's WindowPoSt options (--sectors, --partition,
#    --api) are refused by winning-post and snapdeals and absent from their --help;
#  - WindowPoSt 2 KiB: params-setup (our seeded TEST parameters, under Filecoin's names) -> prove ->
#    192 bytes -> verify OK; the same proof against another request's public inputs exits 1;
#  - parameter safety: params-setup refuses FIL_PROOFS_PARAMETER_CACHE and a directory holding a
#    Filecoin parameter file it did not write, unless --allow-filecoin-dir; loading says "test parameters";
#  - `bench batch --request`: the request proved -c times through the embedded engine; its misuses;
#  - bad input exits 2: missing request, wrong kind of request, unknown subcommand.
. "$(dirname "$0")/lib.sh"

for k in winning-post window-post snapdeals; do
  expect_rc 0 "$k --help" "$PM" $k --help
  expect_msg "$k --help" "circuit-info" "gen" "verify-vanilla" "params-setup" "prove" "verify"
done

# (the 32 GiB WindowPoSt / SnapDeals counts are checked by the unit tests; here the CLI's output)
expect_rc 0 "window-post circuit-info 2KiB" "$PM" window-post circuit-info --sector-size 2KiB --json
expect_msg "WindowPoSt 2 KiB" '"constraints": 21866' '"inputs": 23' \
  "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"
expect_rc 0 "snapdeals circuit-info 2KiB" "$PM" snapdeals circuit-info --sector-size 2KiB --json
expect_msg "SnapDeals 2 KiB" '"constraints": 1705039' '"partitions": 1' '"inputs": 5' '"challenge_bits"' '"tree_d_path"' \
  "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"
expect_rc 0 "winning-post circuit-info 32GiB" "$PM" winning-post circuit-info --sector-size 32GiB
expect_msg "WinningPoSt 32 GiB" "370590" "66 circuit sector(s) x 1 challenge(s)" "559e581f022bb4e4"

# requests over sealed test sectors
expect_rc 0 "winning-post gen 2KiB" "$PM" winning-post gen --sector-size 2KiB --out "$TMP/win.json" --vanilla-out "$TMP/win-v.json"
expect_rc 0 "winning-post verify-vanilla" "$PM" winning-post verify-vanilla --request "$TMP/win.json"
expect_rc 0 "winning-post verify-vanilla with a Curio vanilla list" "$PM" winning-post verify-vanilla --request "$TMP/win.json" --vanilla "$TMP/win-v.json"
expect_rc 0 "winning-post check" "$PM" winning-post check --request "$TMP/win.json"
expect_msg "winning-post check" "every constraint satisfied"
expect_rc 0 "window-post gen 2KiB, partition 2" "$PM" window-post gen --sector-size 2KiB --sectors 2 --partition 2 --out "$TMP/wd.json"
expect_rc 0 "window-post check" "$PM" window-post check --request "$TMP/wd.json"
expect_rc 0 "snapdeals gen 2KiB" "$PM" snapdeals gen --sector-size 2KiB --out "$TMP/snap.json"
expect_rc 0 "snapdeals verify-vanilla" "$PM" snapdeals verify-vanilla --request "$TMP/snap.json"
expect_rc 2 "a WindowPoSt request given to winning-post" "$PM" winning-post verify-vanilla --request "$TMP/wd.json"
expect_msg "wrong kind" "is not a WinningPoSt proof"

# a changed commitment in the request JSON
python3 - "$TMP/wd.json" "$TMP/wd-bad.json" "$TMP/snap.json" "$TMP/snap-bad.json" <<'PY'
import base64, json, sys
d = json.load(open(sys.argv[1]))
b = bytearray(base64.b64decode(d["vanilla_proofs"][1]))
b[8 + 3] ^= 1  # comm_r of the second sector (after sector_id u64)
d["vanilla_proofs"][1] = base64.b64encode(bytes(b)).decode()
json.dump(d, open(sys.argv[2], "w"))
s = json.load(open(sys.argv[3]))
c = bytearray(base64.b64decode(s["comm_d_new"]))
c[0] ^= 1
s["comm_d_new"] = base64.b64encode(bytes(c)).decode()
json.dump(s, open(sys.argv[4], "w"))
PY
expect_rc 1 "window-post verify-vanilla, changed comm_r" "$PM" window-post verify-vanilla --request "$TMP/wd-bad.json"
expect_msg "changed comm_r" "INVALID" "sector 1 (id 2)" "comm_r"
expect_rc 1 "snapdeals verify-vanilla, changed comm_d_new" "$PM" snapdeals verify-vanilla --request "$TMP/snap-bad.json"
expect_msg "changed comm_d_new" "INVALID" "partition 0" "comm_d_new"

# a parameter directory without the file: the error says where Filecoin's come from
mkdir -p "$TMP/empty"
expect_rc 2 "window-post prove, no parameters" "$PM" window-post prove --request "$TMP/wd.json" --params "$TMP/empty" --out "$TMP/x.proof"
expect_msg "no parameters" "$TMP/empty/v28-proof-of-spacetime-fallback-" "no parameters here" "curio fetch-params" "window-post params-setup"
# gen's WindowPoSt options (--sectors, --partition, --api) are refused by the other kinds, not ignored
for k in winning-post snapdeals; do
  for o in "--sectors 2" "--partition 1" "--api 1.0"; do
    # shellcheck disable=SC2086
    expect_rc 2 "$k gen $o" "$PM" $k gen --sector-size 2KiB --out "$TMP/x.json" $o
    expect_msg "$k gen $o" "${o%% *}" "$k gen --help"
  done
  "$PM" $k gen --help >"$TMP/out" 2>&1
  if grep -qE -- "--sectors|--partition|--api|WindowPoSt" "$TMP/out"; then fail "$k gen --help lists WindowPoSt's options"; else pass "$k gen --help: its own options"; fi
done
"$PM" window-post gen --help >"$TMP/out" 2>&1
expect_msg "window-post gen --help" "--sectors" "--partition" "--api"

# WindowPoSt 2 KiB: our test parameters, prove, verify
expect_rc 0 "window-post params-setup 2KiB" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/P" --seed 5
expect_msg "params-setup" "TEST parameters" "proofmill-test-parameters"
VK=$(ls "$TMP"/P/v28-proof-of-spacetime-fallback-*-0170db1f*.vk)
expect_rc 0 "window-post prove" "$PM" window-post prove --request "$TMP/wd.json" --params "$TMP/P" --out "$TMP/wd.proof" --seed 1
expect_msg "prove" "test parameters" "192 bytes"
if [ "$(stat -c %s "$TMP/wd.proof")" = 192 ]; then pass "proof is 192 bytes"; else fail "proof size $(stat -c %s "$TMP/wd.proof")"; fi
expect_rc 0 "window-post verify" "$PM" window-post verify --request "$TMP/wd.json" --vk "$VK" --proof "$TMP/wd.proof"
expect_msg "verify" "partition 0: OK"
expect_rc 0 "window-post gen, another randomness" "$PM" window-post gen --sector-size 2KiB --sectors 2 --partition 2 --seed 8 --out "$TMP/wd2.json"
expect_rc 1 "the proof against another request's inputs" "$PM" window-post verify --request "$TMP/wd2.json" --vk "$VK" --proof "$TMP/wd.proof"
expect_msg "other inputs" "INVALID"
expect_rc 2 "prove refuses a bad vanilla proof before proving" "$PM" window-post prove --request "$TMP/wd-bad.json" --params "$TMP/P" --out "$TMP/x.proof"
expect_msg "bad vanilla" "sector 1 (id 2)" "comm_r"

# --no-csr: the same parameters without the recorded circuit (an earlier setup's .csr removed); the
# prover records the circuit in memory and gives the same proof bytes for the same r, s
cp -r "$TMP/P" "$TMP/Pn"
expect_rc 0 "window-post params-setup --no-csr" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/Pn" --seed 5 --no-csr
expect_msg "params-setup --no-csr" "--no-csr: a prover records the circuit" "removed (--no-csr"
if ls "$TMP"/Pn/*.csr >/dev/null 2>&1; then fail "--no-csr left a .csr"; else pass "--no-csr: no .csr in the directory"; fi
if cmp -s "$VK" "$(ls "$TMP"/Pn/*.vk)" && cmp -s "${VK%.vk}.params" "$(ls "$TMP"/Pn/*.params)"; then
  pass "--no-csr: the same .params and .vk"; else fail "--no-csr changed the .params or .vk"; fi
expect_rc 0 "window-post prove without a .csr" "$PM" window-post prove --request "$TMP/wd.json" --params "$TMP/Pn" --out "$TMP/wdn.proof" --seed 1
if cmp -s "$TMP/wd.proof" "$TMP/wdn.proof"; then pass "no .csr: the same proof bytes"; else fail "no .csr: other proof bytes"; fi
expect_rc 0 "porep params-setup --no-csr" "$PM" porep params-setup --sector-size 2KiB --dir "$TMP/Ppn" --seed 5 --no-csr
expect_msg "porep params-setup --no-csr" "no .csr (--no-csr"
if ls "$TMP"/Ppn/*.csr >/dev/null 2>&1; then fail "porep --no-csr left a .csr"; else pass "porep --no-csr: no .csr"; fi
if grep -q "\.csr" "$TMP/Ppn/proofmill-test-parameters"; then fail "porep --no-csr listed a .csr"; else pass "porep --no-csr: no .csr listed"; fi
expect_rc 2 "--no-csr is params-setup's alone" "$PM" window-post prove --request "$TMP/wd.json" --params "$TMP/Pn" --out "$TMP/x.proof" --no-csr

# bench --request: every job proves the request through the embedded engine (each proof verified)
expect_rc 0 "bench batch --request (window-post 2 KiB)" "$PM" bench batch --kind window-post --params "$TMP/P" --request "$TMP/wd.json" -c 2 -j 2
expect_msg "bench --request" "window-post proof(s) of the request" "2 vanilla proof(s)" "summary: 2/2 proofs ok"
# the device side of the run (#13): kernel-region time per partition over the 2 partitions proved,
# a busy fraction in (0, 1], the peak RSS of this process (a 2 KiB WindowPoSt key: tens of MB)
if grep -Eq "^kernel region: [0-9]+\.[0-9] ms per partition \(2 partitions, [0-9.]+ s on 1 device\(s\)\); devices busy (0\.[0-9][1-9]|0\.[1-9][0-9]|1\.00) of the [0-9.]+ s wall$" "$TMP/out"; then
  pass "bench: kernel region per partition and busy fraction"; else fail "bench: no kernel-region line"; grep -E "^kernel|^peak" "$TMP/out"; fi
if grep -Eq "^peak host RSS 0\.[0-9][0-9] GiB \(this process\)$" "$TMP/out" && ! grep -q "^peak host RSS 0.00" "$TMP/out"; then
  pass "bench: peak host RSS"; else fail "bench: no (or an implausible) peak host RSS line"; grep -E "^peak" "$TMP/out"; fi
expect_rc 2 "bench --request with --witness" "$PM" bench batch --kind window-post --params "$TMP/P" --request "$TMP/wd.json" -w "$TMP/wd.json"
expect_msg "bench --request + --witness" "not both"
expect_rc 2 "bench --request of a kind without vanilla proofs" "$PM" bench batch --kind porep-c2 --params "$TMP/P" --request "$TMP/wd.json"
expect_msg "bench --request porep-c2" "winning-post, window-post or snapdeals"
expect_rc 1 "bench --request: a WindowPoSt request proved as WinningPoSt fails every job" "$PM" bench single --kind winning-post --params "$TMP/P" --request "$TMP/wd.json"
expect_msg "bench --request wrong kind" "FAILED"
expect_rc 2 "bench --request missing file" "$PM" bench single --kind window-post --params "$TMP/P" --request "$TMP/nope.json"
expect_msg "bench --request missing" "nope.json"
"$PM" window-post params-setup --help >"$TMP/out" 2>&1
expect_msg "params-setup --help" "--gpu" "--allow-filecoin-dir"

# parameter safety
mkdir -p "$TMP/fc"
cp "$VK" "$TMP/fc/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk"
expect_rc 2 "params-setup into a directory holding a Filecoin parameter file" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/fc" --seed 5
expect_msg "foreign file" "did not write" "--allow-filecoin-dir"
mkdir -p "$TMP/cache"
FIL_PROOFS_PARAMETER_CACHE="$TMP/cache" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/cache" --seed 5 >"$TMP/out" 2>&1
if [ $? = 2 ] && grep -q "FIL_PROOFS_PARAMETER_CACHE" "$TMP/out"; then pass "params-setup refuses FIL_PROOFS_PARAMETER_CACHE"; else fail "FIL_PROOFS_PARAMETER_CACHE: $(cat "$TMP/out")"; fi
expect_rc 0 "params-setup with --allow-filecoin-dir" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/fc" --seed 5 --allow-filecoin-dir
expect_rc 0 "params-setup again into its own directory" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/P" --seed 5

expect_rc 2 "missing request" "$PM" snapdeals check --request "$TMP/nope.json"
expect_rc 2 "unknown subcommand" "$PM" snapdeals frobnicate
expect_rc 2 "unsupported size" "$PM" snapdeals circuit-info --sector-size 1GiB
finish
