#ifndef LECTERN_GEMM_INT8_H
#define LECTERN_GEMM_INT8_H
/* The int8 product of MiniLM's dense layers (`minilm-int8`): C[m×n] (+)= A[m×k] · Bᵀ with
   - B (a PyTorch Linear weight, n rows of k) quantized once, per output column j: scale[j] =
     max|B[j]| / 127, codes round(B[j][p] / scale[j]) in [-127, 127], and sums[j] = Σₚ codes;
   - A quantized per row as it is read, to 7-bit codes with a zero point: scale = (max(0, A[i]) -
     min(0, A[i])) / 127, zero = round(-min / scale), code = clamp(⌊A/scale + zero + ½⌋, 0, 127).
     Seven bits, not eight: AVX2's vpmaddubsw adds two u8·s8 products in int16, and 127·127·2
     fits where 255·127·2 would saturate; with the same codes on every CPU the int32 sums, and so
     the vectors, do not depend on which kernel ran;
   - int32 sums of code products, then C = scaleA·scale[j]·(Σ − zero·sums[j]) in float32;
   - smoothed (SmoothQuant, Xiao et al. 2023), when `channels` is given: A's value in column p is
     multiplied by channels[p] before its row is quantized, B having been packed with its column p
     multiplied by 1/channels[p] (the caller's doing), so the product is the same and a channel of
     A that carries large values no longer stretches every row's one scale.
   Kernels, chosen from the CPU's features on first use: "avx512-vnni" (vpdpbusd on 16 lanes),
   "avx-vnni" (vpdpbusd on 8), "avx2" (vpmaddubsw + vpmaddwd), "portable" (clang vectors: SSE2's
   pmaddwd on x86-64). LECTERN_GEMM_KERNEL caps the choice at its level (avx2: no AVX-512),
   LECTERN_INT8_KERNEL names a kernel to use at most (never one the CPU lacks).

   Packed B: panels of LECTERN_GEMM_I8_PANEL columns, the depth rounded up to 4 (zeros); in a
   panel, step s (depths 4s..4s+3) holds each column's 4 codes side by side:
   packed[(j / 32)·32·k4 + s·128 + (j % 32)·4 + t] = code of B[j][4s + t]. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LECTERN_GEMM_I8_PANEL 32

/* The int8 kernel in use: "avx512-vnni", "avx-vnni", "avx2" or "portable". */
const char *lectern_gemm_i8_kernel(void);

/* Bytes a packed B of n columns and depth k takes (n rounded up to panels, k to 4). */
size_t lectern_gemm_i8_packed_size(int n, int k);

/* Quantizes and packs B given as rows (B[j][p] = w[j·ldw + p]); scales and sums get n values. */
void lectern_gemm_i8_pack_rows(int n, int k, const float *w, int ldw, void *packed, float *scales, int32_t *sums);

/* C[i][j] = scaleA[i]·scales[j]·(Σₚ codeA[i][p]·codeB[j][p] − zeroA[i]·sums[j]), added to C's
   values when `accumulate` (a bias written there first); A's codes are of A[i][p]·channels[p]
   when `channels` (k factors) is not NULL. Columns of C past n are not touched. */
void lectern_gemm_i8(int m, int n, int k, const float *a, int lda, const float *channels, const void *packed,
                     const float *scales, const int32_t *sums, float *c, int ldc, int accumulate);

/* lectern_gemm_i8 with the kernel named, for tests and the bench: 0 (nothing done) when this CPU
   cannot run it. */
int lectern_gemm_i8_by(const char *kernel, int m, int n, int k, const float *a, int lda, const float *channels,
                       const void *packed, const float *scales, const int32_t *sums, float *c, int ldc, int accumulate);

/* The integer core alone: out[i][j] = Σₚ codes[i][p]·codeB[j][p] (exact), A's codes given (0–127,
   rows ldcodes bytes apart), with the kernel named; 0 when this CPU cannot run it. */
int lectern_gemm_i8_sums_by(const char *kernel, int m, int n, int k, const uint8_t *codes, int ldcodes,
                            const void *packed, int32_t *out, int ldout);

/* A's rows quantized as lectern_gemm_i8 quantizes them (with `channels` or NULL): k codes a row
   (ldcodes apart), each row's scale and zero point. */
void lectern_gemm_i8_quantize_rows(int m, int k, const float *a, int lda, const float *channels, uint8_t *codes,
                                   int ldcodes, float *scales, int32_t *zeros);

#ifdef __cplusplus
}
#endif
#endif
