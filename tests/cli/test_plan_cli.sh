#!/usr/bin/env bash
# test_plan_cli.sh — `proofmill plan` (will my card do?): usage errors, every kind at 2 KiB and the
# 8 MiB PoRep on cards of 8, 16, 24, 32, 48, 80 and 141 GB with 1..8 devices (exit code, tier,
# device bytes at peak within the usable, one pinned copy for every card, partitions in flight,
# a refusal naming a larger card, which then gets a plan), a card too small refused (exit 2), the
# shape from files (window-post params-setup 2 KiB: .params + .csr headers, --params and --key)
# equal to the shape from the circuit, and a snarkjs .zkey.
. "$(dirname "$0")/lib.sh"

PY=python3
# field FILE EXPR: a value of the JSON in FILE (python expression over j)
field() { $PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null; }

# ---- usage
expect_rc 2 "no options" "$PM" plan
expect_msg "no options" "--kind is required" "proofmill plan --help"
"$PM" plan --help >"$TMP/out" 2>&1
for o in --kind --sector-size --params --key --device-memory --devices --workers-per-device --sm-count \
         --host-memory --json; do
  grep -qF -- "$o" "$TMP/out" && pass "--help lists $o" || fail "--help lacks $o"
done
expect_msg "--help" "24G = 24 GiB"
expect_rc 2 "--device-memory missing" "$PM" plan --kind porep-c2 --sector-size 2KiB
expect_rc 2 "--device-memory 24X" "$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 24X
expect_msg "--device-memory 24X" "not a size"
expect_rc 2 "--devices 0" "$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 24G --devices 0
expect_rc 2 "unknown kind" "$PM" plan --kind nope --sector-size 2KiB --device-memory 24G
expect_msg "unknown kind" "no kind 'nope'" "porep-c2"
expect_rc 2 "--sector-size missing" "$PM" plan --kind window-post --device-memory 24G
expect_rc 2 "--sector-size 3KiB" "$PM" plan --kind window-post --sector-size 3KiB --device-memory 24G
expect_rc 2 "--params and --key" "$PM" plan --kind window-post --sector-size 2KiB --params "$TMP" --key x --device-memory 24G
expect_rc 2 "snarkjs without --key" "$PM" plan --kind snarkjs --device-memory 24G

