# grpc_option.cmake — the PROOFMILL_GRPC option is declared (ON unless -DPROOFMILL_GRPC=OFF), so a
# default build has the gRPC API. A lost option() call left the variable unset, which if() reads as
# OFF: the daemon lost cuzk.v1 and tests/grpc went away without a failure (label hostile).
# Run as: cmake -DVALUE=${PROOFMILL_GRPC} -P grpc_option.cmake
if(NOT VALUE MATCHES "^(ON|OFF|TRUE|FALSE|1|0|YES|NO)$")
  message(FATAL_ERROR "PROOFMILL_GRPC is '${VALUE}': the option is not declared (src/daemon/CMakeLists.txt option())")
endif()
message(STATUS "PROOFMILL_GRPC=${VALUE}")
