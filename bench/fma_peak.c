/* The CPU's float32 multiply-add peak on one core, as a yardstick for the MiniLM rows:
   independent chains of FMAs (enough to cover the latency of both FMA pipes), timed by the
   thread's CPU clock, per kernel level: AVX-512 (16 lanes), AVX2 + FMA (8 lanes), and the
   portable level as the x86-64 baseline builds it (SSE2, 4 lanes, no FMA: a multiply and an add,
   each on pipes of their own). Built by bench/minilm_bench.sh; prints JSON.
     fma_peak [SECONDS]   → {"avx512_gflops": …, "avx2_gflops": …, "portable_gflops": …,
                             "avx512_bf16_gflops": …} */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHAINS 12

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((target("avx512f"))) static double avx512(long rounds) {
    __m512 acc[CHAINS];
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_set1_ps((float)i * 1e-3f);
    __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (long r = 0; r < rounds; r++)
#pragma GCC unroll 12
        for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
    float sink = 0;
    for (int i = 0; i < CHAINS; i++) sink += _mm512_reduce_add_ps(acc[i]);
    return sink;
}

__attribute__((target("avx2,fma"))) static double avx2(long rounds) {
    __m256 acc[CHAINS];
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_set1_ps((float)i * 1e-3f);
    __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (long r = 0; r < rounds; r++)
#pragma GCC unroll 12
        for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
    float lanes[8], sink = 0;
    for (int i = 0; i < CHAINS; i++) {
        _mm256_storeu_ps(lanes, acc[i]);
        for (int j = 0; j < 8; j++) sink += lanes[j];
    }
    return sink;
}

/* The baseline's peak: as many multiplies as adds (a matrix product's mix), each in chains of
   their own so that neither waits on the other's latency; 7 chains of each (14 of SSE's 16
   registers: more would spill to the stack) cover most of a 4-cycle latency on two pipes.
   4 FLOPs an instruction. */
typedef float sse_vf __attribute__((vector_size(16)));
static double portable(long rounds) {
    sse_vf m[7], s[7];
    for (int i = 0; i < 7; i++) m[i] = s[i] = (sse_vf){1, 1, 1, 1} * ((float)i * 1e-3f + 1);
    sse_vf a = {0.999999f, 0.999999f, 0.999999f, 0.999999f}, b = {1e-7f, 1e-7f, 1e-7f, 1e-7f};
    for (long r = 0; r < rounds; r++) {
#pragma GCC unroll 7
        for (int i = 0; i < 7; i++) {
            m[i] = m[i] * a;
            s[i] = s[i] + b;
        }
    }
    float sink = 0;
    for (int i = 0; i < 7; i++) sink += m[i][0] + s[i][1];
    return sink;
}

/* vdpbf16ps: per lane two bfloat16 products added to a float32 sum (4 FLOPs a lane). */
__attribute__((target("avx512f,avx512bf16"))) static double bf16(long rounds) {
    __m512 acc[CHAINS];
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_set1_ps((float)i * 1e-3f);
    __m512bh a = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(1e-3f));
    for (long r = 0; r < rounds; r++)
#pragma GCC unroll 12
        for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_dpbf16_ps(acc[i], a, a);
    float sink = 0;
    for (int i = 0; i < CHAINS; i++) sink += _mm512_reduce_add_ps(acc[i]);
    return sink;
}

/* GFLOP/s of `kernel`: FLOPs per instruction given; the best of five timings. */
static double measure(double (*kernel)(long), double flops_per_instruction, double seconds) {
    long rounds = 1000000;
    double best = 0, sink = 0;
    for (;;) { /* grow until one timing takes a fifth of the budget */
        double t = now();
        sink += kernel(rounds);
        if (now() - t > seconds / 5) break;
        rounds *= 2;
    }
    for (int i = 0; i < 5; i++) {
        double t = now();
        sink += kernel(rounds);
        double rate = (double)rounds * CHAINS * flops_per_instruction / (now() - t) / 1e9;
        if (rate > best) best = rate;
    }
    if (sink == 12345.678) puts("");
    return best;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    __builtin_cpu_init();
    printf("{");
    if (__builtin_cpu_supports("avx512f")) printf("\"avx512_gflops\": %.1f, ", measure(avx512, 32, seconds));
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) printf("\"avx2_gflops\": %.1f", measure(avx2, 16, seconds));
    printf("%s\"portable_gflops\": %.1f", __builtin_cpu_supports("avx2") ? ", " : "", measure(portable, 4 * 14.0 / CHAINS, seconds));
    if (__builtin_cpu_supports("avx512bf16")) printf(", \"avx512_bf16_gflops\": %.1f", measure(bf16, 64, seconds));
    printf("}\n");
    return 0;
}
