#ifndef LECTERN_GEMM_H
#define LECTERN_GEMM_H
/* Lectern's own matrix product for the MiniLM encoder: C[m×n] (+)= A[m×k] · Bᵀ, where B is a
   weight matrix packed once (at model load) into panels of LECTERN_GEMM_PANEL columns. The kernel
   is chosen at run time from the CPU's features (AVX-512, else AVX2 + FMA, else portable C), so
   one binary runs everywhere and no compiler flag is needed (and OPENBLAS_CORETYPE, which holds
   Debian's OpenBLAS to its AVX2 kernels here, does not apply: Lectern no longer uses OpenBLAS).
   Every call runs on the calling thread: the encoder runs batches side by side instead. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Columns of B per packed panel: two 16-float AVX-512 vectors. */
#define LECTERN_GEMM_PANEL 32

/* The kernel in use: "avx512", "avx2" or "portable". */
const char *lectern_gemm_kernel(void);

/* Floats a packed B of n columns and depth k needs (n rounded up to whole panels). */
size_t lectern_gemm_packed_count(int n, int k);

/* Packs B given as rows of a PyTorch Linear weight: B[j][p] = w[j·ldw + p] (n rows of k). */
void lectern_gemm_pack_rows(int n, int k, const float *w, int ldw, float *packed);

/* Packs B given column-wise: B[j][p] = b[p·ldb + j] (k rows of n), e.g. attention's V. */
void lectern_gemm_pack_columns(int n, int k, const float *b, int ldb, float *packed);

/* C[i][j] = Σₚ A[i][p]·B[j][p]·alpha, added to C's values when `accumulate` is nonzero. */
void lectern_gemm(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c, int ldc,
                  int accumulate);

/* lectern_gemm with the kernel named ("avx512", "avx2", "portable"), for tests of every path on
   one machine: 0 (nothing done) when the CPU lacks it. */
int lectern_gemm_by(const char *kernel, int m, int n, int k, float alpha, const float *a, int lda, const float *packed,
                    float *c, int ldc, int accumulate);

/* bfloat16: whether the CPU has AVX512_BF16 (vdpbf16ps). Without it the bf16 functions below
   still work, in portable C (same rounding, much slower). */
int lectern_gemm_bf16_native(void);

/* bfloat16 values (uint16) a packed B of n columns and depth k needs (k rounded up to even). */
size_t lectern_gemm_bf16_packed_count(int n, int k);

/* Packs B as lectern_gemm_pack_rows does, rounding each weight to bfloat16 (to nearest even). */
void lectern_gemm_bf16_pack_rows(int n, int k, const float *w, int ldw, uint16_t *packed);

/* As lectern_gemm, with A rounded to bfloat16 as it is read; products summed in float32. */
void lectern_gemm_bf16(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c, int ldc,
                       int accumulate);

/* lectern_gemm_bf16 in portable C whatever the CPU has (for tests: the same rounding). */
void lectern_gemm_bf16_portable(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c, int ldc,
                                int accumulate);

#ifdef __cplusplus
}
#endif
/* The unpacked product of a few rows (a search query's tokens). */
#include "gemm_rows.h"
/* The int8 product of `minilm-int8`'s dense layers. */
#include "gemm_int8.h"
#endif
