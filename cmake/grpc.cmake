# grpc.cmake — the daemon's gRPC front end (issue #15): cuzk.v1.ProvingEngine, the API Curio calls.
# The server code is generated at build time from the committed interface file
# src/daemon/grpc/proto/cuzk/v1/proving.proto (copied from Curio) by protoc + grpc_cpp_plugin and
# compiled with src/daemon/grpc_server.cc (C++, behind the C header daemon/grpc_server.h) into
# proofmill_grpc, which the daemon (src/daemon/grpc_glue.c) links. Debian 12 packages:
# libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler (scripts/install-deps.sh).
# gRPC is required: the daemon serves both APIs.
if(NOT TARGET proofmill_daemon)
  return()
endif()

find_program(PROOFMILL_PROTOC protoc)
find_program(PROOFMILL_GRPC_CPP_PLUGIN grpc_cpp_plugin)
find_program(PROOFMILL_GRPC_PYTHON_PLUGIN grpc_python_plugin)
pkg_check_modules(GRPCPP IMPORTED_TARGET grpc++)
pkg_check_modules(PROTOBUF IMPORTED_TARGET protobuf)
if(NOT GRPCPP_FOUND OR NOT PROTOBUF_FOUND OR NOT PROOFMILL_PROTOC OR NOT PROOFMILL_GRPC_CPP_PLUGIN)
  message(FATAL_ERROR "proofmill: the daemon's gRPC API (cuzk.v1, issue #15) needs gRPC C++ and protobuf: "
          "grpc++ ${GRPCPP_VERSION} (libgrpc++-dev), protobuf ${PROTOBUF_VERSION} (libprotobuf-dev), "
          "protoc='${PROOFMILL_PROTOC}' (protobuf-compiler), grpc_cpp_plugin='${PROOFMILL_GRPC_CPP_PLUGIN}' "
          "(protobuf-compiler-grpc). Install them with: bash scripts/install-deps.sh")
endif()
enable_language(CXX)
message(STATUS "proofmill: gRPC front end (grpc++ ${GRPCPP_VERSION}, protobuf ${PROTOBUF_VERSION})")

set(_pm_proto_dir ${CMAKE_SOURCE_DIR}/src/daemon/grpc/proto)
set(_pm_proto ${_pm_proto_dir}/cuzk/v1/proving.proto)
set(_pm_gen ${CMAKE_BINARY_DIR}/grpc_gen)
set(_pm_gen_src ${_pm_gen}/cuzk/v1/proving.pb.cc ${_pm_gen}/cuzk/v1/proving.grpc.pb.cc)
set(_pm_gen_hdr ${_pm_gen}/cuzk/v1/proving.pb.h ${_pm_gen}/cuzk/v1/proving.grpc.pb.h)
add_custom_command(
  OUTPUT ${_pm_gen_src} ${_pm_gen_hdr}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_pm_gen}
  COMMAND ${PROOFMILL_PROTOC} -I ${_pm_proto_dir} --cpp_out=${_pm_gen} --grpc_out=${_pm_gen}
          --plugin=protoc-gen-grpc=${PROOFMILL_GRPC_CPP_PLUGIN} cuzk/v1/proving.proto
  DEPENDS ${_pm_proto}
  COMMENT "protoc + grpc_cpp_plugin: cuzk/v1/proving.proto"
  VERBATIM)

add_library(proofmill_grpc STATIC ${CMAKE_SOURCE_DIR}/src/daemon/grpc_server.cc ${_pm_gen_src})
set_target_properties(proofmill_grpc PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
target_include_directories(proofmill_grpc PUBLIC ${CMAKE_SOURCE_DIR}/src PRIVATE ${_pm_gen})
set_source_files_properties(${_pm_gen_src} PROPERTIES COMPILE_OPTIONS "-w") # generated code: not ours to lint
# stdc++: the C linker links the `proofmill` command and the tests.
target_link_libraries(proofmill_grpc PUBLIC PkgConfig::GRPCPP PkgConfig::PROTOBUF stdc++ Threads::Threads)

pkg_check_modules(GRPC_LIBCRYPTO REQUIRED IMPORTED_TARGET libcrypto) # daemon/job_proof.c: base64
target_link_libraries(proofmill_daemon PUBLIC proofmill_grpc PkgConfig::GRPC_LIBCRYPTO)

# Black-box tests (tests/grpc/test_*.py): the daemon on loopback driven by a client generated from
# the same .proto with Debian's Python gRPC (python3-grpcio, python3-protobuf, grpc_python_plugin),
# which is why they run with Debian's /usr/bin/python3, not whatever python3 is first on PATH.
find_program(PROOFMILL_DEBIAN_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(TARGET proofmill AND PROOFMILL_DEBIAN_PYTHON3)
  set(_pm_grpc_env
    "PROOFMILL_BIN=$<TARGET_FILE:proofmill>;PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR};PROOFMILL_SANITIZE=${PROOFMILL_SANITIZE}"
    "PROOFMILL_PROTOC=${PROOFMILL_PROTOC};PROOFMILL_GRPC_PYTHON_PLUGIN=${PROOFMILL_GRPC_PYTHON_PLUGIN}"
    "PROOFMILL_POREP_CACHE=${CMAKE_BINARY_DIR}/porep-2k-params")
  add_test(NAME grpc_test_grpc_cuzk COMMAND ${PROOFMILL_DEBIAN_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/grpc/test_grpc_cuzk.py)
  set_tests_properties(grpc_test_grpc_cuzk PROPERTIES ENVIRONMENT "${_pm_grpc_env}" SKIP_RETURN_CODE 77
    TIMEOUT 300 LABELS "daemon;grpc;hostile")
  # The 2 KiB PoRep C2 end to end through gRPC (PROOFMILL_SLOW=1): real 2 KiB parameters, cached in
  # the build dir and shared with test_engine_porep_e2e (hence the lock: one makes them, the other
  # waits and reuses them).
  add_test(NAME grpc_test_grpc_cuzk_e2e COMMAND ${PROOFMILL_DEBIAN_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/grpc/test_grpc_cuzk.py --e2e)
  set_tests_properties(grpc_test_grpc_cuzk_e2e PROPERTIES ENVIRONMENT "${_pm_grpc_env}" SKIP_RETURN_CODE 77
    TIMEOUT 3600 LABELS "daemon;grpc;porep;slow" RESOURCE_LOCK porep_2k_params)
  function(_proofmill_grpc_lock_params)
    if(TEST test_engine_porep_e2e)
      set_tests_properties(test_engine_porep_e2e PROPERTIES RESOURCE_LOCK porep_2k_params)
    endif()
  endfunction()
  cmake_language(DEFER CALL _proofmill_grpc_lock_params)
endif()
