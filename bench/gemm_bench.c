/* Lectern's float32 matrix product (Sources/CGemm/gemm.c) at MiniLM's shapes, per kernel level the
   CPU runs: GFLOP per CPU-second of the calling thread, the best of several timings (the machine
   may be shared: CPU time is the steadier figure). Built by bench/minilm_bench.sh with clang
   together with gemm.c; prints JSON:
     gemm_bench [SECONDS [KERNELS [INT8_KERNELS]]]  → {"avx512": {"gflops": …, "shapes": {"qkv 2048x1152x384": …, …}}, …}
   KERNELS (default avx512,avx2,portable) names the levels to time, those the CPU runs.
   "gflops" is the whole encoder's mix: each shape weighted by its share of a 256-token passage's FLOPs.
   Then `minilm-int8`'s product (Sources/CGemm/gemm_int8.c) per int8 kernel the CPU runs, on the
   dense shapes only (attention stays float32), A quantized per call as the encoder's is:
     "int8": {"avx512-vnni": {"gops": …, "shapes": {…}}, "avx-vnni": …, "avx2": …, "portable": …}
   (GOP: two operations per multiply-add, as for GFLOP). */
#include "gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

struct shape {
    const char *name;
    int m, n, k, lda;
    int columns; /* B packed from columns (attention's V), else from rows */
    double weight; /* FLOPs of this shape in one layer of a 256-token passage, relative */
};

/* One layer of a 256-token passage: Q,K,V (384→1152), attention output (384→384), intermediate
   (384→1536), output (1536→384), each over a whole batch of 2,048 tokens as the encoder runs them
   (MiniLMEmbedder.tokensPerBatch); per head (12 of 32): scores QKᵀ (256×256×32) and P·V
   (256×32×256), A read from the QKV rows (1152 floats apart) as the encoder does. */
static const struct shape shapes[] = {
    {"qkv 2048x1152x384", 2048, 1152, 384, 384, 0, 3},
    {"out 2048x384x384", 2048, 384, 384, 384, 0, 1},
    {"up 2048x1536x384", 2048, 1536, 384, 384, 0, 4},
    {"down 2048x384x1536", 2048, 384, 1536, 1536, 0, 4},
    {"QK^T 256x256x32", 256, 256, 32, 1152, 0, 1.0 / 3},
    {"PV 256x32x256", 256, 32, 256, 256, 1, 1.0 / 3},
    {"qkv 256x1152x384", 256, 1152, 384, 384, 0, 0},
    {"QK^T 128x128x32", 128, 128, 32, 1152, 0, 0},
    {"PV 128x32x128", 128, 32, 128, 128, 1, 0},
};

/* On a cache line, as the encoder's packed weights and workspace are (malloc's large blocks
   start 16 bytes into a line: every other 32-byte load or store would straddle two). */
static float *floats_on_a_line(size_t count) {
    return aligned_alloc(64, (sizeof(float) * count + 63) / 64 * 64);
}

static double rate(const char *kernel, const struct shape *s, double seconds) {
    float *a = floats_on_a_line((size_t)s->m * s->lda);
    float *b = malloc(sizeof(float) * (size_t)s->n * s->k);
    float *packed = floats_on_a_line(lectern_gemm_packed_count(s->n, s->k));
    float *c = floats_on_a_line((size_t)s->m * s->n);
    for (size_t i = 0; i < (size_t)s->m * s->lda; i++) a[i] = (float)((i * 7919) % 1000) / 1000 - 0.5f;
    for (size_t i = 0; i < (size_t)s->n * s->k; i++) b[i] = (float)((i * 104729) % 1000) / 1000 - 0.5f;
    if (s->columns) lectern_gemm_pack_columns(s->n, s->k, b, s->n, packed);
    else lectern_gemm_pack_rows(s->n, s->k, b, s->k, packed);
    double flops = 2.0 * s->m * s->n * s->k, best = 0;
    long calls = 1;
    for (;;) {
        double t = now();
        for (long i = 0; i < calls; i++) lectern_gemm_by(kernel, s->m, s->n, s->k, 1, a, s->lda, packed, c, s->n, 0);
        if (now() - t > seconds / 10) break;
        calls *= 2;
    }
    for (int round = 0; round < 5; round++) {
        double t = now();
        for (long i = 0; i < calls; i++) lectern_gemm_by(kernel, s->m, s->n, s->k, 1, a, s->lda, packed, c, s->n, 0);
        double r = flops * calls / (now() - t) / 1e9;
        if (r > best) best = r;
    }
    free(a), free(b), free(packed), free(c);
    return best;
}

