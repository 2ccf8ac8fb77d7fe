/* Lectern's int8 matrix product for MiniLM's dense layers (see include/gemm_int8.h).
   A row block of A is quantized into micro-panels of the kernel's tile height (row r's four codes
   of step s at (s·height + r)·4: the tile reads one stream, a broadcast of 4 bytes per row and
   step), then each tile sums code products in int32 registers over the whole depth (at most
   1,536·127·127 < 2³¹) and one pass turns the tile into floats. Every kernel sums the same codes
   exactly and dequantizes with the same float operations in the same order, so every kernel
   gives the same floats. */
#include "gemm_int8.h"
#include "gemm.h"
#include "kernel_choice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A fused multiply-add rounds once where a multiply and an add round twice: kept apart, the
   quantization and the dequantization round alike in every kernel and on every compiler. */
#pragma clang fp contract(off)

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LECTERN_X86 1
#define AVX2 __attribute__((target("avx2,fma")))
#define AVXVNNI __attribute__((target("avx2,fma,avxvnni")))
#define AVX512VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")))
#endif

#define PANEL LECTERN_GEMM_I8_PANEL
/* Rows of A quantized at a time: whole tiles of every kernel (12, 6, 4); 96 rows of 1,536 codes
   (147 KB) stay in L2 while every column tile reads them. */
#define ROW_BLOCK 96
#define UNROLL _Pragma("unroll")
/* The largest tile's int32 sums: AVX512-VNNI's 12 rows × 32 columns. */
#define MAX_TILE (12 * 32)

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int depth4(int k) { return (k + 3) & ~3; }

/* ---------------------------------------------------------------- quantizing */

size_t lectern_gemm_i8_packed_size(int n, int k) {
    return (size_t)((n + PANEL - 1) / PANEL) * PANEL * (size_t)depth4(k);
}

typedef float f4 __attribute__((vector_size(16), aligned(4)));
typedef int32_t i4 __attribute__((vector_size(16), aligned(4)));
typedef uint8_t u8x4 __attribute__((vector_size(4), aligned(1)));

/* Rounds to nearest even (|x| < 2²²): adding and taking away 1.5·2²³ leaves no fraction bits. */
static inline f4 round_even(f4 x) {
    const f4 magic = {12582912.0f, 12582912.0f, 12582912.0f, 12582912.0f};
    return (x + magic) - magic;
}

/* Four depths a turn over 4-lane vectors: MiniLM's 10.6 million weights quantize in 18 ms
   (value by value with a division each, 46 ms: a search of an int8 library pays it once). */
void lectern_gemm_i8_pack_rows(int n, int k, const float *w, int ldw, void *out, float *scales, int32_t *sums) {
    int8_t *packed = out;
    int k4 = depth4(k), columns = (n + PANEL - 1) / PANEL * PANEL;
    for (int j = 0; j < columns; j++) {
        int8_t *column = packed + (size_t)(j / PANEL) * PANEL * k4 + (size_t)(j % PANEL) * 4;
        if (j >= n) {
            for (int p = 0; p < k4; p += 4) memset(column + (size_t)(p / 4) * PANEL * 4, 0, 4);
            continue;
        }
        const float *row = w + (size_t)j * ldw;
        f4 top = {0, 0, 0, 0};
        int p = 0;
        for (; p + 4 <= k; p += 4) top = __builtin_elementwise_max(top, __builtin_elementwise_abs(*(const f4 *)(row + p)));
        float largest = fmaxf(fmaxf(top[0], top[1]), fmaxf(top[2], top[3]));
        for (int q = p; q < k; q++) largest = fmaxf(largest, fabsf(row[q]));
        float scale = largest > 0 ? largest / 127 : 1;
        float inverse = 1 / scale;
        f4 vinverse = {inverse, inverse, inverse, inverse}, low = {-127, -127, -127, -127}, high = {127, 127, 127, 127};
        i4 total = {0, 0, 0, 0};
        for (p = 0; p < k4; p += 4) {
            f4 v;
            if (p + 4 <= k) {
                v = *(const f4 *)(row + p);
            } else {
                for (int t = 0; t < 4; t++) v[t] = p + t < k ? row[p + t] : 0;
            }
            i4 codes = __builtin_convertvector(
                __builtin_elementwise_min(__builtin_elementwise_max(round_even(v * vinverse), low), high), i4);
            total += codes;
            typedef int8_t s8x4 __attribute__((vector_size(4), aligned(1)));
            *(s8x4 *)(column + (size_t)(p / 4) * PANEL * 4) = __builtin_convertvector(codes, s8x4);
        }
        scales[j] = scale;
        sums[j] = total[0] + total[1] + total[2] + total[3];
    }
}

