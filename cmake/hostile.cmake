# hostile.cmake — regressions from the hostile-input review (FIFO/directory/device inputs, lying
# r1cs nWires, key points at infinity, all-or-nothing output files). Label hostile: re-run under
# ASan in scripts/test.sh. tests/cli/test_*hostile*.sh get the label in cli.cmake. Unit tests are
# registered after the fragments, hence DEFER.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_hostile_files.c)
  cmake_language(DEFER CALL set_tests_properties test_hostile_files PROPERTIES LABELS "hostile")
endif()
# The reader fixture tests also forge truncated / lying / mutated images (wtns, r1cs, zkey): under
# ASan they catch reads past a buffer that the plain build does not notice.
# (DEFER expands its arguments when the deferred call runs, so the names are spelled out.)
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_wtns_fixtures.c)
  cmake_language(DEFER CALL set_property TEST test_wtns_fixtures test_r1cs_fixtures
                 test_zkey_fixtures APPEND PROPERTY LABELS "hostile")
endif()
