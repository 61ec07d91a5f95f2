/*
 * grpc_server_none.c — the gRPC server of a build configured with -DPROOFMILL_GRPC=OFF (no gRPC C++ /
 * protobuf packages on the machine, e.g. the GPU bench host): the same C interface as grpc_server.cc
 * (daemon/grpc_server.h), which refuses to start, naming the option, so a configured grpc.listen is
 * never silently ignored. The default grpc.listen of such a build is empty (daemon/config.c).
 */
#include "daemon/grpc_server.h"

pm_status pm_grpc_server_start(pm_grpc_server **out, const pm_grpc_server_opts *o, const pm_grpc_ops *ops,
                               unsigned *port, pm_error *err) {
    (void)ops;
    if (out) *out = NULL;
    if (port) *port = 0;
    return pm_error_set(err, PM_ERR_ARG, "grpc.listen", 0,
                        "grpc.listen = \"%s\": this proofmill was built without the gRPC API "
                        "(-DPROOFMILL_GRPC=OFF); rebuild with the gRPC packages (scripts/install-deps.sh) "
                        "or set grpc.listen = \"\"",
                        o && o->addr ? o->addr : "");
}

void pm_grpc_server_stop(pm_grpc_server *s, unsigned grace_ms) {
    (void)s;
    (void)grace_ms;
}
