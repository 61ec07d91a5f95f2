# engine.cmake — the proving engine (src/engine), the daemon (src/daemon) and their tests.
# Owner: issue #5 (engine, daemon, bench). The `proofmill daemon` / `proofmill bench` subcommands
# live in src/cli/cmd_daemon.c and src/cli/cmd_bench.c, compiled into `proofmill` by cli.cmake;
# this fragment links the libraries they need into it.

pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
pkg_check_modules(MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)

file(GLOB PROOFMILL_ENGINE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/engine/*.c)
add_library(proofmill_engine STATIC ${PROOFMILL_ENGINE_SOURCES})
target_include_directories(proofmill_engine PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(proofmill_engine PUBLIC proofmill_core Threads::Threads)
# The CUDA backend (cmake/cuda.cmake, included before this file) when it is built: it brings
# PROOFMILL_HAVE_GPU=1, which enables pm_backend_groth16_gpu.
if(TARGET proofmill_gpu)
  target_link_libraries(proofmill_engine PUBLIC proofmill_gpu)
endif()

file(GLOB PROOFMILL_DAEMON_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/daemon/*.c)
if(PROOFMILL_DAEMON_SOURCES)
  add_library(proofmill_daemon STATIC ${PROOFMILL_DAEMON_SOURCES})
  target_include_directories(proofmill_daemon PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(proofmill_daemon PUBLIC proofmill_engine PkgConfig::JANSSON PkgConfig::MHD
                        PkgConfig::INIH)
  if(TARGET proofmill)
    target_link_libraries(proofmill PRIVATE proofmill_daemon)
  endif()
endif()

# Engine unit tests (tests/unit/test_engine_*.c) are created by the top-level test loop, which runs
# after the fragments; link them with the engine once every target exists.
function(_proofmill_engine_link_tests)
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_engine_*.c
       ${CMAKE_SOURCE_DIR}/tests/unit/test_daemon_*.c)
  foreach(t ${tests})
    get_filename_component(tname ${t} NAME_WE)
    if(TARGET ${tname})
      if(tname MATCHES "^test_daemon_" AND TARGET proofmill_daemon)
        target_link_libraries(${tname} PRIVATE proofmill_daemon)
      else()
        target_link_libraries(${tname} PRIVATE proofmill_engine)
      endif()
      set_tests_properties(${tname} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL _proofmill_engine_link_tests)

# Daemon black-box tests: every tests/daemon/test_*.py starts `proofmill daemon` on loopback / a
# unix socket and talks HTTP to it. Skipped (77) without python3 or without the binary.
find_program(PROOFMILL_PYTHON3 python3)
file(GLOB PROOFMILL_DAEMON_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/daemon/test_*.py)
if(TARGET proofmill AND PROOFMILL_PYTHON3)
  foreach(t ${PROOFMILL_DAEMON_TESTS})
    get_filename_component(tname ${t} NAME_WE)
    add_test(NAME daemon_${tname} COMMAND ${PROOFMILL_PYTHON3} ${t})
    set_tests_properties(daemon_${tname} PROPERTIES
      ENVIRONMENT "PROOFMILL_BIN=$<TARGET_FILE:proofmill>;PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR};PROOFMILL_SANITIZE=${PROOFMILL_SANITIZE}"
      SKIP_RETURN_CODE 77 TIMEOUT 300)
    # The API fuzz (malformed JSON, huge bodies, garbage on the socket) and SIGTERM shutdown also
    # run under the sanitizer pass of scripts/test.sh (label hostile).
    if(tname STREQUAL "test_daemon_api")
      set_tests_properties(daemon_${tname} PROPERTIES LABELS hostile)
    endif()
  endforeach()
endif()