/* The int8 product of one dense shape with `kernel`: operations per CPU-second, best of 5. */
static double rate_int8(const char *kernel, const struct shape *s, double seconds) {
    float *a = floats_on_a_line((size_t)s->m * s->lda);
    float *b = malloc(sizeof(float) * (size_t)s->n * s->k);
    void *packed = aligned_alloc(64, (lectern_gemm_i8_packed_size(s->n, s->k) + 63) / 64 * 64);
    float *scales = malloc(sizeof(float) * s->n);
    int32_t *sums = malloc(sizeof(int32_t) * s->n);
    float *c = floats_on_a_line((size_t)s->m * s->n);
    for (size_t i = 0; i < (size_t)s->m * s->lda; i++) a[i] = (float)((i * 7919) % 1000) / 1000 - 0.5f;
    for (size_t i = 0; i < (size_t)s->n * s->k; i++) b[i] = (float)((i * 104729) % 1000) / 1000 - 0.5f;
    lectern_gemm_i8_pack_rows(s->n, s->k, b, s->k, packed, scales, sums);
    double ops = 2.0 * s->m * s->n * s->k, best = 0;
    long calls = 1;
    for (;;) {
        double t = now();
        for (long i = 0; i < calls; i++) lectern_gemm_i8_by(kernel, s->m, s->n, s->k, a, s->lda, NULL, packed, scales, sums, c, s->n, 0);
        if (now() - t > seconds / 10) break;
        calls *= 2;
    }
    for (int round = 0; round < 5; round++) {
        double t = now();
        for (long i = 0; i < calls; i++) lectern_gemm_i8_by(kernel, s->m, s->n, s->k, a, s->lda, NULL, packed, scales, sums, c, s->n, 0);
        double r = ops * calls / (now() - t) / 1e9;
        if (r > best) best = r;
    }
    free(a), free(b), free(packed), free(scales), free(sums), free(c);
    return best;
}

/* Whether the comma-separated `list` names `kernel`. */
static int named(const char *list, const char *kernel) {
    size_t length = strlen(kernel);
    for (const char *p = list; (p = strstr(p, kernel)) != NULL; p += length)
        if ((p == list || p[-1] == ',') && (p[length] == ',' || p[length] == 0)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 0.3;
    const char *wanted = argc > 2 ? argv[2] : "avx512,avx2,portable";
    const char *kernels[] = {"avx512", "avx2", "portable"};
    int count = sizeof shapes / sizeof shapes[0], first = 1;
    printf("{");
    for (int q = 0; q < 3; q++) {
        if (!named(wanted, kernels[q])) continue;
        if (!lectern_gemm_by(kernels[q], 1, 1, 1, 1, (float[]){0}, 1, (float[32]){0}, (float[]){0}, 1, 0)) continue;
        printf("%s\"%s\": {\"shapes\": {", first ? "" : ", ", kernels[q]);
        first = 0;
        double time = 0, work = 0;
        for (int i = 0; i < count; i++) {
            double r = rate(kernels[q], &shapes[i], seconds);
            printf("%s\"%s\": %.1f", i ? ", " : "", shapes[i].name, r);
            time += shapes[i].weight / r;
            work += shapes[i].weight;
        }
        printf("}, \"gflops\": %.1f}", work / time);
        fflush(stdout);
    }
    /* int8: the dense shapes (the first four), weighted as above. */
    const char *int8_kernels[] = {"avx512-vnni", "avx-vnni", "avx2", "portable"};
    const char *int8_wanted = argc > 3 ? argv[3] : "avx512-vnni,avx-vnni,avx2,portable";
    int int8_first = 1;
    printf("%s\"int8\": {", first ? "" : ", ");
    for (int q = 0; q < 4; q++) {
        if (!named(int8_wanted, int8_kernels[q])) continue;
        if (!lectern_gemm_i8_by(int8_kernels[q], 0, 0, 0, NULL, 1, NULL, NULL, NULL, NULL, NULL, 1, 0)) continue;
        printf("%s\"%s\": {\"shapes\": {", int8_first ? "" : ", ", int8_kernels[q]);
        int8_first = 0;
        double time = 0, work = 0;
        for (int i = 0; i < 4; i++) {
            double r = rate_int8(int8_kernels[q], &shapes[i], seconds);
            printf("%s\"%s\": %.1f", i ? ", " : "", shapes[i].name, r);
            time += shapes[i].weight / r;
            work += shapes[i].weight;
        }
        printf("}, \"gops\": %.1f}", work / time);
        fflush(stdout);
    }
    printf("}}\n");
    return 0;
}