/* A's value at depth p as it is quantized: times channels[p] when the product is smoothed. */
static inline f4 load4(const float *a, const float *channels, int p) {
    f4 v = *(const f4 *)(a + p);
    return channels == NULL ? v : v * *(const f4 *)(channels + p);
}

static inline float load1(const float *a, const float *channels, int p) {
    return channels == NULL ? a[p] : a[p] * channels[p];
}

/* One row of A as 7-bit codes with a zero point: the code of depth p goes to
   out[(p / 4)·step_bytes + p % 4], zeros past k up to a whole step. Each value is first
   multiplied by its channel's factor when `channels` is given (SmoothQuant: one multiply a value,
   so a channel that carries large values no longer stretches the row's one scale). Over 4-lane
   vectors (SSE2, NEON): a row of 384 or 1,536 values costs a few hundred cycles against the
   product's hundreds of thousands of multiply-adds. */
static void quantize_row(int k, const float *a, const float *channels, uint8_t *out, int step_bytes, float *scale_out,
                         int32_t *zero_out) {
    f4 lo = {0, 0, 0, 0}, hi = {0, 0, 0, 0};
    int p = 0;
    for (; p + 4 <= k; p += 4) {
        f4 v = load4(a, channels, p);
        lo = __builtin_elementwise_min(lo, v);
        hi = __builtin_elementwise_max(hi, v);
    }
    float low = fminf(fminf(lo[0], lo[1]), fminf(lo[2], lo[3])), high = fmaxf(fmaxf(hi[0], hi[1]), fmaxf(hi[2], hi[3]));
    for (int q = p; q < k; q++) low = fminf(low, load1(a, channels, q)), high = fmaxf(high, load1(a, channels, q));
    float range = high - low;
    float scale = range > 0 ? range / 127 : 1;
    float inverse = 1 / scale;
    float zero = rintf(-low * inverse);
    if (zero > 127) zero = 127;
    /* ⌊x/scale + zero + ½⌋ once clamped to [0, 127]: the same in every lane and the scalar tail. */
    float offset = zero + 0.5f;
    f4 vinverse = {inverse, inverse, inverse, inverse}, voffset = {offset, offset, offset, offset};
    f4 floor0 = {0, 0, 0, 0}, ceiling = {127.5f, 127.5f, 127.5f, 127.5f};
    for (p = 0; p + 4 <= k; p += 4) {
        f4 v = load4(a, channels, p) * vinverse;
        v = v + voffset;
        v = __builtin_elementwise_min(__builtin_elementwise_max(v, floor0), ceiling);
        *(u8x4 *)(out + (size_t)(p / 4) * step_bytes) = __builtin_convertvector(__builtin_convertvector(v, i4), u8x4);
    }
    if (p < k) {
        uint8_t *step = out + (size_t)(p / 4) * step_bytes;
        for (int t = 0; t < 4; t++) {
            uint8_t code = 0;
            if (p + t < k) {
                float v = load1(a, channels, p + t) * inverse;
                v = v + offset;
                v = fminf(fmaxf(v, 0), 127.5f);
                code = (uint8_t)(int32_t)v;
            }
            step[t] = code;
        }
    }
    *scale_out = scale;
    *zero_out = (int32_t)zero;
}

