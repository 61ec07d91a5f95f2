// supraseal_c2.cu — the SupraSeal C2 anchor harness (issue #37): SupraSeal's own Groth16 prover for
// Filecoin (supranational/supra_seal c2/cuda/groth16_cuda.cu, `generate_groth16_proofs_c`, built on
// sppark and blst) proves one of OUR synthesized 32 GiB PoRep partitions from OUR .params file, read
// by SupraSeal's own reader (its `SRS` class, groth16_srs.cuh). This file is ours; SupraSeal, sppark
// and blst are fetched and built beside the repository (bench/anchors/supraseal_c2.sh), never
// committed.
//
//   supraseal_c2 PARAMS DUMP PROOF_OUT [REPS]
//     PARAMS     a bellperson .params file (Filecoin's layout: vk, then ic, h, l, a, b_g1, b_g2)
//     DUMP       `proofmill porep partition-dump` output (layout: src/cli/cmd_porep_dump.c):
//                a, b, c, the witness, bellperson's density bitmaps, r and s (Montgomery fr_t,
//                blst's layout, which is sppark's)
//     PROOF_OUT  the 192-byte proof written here: compressed A (48) ‖ B (96) ‖ C (48), bellperson's
//                encoding (blst_p1/p2_affine_compress)
//     REPS       timed calls after one warm-up (default 3)
// Prints the SRS load time, the wall time of each call of generate_groth16_proofs_c (one circuit:
// its CPU pre-processing and CPU G2 tail MSM, the NTTs and MSMs on the GPU and the assembly), their
// median, and the peak device memory in use during the calls above what was in use before them
// (cudaMemGetInfo polled every 2 ms from a thread; GiB = 2^30 bytes). Exit 0 on a proof, 1 on an
// error (named), 2 on usage.
#include <groth16_cuda.cu>

#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

// blst's compression (bindings/blst.h declares them over blst_p1_affine / blst_p2_affine, whose
// layout sppark's affine_t / affine_fp2_t share; groth16_srs.cuh declares the deserializers the
// same way, so blst.h is not included here)
extern "C" {
void blst_p1_affine_compress(unsigned char out[48], const affine_t* in);
void blst_p2_affine_compress(unsigned char out[96], const affine_fp2_t* in);
}

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct dump_t {
    uint64_t rows, inp, aux, pop_a_aux, pop_b_inp, pop_b_aux, partition, seed;
    const fr_t *r, *s, *a, *b, *c, *w;
    const uint64_t *a_aux_density, *b_inp_density, *b_aux_density;
};

