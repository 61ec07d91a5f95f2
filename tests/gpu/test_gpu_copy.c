/*
 * test_gpu_copy.c — gpu_copy_to_device (src/gpu/device_memory.cu) from pageable memory of sizes
 * around its staging threshold and chunk (32 MiB, 64 MiB: one byte less, exact, one more, several
 * chunks with a ragged tail, an odd offset), from pinned memory and small buffers: every byte read
 * back with gpu_copy_from_device equals the source's (seeded pattern; the seed is printed). Two
 * copies in a row reuse the device's staging pair. Exit 0 pass, 1 fail, 77 no GPU.
 */
#include "gpu_test_util.h"

static int check(const uint8_t *src, size_t n, const char *what) {
    pm_error e;
    void *d = NULL;
    uint8_t *back = malloc(n ? n : 1);
    pm_status st = back ? gpu_dev_alloc(&d, n, &e) : PM_ERR_NOMEM;
    if (!st) st = gpu_copy_to_device(d, src, n, &e);
    if (back) memset(back, 0xA5, n);
    if (!st) st = gpu_copy_from_device(back, d, n, &e);
    GT_OK(st, e);
    const int ok = !st && memcmp(back, src, n) == 0;
    if (!ok) {
        size_t i = 0;
        while (i < n && back[i] == src[i]) i++;
        printf("FAIL %s: %zu bytes: first difference at byte %zu\n", what, n, i);
    } else
        printf("ok   %s: %zu bytes\n", what, n);
    gpu_dev_free(d);
    free(back);
    return ok;
}

int main(void) {
    if (!gt_begin()) return 77;
    const size_t MiB = (size_t)1 << 20, big = 200 * MiB + 4099;
    uint8_t *src = malloc(big + 64);
    GT_CHECK(src != NULL, "out of memory");
    for (size_t i = 0; i < big + 64; i += 8) {
        const uint64_t v = gt_rand64();
        memcpy(src + i, &v, big + 64 - i < 8 ? big + 64 - i : 8);
    }
    int ok = 1;
    printf("gpu_copy_to_device: staged above 32 MiB from pageable memory, 64 MiB chunks\n");
    const size_t sizes[] = {1, 4096, 32 * MiB - 1, 32 * MiB, 64 * MiB - 1, 64 * MiB, 64 * MiB + 1, 129 * MiB + 77, big};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) ok &= check(src, sizes[i], "pageable");
    ok &= check(src + 3, 100 * MiB + 5, "pageable, odd offset");
    ok &= check(src, big, "pageable again (the staging pair reused)");
    void *pin = NULL;
    pm_error e;
    pm_status st = gpu_host_alloc(&pin, 70 * MiB, &e);
    GT_OK(st, e);
    if (!st) {
        memcpy(pin, src + 11, 70 * MiB);
        ok &= check(pin, 70 * MiB, "pinned");
        gpu_host_free(pin);
    }
    free(src);
    GT_CHECK(ok, "a copy differed");
    printf("%s\n", gt_failures ? "FAIL" : "PASS");
    return gt_failures ? 1 : 0;
}
