# cli.cmake — the `proofmill` command (src/cli/*.c) and its black-box tests (tests/cli/*.sh).
# Owner: issue #3 (Groth16 prover/verifier + CLI). Other subcommands (daemon, bench, setup,
# params, porep) add a src/cli/<name>.c with one PM_CLI_COMMAND(...) line (src/cli/cli.h);
# nothing to change here. Fragments sort after this one (daemon, engine, gpu), so they may
# target_link_libraries(proofmill PRIVATE ...) for what their subcommand needs.

# The Groth16 JSON readers/writers in src/groth16/ (part of proofmill_core) use jansson.
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
target_link_libraries(proofmill_core PUBLIC PkgConfig::JANSSON)
target_link_libraries(proofmill_core_portable PUBLIC PkgConfig::JANSSON)

file(GLOB PROOFMILL_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cli/*.c)
if(PROOFMILL_CLI_SOURCES)
  add_executable(proofmill ${PROOFMILL_CLI_SOURCES})
  target_link_libraries(proofmill PRIVATE proofmill_core PkgConfig::JANSSON)
  # Other fragments may link more libraries into the command (e.g. the daemon's libmicrohttpd)
  # with target_link_libraries(proofmill PRIVATE ...) inside if(TARGET proofmill).
  target_compile_definitions(proofmill PRIVATE PROOFMILL_VERSION="${PROJECT_VERSION}")
endif()

# CLI tests: every tests/cli/test_*.sh is one ctest, run with the built binary, the source dir
# and the snarkjs oracle path in its environment. CI=true makes a missing oracle a failure.
file(GLOB PROOFMILL_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cli/test_*.sh)
foreach(t ${PROOFMILL_CLI_TESTS})
  get_filename_component(tname ${t} NAME_WE)
  add_test(NAME cli_${tname} COMMAND bash ${t})
  set_tests_properties(cli_${tname} PROPERTIES
    ENVIRONMENT "PROOFMILL_BIN=$<TARGET_FILE:proofmill>;PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    SKIP_RETURN_CODE 77 LABELS cli)
  if(tname MATCHES "hostile")
    set_tests_properties(cli_${tname} PROPERTIES LABELS "cli;hostile")
  endif()
endforeach()

# The unit test with malformed JSON / off-curve / wrong-curve inputs also runs under ASan in
# scripts/test.sh (label hostile). Unit tests are registered after the fragments, hence DEFER.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_groth16_verify.c)
  cmake_language(DEFER CALL set_tests_properties test_groth16_verify PROPERTIES LABELS "groth16;hostile")
endif()
