#ifndef LECTERN_GEMM_ROWS_H
#define LECTERN_GEMM_ROWS_H
/* The product of a few rows with a weight as it is stored (PyTorch's [outputs x inputs], row-major),
   without packing it: c[i * ldc + o] (+)= sum_j a[i * lda + j] * w[o * ldw + j] for i < m, o < n,
   j < k; added to what c holds when `accumulate`. For a query of a dozen tokens, packing the
   weights (lectern_gemm_pack_rows) costs more than the product: a search packed 85 MB of
   MiniLM's weights at every start for one short query. The same kernel choice as lectern_gemm; built in encoder_ops.c. */
void lectern_gemm_rows(int m, int n, int k, const float *a, int lda, const float *w, int ldw, float *c, int ldc,
                       int accumulate);

/* The same with the kernel named ("avx512", "avx2", "portable"); 0 when this CPU cannot run it. */
int lectern_gemm_rows_by(const char *kernel, int m, int n, int k, const float *a, int lda, const float *w, int ldw,
                         float *c, int ldc, int accumulate);
#endif
