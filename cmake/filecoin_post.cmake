# filecoin_post.cmake — labels for the WinningPoSt / WindowPoSt / SnapDeals tests of issue #16. The
# tests themselves are created by the existing globs (cmake/filecoin.cmake: tests/unit/filecoin,
# cmake/porep_circuit.cmake: tests/unit/circuits, cmake/cli.cmake: tests/cli), some of them after
# this fragment, hence DEFER (which expands its arguments when it runs, so names are spelled out).
#  - test_post_hostile (truncated / huge / wrong-tag bincode, hostile request JSON) runs again under
#    ASan + UBSan in scripts/test.sh: label hostile;
#  - test_circuits_kinds_8m (one 8 MiB seal shared by the three kinds, ~35 CPU-s) is long but runs
#    by default, like the 32 GiB matrix-facts test: label slow too;
#  - test_circuits_kinds_e2e runs WindowPoSt 2 KiB by default and the rest with PROOFMILL_SLOW=1.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/filecoin/test_post_hostile.c)
  cmake_language(DEFER CALL set_tests_properties test_post_hostile PROPERTIES LABELS "filecoin;hostile")
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/circuits/test_circuits_kinds_8m.c)
  cmake_language(DEFER CALL set_tests_properties test_circuits_kinds_8m PROPERTIES LABELS "circuits;slow")
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/circuits/test_circuits_kinds_e2e.c)
  cmake_language(DEFER CALL set_tests_properties test_circuits_kinds_e2e PROPERTIES TIMEOUT 3600)
endif()
