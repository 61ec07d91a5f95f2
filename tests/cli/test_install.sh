#!/usr/bin/env bash
# test_install.sh — `cmake --install` (issue #17 item 16, cmake/install.cmake, docs/install.md):
# into a temporary prefix, and with DESTDIR, it installs the command (which runs), the docs, a
# config the installed daemon accepts (its unix socket in the unit's RuntimeDirectory) and the
# systemd unit whose ExecStart names the installed binary and config; a second install keeps an
# edited config. The build tree is the directory of PROOFMILL_BIN (ctest's proofmill target).
. "$(dirname "$0")/lib.sh"
B=$(dirname "$PM")
[ -f "$B/cmake_install.cmake" ] || { echo "SKIP: $B is not a cmake build tree"; exit 77; }
P=$TMP/prefix
expect_rc 0 "cmake --install --prefix" cmake --install "$B" --prefix "$P"
[ -x "$P/bin/proofmill" ] && pass "bin/proofmill installed" || fail "no bin/proofmill"
expect_rc 0 "the installed command runs" "$P/bin/proofmill" version
for f in README.md install.md engine.md daemon.md curio.md metrics.md devices.md proofmill.conf.example; do
  [ -f "$P/share/doc/proofmill/$f" ] && pass "doc $f" || fail "doc $f missing"
done
U=$P/lib/systemd/system/proofmill.service
C=$P/etc/proofmill/proofmill.conf
[ -f "$U" ] && pass "systemd unit installed" || fail "no systemd unit at $U"
grep -q "^ExecStart=$P/bin/proofmill daemon --config $C\$" "$U" && pass "unit ExecStart: the installed binary and config" || { fail "unit ExecStart wrong"; grep ExecStart "$U"; }
grep -q '@[A-Z]*@' "$U" && fail "unit has unfilled @VARS@" || pass "unit fully configured"
for k in '^\[Unit\]' '^\[Service\]' '^\[Install\]' '^ExecReload=' '^RuntimeDirectory=proofmill' '^WantedBy='; do
  grep -q "$k" "$U" && pass "unit has $k" || fail "unit lacks $k"
done
# issue #39: PrivateTmp=yes gives the service an empty /var/tmp; Filecoin's default parameter
# directory must be bound back in, or every Filecoin job finds no parameters
if grep -q '^PrivateTmp=yes' "$U"; then
  grep -q '^BindReadOnlyPaths=-/var/tmp/filecoin-proof-parameters$' "$U" &&
    pass "unit: PrivateTmp keeps /var/tmp/filecoin-proof-parameters visible" ||
    fail "unit: PrivateTmp=yes hides /var/tmp/filecoin-proof-parameters"
fi
if command -v systemd-analyze >/dev/null && systemd-analyze --help 2>/dev/null | grep -q verify; then
  systemd-analyze verify "$U" >"$TMP/out" 2>&1 && pass "systemd-analyze verify" || echo "NOTE: systemd-analyze verify: $(head -2 "$TMP/out")"
fi
# issue #39: selfcheck finds Filecoin's published data beside the installed binary
for f in parameters.json seal_regression_records-v16.json seal_regression_records-v18.json window_post_calibnet_32GiB.json; do
  [ -f "$P/share/proofmill/filecoin/$f" ] && pass "data $f" || fail "data $f missing"
done
mkdir -p "$TMP/noparams"
expect_rc 0 "the installed selfcheck, no parameters, --allow-missing" env -u PROOFMILL_FILECOIN_DATA \
  "$P/bin/proofmill" selfcheck "$TMP/noparams" --no-prove --allow-missing
expect_msg "selfcheck reads the installed records" "porep 2KiB V1_1_0, 3 records of seal_regression_records-v16.json: skipped:"
[ -f "$C" ] && pass "config installed" || fail "no config at $C"
grep -q '^unix = /run/proofmill/proofmill.sock$' "$C" && pass "config: socket in /run/proofmill" || fail "config: socket not in /run/proofmill"
expect_rc 0 "the installed daemon reads the installed config" "$P/bin/proofmill" daemon --config "$C" --dump-config
expect_msg "dumped config" "/run/proofmill/proofmill.sock"
echo "; edited by the operator" >>"$C"
expect_rc 0 "second install" cmake --install "$B" --prefix "$P"
grep -q "edited by the operator" "$C" && pass "an existing config is kept" || fail "the config was replaced"
expect_rc 0 "DESTDIR install" env DESTDIR="$TMP/dest" cmake --install "$B" --prefix /usr
[ -x "$TMP/dest/usr/bin/proofmill" ] && [ -f "$TMP/dest/etc/proofmill/proofmill.conf" ] &&
  [ -f "$TMP/dest/usr/lib/systemd/system/proofmill.service" ] && pass "DESTDIR + /usr: bin, /etc config, unit" || fail "DESTDIR layout"
grep -q "^ExecStart=/usr/bin/proofmill daemon --config /etc/proofmill/proofmill.conf$" "$TMP/dest/usr/lib/systemd/system/proofmill.service" &&
  pass "DESTDIR unit names the final paths" || fail "DESTDIR unit paths"
finish
