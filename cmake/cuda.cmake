# cuda.cmake — whether the CUDA backend is built (PROOFMILL_CUDA: ON = required, AUTO = when nvcc is
# found, also at /usr/local/cuda/bin/nvcc, OFF), and the CUDA language when it is. Sets
# PROOFMILL_HAVE_CUDA. The backend itself is src/gpu/CMakeLists.txt (kernels), the groth16 layer's GPU
# table (src/groth16/CMakeLists.txt), tests/gpu and bench/.
#
# The cards: unless the user names them (-DCMAKE_CUDA_ARCHITECTURES=..., or the CUDAARCHS environment
# variable, which CMake reads), the build targets the cards storage providers run, as far as the nvcc
# found supports them (`nvcc --list-gpu-code`):
#   80  A100                                   86  RTX 30xx, RTX A4000-A6000 (Ampere)
#   89  RTX 40xx, L4, L40, RTX 6000 Ada         90  H100, H200
#   120 RTX 50xx, RTX PRO 6000 Blackwell (CUDA 12.8 and later)
# Real code (SASS) for each, plus PTX, which the driver compiles at first use for cards that have no
# SASS here, of the highest (newer cards) and of 90: a PTX runs only on cards of its number or higher,
# and the data-centre Blackwells (sm_100 B200, sm_103 B300) lie between 90 and 120. E.g.
# "80-real;86-real;89-real;90;120" with CUDA 13.0 (the PTX costs no compile time: nvcc makes it on the
# way to the SASS). Each architecture is one more device compilation of every .cu file
# (docs/perf/gpu.md "Architectures" has the build times), so the CI test build names two
# (scripts/test.sh) and the device scripts one (tests/gpu/ctest_gpu.sh, bench/).
set(PROOFMILL_CUDA_ARCHS_WANTED 80 86 89 90 120)
set(PROOFMILL_CUDA_ARCHS_PTX 90)

# proofmill_cuda_default_archs(OUT NVCC): PROOFMILL_CUDA_ARCHS_WANTED filtered by what NVCC compiles
# for, as a CMAKE_CUDA_ARCHITECTURES list: "-real" (SASS only) but the highest and those of
# PROOFMILL_CUDA_ARCHS_PTX (SASS + PTX). Without NVCC, or when it cannot list its architectures, the
# whole list (nvcc then names the one it lacks).
function(proofmill_cuda_default_archs out nvcc)
  set(have ${PROOFMILL_CUDA_ARCHS_WANTED})
  if(nvcc)
    execute_process(COMMAND "${nvcc}" --list-gpu-code OUTPUT_VARIABLE codes ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND codes MATCHES "sm_")
      set(have "")
      foreach(a IN LISTS PROOFMILL_CUDA_ARCHS_WANTED)
        if(codes MATCHES "(^|[\r\n])sm_${a}([\r\n]|$)")
          list(APPEND have ${a})
        endif()
      endforeach()
      if(NOT have)
        string(REGEX REPLACE "[\r\n]+" " " codes "${codes}")
        message(FATAL_ERROR "proofmill: ${nvcc} compiles for none of the architectures ${PROOFMILL_CUDA_ARCHS_WANTED} "
                "(its list: ${codes}); install CUDA 12 or later, or pass -DCMAKE_CUDA_ARCHITECTURES=...")
      endif()
    endif()
  endif()
  list(GET have -1 top)
  set(archs "")
  foreach(a IN LISTS have)
    if(a STREQUAL top OR a IN_LIST PROOFMILL_CUDA_ARCHS_PTX)
      list(APPEND archs ${a})
    else()
      list(APPEND archs ${a}-real)
    endif()
  endforeach()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

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
  # before enable_language, which would otherwise settle on nvcc's own default architecture
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(_pm_nvcc "${CMAKE_CUDA_COMPILER}")
    if(NOT _pm_nvcc AND DEFINED ENV{CUDACXX})
      set(_pm_nvcc "$ENV{CUDACXX}")
    elseif(NOT _pm_nvcc)
      find_program(_pm_nvcc NAMES nvcc PATHS /usr/local/cuda/bin NO_CACHE)
    endif()
    proofmill_cuda_default_archs(_pm_archs "${_pm_nvcc}")
    set(CMAKE_CUDA_ARCHITECTURES "${_pm_archs}" CACHE STRING
        "CUDA architectures (default: those of ${PROOFMILL_CUDA_ARCHS_WANTED} that nvcc supports, cmake/cuda.cmake)")
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "proofmill: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, arch ${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "proofmill: CUDA backend OFF (PROOFMILL_CUDA=${PROOFMILL_CUDA})")
endif()