void lectern_gemm_i8_quantize_rows(int m, int k, const float *a, int lda, const float *channels, uint8_t *codes,
                                   int ldcodes, float *scales, int32_t *zeros) {
    /* quantize_row writes whole steps: a row goes through `row` (k rounded up to 4). */
    uint8_t *row = malloc((size_t)depth4(k) + 4);
    if (row == NULL) abort();
    for (int i = 0; i < m; i++) {
        quantize_row(k, a + (size_t)i * lda, channels, row, 4, &scales[i], &zeros[i]);
        memcpy(codes + (size_t)i * ldcodes, row, (size_t)k);
    }
    free(row);
}

/* ---------------------------------------------------------------- dequantizing */

typedef int32_t i8v __attribute__((vector_size(32), aligned(4)));
typedef float f8v __attribute__((vector_size(32), aligned(4)));

/* C's first `rows` rows (+)= scaleA·scale[j]·(Σ − zeroA·sums[j]) for `width` columns, from a tile
   of `tile_width` int32 a row. Eight lanes at a time, the rest one by one: the same operations. */
#define DEQUANTIZE(name, attributes) \
    attributes static void name(int rows, int width, const int32_t *tile, int tile_width, const float *row_scales, \
                                const int32_t *row_zeros, const float *scales, const int32_t *sums, float *c, int ldc, \
                                int add) { \
        for (int r = 0; r < rows; r++) { \
            const int32_t *t = tile + (size_t)r * tile_width; \
            float *out = c + (size_t)r * ldc; \
            float sa = row_scales[r]; \
            int32_t zero = row_zeros[r]; \
            int j = 0; \
            for (; j + 8 <= width; j += 8) { \
                i8v corrected = *(const i8v *)(t + j) - zero * *(const i8v *)(sums + j); \
                f8v factor = sa * *(const f8v *)(scales + j); \
                f8v value = __builtin_convertvector(corrected, f8v) * factor; \
                if (add) value = value + *(const f8v *)(out + j); \
                *(f8v *)(out + j) = value; \
            } \
            for (; j < width; j++) { \
                float factor = sa * scales[j]; \
                float value = (float)(t[j] - zero * sums[j]) * factor; \
                out[j] = add ? value + out[j] : value; \
            } \
        } \
    }

DEQUANTIZE(dequantize_portable, )
#ifdef LECTERN_X86
DEQUANTIZE(dequantize_avx2, AVX2)
#endif
#undef DEQUANTIZE

/* ---------------------------------------------------------------- tiles */

/* A tile: `steps` steps of 4 depths; `a` a micro-panel of the tile's height (row r's codes of
   step s at (s·height + r)·4), `b` the tile's first column in a packed panel (step s at s·128);
   the int32 sums go to `tile` (height × the tile's width). */
typedef void tile_fn(int steps, const uint8_t *a, const int8_t *b, int32_t *tile);

static inline int32_t four_codes(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Portable: 4 rows × 4 columns. A step's 16 bytes of B (4 columns' 4 codes) widen to two int16
   vectors, a row's 4 codes to one (twice over); pmaddwd-like pairs sum into int32 lanes of
   (column, half of the step), added up once at the end. */
typedef int8_t s8x16 __attribute__((vector_size(16), aligned(1)));
typedef int16_t s16x8 __attribute__((vector_size(16)));
typedef int32_t s32x4 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) s32x4 pair_products(s16x8 x, s16x8 y) {
#if defined(__SSE2__)
    return (s32x4)_mm_madd_epi16((__m128i)x, (__m128i)y);
#else
    s32x4 xe = __builtin_convertvector(__builtin_shufflevector(x, x, 0, 2, 4, 6), s32x4);
    s32x4 xo = __builtin_convertvector(__builtin_shufflevector(x, x, 1, 3, 5, 7), s32x4);
    s32x4 ye = __builtin_convertvector(__builtin_shufflevector(y, y, 0, 2, 4, 6), s32x4);
    s32x4 yo = __builtin_convertvector(__builtin_shufflevector(y, y, 1, 3, 5, 7), s32x4);
    return xe * ye + xo * yo;
#endif
}