static int read_dump(dump_t& d, const char* path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "supraseal_c2: %s: cannot open: %s\n", path, strerror(errno)); return 1; }
    struct stat st;
    if (fstat(fd, &st) || st.st_size < 136) {
        fprintf(stderr, "supraseal_c2: %s: shorter than the 136-byte header\n", path);
        close(fd);
        return 1;
    }
    size_t len = (size_t)st.st_size;
    const unsigned char* m = (const unsigned char*)mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) { fprintf(stderr, "supraseal_c2: %s: mmap failed\n", path); return 1; }
    if (memcmp(m, "PMC2DMP1", 8)) {
        fprintf(stderr, "supraseal_c2: %s: offset 0: not a partition dump (magic PMC2DMP1)\n", path);
        return 1;
    }
    uint64_t h[8];
    memcpy(h, m + 8, sizeof h);
    d.rows = h[0]; d.inp = h[1]; d.aux = h[2];
    d.pop_a_aux = h[3]; d.pop_b_inp = h[4]; d.pop_b_aux = h[5];
    d.partition = h[6]; d.seed = h[7];
    const uint64_t lim = (uint64_t)1 << 40;
    if (d.rows > lim || d.inp > lim || d.aux > lim) {
        fprintf(stderr, "supraseal_c2: %s: offset 8: sizes out of range\n", path);
        return 1;
    }
    auto words = [](uint64_t bits) { return (bits + 63) / 64; };
    size_t want = 72 + 64 + 32 * (3 * d.rows + d.inp + d.aux) + 8 * (2 * words(d.aux) + words(d.inp));
    if (len != want) {
        fprintf(stderr, "supraseal_c2: %s: %zu bytes, the header says %zu\n", path, len, want);
        return 1;
    }
    const unsigned char* p = m + 72;
    d.r = (const fr_t*)p;          p += 32;
    d.s = (const fr_t*)p;          p += 32;
    d.a = (const fr_t*)p;          p += 32 * d.rows;
    d.b = (const fr_t*)p;          p += 32 * d.rows;
    d.c = (const fr_t*)p;          p += 32 * d.rows;
    d.w = (const fr_t*)p;          p += 32 * (d.inp + d.aux);
    d.a_aux_density = (const uint64_t*)p; p += 8 * words(d.aux);
    d.b_inp_density = (const uint64_t*)p; p += 8 * words(d.inp);
    d.b_aux_density = (const uint64_t*)p;
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: supraseal_c2 PARAMS DUMP PROOF_OUT [REPS]\n");
        return 2;
    }
    const char *params = argv[1], *dump_path = argv[2], *out = argv[3];
    int reps = argc > 4 ? atoi(argv[4]) : 3;
    if (reps < 1 || reps > 100) { fprintf(stderr, "supraseal_c2: REPS is 1..100\n"); return 2; }

    dump_t d;
    if (read_dump(d, dump_path)) return 1;
    printf("dump        partition %llu (seed %llu): %llu rows, %llu inputs, %llu aux; density A %llu, B %llu + %llu\n",
           (unsigned long long)d.partition, (unsigned long long)d.seed, (unsigned long long)d.rows,
           (unsigned long long)d.inp, (unsigned long long)d.aux, (unsigned long long)d.pop_a_aux,
           (unsigned long long)d.pop_b_inp, (unsigned long long)d.pop_b_aux);

    size_t free0 = 0, total = 0;
    cudaSetDevice(0);
    cudaFree(0);
    cudaMemGetInfo(&free0, &total);

    double t0 = now_s();
    SRS* srs;
    try {
        srs = new SRS(params);
        (void)srs->get_vk(); // waits for SupraSeal's reader thread (it holds the lock while reading)
    } catch (const std::exception& e) {
        fprintf(stderr, "supraseal_c2: %s: SupraSeal's SRS reader refused it: %s\n", params, e.what());
        return 1;
    }
    double t_srs = now_s() - t0;
    size_t nh = srs->get_h_slice().size(), nl = srs->get_l_slice().size(), na = srs->get_a_slice().size(),
           nb1 = srs->get_b_g1_slice().size(), nb2 = srs->get_b_g2_slice().size();
    printf("srs         %s read by SupraSeal's SRS class in %.1f s: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points\n",
           params, t_srs, nh, nl, na, nb1, nb2);
    // SupraSeal asserts these (and would abort); say which one fails instead
    if (nl != d.aux || na != d.inp + d.pop_a_aux || nb1 != d.pop_b_inp + d.pop_b_aux || nb2 != nb1 ||
        nh + 1 < d.rows) {
        fprintf(stderr, "supraseal_c2: the dump does not fit the params: l %zu vs aux %llu, a %zu vs %llu, b %zu vs %llu, "
                        "h %zu for %llu rows\n", nl, (unsigned long long)d.aux, na,
                (unsigned long long)(d.inp + d.pop_a_aux), nb1, (unsigned long long)(d.pop_b_inp + d.pop_b_aux), nh,
                (unsigned long long)d.rows);
        return 1;
    }

    Assignment<fr_t> asg;
    asg.a_aux_density = d.a_aux_density; asg.a_aux_bit_len = d.aux; asg.a_aux_popcount = d.pop_a_aux;
    asg.b_inp_density = d.b_inp_density; asg.b_inp_bit_len = d.inp; asg.b_inp_popcount = d.pop_b_inp;
    asg.b_aux_density = d.b_aux_density; asg.b_aux_bit_len = d.aux; asg.b_aux_popcount = d.pop_b_aux;
    asg.a = d.a; asg.b = d.b; asg.c = d.c; asg.abc_size = d.rows;
    asg.inp_assignment_data = d.w; asg.inp_assignment_size = d.inp;
    asg.aux_assignment_data = d.w + d.inp; asg.aux_assignment_size = d.aux;

    // device memory in use, polled while the calls run
    size_t used0 = total - free0;
    cudaMemGetInfo(&free0, &total);
    used0 = total - free0; // after the SRS (SupraSeal keeps it in pinned host memory)
    std::atomic<bool> stop{false};
    std::atomic<size_t> peak{used0};
    std::thread poll([&] {
        cudaSetDevice(0);
        while (!stop.load()) {
            size_t f = 0, t = 0;
            if (cudaMemGetInfo(&f, &t) == cudaSuccess && t - f > peak.load()) peak.store(t - f);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });

    groth16_proof proof;
    std::vector<double> ms;
    int rc = 0;
    for (int i = 0; i <= reps; i++) {
        double a = now_s();
        RustError::by_value e = generate_groth16_proofs_c(&asg, 1, d.r, d.s, &proof, *srs);
        double t = (now_s() - a) * 1e3;
        if (e.code) {
            fprintf(stderr, "supraseal_c2: generate_groth16_proofs_c failed: code %d: %s\n", e.code,
                    e.message ? e.message : "(no message)");
            rc = 1;
            break;
        }
        printf("call %d      %.1f ms%s\n", i, t, i ? "" : " (warm-up)");
        if (i) ms.push_back(t);
    }
    stop.store(true);
    poll.join();
    if (rc) return rc;

    unsigned char bytes[192];
    blst_p1_affine_compress(bytes, &proof.a);
    blst_p2_affine_compress(bytes + 48, &proof.b);
    blst_p1_affine_compress(bytes + 144, &proof.c);
    FILE* f = fopen(out, "wb");
    if (!f || fwrite(bytes, 1, 192, f) != 192 || fclose(f)) {
        fprintf(stderr, "supraseal_c2: %s: cannot write the proof\n", out);
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    double med = ms[ms.size() / 2];
    printf("proof       %s: ", out);
    for (int i = 0; i < 192; i++) printf("%02x", bytes[i]);
    printf("\nresult      ms_per_partition %.1f (median of %d; min %.1f) peak_device_gib %.2f (above %.2f GiB in use "
           "before) srs_load_s %.1f\n", med, reps, ms[0], (double)(peak.load() - used0) / (1ull << 30),
           (double)used0 / (1ull << 30), t_srs);
    delete srs;
    return 0;
}
