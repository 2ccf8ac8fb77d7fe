/* One instance of lectern_gemm_rows (include/gemm_rows.h), included by encoder_ops.c once per
   vector width after encoder_ops_body.h, whose vector type, load and lane sum it uses. Four
   weight rows at a time against one input row: the four rows (6 KB each at 1,536 inputs) stay in
   L1 while every input row passes. */

static TARGET void NAME(gemm_rows)(int m, int n, int k, const float *a, int lda, const float *w, int ldw, float *c, int ldc,
                                   int accumulate) {
    int o = 0;
    for (; o + 4 <= n; o += 4) {
        const float *w0 = w + (long)o * ldw, *w1 = w0 + ldw, *w2 = w1 + ldw, *w3 = w2 + ldw;
        for (int i = 0; i < m; i++) {
            const float *x = a + (long)i * lda;
            NAME(vf) s0 = {}, s1 = {}, s2 = {}, s3 = {};
            int j = 0;
            for (; j + LANES <= k; j += LANES) {
                NAME(vf) v = NAME(load)(x + j);
                s0 += v * NAME(load)(w0 + j);
                s1 += v * NAME(load)(w1 + j);
                s2 += v * NAME(load)(w2 + j);
                s3 += v * NAME(load)(w3 + j);
            }
            float t0 = NAME(sum)(s0), t1 = NAME(sum)(s1), t2 = NAME(sum)(s2), t3 = NAME(sum)(s3);
            for (; j < k; j++) {
                t0 += x[j] * w0[j];
                t1 += x[j] * w1[j];
                t2 += x[j] * w2[j];
                t3 += x[j] * w3[j];
            }
            float *row = c + (long)i * ldc + o;
            if (accumulate) {
                row[0] += t0; row[1] += t1; row[2] += t2; row[3] += t3;
            } else {
                row[0] = t0; row[1] = t1; row[2] = t2; row[3] = t3;
            }
        }
    }
    for (; o < n; o++) {
        const float *w0 = w + (long)o * ldw;
        for (int i = 0; i < m; i++) {
            const float *x = a + (long)i * lda;
            NAME(vf) s0 = {};
            int j = 0;
            for (; j + LANES <= k; j += LANES) s0 += NAME(load)(x + j) * NAME(load)(w0 + j);
            float t0 = NAME(sum)(s0);
            for (; j < k; j++) t0 += x[j] * w0[j];
            float *cell = c + (long)i * ldc + o;
            *cell = accumulate ? *cell + t0 : t0;
        }
    }
}
