# hostile.cmake — regressions from the hostile-input review (FIFO/directory/device inputs, lying
# r1cs nWires, key points at infinity, all-or-nothing output files). Label hostile: re-run under
# ASan in scripts/test.sh. tests/cli/test_*hostile*.sh get the label in cli.cmake. Unit tests are
# registered after the fragments, hence DEFER.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_hostile_files.c)
  cmake_language(DEFER CALL set_tests_properties test_hostile_files PROPERTIES LABELS "hostile")
endif()