# ---- the matrix: each kind at 2 KiB and PoRep at 8 MiB, seven cards, 1..8 devices
i=0
for ks in porep-c2:2KiB porep-c2:8MiB window-post:2KiB winning-post:2KiB snapdeals:2KiB; do
  k=${ks%%:*}
  s=${ks##*:}
  for card in 8 16 24 32 48 80 141; do
    i=$((i + 1))
    n=$((i % 8 + 1))
    what="$k $s on ${n}x ${card}G"
    "$PM" plan --kind "$k" --sector-size "$s" --device-memory "${card}G" --devices "$n" --host-memory 64G --json \
      >"$TMP/j" 2>"$TMP/e"
    rc=$?
    if [ "$rc" = 0 ]; then
      ok=$(field "$TMP/j" "j['fits'] and 0 <= j['plan']['tier'] <= 5 and j['plan']['peak_bytes'] <= j['plan']['usable_bytes'] \
and j['host']['partitions_in_flight'] == $n * 2 and j['host']['pinned_bytes'] == j['plan']['host_pinned_bytes'] \
and j['card']['free'] == $card * 2**30 - 2**29 and j['host']['total_bytes'] > j['host']['key_bytes'] \
and j['plan']['tier'] <= 5")
      [ "$ok" = True ] && pass "$what: tier $(field "$TMP/j" "j['plan']['tier']")" || { fail "$what: plan JSON"; head -c 600 "$TMP/j"; }
      # the smallest card per tier is consistent: this card is at least the one of the plan's tier
      ok=$(field "$TMP/j" "j['min_card'][str(j['plan']['tier'])] <= $card * 2**30")
      [ "$ok" = True ] && pass "$what: min_card of its tier fits" || fail "$what: min_card $(field "$TMP/j" "j['min_card']")"
    elif [ "$rc" = 2 ]; then
      need=$(sed -n 's/.*a card of at least \([0-9]*\) GiB would do.*/\1/p' "$TMP/e")
      if [ -n "$need" ] && [ "$need" -gt "$card" ]; then pass "$what: refused, names ${need} GiB"; else fail "$what: refusal '$(cat "$TMP/e")'"; fi
      # the named card is one with all its memory free: here one GiB more covers the CUDA context
      expect_rc 0 "$what: the card the refusal names (${need}G + 1G for the context) gets a plan" \
        "$PM" plan --kind "$k" --sector-size "$s" --device-memory "$((need + 1))G" --devices "$n"
    else
      fail "$what: exit $rc: $(cat "$TMP/e")"
    fi
  done
  # the largest card keeps everything resident; the text names the tier
  expect_rc 0 "$k $s on 141G (text)" "$PM" plan --kind "$k" --sector-size "$s" --device-memory 141G
  expect_msg "$k $s on 141G" "tier      0 (resident)" "device  " "host    " "rows  "
done

# ---- too small a card: exit 2, the refusal names a larger one
expect_rc 2 "snapdeals 512MiB on a 2G card" "$PM" plan --kind snapdeals --sector-size 512MiB --device-memory 2G
expect_msg "refusal" "a card of at least" "would do"
# --host-memory too small: the plan stands (exit 0), said in words and JSON
expect_rc 0 "host memory too small" "$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --host-memory 1G
expect_msg "host memory too small" "does NOT fit --host-memory 1.0 GiB"
"$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --host-memory 1G --json >"$TMP/j" 2>&1
[ "$(field "$TMP/j" "j['host_fits']")" = False ] && pass "JSON host_fits false" || fail "JSON host_fits"

# --host-memory below what two witness slots need: one slot (its staging), said in words and JSON
"$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --json >"$TMP/j" 2>&1
two=$(field "$TMP/j" "j['host']['total_bytes']")
[ "$(field "$TMP/j" "j['plan']['witness_slots']")" = 2 ] && pass "no --host-memory: two slots" || fail "two slots"
"$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --host-memory "$two" --json >"$TMP/j" 2>&1
[ "$(field "$TMP/j" "(j['plan']['witness_slots'], j['plan']['one_slot_for_host'], j['host_fits'])")" = "(2, False, True)" ] \
  && pass "--host-memory = the two-slot sum: two slots" || fail "--host-memory = sum: $(head -c 300 "$TMP/j")"
"$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --host-memory "$((two - 1))" --json >"$TMP/j" 2>&1
[ "$(field "$TMP/j" "(j['plan']['witness_slots'], j['plan']['one_slot_for_host'], j['host_fits'], j['host']['total_bytes'] < $two)")" = "(1, True, True, True)" ] \
  && pass "--host-memory one byte short: one slot, fits" || fail "--host-memory short: $(head -c 300 "$TMP/j")"
expect_rc 0 "one slot for the host (text)" "$PM" plan --kind porep-c2 --sector-size 2KiB --device-memory 80G --host-memory "$((two - 1))"
expect_msg "one slot for the host (text)" "1 slot: two slots' pinned staging would not fit the host budget"

# ---- the shape from files equals the shape from the circuit
expect_rc 0 "window-post params-setup 2KiB" "$PM" window-post params-setup --sector-size 2KiB --dir "$TMP/P" --seed 5
"$PM" plan --kind window-post --sector-size 2KiB --device-memory 24G --json >"$TMP/c.json" 2>&1
"$PM" plan --kind window-post --sector-size 2KiB --params "$TMP/P" --device-memory 24G --json >"$TMP/p.json" 2>&1
key=$(ls "$TMP"/P/*.params | head -n1)
"$PM" plan --kind window-post --key "$key" --device-memory 24G --json >"$TMP/k.json" 2>&1
for f in p k; do
  same=$($PY - "$TMP/c.json" "$TMP/$f.json" <<'PYEOF'
import json, sys
a, b = (json.load(open(p))['shape'] for p in sys.argv[1:3])
keys = ['n_vars', 'n_public', 'log_domain', 'points_a', 'points_b1', 'points_c', 'points_h', 'points_b2',
        'circuit_bytes', 'params_bytes', 'rows']
print([k for k in keys if a[k] != b[k]] or 'same', b['source'].endswith('.csr (headers)'))
PYEOF
)
  [ "$same" = "same True" ] && pass "--$([ $f = p ] && echo params || echo key): shape from the headers = from the circuit" \
    || fail "--$f shape: $same"
done
# a .params without its .csr needs the sector size to count the circuit
mkdir -p "$TMP/Q" && cp "$key" "$TMP/Q/"
expect_rc 2 "--key without .csr or --sector-size" "$PM" plan --kind window-post --key "$TMP/Q/$(basename "$key")" --device-memory 24G
expect_msg "--key without .csr" "give --sector-size"
expect_rc 0 "--key without .csr, with --sector-size" "$PM" plan --kind window-post --sector-size 2KiB \
  --key "$TMP/Q/$(basename "$key")" --device-memory 24G
# a .csr that is not the key's circuit
cp "$TMP/P/$(basename "${key%.params}").csr" "$TMP/Q/x.csr" && head -c 1000 "$TMP/Q/x.csr" >"$TMP/Q/$(basename "${key%.params}").csr"
expect_rc 2 "a truncated .csr beside the key" "$PM" plan --kind window-post --key "$TMP/Q/$(basename "$key")" --device-memory 24G
expect_msg "truncated .csr" ".csr: offset" "exceeds the file"

# ---- a snarkjs key
expect_rc 0 "snarkjs .zkey" "$PM" plan --kind snarkjs --key "$SRC/tests/data/powchain/circuit.zkey" --device-memory 8G --json
cp "$TMP/out" "$TMP/z.json"
ok=$(field "$TMP/z.json" "j['shape']['convention'] == 'snarkjs' and j['shape']['points_a'] == j['shape']['n_vars'] == j['shape']['points_b2'] \
and j['shape']['points_c'] == j['shape']['n_vars'] - j['shape']['n_public'] - 1 and j['shape']['points_h'] == 2**j['shape']['log_domain'] \
and j['shape']['circuit_bytes'] == 0")
[ "$ok" = True ] && pass "snarkjs shape (A = B1 = B2 = n_vars, C, H = domain)" || fail "snarkjs shape: $(head -c 400 "$TMP/z.json")"

finish