enum { PORTABLE_ROWS = 4, PORTABLE_COLUMNS = 4 };

static void tile_portable(int steps, const uint8_t *a, const int8_t *b, int32_t *tile) {
    s32x4 low[PORTABLE_ROWS], high[PORTABLE_ROWS];
    UNROLL for (int r = 0; r < PORTABLE_ROWS; r++) low[r] = high[r] = (s32x4){0, 0, 0, 0};
    for (int s = 0; s < steps; s++) {
        s8x16 bv = *(const s8x16 *)(b + (size_t)s * PANEL * 4);
        s16x8 b01 = __builtin_convertvector(__builtin_shufflevector(bv, bv, 0, 1, 2, 3, 4, 5, 6, 7), s16x8);
        s16x8 b23 = __builtin_convertvector(__builtin_shufflevector(bv, bv, 8, 9, 10, 11, 12, 13, 14, 15), s16x8);
        const uint8_t *codes = a + (size_t)s * PORTABLE_ROWS * 4;
        UNROLL for (int r = 0; r < PORTABLE_ROWS; r++) {
            u8x4 four = *(const u8x4 *)(codes + r * 4);
            s16x8 x = __builtin_convertvector(__builtin_shufflevector(four, four, 0, 1, 2, 3, 0, 1, 2, 3), s16x8);
            low[r] += pair_products(x, b01);
            high[r] += pair_products(x, b23);
        }
    }
    UNROLL for (int r = 0; r < PORTABLE_ROWS; r++) {
        int32_t *row = tile + r * PORTABLE_COLUMNS;
        row[0] = low[r][0] + low[r][1], row[1] = low[r][2] + low[r][3];
        row[2] = high[r][0] + high[r][1], row[3] = high[r][2] + high[r][3];
    }
}

#ifdef LECTERN_X86
/* AVX2: 4 rows × 16 columns. vpmaddubsw multiplies a row's broadcast codes (u8) by B's (s8) and
   adds pairs in int16 (exact: 7-bit codes), vpmaddwd by ones adds those pairs into int32:
   8 accumulators, 2 vectors of B, a broadcast, a product and the ones in 16 registers. */
enum { AVX2_ROWS = 4, AVX2_COLUMNS = 16 };

AVX2 static void tile_avx2(int steps, const uint8_t *a, const int8_t *b, int32_t *tile) {
    __m256i acc[AVX2_ROWS][2];
    UNROLL for (int r = 0; r < AVX2_ROWS; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
    __m256i ones = _mm256_set1_epi16(1);
    for (int s = 0; s < steps; s++) {
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(b + (size_t)s * PANEL * 4));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(b + (size_t)s * PANEL * 4 + 32));
        const uint8_t *codes = a + (size_t)s * AVX2_ROWS * 4;
        UNROLL for (int r = 0; r < AVX2_ROWS; r++) {
            __m256i x = _mm256_set1_epi32(four_codes(codes + r * 4));
            acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(_mm256_maddubs_epi16(x, b0), ones));
            acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(_mm256_maddubs_epi16(x, b1), ones));
        }
    }
    UNROLL for (int r = 0; r < AVX2_ROWS; r++) {
        _mm256_storeu_si256((__m256i *)(tile + r * AVX2_COLUMNS), acc[r][0]);
        _mm256_storeu_si256((__m256i *)(tile + r * AVX2_COLUMNS + 8), acc[r][1]);
    }
}

/* AVX-VNNI: 6 rows × 16 columns, one vpdpbusd per row and 8 columns: 12 accumulators, 2 vectors
   of B and a broadcast. */
