/*
 * cmd_setup.h — entry points of `proofmill setup` and `proofmill params prove|verify-bytes`
 * (cmd_setup.c, cmd_params.c), so that `proofmill groth16 ...` (src/cli/groth16.c, issue #3) can
 * forward the issue-#6 spellings with one line each:
 *   groth16 setup circuit.r1cs --out key.zkey|key.params [--seed S]   -> pm_cli_setup_main
 *   groth16 prove --params key.params --r1cs c.r1cs --wtns w.wtns --out proof.bin
 *                                                                     -> pm_cli_params_prove_main
 *   groth16 verify-bytes key.vk proof.bin public...                  -> pm_cli_params_verify_bytes_main
 * Each takes argv[0] = its own word ("setup", "prove", "verify-bytes") and the options after it,
 * and returns the exit code (cli.h: 0 ok, 1 invalid proof, 2 usage / bad input).
 */
#ifndef PROOFMILL_CLI_CMD_SETUP_H
#define PROOFMILL_CLI_CMD_SETUP_H
int pm_cli_setup_main(int argc, char **argv);
int pm_cli_params_prove_main(int argc, char **argv);
int pm_cli_params_verify_bytes_main(int argc, char **argv);
#endif
