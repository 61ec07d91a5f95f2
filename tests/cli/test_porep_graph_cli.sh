#!/usr/bin/env bash
# test_porep_graph_cli.sh — `proofmill porep parent-cache` and `porep parents` end to end:
#  - 2 KiB V1 (id 0) and V1_1 (id 5) and 8 MiB V1_1 caches: digests = rust-fil-proofs
#    parent_cache.json (POREP.md §3.4), file = 56 bytes per node, DIR mode names the file
#    v28-sdr-parent-<hash>.cache as Filecoin does, sha256sum of the file = the printed digest;
#  - parents of 2 KiB nodes 0, 1, 2, 63 (POREP.md §3.4 sample rows);
#  - usage errors: unknown size, bad porep id, node out of range, conflicting options (exit 2);
#    an unwritable output (exit 2).
. "$(dirname "$0")/lib.sh"

expect_rc 0 "porep --help" "$PM" porep --help
expect_msg "porep --help" "parent-cache" "parents"
expect_rc 2 "porep without subcommand" "$PM" porep
expect_rc 2 "porep unknown subcommand" "$PM" porep frobnicate

expect_rc 0 "porep info" "$PM" porep info
expect_msg "porep info" "32GiB" "1073741824" "8-8-2" "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep" \
  "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117.cache"
expect_rc 2 "porep info with an argument" "$PM" porep info x

expect_rc 0 "2KiB V1_1 cache into a file" "$PM" porep parent-cache --sector-size 2KiB --out "$TMP/c5" --quiet
expect_msg "2KiB V1_1 digest" "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97" "published: match"
if [ "$(stat -c %s "$TMP/c5")" = 3584 ]; then pass "2KiB cache is 64 x 56 bytes"; else fail "2KiB cache size $(stat -c %s "$TMP/c5")"; fi
if sha256sum "$TMP/c5" | grep -q ^840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97; then
  pass "sha256sum of the file = published digest"; else fail "sha256sum of the 2KiB file"; fi

mkdir -p "$TMP/dir"
expect_rc 0 "2KiB V1 cache into a directory" "$PM" porep parent-cache --sector-size 2KiB --api-version 1.0 --out "$TMP/dir" --quiet
expect_msg "2KiB V1 digest" "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d" "published: match"
if [ -f "$TMP/dir/v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache" ]; then
  pass "DIR mode uses Filecoin's cache name"; else fail "DIR mode file name: $(ls "$TMP/dir")"; fi

expect_rc 0 "check a good cache directory" "$PM" porep check-parent-cache "$TMP/dir"
expect_msg "check good" "OK $TMP/dir/v28-sdr-parent-3f0eef38"
cp "$TMP/dir/v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache" "$TMP/bad.bin"
printf '\x07' | dd of="$TMP/dir/v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_rc 1 "check a damaged cache" "$PM" porep check-parent-cache "$TMP/dir"
expect_msg "check damaged" "BAD" "published 3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"
expect_rc 0 "check a file with an unknown name" "$PM" porep check-parent-cache "$TMP/bad.bin"
expect_msg "check unknown" "UNKNOWN"
expect_rc 2 "check a missing path" "$PM" porep check-parent-cache "$TMP/nothing"
mkdir -p "$TMP/empty"
expect_rc 2 "check an empty directory" "$PM" porep check-parent-cache "$TMP/empty"

expect_rc 0 "8MiB V1_1 digest only" "$PM" porep parent-cache --proof 6 --digest-only --quiet --threads 2
expect_msg "8MiB V1_1 digest" "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab" "published: match"

expect_rc 0 "custom porep id (no manifest entry)" "$PM" porep parent-cache --sector-size 4KiB \
  --porep-id 7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f --digest-only --quiet
expect_msg "custom porep id" "published: none"

expect_rc 0 "parents of 2KiB nodes" "$PM" porep parents --sector-size 2KiB 0 1 2 63
expect_msg "parents rows" "0: 0 0 0 0 0 0 | 4 9 60 1 14 26 26 4" "2: 1 1 1 0 1 0 | 30 28 55 63 63 36 37 36" \
  "63: 62 15 42 62 61 62 | 0 15 30 30 28 42 49 38"

expect_rc 2 "unknown sector size" "$PM" porep parent-cache --sector-size 3KiB --digest-only
expect_msg "unknown sector size" "not a Filecoin PoRep size"
expect_rc 2 "no output given" "$PM" porep parent-cache --sector-size 2KiB
expect_rc 2 "bad porep id" "$PM" porep parent-cache --sector-size 2KiB --porep-id 12zz --digest-only
expect_rc 2 "proof id out of range" "$PM" porep parent-cache --proof 20 --digest-only
expect_rc 2 "proof id and size disagree" "$PM" porep parent-cache --proof 8 --sector-size 2KiB --digest-only
expect_rc 2 "no registered V1_1 proof for 4KiB" "$PM" porep parent-cache --sector-size 4KiB --digest-only
expect_rc 2 "bad api version" "$PM" porep parent-cache --sector-size 2KiB --api-version 2.0 --digest-only
expect_rc 2 "node out of range" "$PM" porep parents --sector-size 2KiB 64
expect_rc 2 "unwritable output" "$PM" porep parent-cache --sector-size 2KiB --out /nonexistent/dir/x.cache
expect_msg "unwritable output" "/nonexistent/dir/x.cache"
finish
