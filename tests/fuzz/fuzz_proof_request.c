/*
 * fuzz_proof_request.c — libFuzzer harness of the PoSt / SnapDeals request files (filecoin/
 * proof_request.h): the bytes as a request JSON file (fil_proof_request_read; what `proofmill
 * <kind> prove --request` reads) and as a vanilla-list JSON file (fil_vanilla_list_read, Go's
 * [][]byte). A request that reads becomes the job of its kind as the CLI makes it
 * (pm_fil_inputs_of_request), opened, verified and synthesized (fuzz_kinds.h).
 */
#include "fuzz_kinds.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    const char *path = fuzz_file(0, d, n, ".json");
    fil_proof_request_t r;
    pm_error e;
    pm_status st = fil_proof_request_read(&r, path, &e);
    fuzz_note("request", st, e.msg);
    if (st == PM_OK) {
        const char *kn = r.kind == FIL_REQ_WINNING_POST            ? "winning-post"
                         : r.kind == FIL_REQ_WINDOW_POST_PARTITION ? "window-post"
                         : r.kind == FIL_REQ_SNAP_DEALS_UPDATE     ? "snapdeals"
                                                                   : NULL;
        const pm_kind *k = kn ? pm_kind_find(kn) : NULL;
        pm_input *in;
        size_t n_in;
        uint8_t *store;
        if (k && pm_fil_inputs_of_request(&in, &n_in, &store, k, &r, &e) == PM_OK) {
            fuzz_fil_job(kn, in, n_in);
            free(in);
            free(store);
        }
        fil_proof_request_free(&r);
    }
    memset(&r, 0, sizeof r);
    (void)fil_vanilla_list_read(&r, path, &e);
    fil_proof_request_free(&r); /* on error too: r keeps the blobs read before it (the CLI frees them) */
    return 0;
}
