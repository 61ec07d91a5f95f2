# cuda.cmake — whether the CUDA backend is built (PROOFMILL_CUDA: ON = required, AUTO = when nvcc is
# found, also at /usr/local/cuda/bin/nvcc, OFF), and the CUDA language when it is. Sets
# PROOFMILL_HAVE_CUDA. The backend itself is src/gpu/CMakeLists.txt (kernels), the groth16 layer's GPU
# table (src/groth16/CMakeLists.txt), tests/gpu and bench/. Built for sm_90 (H100/H200) unless
# CMAKE_CUDA_ARCHITECTURES says otherwise.
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
else()
  message(STATUS "proofmill: CUDA backend OFF (PROOFMILL_CUDA=${PROOFMILL_CUDA})")
endif()
