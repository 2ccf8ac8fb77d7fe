/* The MiniLM encoder's passes between its matrix products (see include/encoder_ops.h) and the
   unpacked product of a few rows (include/gemm_rows.h): one body each, encoder_ops_body.h and
   gemm_rows_body.h, built for 16 lanes (AVX-512), 8 (AVX2 + FMA) and 4 (portable). */
#include "encoder_ops.h"
#include "gemm.h"
#include "gemm_rows.h"
#include "kernel_choice.h"

#include <string.h>

#define LANES 4
#define TARGET
#define NAME(x) x##_portable
#include "encoder_ops_body.h"
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME

#if defined(__x86_64__) || defined(__i386__)
#define LECTERN_X86 1
#define LANES 8
#define TARGET __attribute__((target("avx2,fma")))
#define NAME(x) x##_avx2
#include "encoder_ops_body.h"
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME

#define LANES 16
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))
#define NAME(x) x##_avx512
#include "encoder_ops_body.h"
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME
#endif

enum width { WIDTH_PORTABLE, WIDTH_AVX2, WIDTH_AVX512 };

static enum width width_of(const char *kernel) {
    return strcmp(kernel, "avx512") == 0 ? WIDTH_AVX512 : strcmp(kernel, "avx2") == 0 ? WIDTH_AVX2 : WIDTH_PORTABLE;
}

/* The matrix product's choice (lectern_gemm_kernel), so the two never disagree. */
static enum width chosen(void) {
    static int width = -1;
    int w = __atomic_load_n(&width, __ATOMIC_RELAXED);
    if (w >= 0) return (enum width)w;
    w = width_of(lectern_gemm_kernel());
    __atomic_store_n(&width, w, __ATOMIC_RELAXED);
    return (enum width)w;
}

/* The width a kernel name stands for, or -1 when the name is unknown or the CPU lacks it. */
static int named(const char *kernel) {
    return lectern_cpu_runs_kernel(kernel) ? (int)width_of(kernel) : -1;
}

/* Runs CALL(suffix) for width w. */
#ifdef LECTERN_X86
#define DISPATCH(w)                                                                                                    \
    switch (w) {                                                                                                       \
    case WIDTH_AVX512: CALL(avx512); break;                                                                            \
    case WIDTH_AVX2: CALL(avx2); break;                                                                                \
    default: CALL(portable); break;                                                                                    \
    }
#else
#define DISPATCH(w) CALL(portable);
#endif

static void gelu_at(int w, float *values, int rows, int width, const float *bias) {
    if (rows <= 0 || width <= 0) return;
#define CALL(suffix) gelu_##suffix(values, rows, width, bias)
    DISPATCH(w)
#undef CALL
}

static void add_layer_norm_at(int w, float *x, const float *residual, const float *residual_bias, int rows, int width,
                              const float *gain, const float *bias, float epsilon) {
    if (rows <= 0 || width <= 0) return;
#define CALL(suffix) add_layer_norm_##suffix(x, residual, residual_bias, rows, width, gain, bias, epsilon)
    DISPATCH(w)
#undef CALL
}

static void softmax_numerators_at(int w, float *scores, int rows, int width, float *inverse_sums) {
    if (rows <= 0 || width <= 0) return;
#define CALL(suffix) softmax_numerators_##suffix(scores, rows, width, inverse_sums)
    DISPATCH(w)
#undef CALL
}

static void scale_rows_at(int w, float *out, int rows, int width, int ld, const float *factors) {
    if (rows <= 0 || width <= 0) return;
#define CALL(suffix) scale_rows_##suffix(out, rows, width, ld, factors)
    DISPATCH(w)
#undef CALL
}

static void gemm_rows_at(int w, int m, int n, int k, const float *a, int lda, const float *weight, int ldw, float *c, int ldc,
                         int accumulate) {
    if (m <= 0 || n <= 0) return;
#define CALL(suffix) gemm_rows_##suffix(m, n, k, a, lda, weight, ldw, c, ldc, accumulate)
    DISPATCH(w)
#undef CALL
}

void lectern_gemm_rows(int m, int n, int k, const float *a, int lda, const float *w, int ldw, float *c, int ldc,
                       int accumulate) {
    gemm_rows_at(chosen(), m, n, k, a, lda, w, ldw, c, ldc, accumulate);
}

int lectern_gemm_rows_by(const char *kernel, int m, int n, int k, const float *a, int lda, const float *w, int ldw,
                         float *c, int ldc, int accumulate) {
    int width = named(kernel);
    if (width >= 0) gemm_rows_at(width, m, n, k, a, lda, w, ldw, c, ldc, accumulate);
    return width >= 0;
}

void lectern_gelu(float *values, int rows, int width, const float *bias) {
    gelu_at(chosen(), values, rows, width, bias);
}

void lectern_add_layer_norm(float *x, const float *residual, const float *residual_bias, int rows, int width,
                            const float *gain, const float *bias, float epsilon) {
    add_layer_norm_at(chosen(), x, residual, residual_bias, rows, width, gain, bias, epsilon);
}

void lectern_softmax_numerators(float *scores, int rows, int width, float *inverse_sums) {
    softmax_numerators_at(chosen(), scores, rows, width, inverse_sums);
}

void lectern_scale_rows(float *out, int rows, int width, int ld, const float *factors) {
    scale_rows_at(chosen(), out, rows, width, ld, factors);
}

int lectern_gelu_by(const char *kernel, float *values, int rows, int width, const float *bias) {
    int w = named(kernel);
    if (w >= 0) gelu_at(w, values, rows, width, bias);
    return w >= 0;
}

int lectern_add_layer_norm_by(const char *kernel, float *x, const float *residual, const float *residual_bias, int rows,
                              int width, const float *gain, const float *bias, float epsilon) {
    int w = named(kernel);
    if (w >= 0) add_layer_norm_at(w, x, residual, residual_bias, rows, width, gain, bias, epsilon);
    return w >= 0;
}

int lectern_softmax_numerators_by(const char *kernel, float *scores, int rows, int width, float *inverse_sums) {
    int w = named(kernel);
    if (w >= 0) softmax_numerators_at(w, scores, rows, width, inverse_sums);
    return w >= 0;
}

int lectern_scale_rows_by(const char *kernel, float *out, int rows, int width, int ld, const float *factors) {
    int w = named(kernel);
    if (w >= 0) scale_rows_at(w, out, rows, width, ld, factors);
    return w >= 0;
}
