# zz_porep_engine.cmake — the engine's PoRep C2 front end (issue #9): src/engine/backend_porep.c
# needs the circuits and Filecoin libraries, which exist only after porep_circuit.cmake (fragments
# are included alphabetically, hence the name). Its test tests/unit/circuits/test_engine_porep.c
# is created by porep_circuit.cmake's loop; here it gets the engine, and a second ctest runs its
# end-to-end part (2 KiB params: cached under the build dir, made once with a fixed seed; label
# slow, PROOFMILL_SLOW=1 like test_circuits_porep_e2e).
if(NOT TARGET proofmill_engine OR NOT TARGET proofmill_circuits)
  message(STATUS "PoRep engine backend: proofmill_engine or proofmill_circuits missing")
  return()
endif()
target_link_libraries(proofmill_engine PUBLIC proofmill_circuits proofmill_filecoin)
if(TARGET test_engine_porep)
  target_link_libraries(test_engine_porep PRIVATE proofmill_engine)
  if(TARGET proofmill_daemon)
    target_link_libraries(test_engine_porep PRIVATE proofmill_daemon)
  endif()
  set_tests_properties(test_engine_porep PROPERTIES LABELS "circuits;engine;porep" TIMEOUT 300)
  add_test(NAME test_engine_porep_e2e COMMAND test_engine_porep --e2e)
  set_tests_properties(test_engine_porep_e2e PROPERTIES
    ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR};PROOFMILL_POREP_CACHE=${CMAKE_BINARY_DIR}/porep-2k-params"
    LABELS "circuits;engine;porep;slow" SKIP_RETURN_CODE 77 TIMEOUT 3600)
endif()
