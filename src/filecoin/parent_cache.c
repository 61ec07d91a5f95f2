/*
 * parent_cache.c — the SDR parent cache writer (parent_cache.h).
 * Blocks of 64 Ki nodes (3.5 MiB): rows computed in parallel, then hashed and written in order
 * by the calling thread. Throughput is bound by the Feistel BLAKE2b (see feistel.c).
 */
#define OPENSSL_API_COMPAT 0x10100000L
#include "filecoin/parent_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/sha256_fr.h"
#include "util/file.h"
#include "util/parallel.h"

void fil_parent_cache_name(char name[88], const fil_graph_t *g) {
    char id[256];
    int n = fil_graph_identifier(id, sizeof id, g->nodes);
    uint8_t tail[36];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) tail[8 * i + j] = (uint8_t)(g->feistel.keys[i] >> (8 * j));
    uint32_t nodes = (uint32_t)g->nodes;
    for (int j = 0; j < 4; j++) tail[32 + j] = (uint8_t)(nodes >> (8 * j));
    fil_bytes_t parts[3] = {{"poseidon_hasher", 15}, {id, (size_t)n}, {tail, 36}};
    uint8_t h[32];
    fil_sha256_parts(h, parts, 3);
    char hex[65];
    fil_hex(hex, h, 32);
    snprintf(name, 88, "v28-sdr-parent-%s.cache", hex);
}

pm_status fil_parent_cache_generate(uint8_t digest[32], const fil_graph_t *g, FILE *f,
                                    const char *path, unsigned threads,
                                    void (*progress)(uint64_t, uint64_t, void *), void *ctx,
                                    pm_error *err) {
    enum { BLOCK = 1 << 16, SLICE = 1 << 10 };
    /* a typo such as --threads 1000000 would make libgomp die creating the threads */
    if (threads > FIL_PARENT_CACHE_MAX_THREADS)
        return pm_error_set(err, PM_ERR_ARG, path ? path : "", PM_NO_OFFSET,
                            "parent cache: %u threads requested, at most %u", threads,
                            (unsigned)FIL_PARENT_CACHE_MAX_THREADS);
    uint32_t *rows = malloc((size_t)BLOCK * FIL_DEGREE * sizeof *rows);
    uint8_t *bytes = malloc((size_t)BLOCK * FIL_PARENT_CACHE_ROW_BYTES);
    if (!rows || !bytes) {
        free(rows);
        free(bytes);
        return pm_error_set(err, PM_ERR_NOMEM, path ? path : "", PM_NO_OFFSET,
                            "parent cache: out of memory for a block");
    }
#ifdef _OPENMP
    int nt = threads ? (int)threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
#else
    (void)threads;
#endif
    SHA256_CTX sha;
    SHA256_Init(&sha);
    pm_status st = PM_OK;
    for (uint64_t first = 0; first < g->nodes; first += BLOCK) {
        const uint64_t m = g->nodes - first < BLOCK ? g->nodes - first : BLOCK;
        const int64_t nslices = (int64_t)((m + SLICE - 1) / SLICE);
        PM_OMP(parallel for schedule(dynamic, 1) num_threads(nt))
        for (int64_t s = 0; s < nslices; s++) {
            uint64_t a = (uint64_t)s * SLICE, c = m - a < SLICE ? m - a : SLICE;
            fil_graph_parents_range(rows + a * FIL_DEGREE, g, first + a, c);
        }
        /* u32 little-endian, independent of the host byte order */
        for (uint64_t i = 0; i < m * FIL_DEGREE; i++) {
            uint32_t x = rows[i];
            bytes[4 * i] = (uint8_t)x;
            bytes[4 * i + 1] = (uint8_t)(x >> 8);
            bytes[4 * i + 2] = (uint8_t)(x >> 16);
            bytes[4 * i + 3] = (uint8_t)(x >> 24);
        }
        const size_t nb = (size_t)m * FIL_PARENT_CACHE_ROW_BYTES;
        SHA256_Update(&sha, bytes, nb);
        if (f && fwrite(bytes, 1, nb, f) != nb) {
            st = pm_error_set(err, PM_ERR_IO, path ? path : "", first * FIL_PARENT_CACHE_ROW_BYTES,
                              "parent cache: write failed: %s", strerror(errno));
            break;
        }
        if (progress) progress(first + m, g->nodes, ctx);
    }
    if (!st) SHA256_Final(digest, &sha);
    else memset(digest, 0, 32);
    free(rows);
    free(bytes);
    return st;
}

pm_status fil_parent_cache_file_digest(uint8_t digest[32], uint64_t *bytes, const char *path,
                                       pm_error *err) {
    memset(digest, 0, 32);
    /* regular files only: a FIFO would block the open, /dev/zero would be read forever */
    int fd;
    uint64_t fsize;
    pm_status ost = pm_open_regular(&fd, &fsize, path, err);
    if (ost) return ost;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
    }
    enum { BUF = 4 << 20 };
    uint8_t *buf = malloc(BUF);
    if (!buf) {
        fclose(f);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "out of memory");
    }
    SHA256_CTX sha;
    SHA256_Init(&sha);
    uint64_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, BUF, f)) > 0) {
        SHA256_Update(&sha, buf, n);
        total += n;
    }
    pm_status st = PM_OK;
    if (ferror(f)) st = pm_error_set(err, PM_ERR_IO, path, total, "read failed: %s", strerror(errno));
    else SHA256_Final(digest, &sha);
    fclose(f);
    free(buf);
    if (bytes) *bytes = total;
    return st;
}

/* parent_cache.json entries (name without prefix/suffix -> digest), as listed in POREP.md §3.4. */
static const struct {
    const char *name, *digest;
} published[] = {
    {"3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {"494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {"dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {"5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {"2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {"7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {"e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
    {"21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {"8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {"4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
};

const char *fil_parent_cache_published_digest(const char *name) {
    const char *p = strstr(name, "v28-sdr-parent-");
    p = p ? p + 15 : name;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
        if (!strncmp(p, published[i].name, 64)) return published[i].digest;
    return NULL;
}
