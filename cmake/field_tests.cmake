# Field tests for both builds (issue #2). The auto-glob in the top-level CMakeLists.txt makes
# test_field_gmp from tests/unit/test_field_gmp.c, linked with proofmill_core (asm build); this
# fragment adds the same source linked with proofmill_core_portable only (test_util.c compiled in,
# since proofmill_testutil drags proofmill_core in), and a run of the asm executable forced onto its
# portable fallback (PROOFMILL_FIELD_BACKEND=portable; 10% of the iterations: the portable code itself
# is covered in full by test_field_gmp_portable).
pkg_check_modules(PM_FIELD_CMOCKA REQUIRED IMPORTED_TARGET cmocka)
add_executable(test_field_gmp_portable
  ${CMAKE_SOURCE_DIR}/tests/unit/test_field_gmp.c ${CMAKE_SOURCE_DIR}/tests/common/test_util.c)
target_include_directories(test_field_gmp_portable PRIVATE
  ${CMAKE_SOURCE_DIR}/tests/common ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_field_gmp_portable PRIVATE
  proofmill_core_portable PkgConfig::GMP PkgConfig::PM_FIELD_CMOCKA)
add_test(NAME test_field_gmp_portable COMMAND test_field_gmp_portable)
set_tests_properties(test_field_gmp_portable PROPERTIES
  ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 300)
add_test(NAME test_field_gmp_fallback COMMAND test_field_gmp)
set_tests_properties(test_field_gmp_fallback PROPERTIES
  ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR};PROOFMILL_FIELD_BACKEND=portable;PROOFMILL_ITERATIONS=10"
  TIMEOUT 300)

# The committed kernels must be what the generator emits (STYLE.md item 8: generated code is committed
# with its generator and fails loudly when they drift apart).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME field_asm_generated_up_to_date
    COMMAND sh -c "'${Python3_EXECUTABLE}' '${CMAKE_SOURCE_DIR}/src/field/mont_x86_64_gen.py' | cmp - '${CMAKE_SOURCE_DIR}/src/field/mont_x86_64.S'")
endif()
