/*
 * toy_params.c — writes the toy kind's test parameters (tests/kinds/toy/toy_params.h) into DIR, for
 * test_grpc_cuzk.py: a kind registered under a name that grpc.proof_kinds gives a cuzk ProofKind
 * proves through the gRPC API without a line of the front end changed.
 * usage: grpc_toy_params DIR [--inconsistent]   (exit 0, or 2 with the error on stderr)
 * --inconsistent: delta_2 negated, a key whose proofs fail its own .vk (PM_ERR_KEY)
 */
#include <stdio.h>
#include <string.h>

#include "../kinds/toy/toy_params.h"

int main(int argc, char **argv) {
    int bad = argc == 3 && !strcmp(argv[2], "--inconsistent");
    if (argc != 2 && !bad) {
        fprintf(stderr, "usage: grpc_toy_params DIR [--inconsistent]\n");
        return 2;
    }
    pm_error err;
    if (pm_test_toy_params_ex(argv[1], 3, bad, &err)) {
        char buf[1200];
        fprintf(stderr, "grpc_toy_params: %s\n", pm_error_format(&err, buf, sizeof buf));
        return 2;
    }
    return 0;
}
