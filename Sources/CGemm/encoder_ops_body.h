/* One instance of the encoder's passes (see include/encoder_ops.h), included by encoder_ops.c
   once per vector width with LANES, TARGET and NAME(x) defined. */

typedef float NAME(vf) __attribute__((vector_size(LANES * 4), aligned(4)));
typedef int NAME(vi) __attribute__((vector_size(LANES * 4), aligned(4)));
#define VF NAME(vf)
#define VI NAME(vi)

static inline __attribute__((always_inline)) TARGET VF NAME(splat)(float value) {
    return (VF){} + value;
}

static inline __attribute__((always_inline)) TARGET VF NAME(load)(const float *p) { return *(const VF *)p; }
static inline __attribute__((always_inline)) TARGET void NAME(store)(float *p, VF v) { *(VF *)p = v; }

/* The last `count` (< LANES) floats of a row, the other lanes `fill`. */
static inline __attribute__((always_inline)) TARGET VF NAME(load_part)(const float *p, int count, float fill) {
    float lanes[LANES];
    for (int i = 0; i < LANES; i++) lanes[i] = i < count ? p[i] : fill;
    return NAME(load)(lanes);
}

static inline __attribute__((always_inline)) TARGET void NAME(store_part)(float *p, int count, VF v) {
    float lanes[LANES];
    NAME(store)(lanes, v);
    for (int i = 0; i < count; i++) p[i] = lanes[i];
}

static inline __attribute__((always_inline)) TARGET float NAME(sum)(VF v) {
    float total = 0;
    for (int i = 0; i < LANES; i++) total += v[i];
    return total;
}

static inline __attribute__((always_inline)) TARGET float NAME(largest)(VF v) {
    float m = v[0];
    for (int i = 1; i < LANES; i++) m = v[i] > m ? v[i] : m;
    return m;
}

/* erf(x): Eigen's and XLA's float rational approximation on [-4, 4]. */
static inline __attribute__((always_inline)) TARGET VF NAME(erf)(VF value) {
    VF x = __builtin_elementwise_min(__builtin_elementwise_max(value, NAME(splat)(-4)), NAME(splat)(4));
    VF x2 = x * x;
    VF p = NAME(splat)(-2.72614225801306e-10f);
    p = p * x2 + 2.77068142495902e-08f;
    p = p * x2 - 2.10102402082508e-06f;
    p = p * x2 - 5.69250639462346e-05f;
    p = p * x2 - 7.34990630326855e-04f;
    p = p * x2 - 2.95459980854025e-03f;
    p = p * x2 - 1.60960333262415e-02f;
    p = p * x;
    VF q = NAME(splat)(-1.45660718464996e-05f);
    q = q * x2 - 2.13374055278905e-04f;
    q = q * x2 - 1.68282697438203e-03f;
    q = q * x2 - 7.37332916720468e-03f;
    q = q * x2 - 1.42647390514189e-02f;
    return p / q;
}

static inline __attribute__((always_inline)) TARGET VF NAME(gelu_one)(VF x) {
    return 0.5f * x * (1 + NAME(erf)(x * 0.70710678118654752f));
}

/* e^x for x ≤ 0 (clamped below at -87.3): e^x = 2^n · e^r, n = round(x / ln 2), Cephes' float
   polynomial for e^r; adding and subtracting 1.5·2²³ rounds and leaves n in the low bits. */
