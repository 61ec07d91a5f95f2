# porep_circuit.cmake — Filecoin PoRep C2 circuits (issue #9): src/circuits/*.c (constraint-system
# builder + gadgets) and src/circuits/filecoin/*.c (the StackedDRG partition circuit) as the static
# library proofmill_circuits, and its unit tests tests/unit/circuits/test_*.c.
# Named so that it sorts after cli.cmake and filecoin.cmake (fragments are included in
# alphabetical order): proofmill_filecoin (Poseidon constants, C1 types) and proofmill exist here.
if(NOT TARGET proofmill_filecoin)
  message(STATUS "proofmill_circuits: proofmill_filecoin missing, circuits not built")
  return()
endif()

file(GLOB PROOFMILL_CIRCUITS_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/circuits/*.c
     ${CMAKE_SOURCE_DIR}/src/circuits/filecoin/*.c)
add_library(proofmill_circuits STATIC ${PROOFMILL_CIRCUITS_SOURCES})
target_include_directories(proofmill_circuits PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(proofmill_circuits PUBLIC proofmill_filecoin proofmill_core Threads::Threads m)

# `proofmill porep circuit-info` (src/cli/cmd_porep_circuit.c) needs the library.
if(TARGET proofmill)
  target_link_libraries(proofmill PRIVATE proofmill_circuits)
endif()

# Unit tests (proofmill_testutil is defined after the fragments; resolved at generate time).
file(GLOB PROOFMILL_CIRCUITS_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/circuits/test_*.c)
foreach(t ${PROOFMILL_CIRCUITS_TESTS})
  get_filename_component(tname ${t} NAME_WE)
  add_executable(${tname} ${t})
  target_link_libraries(${tname} PRIVATE proofmill_circuits proofmill_testutil)
  add_test(NAME ${tname} COMMAND ${tname})
  set_tests_properties(${tname} PROPERTIES ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
                       LABELS circuits SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
# The 32 GiB matrix-facts test builds every linear combination (~42 s on 2 cores): label slow too.
if(TEST test_circuits_porep_matrix)
  set_tests_properties(test_circuits_porep_matrix PROPERTIES LABELS "circuits;slow")
endif()
# C2 end to end at 2 KiB (2^22 setup + proof): only with PROOFMILL_SLOW=1 (exit 77 otherwise).
if(TEST test_circuits_porep_e2e)
  set_tests_properties(test_circuits_porep_e2e PROPERTIES LABELS "circuits;slow" TIMEOUT 3600)
endif()
# Symbol hygiene of this library (STYLE.md item 13; the shared check of cmake/symbols.cmake).
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/symbols/check_symbols.sh)
  add_test(NAME symbols_prefix_circuits COMMAND bash ${CMAKE_SOURCE_DIR}/tests/symbols/check_symbols.sh
           $<TARGET_FILE:proofmill_circuits>)
  set_tests_properties(symbols_prefix_circuits PROPERTIES LABELS circuits)
endif()
# Benchmark (run by hand): SpMV over a recorded partition, dictionary-coded vs full coefficients.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/circuits/spmv.c)
  add_executable(bench_circuits_spmv ${CMAKE_SOURCE_DIR}/bench/circuits/spmv.c)
  target_link_libraries(bench_circuits_spmv PRIVATE proofmill_circuits proofmill_testutil)
endif()
