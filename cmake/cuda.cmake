# cuda.cmake — the CUDA backend (src/gpu, issue #4): static library proofmill_gpu from src/gpu/*.cu,
# GPU tests tests/gpu/test_*.c (ctest label `gpu`, exit code 77 = SKIPPED when no GPU/driver), and
# CUDA benches bench/gpu_*.cu. PROOFMILL_CUDA: ON (required), AUTO (when nvcc is found), OFF.
# Built for sm_90 (H100/H200) only: CMAKE_CUDA_ARCHITECTURES defaults to 90 in the top-level file.
set(PROOFMILL_HAVE_CUDA OFF)
if(PROOFMILL_CUDA STREQUAL "ON")
  set(PROOFMILL_HAVE_CUDA ON)
elseif(PROOFMILL_CUDA STREQUAL "AUTO")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc CACHE FILEPATH "CUDA compiler")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(PROOFMILL_HAVE_CUDA ON)
  endif()
endif()

if(PROOFMILL_HAVE_CUDA)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "proofmill: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, arch ${CMAKE_CUDA_ARCHITECTURES})")
  file(GLOB PROOFMILL_GPU_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/gpu/*.cu)
  add_library(proofmill_gpu STATIC ${PROOFMILL_GPU_SOURCES})
  # The top-level add_compile_options() are gcc flags; nvcc gets its own.
  set_property(TARGET proofmill_gpu PROPERTY COMPILE_OPTIONS "")
  # PROOFMILL_GPU_NVCC_FLAGS: extra nvcc flags, e.g. "--split-compile=0" on a many-core build host,
  # "-Xptxas=-v" for the register/spill report.
  set(PROOFMILL_GPU_NVCC_FLAGS "" CACHE STRING "extra nvcc flags for src/gpu")
  separate_arguments(_pm_nvcc_extra UNIX_COMMAND "${PROOFMILL_GPU_NVCC_FLAGS}")
  target_compile_options(proofmill_gpu PRIVATE -D_GNU_SOURCE -Xcompiler=-Wall --expt-relaxed-constexpr
                         $<$<CONFIG:Release>:-O3> ${_pm_nvcc_extra})
  set_target_properties(proofmill_gpu PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                        CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}" POSITION_INDEPENDENT_CODE ON)
  target_include_directories(proofmill_gpu PUBLIC ${CMAKE_SOURCE_DIR}/src)
  # stdc++: the .cu objects use new/delete and CUB, so plain C executables (the CLI, the daemon)
  # can link this library with the C linker.
  target_link_libraries(proofmill_gpu PUBLIC proofmill_core CUDA::cudart_static stdc++)
  target_compile_definitions(proofmill_gpu PUBLIC PROOFMILL_HAVE_GPU=1)

  # The `proofmill` command (cmake/cli.cmake, included before this file) gets the GPU backend:
  # PROOFMILL_HAVE_GPU=1 is defined for it, and gpu/gpu.h's gpu_groth16_* are available to a
  # `--gpu` option (nothing is pulled into the binary until it calls them).
  if(TARGET proofmill)
    target_link_libraries(proofmill PRIVATE proofmill_gpu)
  endif()

  # CPU references the GPU tests compare against, when their implementations have landed.
  set(_pm_gpu_test_defs "")
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/msm/msm_g1.c)
    list(APPEND _pm_gpu_test_defs PM_HAVE_CPU_MSM=1)
  endif()
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/ntt/ntt.c)
    list(APPEND _pm_gpu_test_defs PM_HAVE_CPU_NTT=1)
  endif()

  file(GLOB PROOFMILL_GPU_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/gpu/test_*.c)
  foreach(t ${PROOFMILL_GPU_TESTS})
    get_filename_component(tname ${t} NAME_WE)
    add_executable(${tname} ${t})
    target_link_libraries(${tname} PRIVATE proofmill_gpu proofmill_core)
    target_compile_definitions(${tname} PRIVATE ${_pm_gpu_test_defs})
    set_target_properties(${tname} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
    add_test(NAME ${tname} COMMAND ${tname})
    set_tests_properties(${tname} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
                         ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
  endforeach()

  # Host tests of the device algorithms (tests/gpu/test_*_host.cu): built by nvcc, run WITHOUT a
  # GPU (the kernels' bodies on the host through src/gpu/msm_exec.cuh's host executor), so CI runs them.
  file(GLOB PROOFMILL_GPU_HOST_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/gpu/test_*_host.cu)
  foreach(t ${PROOFMILL_GPU_HOST_TESTS})
    get_filename_component(tname ${t} NAME_WE)
    add_executable(${tname} ${t})
    set_property(TARGET ${tname} PROPERTY COMPILE_OPTIONS "")
    target_compile_options(${tname} PRIVATE --expt-relaxed-constexpr)
    set_target_properties(${tname} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}" CUDA_STANDARD 17)
    target_include_directories(${tname} PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/tests/gpu)
    target_link_libraries(${tname} PRIVATE proofmill_core CUDA::cudart_static)
    add_test(NAME ${tname} COMMAND ${tname})
    set_tests_properties(${tname} PROPERTIES LABELS "gpu-host" ENVIRONMENT "PROOFMILL_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
  endforeach()

  file(GLOB PROOFMILL_GPU_BENCHES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/bench/gpu_*.cu)
  foreach(b ${PROOFMILL_GPU_BENCHES})
    get_filename_component(bname ${b} NAME_WE)
    add_executable(bench_${bname} ${b})
    set_property(TARGET bench_${bname} PROPERTY COMPILE_OPTIONS "")
    target_compile_definitions(bench_${bname} PRIVATE ${_pm_gpu_test_defs})
    set_target_properties(bench_${bname} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}" CUDA_STANDARD 17)
    target_link_libraries(bench_${bname} PRIVATE proofmill_gpu proofmill_core)
  endforeach()
else()
  message(STATUS "proofmill: CUDA backend OFF (PROOFMILL_CUDA=${PROOFMILL_CUDA})")
endif()
