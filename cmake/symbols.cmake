# Symbol hygiene test (STYLE.md item 13): every library's exported symbols carry a project prefix.
set(_pm_sym_libs $<TARGET_FILE:proofmill_core>)
foreach(_lib proofmill_engine proofmill_daemon proofmill_gpu proofmill_filecoin proofmill_grpc)
  if(TARGET ${_lib})
    list(APPEND _pm_sym_libs $<TARGET_FILE:${_lib}>)
  endif()
endforeach()
add_test(NAME symbols_prefix COMMAND bash ${CMAKE_SOURCE_DIR}/tests/symbols/check_symbols.sh ${_pm_sym_libs})
