#ifndef LECTERN_ENCODER_OPS_H
#define LECTERN_ENCODER_OPS_H
/* The MiniLM encoder's passes between its matrix products: GELU, residual + LayerNorm, the
   softmax of attention scores and the rows' rescaling. Written once over the compiler's vector
   types and built three times (16 lanes with AVX-512, 8 with AVX2 + FMA, 4 portable), the CPU's
   features choosing on first use: the kernel lectern_gemm_kernel() names (LECTERN_GEMM_KERNEL
   narrows it too).
   Swift's own code is built for the baseline x86-64 (SSE2) and cannot use the wider vectors. */

#ifdef __cplusplus
extern "C" {
#endif

/* values[r][j] = GELU(values[r][j] + bias[j]), BERT's exact erf form (erf by a rational
   approximation, error about 1e-7), for `rows` rows of `width` floats. */
void lectern_gelu(float *values, int rows, int width, const float *bias);

/* x[r] = LayerNorm(x[r] + residual[r] + residual_bias) · gain + bias, row by row; `residual`
   and `residual_bias` may be NULL (LayerNorm of x alone). */
void lectern_add_layer_norm(float *x, const float *residual, const float *residual_bias, int rows, int width,
                            const float *gain, const float *bias, float epsilon);

/* Softmax numerators of each row of scores[rows × width] in place, e^(s - the row's largest),
   with 1/Σ of each row in inverse_sums: the caller scales the product with V instead. */
void lectern_softmax_numerators(float *scores, int rows, int width, float *inverse_sums);

/* out[r][j] *= factors[r] for j < width, rows `ld` floats apart. */
void lectern_scale_rows(float *out, int rows, int width, int ld, const float *factors);

/* Each pass with the kernel named ("avx512", "avx2", "portable"), for tests of every path on one
   machine: 0 (nothing done) when the CPU lacks it. */
int lectern_gelu_by(const char *kernel, float *values, int rows, int width, const float *bias);
int lectern_add_layer_norm_by(const char *kernel, float *x, const float *residual, const float *residual_bias, int rows,
                              int width, const float *gain, const float *bias, float epsilon);
int lectern_softmax_numerators_by(const char *kernel, float *scores, int rows, int width, float *inverse_sums);
int lectern_scale_rows_by(const char *kernel, float *out, int rows, int width, int ld, const float *factors);

#ifdef __cplusplus
}
#endif
#endif