enum { AVX_VNNI_ROWS = 6, AVX_VNNI_COLUMNS = 16 };

AVXVNNI static void tile_avx_vnni(int steps, const uint8_t *a, const int8_t *b, int32_t *tile) {
    __m256i acc[AVX_VNNI_ROWS][2];
    UNROLL for (int r = 0; r < AVX_VNNI_ROWS; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
    for (int s = 0; s < steps; s++) {
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(b + (size_t)s * PANEL * 4));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(b + (size_t)s * PANEL * 4 + 32));
        const uint8_t *codes = a + (size_t)s * AVX_VNNI_ROWS * 4;
        UNROLL for (int r = 0; r < AVX_VNNI_ROWS; r++) {
            __m256i x = _mm256_set1_epi32(four_codes(codes + r * 4));
            acc[r][0] = _mm256_dpbusd_avx_epi32(acc[r][0], x, b0);
            acc[r][1] = _mm256_dpbusd_avx_epi32(acc[r][1], x, b1);
        }
    }
    UNROLL for (int r = 0; r < AVX_VNNI_ROWS; r++) {
        _mm256_storeu_si256((__m256i *)(tile + r * AVX_VNNI_COLUMNS), acc[r][0]);
        _mm256_storeu_si256((__m256i *)(tile + r * AVX_VNNI_COLUMNS + 8), acc[r][1]);
    }
}

/* AVX512-VNNI: 12 rows × 32 columns (a whole panel), 24 accumulators, 2 vectors of B and a
   broadcast in 32 registers. */
enum { AVX512_VNNI_ROWS = 12, AVX512_VNNI_COLUMNS = 32 };

AVX512VNNI static void tile_avx512_vnni(int steps, const uint8_t *a, const int8_t *b, int32_t *tile) {
    __m512i acc[AVX512_VNNI_ROWS][2];
    UNROLL for (int r = 0; r < AVX512_VNNI_ROWS; r++) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
    for (int s = 0; s < steps; s++) {
        __m512i b0 = _mm512_loadu_si512(b + (size_t)s * PANEL * 4);
        __m512i b1 = _mm512_loadu_si512(b + (size_t)s * PANEL * 4 + 64);
        const uint8_t *codes = a + (size_t)s * AVX512_VNNI_ROWS * 4;
        UNROLL for (int r = 0; r < AVX512_VNNI_ROWS; r++) {
            __m512i x = _mm512_set1_epi32(four_codes(codes + r * 4));
            acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], x, b0);
            acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], x, b1);
        }
    }
    UNROLL for (int r = 0; r < AVX512_VNNI_ROWS; r++) {
        _mm512_storeu_si512(tile + r * AVX512_VNNI_COLUMNS, acc[r][0]);
        _mm512_storeu_si512(tile + r * AVX512_VNNI_COLUMNS + 16, acc[r][1]);
    }
}
#endif /* LECTERN_X86 */

/* ---------------------------------------------------------------- dispatch */

enum int8_kernel { I8_UNKNOWN, I8_PORTABLE, I8_AVX2, I8_AVX_VNNI, I8_AVX512_VNNI };

static const char *const kernel_names[] = {"", "portable", "avx2", "avx-vnni", "avx512-vnni"};

struct kernel_shape {
    int rows, columns;
    tile_fn *tile;
    void (*dequantize)(int, int, const int32_t *, int, const float *, const int32_t *, const float *, const int32_t *,
                       float *, int, int);
};

static struct kernel_shape shape_of(enum int8_kernel kernel) {
    switch (kernel) {
#ifdef LECTERN_X86
    case I8_AVX512_VNNI: return (struct kernel_shape){AVX512_VNNI_ROWS, AVX512_VNNI_COLUMNS, tile_avx512_vnni, dequantize_avx2};
    case I8_AVX_VNNI: return (struct kernel_shape){AVX_VNNI_ROWS, AVX_VNNI_COLUMNS, tile_avx_vnni, dequantize_avx2};
    case I8_AVX2: return (struct kernel_shape){AVX2_ROWS, AVX2_COLUMNS, tile_avx2, dequantize_avx2};
#endif
    default: return (struct kernel_shape){PORTABLE_ROWS, PORTABLE_COLUMNS, tile_portable, dequantize_portable};
    }
}

