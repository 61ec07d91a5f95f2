#!/usr/bin/env bash
# test_cli_help.sh — every subcommand answers --help (and -h) with exit 0 on stdout, listing every
# option of its synopsis in its options table (issue #17 item 10: one getopt_long parser, cli/opts.h);
# bench lists --timeline, --trace and --priority; the winning-post, window-post and snapdeals
# subcommands (#16) likewise; an unknown option, a missing value and a value
# given to a flag are usage errors (exit 2) naming the option and the command's --help.
. "$(dirname "$0")/lib.sh"
cmds=("version" "groth16" "groth16 prove" "groth16 verify" "groth16 export-vk" "groth16 setup" "groth16 verify-bytes"
      "setup" "params" "params prove" "params verify-bytes" "params copy" "params check" "params names"
      "r1cs" "r1cs synth" "bench" "daemon" "prove" "porep")
# every top-level command that `proofmill --help` lists (new ones are checked without editing this)
for s in $("$PM" --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
  case " ${cmds[*]} " in *" $s "*) ;; *) cmds+=("$s") ;; esac
done
# every subcommand that `porep --help` and the PoSt/SnapDeals commands' --help list
kinds="winning-post window-post snapdeals"
for k in porep $kinds; do
  for s in $("$PM" $k --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do cmds+=("$k $s"); done
done
for k in $kinds; do
  n=0; for c in "${cmds[@]}"; do case $c in "$k "*) n=$((n + 1)) ;; esac; done
  [ "$n" -ge 8 ] && pass "$k: $n subcommands" || fail "$k: only $n subcommands listed"
done
[ "${#cmds[@]}" -gt 45 ] && pass "${#cmds[@]} subcommands" || fail "only ${#cmds[@]} subcommands found"
for c in "${cmds[@]}"; do
  # shellcheck disable=SC2086
  "$PM" $c --help >"$TMP/help" 2>"$TMP/err"
  rc=$?
  [ "$rc" = 0 ] && [ -s "$TMP/help" ] && [ ! -s "$TMP/err" ] && pass "$c --help" || { fail "$c --help: exit $rc"; head -3 "$TMP/err"; continue; }
  # shellcheck disable=SC2086
  "$PM" $c -h >"$TMP/h2" 2>&1 && cmp -s "$TMP/help" "$TMP/h2" && pass "$c -h = --help" || fail "$c -h differs from --help"
  # options of the synopsis (the usage: line and its continuation lines) appear in the options table
  syn=$(awk '/^usage:/{u=1} u&&/^$/{exit} u' "$TMP/help")
  table=$(awk '/^options:/{t=1;next} t' "$TMP/help")
  [ -n "$table" ] || case $c in groth16|params|r1cs|porep|winning-post|window-post|snapdeals) continue ;; *) fail "$c --help has no options table"; continue ;; esac
  missing=""
  for o in $(printf '%s\n' "$syn" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    printf '%s\n' "$table" | grep -qE -- "(^| )$o([ ,=]|$)" || missing="$missing $o"
  done
  [ -z "$missing" ] && pass "$c: every option of the synopsis is described" || fail "$c: --help does not describe$missing"
  printf '%s\n' "$table" | grep -qF -- "--help" && pass "$c: lists --help" || fail "$c: table lacks --help"
done
"$PM" bench --help >"$TMP/out" 2>&1
expect_msg "bench --help" "--timeline" "--trace" "--priority" "--inline" "--budget"
"$PM" --help >"$TMP/out" 2>&1
expect_msg "proofmill --help names bench's help" "bench --help"
expect_msg "proofmill --help: the daemon serves Curio's gRPC API too" "gRPC API for Curio"
expect_msg "proofmill --help: porep proves C2" "C2 prove"
# every command's summary starts in one column (the longest name, winning-post, included)
cols=$(sed -n 's/^  \([a-z][a-z0-9-]*\) \( *\)[^ ].*/\1\2/p' "$TMP/out" | awk '{print length($0)}' | sort -u | wc -l)
[ "$cols" = 1 ] && pass "proofmill --help: summaries aligned" || fail "proofmill --help: summaries in $cols columns"
"$PM" porep prove --help >"$TMP/out" 2>&1
if grep -q -- "seal --envelope" "$TMP/out"; then fail "porep prove --help names porep seal --envelope (no such option)"; else pass "porep prove --help: no porep seal --envelope"; fi
# usage errors name the option and the command
expect_rc 2 "porep prove --bogus" "$PM" porep prove --bogus
expect_msg "porep prove --bogus" "porep prove" "--bogus" "porep prove --help"
expect_rc 2 "porep seal --out (no value)" "$PM" porep seal --sector-size 2KiB --out
expect_msg "porep seal --out" "--out needs a value"
expect_rc 2 "porep seal --zero=1" "$PM" porep seal --sector-size 2KiB --zero=1 --out "$TMP/x"
expect_msg "porep seal --zero=1" "--zero" "takes no value"
expect_rc 2 "window-post prove --bogus" "$PM" window-post prove --bogus
expect_msg "window-post prove --bogus" "window-post prove" "--bogus" "window-post prove --help"
expect_rc 2 "snapdeals gen --out (no value)" "$PM" snapdeals gen --sector-size 2KiB --out
expect_msg "snapdeals gen --out" "--out needs a value"
expect_rc 2 "winning-post circuit-info stray" "$PM" winning-post circuit-info --sector-size 2KiB stray
expect_msg "winning-post circuit-info stray" "stray"
"$PM" snapdeals params-setup --help >"$TMP/out" 2>&1
expect_msg "snapdeals params-setup --help" "--allow-filecoin-dir" "--seed" "--dir"
"$PM" window-post prove --help >"$TMP/out" 2>&1
expect_msg "window-post prove --help" "--gpu" "--engine" "--csr" "--vanilla" "--threads"
expect_rc 2 "groth16 prove -x" "$PM" groth16 prove -x
expect_msg "groth16 prove -x" "-x"
expect_rc 2 "bench batch extra argument" "$PM" bench batch --key k.zkey -w w.wtns stray
expect_msg "bench stray" "stray"
# --name=value works as --name value
"$PM" r1cs synth --constraints=6 --out="$TMP/a.r1cs" --wtns "$TMP/a.wtns" --seed=3 >/dev/null 2>&1 &&
  "$PM" r1cs synth --constraints 6 --out "$TMP/b.r1cs" --wtns "$TMP/b.wtns" --seed 3 >/dev/null 2>&1 &&
  cmp -s "$TMP/a.r1cs" "$TMP/b.r1cs" && pass "--name=value = --name value" || fail "--name=value differs"
finish
