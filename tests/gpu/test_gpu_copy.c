/*
 * test_gpu_copy.c — gpu_copy_to_device (src/gpu/device_memory.cu) from pageable memory of sizes
 * around its staging threshold and chunk (32 MiB, 64 MiB: one byte less, exact, one more, several
 * chunks with a ragged tail, an odd offset), from pinned memory and small buffers: every byte read
 * back with gpu_copy_from_device equals the source's (seeded pattern; the seed is printed); from and
 * into memory pinned in 64 MiB pieces (gpu_host_alloc_pieces), whole copies crossing pieces. Two
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
    /* pinned in 64 MiB pieces (gpu_host_alloc_pieces, the a, b, c pool's memory): whole copies of
     * 200 MiB cross three piece boundaries, each cut there (one copy may not span two registrations);
     * both ways, from the start and from an odd offset; the buffer starts at a piece boundary */
    void *pieces = NULL, *back = NULL;
    st = gpu_host_alloc_pieces(&pieces, big, &e);
    GT_OK(st, e);
    if (!st) st = gpu_host_alloc_pieces(&back, big, &e);
    GT_OK(st, e);
    if (!st) {
        GT_CHECK(((uintptr_t)pieces & (GPU_HOST_PIECE_BYTES - 1)) == 0, "pieces not aligned");
        memcpy(pieces, src, big);
        ok &= check(pieces, big, "pinned in pieces");
        ok &= check((uint8_t *)pieces + 5, 150 * MiB, "pinned in pieces, odd offset");
        void *d = NULL;
        st = gpu_dev_alloc(&d, big, &e);
        if (!st) st = gpu_copy_to_device(d, pieces, big, &e);
        memset(back, 0x5A, big);
        if (!st) st = gpu_copy_from_device(back, d, big, &e); /* into pinned pieces */
        GT_OK(st, e);
        const int same = !st && memcmp(back, src, big) == 0;
        printf("%s pinned in pieces, back into pinned pieces: %zu bytes\n", same ? "ok  " : "FAIL", big);
        ok &= same;
        gpu_dev_free(d);
    }
    gpu_host_free_pieces(pieces, big);
    gpu_host_free_pieces(back, big);
    free(src);
    GT_CHECK(ok, "a copy differed");
    printf("%s\n", gt_failures ? "FAIL" : "PASS");
    return gt_failures ? 1 : 0;
}