static int cpu_runs(enum int8_kernel kernel) {
    switch (kernel) {
    case I8_PORTABLE: return 1;
#ifdef LECTERN_X86
    case I8_AVX2: return lectern_cpu_runs_kernel("avx2");
    case I8_AVX_VNNI: return lectern_cpu_runs_kernel("avx2") && __builtin_cpu_supports("avxvnni");
    case I8_AVX512_VNNI: return lectern_cpu_runs_kernel("avx512") && __builtin_cpu_supports("avx512vnni");
#endif
    default: return 0;
    }
}

static enum int8_kernel kernel_named(const char *name) {
    for (int k = I8_PORTABLE; k <= I8_AVX512_VNNI; k++)
        if (strcmp(name, kernel_names[k]) == 0) return (enum int8_kernel)k;
    return I8_UNKNOWN;
}

/* The widest kernel the CPU runs within the float32 products' level (LECTERN_GEMM_KERNEL=avx2
   measures an AVX2 machine: no AVX-512) and LECTERN_INT8_KERNEL's cap (avx2 measures an AVX2
   CPU without VNNI, as AMD's Zen 3 is). */
static enum int8_kernel chosen_kernel(void) {
    static int chosen = I8_UNKNOWN;
    int k = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (k != I8_UNKNOWN) return (enum int8_kernel)k;
    const char *level = lectern_gemm_kernel();
    int cap = strcmp(level, "avx512") == 0 ? I8_AVX512_VNNI : strcmp(level, "avx2") == 0 ? I8_AVX_VNNI : I8_PORTABLE;
    const char *asked = getenv("LECTERN_INT8_KERNEL");
    if (asked != NULL) {
        enum int8_kernel named = kernel_named(asked);
        if (named != I8_UNKNOWN && (int)named < cap) cap = named;
    }
    for (k = cap; k > I8_PORTABLE && !cpu_runs((enum int8_kernel)k); k--) {}
    __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    return (enum int8_kernel)k;
}

const char *lectern_gemm_i8_kernel(void) { return kernel_names[chosen_kernel()]; }

/* Row block's codes in micro-panels of `height` rows: rows past m are zeros. */
static void quantize_block(int height, int rows, int padded, int k, const float *a, int lda, const float *channels,
                           uint8_t *codes, float *row_scales, int32_t *row_zeros) {
    int k4 = depth4(k);
    for (int r = 0; r < padded; r++) {
        uint8_t *lane = codes + (size_t)(r / height) * height * k4 + (size_t)(r % height) * 4;
        if (r < rows) {
            quantize_row(k, a + (size_t)r * lda, channels, lane, height * 4, &row_scales[r], &row_zeros[r]);
        } else {
            for (int s = 0; s < k4 / 4; s++) memset(lane + (size_t)s * height * 4, 0, 4);
            row_scales[r] = 0, row_zeros[r] = 0;
        }
    }
}

/* Runs `kernel` over row blocks of A already in micro-panels (`codes`, made by `fill` block by
   block), the tiles' sums handed to `emit`. */
struct product {
    int m, n, k;
    const float *a;
    int lda;
    const float *channels; /* A's per-channel factors (smoothing), else NULL */
    const uint8_t *given; /* A's codes as rows (lectern_gemm_i8_sums_by), else NULL */
    int ldgiven;
    const int8_t *packed;
    const float *scales;
    const int32_t *sums;
    float *c;
    int ldc, accumulate;
    int32_t *out; /* the sums themselves (lectern_gemm_i8_sums_by) */
    int ldout;
};

