# setup.cmake — Groth16 setup, bellperson .params/.vk, 192-byte proofs, synthetic R1CS, Filecoin
# parameter names/digests (issue #6). The core uses libb2 (BLAKE2b: seeded toxic waste, zkey
# csHash, parameter digests) and OpenSSL libcrypto (SHA-256 of parameter identifiers); src/filecoin/param_names.c is added to the core here.
pkg_check_modules(LIBB2 REQUIRED IMPORTED_TARGET libb2)
pkg_check_modules(LIBCRYPTO REQUIRED IMPORTED_TARGET libcrypto)
foreach(core proofmill_core proofmill_core_portable)
  target_link_libraries(${core} PUBLIC PkgConfig::LIBB2 PkgConfig::LIBCRYPTO)
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/filecoin/param_names.c)
    target_sources(${core} PRIVATE ${CMAKE_SOURCE_DIR}/src/filecoin/param_names.c)
  endif()
endforeach()

# Hostile-input unit tests of this area run again under ASan in CI (label hostile). Unit tests
# are registered after the fragments, hence DEFER.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_params_hostile.c)
  cmake_language(DEFER CALL set_tests_properties test_params_hostile PROPERTIES LABELS "params;hostile")
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_params_roundtrip.c)
  cmake_language(DEFER CALL set_tests_properties test_params_roundtrip PROPERTIES LABELS "params")
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_params_names.c)
  cmake_language(DEFER CALL set_tests_properties test_params_names PROPERTIES LABELS "params")
endif()
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/test_setup_keys.c)
  cmake_language(DEFER CALL set_tests_properties test_setup_keys PROPERTIES LABELS "setup")
endif()
