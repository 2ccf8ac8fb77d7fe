/* One instance of lectern_gemm_rows (include/gemm_rows.h), included by gemm_rows.c once per
   vector width with LANES, TARGET and NAME(x) defined. Four weight rows at a time against one
   input row: the four rows (6 KB each at 1,536 inputs) stay in L1 while every input row passes. */

typedef float NAME(rvf) __attribute__((vector_size(LANES * 4), aligned(4)));

static inline __attribute__((always_inline)) TARGET NAME(rvf) NAME(rload)(const float *p) { return *(const NAME(rvf) *)p; }

static inline __attribute__((always_inline)) TARGET float NAME(rsum)(NAME(rvf) v) {
    float total = 0;
    for (int i = 0; i < LANES; i++) total += v[i];
    return total;
}

static TARGET void NAME(gemm_rows)(int m, int n, int k, const float *a, int lda, const float *w, int ldw, float *c, int ldc,
                                   int accumulate) {
    int o = 0;
    for (; o + 4 <= n; o += 4) {
        const float *w0 = w + (long)o * ldw, *w1 = w0 + ldw, *w2 = w1 + ldw, *w3 = w2 + ldw;
        for (int i = 0; i < m; i++) {
            const float *x = a + (long)i * lda;
            NAME(rvf) s0 = {}, s1 = {}, s2 = {}, s3 = {};
            int j = 0;
            for (; j + LANES <= k; j += LANES) {
                NAME(rvf) v = NAME(rload)(x + j);
                s0 += v * NAME(rload)(w0 + j);
                s1 += v * NAME(rload)(w1 + j);
                s2 += v * NAME(rload)(w2 + j);
                s3 += v * NAME(rload)(w3 + j);
            }
            float t0 = NAME(rsum)(s0), t1 = NAME(rsum)(s1), t2 = NAME(rsum)(s2), t3 = NAME(rsum)(s3);
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
            NAME(rvf) s0 = {};
            int j = 0;
            for (; j + LANES <= k; j += LANES) s0 += NAME(rload)(x + j) * NAME(rload)(w0 + j);
            float t0 = NAME(rsum)(s0);
            for (; j < k; j++) t0 += x[j] * w0[j];
            float *cell = c + (long)i * ldc + o;
            *cell = accumulate ? *cell + t0 : t0;
        }
    }
}