static void run(enum int8_kernel kernel, const struct product *p) {
    struct kernel_shape shape = shape_of(kernel);
    int k4 = depth4(p->k), steps = k4 / 4;
    int32_t tile[MAX_TILE] __attribute__((aligned(64)));
    float row_scales[ROW_BLOCK];
    int32_t row_zeros[ROW_BLOCK];
    /* A row block's codes (up to 147 KB at depth 1,536): on the heap, not a worker's stack. */
    uint8_t *codes = aligned_alloc(64, ((size_t)ROW_BLOCK * k4 + 64) / 64 * 64);
    if (codes == NULL) abort();
    for (int ic = 0; ic < p->m; ic += ROW_BLOCK) {
        int block = min_int(ROW_BLOCK, p->m - ic);
        int padded = (block + shape.rows - 1) / shape.rows * shape.rows;
        if (p->given == NULL) {
            quantize_block(shape.rows, block, padded, p->k, p->a + (size_t)ic * p->lda, p->lda, p->channels, codes, row_scales,
                           row_zeros);
        } else {
            memset(codes, 0, (size_t)padded * k4);
            for (int r = 0; r < block; r++)
                for (int q = 0; q < p->k; q++)
                    codes[(size_t)(r / shape.rows) * shape.rows * k4 + (size_t)(q / 4) * shape.rows * 4 + (r % shape.rows) * 4 + q % 4] =
                        p->given[(size_t)(ic + r) * p->ldgiven + q];
        }
        for (int col = 0; col < p->n; col += shape.columns) {
            int width = min_int(shape.columns, p->n - col);
            const int8_t *b = p->packed + (size_t)(col / PANEL) * PANEL * k4 + (size_t)(col % PANEL) * 4;
            for (int ir = 0; ir < block; ir += shape.rows) {
                int live = min_int(shape.rows, block - ir);
                shape.tile(steps, codes + (size_t)ir * k4, b, tile);
                if (p->out != NULL) {
                    for (int r = 0; r < live; r++)
                        memcpy(p->out + (size_t)(ic + ir + r) * p->ldout + col, tile + r * shape.columns, (size_t)width * 4);
                } else {
                    shape.dequantize(live, width, tile, shape.columns, row_scales + ir, row_zeros + ir, p->scales + col,
                                     p->sums + col, p->c + (size_t)(ic + ir) * p->ldc + col, p->ldc, p->accumulate);
                }
            }
        }
    }
    free(codes);
}

int lectern_gemm_i8_by(const char *name, int m, int n, int k, const float *a, int lda, const float *channels,
                       const void *packed, const float *scales, const int32_t *sums, float *c, int ldc, int accumulate) {
    enum int8_kernel kernel = kernel_named(name);
    if (kernel == I8_UNKNOWN || !cpu_runs(kernel)) return 0;
    if (m <= 0 || n <= 0) return 1;
    struct product p = {m, n, k, a, lda, channels, NULL, 0, packed, scales, sums, c, ldc, accumulate, NULL, 0};
    run(kernel, &p);
    return 1;
}

void lectern_gemm_i8(int m, int n, int k, const float *a, int lda, const float *channels, const void *packed,
                     const float *scales, const int32_t *sums, float *c, int ldc, int accumulate) {
    lectern_gemm_i8_by(lectern_gemm_i8_kernel(), m, n, k, a, lda, channels, packed, scales, sums, c, ldc, accumulate);
}

int lectern_gemm_i8_sums_by(const char *name, int m, int n, int k, const uint8_t *codes, int ldcodes,
                            const void *packed, int32_t *out, int ldout) {
    enum int8_kernel kernel = kernel_named(name);
    if (kernel == I8_UNKNOWN || !cpu_runs(kernel)) return 0;
    if (m <= 0 || n <= 0) return 1;
    struct product p = {m, n, k, NULL, 0, NULL, codes, ldcodes, packed, NULL, NULL, NULL, 0, 0, out, ldout};
    run(kernel, &p);
    return 1;
}
