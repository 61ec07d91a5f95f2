# proofmill.cmake — the helpers every CMakeLists.txt of src/<layer>/ and tests/<layer>/ uses.
#
# The core library (layers util .. groth16, gpu excepted) is one static library built twice:
# proofmill_core (with the x86-64 asm field kernels when PROOFMILL_ASM) and proofmill_core_portable
# (the same sources without PROOFMILL_USE_ASM, so CI tests the portable path too: STYLE.md item 12).
# A core layer lists its sources and the libraries it needs with proofmill_core_layer(); the
# top-level CMakeLists.txt makes both libraries after the last core layer (proofmill_core_libraries).

# proofmill_core_layer(SOURCES f.c ... [ASM_SOURCES f.S ...] [LIBS target ...])
#   SOURCES go into both core libraries, ASM_SOURCES into proofmill_core only (when PROOFMILL_ASM),
#   LIBS are linked PUBLIC into both.
function(proofmill_core_layer)
  cmake_parse_arguments(L "" "" "SOURCES;ASM_SOURCES;LIBS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY PROOFMILL_CORE_SOURCES ${L_SOURCES})
  set_property(GLOBAL APPEND PROPERTY PROOFMILL_CORE_ASM_SOURCES ${L_ASM_SOURCES})
  set_property(GLOBAL APPEND PROPERTY PROOFMILL_CORE_LIBS ${L_LIBS})
endfunction()

function(proofmill_core_libraries)
  get_property(src GLOBAL PROPERTY PROOFMILL_CORE_SOURCES)
  get_property(asm GLOBAL PROPERTY PROOFMILL_CORE_ASM_SOURCES)
  get_property(libs GLOBAL PROPERTY PROOFMILL_CORE_LIBS)
  foreach(name proofmill_core proofmill_core_portable)
    add_library(${name} STATIC ${src})
    target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(${name} PUBLIC Threads::Threads m ${libs})
    if(OpenMP_C_FOUND)
      target_link_libraries(${name} PUBLIC OpenMP::OpenMP_C)
    endif()
  endforeach()
  if(PROOFMILL_ASM)
    target_sources(proofmill_core PRIVATE ${asm})
    target_compile_definitions(proofmill_core PUBLIC PROOFMILL_USE_ASM=1)
  endif()
endfunction()

# proofmill_library(NAME target SOURCES f.c ... LIBS target ...)
#   A static library of a layer above the core (filecoin, circuits, engine, ...), linking LIBS PUBLIC.
function(proofmill_library)
  cmake_parse_arguments(L "" "NAME" "SOURCES;LIBS" ${ARGN})
  add_library(${L_NAME} STATIC ${L_SOURCES})
  target_include_directories(${L_NAME} PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(${L_NAME} PUBLIC ${L_LIBS} Threads::Threads m)
endfunction()

# proofmill_test(NAME name (SOURCES f.c ... | COMMAND cmd ...) [LIBS target ...] [LABELS l ...]
#                [TIMEOUT s] [ENV VAR=value ...] [ARGS arg ...] [NO_TESTUTIL])
#   One ctest. With SOURCES: an executable of that name, linked with LIBS and the shared test
#   helpers (proofmill_testutil: cmocka, GMP, tests/common) unless NO_TESTUTIL, run with ARGS.
#   With COMMAND: that command (a script, or another test's executable). Every test gets
#   PROOFMILL_SOURCE_DIR in its environment and exit code 77 means Skipped.
function(proofmill_test)
  cmake_parse_arguments(T "NO_TESTUTIL" "NAME;TIMEOUT" "SOURCES;COMMAND;LIBS;LABELS;ENV;ARGS" ${ARGN})
  if(T_SOURCES)
    add_executable(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE ${T_LIBS})
    if(NOT T_NO_TESTUTIL)
      target_link_libraries(${T_NAME} PRIVATE proofmill_testutil)
    endif()
    add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${T_ARGS})
  else()
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND} ${T_ARGS})
  endif()
  set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77
                       ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR};${T_ENV}")
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
  if(T_TIMEOUT)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()

# proofmill_tests_here(LIBS target ... [LABELS l ...] [TIMEOUT s])
#   proofmill_test() for every test_*.c of the calling directory (name = file name), with the same
#   libraries and labels; tests that need more are adjusted after the call (set_tests_properties).
function(proofmill_tests_here)
  cmake_parse_arguments(T "" "TIMEOUT" "LIBS;LABELS" ${ARGN})
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/test_*.c)
  foreach(t ${tests})
    get_filename_component(name ${t} NAME_WE)
    set(extra "")
    if(T_TIMEOUT)
      set(extra TIMEOUT ${T_TIMEOUT})
    endif()
    proofmill_test(NAME ${name} SOURCES ${t} LIBS ${T_LIBS} LABELS ${T_LABELS} ${extra})
  endforeach()
endfunction()

# proofmill_add_label(label test ...): add a label to tests already defined.
function(proofmill_add_label label)
  foreach(t ${ARGN})
    set_property(TEST ${t} APPEND PROPERTY LABELS ${label})
  endforeach()
endfunction()
