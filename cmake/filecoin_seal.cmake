# filecoin_seal.cmake — labels for the sealing / C1 tests of issue #8 (second half). The tests
# themselves are created by cmake/filecoin.cmake (tests/unit/filecoin/test_*.c), which is included
# before this fragment. test_c1_hostile (malformed C1 JSON) and test_c1_corrupt (corrupted vanilla
# proofs) also run under ASan in scripts/test.sh: label hostile.
foreach(t test_c1_hostile test_c1_corrupt)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS "filecoin;hostile")
  endif()
endforeach()