static inline __attribute__((always_inline)) TARGET VF NAME(exp)(VF value) {
    VF x = __builtin_elementwise_max(value, NAME(splat)(-87.3f));
    VF shifted = x * 1.44269504088896341f + 12582912.0f;
    VF n = shifted - 12582912.0f;
    VF r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    VF p = NAME(splat)(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    VF e = p * r * r + r + 1;
    VI scale = ((VI)shifted - 0x4B400000 + 127) << 23;
    return e * (VF)scale;
}

TARGET static void NAME(gelu)(float *values, int rows, int width, const float *bias) {
    for (int r = 0; r < rows; r++) {
        float *row = values + (size_t)r * width;
        int j = 0;
        for (; j + LANES <= width; j += LANES)
            NAME(store)(row + j, NAME(gelu_one)(NAME(load)(row + j) + NAME(load)(bias + j)));
        if (j < width) {
            int rest = width - j;
            NAME(store_part)(row + j, rest, NAME(gelu_one)(NAME(load_part)(row + j, rest, 0) + NAME(load_part)(bias + j, rest, 0)));
        }
    }
}

TARGET static void NAME(add_layer_norm)(float *x, const float *residual, const float *residual_bias, int rows, int width,
                                         const float *gain, const float *bias, float epsilon) {
    int whole = width / LANES * LANES, rest = width - whole;
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * width;
        const float *add = residual != NULL ? residual + (size_t)r * width : NULL;
        VF sums = NAME(splat)(0);
        for (int j = 0; j < whole; j += LANES) {
            VF v = NAME(load)(row + j);
            if (add != NULL) v += NAME(load)(add + j) + NAME(load)(residual_bias + j);
            NAME(store)(row + j, v);
            sums += v;
        }
        if (rest > 0) {
            VF v = NAME(load_part)(row + whole, rest, 0);
            if (add != NULL) v += NAME(load_part)(add + whole, rest, 0) + NAME(load_part)(residual_bias + whole, rest, 0);
            NAME(store_part)(row + whole, rest, v);
            sums += v;
        }
        float mean = NAME(sum)(sums) / (float)width;
        VF means = NAME(splat)(mean), squares = NAME(splat)(0);
        for (int j = 0; j < whole; j += LANES) {
            VF d = NAME(load)(row + j) - means;
            squares += d * d;
        }
        float tail = 0;
        for (int j = whole; j < width; j++) tail += (row[j] - mean) * (row[j] - mean);
        float inverse = 1 / __builtin_sqrtf((NAME(sum)(squares) + tail) / (float)width + epsilon);
        VF inverses = NAME(splat)(inverse);
        for (int j = 0; j < whole; j += LANES)
            NAME(store)(row + j, (NAME(load)(row + j) - means) * inverses * NAME(load)(gain + j) + NAME(load)(bias + j));
        for (int j = whole; j < width; j++) row[j] = (row[j] - mean) * inverse * gain[j] + bias[j];
    }
}

TARGET static void NAME(softmax_numerators)(float *scores, int rows, int width, float *inverse_sums) {
    int whole = width / LANES * LANES, rest = width - whole;
    for (int r = 0; r < rows; r++) {
        float *row = scores + (size_t)r * width;
        VF top = NAME(splat)(-__builtin_inff());
        for (int j = 0; j < whole; j += LANES) top = __builtin_elementwise_max(top, NAME(load)(row + j));
        if (rest > 0) top = __builtin_elementwise_max(top, NAME(load_part)(row + whole, rest, -__builtin_inff()));
        VF shift = NAME(splat)(NAME(largest)(top));
        VF sums = NAME(splat)(0);
        for (int j = 0; j < whole; j += LANES) {
            VF e = NAME(exp)(NAME(load)(row + j) - shift);
            NAME(store)(row + j, e);
            sums += e;
        }
        float total = NAME(sum)(sums);
        if (rest > 0) {
            VF e = NAME(exp)(NAME(load_part)(row + whole, rest, 0) - shift);
            NAME(store_part)(row + whole, rest, e);
            for (int i = 0; i < rest; i++) total += e[i];
        }
        inverse_sums[r] = 1 / total;
    }
}

TARGET static void NAME(scale_rows)(float *out, int rows, int width, int ld, const float *factors) {
    for (int r = 0; r < rows; r++) {
        float *row = out + (size_t)r * ld;
        VF f = NAME(splat)(factors[r]);
        int j = 0;
        for (; j + LANES <= width; j += LANES) NAME(store)(row + j, NAME(load)(row + j) * f);
        for (; j < width; j++) row[j] *= factors[r];
    }
}

#undef VF
#undef VI
