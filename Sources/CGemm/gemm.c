/* Lectern's float32 and bfloat16 matrix products for MiniLM (see include/gemm.h).
   Each kernel keeps a tile of C in registers and streams a packed panel of B (32 columns, laid
   out k-major so one step reads 32 consecutive floats) against broadcasts of A's rows. The
   per-function target attributes let one file carry AVX-512, AVX2 and portable code; the CPU's
   features pick one on first use. */
#include "gemm.h"
#include "kernel_choice.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LECTERN_X86 1
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))
#define AVX512BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,fma")))
#define AVX2 __attribute__((target("avx2,fma")))
#endif

#define PANEL LECTERN_GEMM_PANEL
/* Depth of one pass over B: a 32-column panel of 384 steps is 48 KB, which stays in L2 while
   every row tile of the block uses it. */
#define DEPTH_BLOCK 384
/* Rows of A per block (whole tiles of every kernel): 96 rows of 384 floats stay in L2. */
#define ROW_BLOCK 96
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* The row loops of a tile run a constant number of times once inlined: unrolled, the tile stays
   in registers. */
#define UNROLL _Pragma("unroll")

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* ---------------------------------------------------------------- packing */

size_t lectern_gemm_packed_count(int n, int k) {
    return (size_t)((n + PANEL - 1) / PANEL) * PANEL * (size_t)k;
}

void lectern_gemm_pack_rows(int n, int k, const float *w, int ldw, float *packed) {
    int panels = (n + PANEL - 1) / PANEL;
    for (int q = 0; q < panels; q++) {
        float *panel = packed + (size_t)q * k * PANEL;
        for (int jj = 0; jj < PANEL; jj++) {
            int j = q * PANEL + jj;
            for (int p = 0; p < k; p++) panel[(size_t)p * PANEL + jj] = j < n ? w[(size_t)j * ldw + p] : 0;
        }
    }
}

void lectern_gemm_pack_columns(int n, int k, const float *b, int ldb, float *packed) {
    int panels = (n + PANEL - 1) / PANEL;
    for (int q = 0; q < panels; q++) {
        float *panel = packed + (size_t)q * k * PANEL;
        int width = min_int(PANEL, n - q * PANEL);
        for (int p = 0; p < k; p++) {
            float *target = panel + (size_t)p * PANEL;
            memcpy(target, b + (size_t)p * ldb + q * PANEL, (size_t)width * sizeof(float));
            for (int jj = width; jj < PANEL; jj++) target[jj] = 0;
        }
    }
}

/* bfloat16 by rounding to nearest even, as vcvtneps2bf16 does (NaN stays a quiet NaN). */
static inline uint16_t to_bf16(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0) return (uint16_t)((bits >> 16) | 0x40);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return (uint16_t)(bits >> 16);
}

static inline float from_bf16(uint16_t value) {
    uint32_t bits = (uint32_t)value << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

size_t lectern_gemm_bf16_packed_count(int n, int k) {
    return (size_t)((n + PANEL - 1) / PANEL) * PANEL * (size_t)((k + 1) & ~1);
}

/* Panel q holds, for each pair of depths (2p, 2p+1), the 32 columns' two values side by side:
   one vdpbf16ps multiplies 16 columns' pairs by a broadcast pair of A. */
void lectern_gemm_bf16_pack_rows(int n, int k, const float *w, int ldw, uint16_t *packed) {
    int panels = (n + PANEL - 1) / PANEL;
    int even = (k + 1) & ~1;
    for (int q = 0; q < panels; q++) {
        uint16_t *panel = packed + (size_t)q * even * PANEL;
        for (int jj = 0; jj < PANEL; jj++) {
            int j = q * PANEL + jj;
            for (int p = 0; p < even; p++) {
                float value = j < n && p < k ? w[(size_t)j * ldw + p] : 0;
                panel[(size_t)(p / 2) * 2 * PANEL + jj * 2 + (p & 1)] = to_bf16(value);
            }
        }
    }
}

/* ---------------------------------------------------------------- portable kernels */

enum { PORTABLE_ROWS = 4 };

static void gemm_portable(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c,
                          int ldc, int accumulate) {
    for (int q = 0; q * PANEL < n; q++) {
        const float *panel = packed + (size_t)q * k * PANEL;
        int width = min_int(PANEL, n - q * PANEL);
        for (int i = 0; i < m; i += PORTABLE_ROWS) {
            int rows = min_int(PORTABLE_ROWS, m - i);
            float tile[PORTABLE_ROWS][PANEL] = {{0}};
            for (int p = 0; p < k; p++) {
                const float *b = panel + (size_t)p * PANEL;
                for (int r = 0; r < rows; r++) {
                    float value = a[(size_t)(i + r) * lda + p];
                    for (int jj = 0; jj < PANEL; jj++) tile[r][jj] += value * b[jj];
                }
            }
            for (int r = 0; r < rows; r++) {
                float *row = c + (size_t)(i + r) * ldc + q * PANEL;
                for (int jj = 0; jj < width; jj++) row[jj] = alpha * tile[r][jj] + (accumulate ? row[jj] : 0);
            }
        }
    }
}

static void gemm_bf16_portable(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c, int ldc,
                               int accumulate) {
    int even = (k + 1) & ~1;
    for (int q = 0; q * PANEL < n; q++) {
        const uint16_t *panel = packed + (size_t)q * even * PANEL;
        int width = min_int(PANEL, n - q * PANEL);
        for (int i = 0; i < m; i++) {
            const float *row = a + (size_t)i * lda;
            float *target = c + (size_t)i * ldc + q * PANEL;
            for (int jj = 0; jj < width; jj++) {
                float sum = 0;
                for (int p = 0; p < k; p++) {
                    float weight = from_bf16(panel[(size_t)(p / 2) * 2 * PANEL + jj * 2 + (p & 1)]);
                    sum += from_bf16(to_bf16(row[p])) * weight;
                }
                target[jj] = sum + (accumulate ? target[jj] : 0);
            }
        }
    }
}

#ifdef LECTERN_X86
/* ---------------------------------------------------------------- AVX2 + FMA: 6 rows × 16 columns */

enum { AVX2_ROWS = 6 };

/* tile[r][0..16) = Σₚ a[r·lda + p] · b[p·PANEL + 0..16) for r < rows. */
static ALWAYS_INLINE AVX2 void tile_avx2(const int rows, int depth, const float *a, int lda, const float *b,
                                         float tile[AVX2_ROWS][16]) {
    __m256 x0[AVX2_ROWS], x1[AVX2_ROWS];
    UNROLL for (int r = 0; r < rows; r++) x0[r] = x1[r] = _mm256_setzero_ps();
    for (int p = 0; p < depth; p++) {
        __m256 b0 = _mm256_loadu_ps(b + (size_t)p * PANEL);
        __m256 b1 = _mm256_loadu_ps(b + (size_t)p * PANEL + 8);
        UNROLL for (int r = 0; r < rows; r++) {
            __m256 value = _mm256_broadcast_ss(a + (size_t)r * lda + p);
            x0[r] = _mm256_fmadd_ps(value, b0, x0[r]);
            x1[r] = _mm256_fmadd_ps(value, b1, x1[r]);
        }
    }
    UNROLL for (int r = 0; r < rows; r++) {
        _mm256_storeu_ps(tile[r], x0[r]);
        _mm256_storeu_ps(tile[r] + 8, x1[r]);
    }
}

AVX2 static void gemm_avx2(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c,
                           int ldc, int accumulate) {
    float tile[AVX2_ROWS][16];
    for (int pc = 0; pc < k; pc += DEPTH_BLOCK) {
        int depth = min_int(DEPTH_BLOCK, k - pc);
        int add = accumulate || pc > 0;
        for (int ic = 0; ic < m; ic += ROW_BLOCK) {
            int block = min_int(ROW_BLOCK, m - ic);
            for (int col = 0; col < n; col += 16) {
                int width = min_int(16, n - col);
                const float *b = packed + (size_t)(col / PANEL) * k * PANEL + (size_t)pc * PANEL + col % PANEL;
                for (int ir = 0; ir < block; ir += AVX2_ROWS) {
                    int rows = min_int(AVX2_ROWS, block - ir);
                    const float *ap = a + (size_t)(ic + ir) * lda + pc;
                    switch (rows) {
                    case 6: tile_avx2(6, depth, ap, lda, b, tile); break;
                    case 5: tile_avx2(5, depth, ap, lda, b, tile); break;
                    case 4: tile_avx2(4, depth, ap, lda, b, tile); break;
                    case 3: tile_avx2(3, depth, ap, lda, b, tile); break;
                    case 2: tile_avx2(2, depth, ap, lda, b, tile); break;
                    default: tile_avx2(1, depth, ap, lda, b, tile); break;
                    }
                    for (int r = 0; r < rows; r++) {
                        float *row = c + (size_t)(ic + ir + r) * ldc + col;
                        if (width == 16) {
                            __m256 v0 = _mm256_mul_ps(_mm256_loadu_ps(tile[r]), _mm256_set1_ps(alpha));
                            __m256 v1 = _mm256_mul_ps(_mm256_loadu_ps(tile[r] + 8), _mm256_set1_ps(alpha));
                            if (add) {
                                v0 = _mm256_add_ps(v0, _mm256_loadu_ps(row));
                                v1 = _mm256_add_ps(v1, _mm256_loadu_ps(row + 8));
                            }
                            _mm256_storeu_ps(row, v0);
                            _mm256_storeu_ps(row + 8, v1);
                        } else {
                            for (int jj = 0; jj < width; jj++) row[jj] = alpha * tile[r][jj] + (add ? row[jj] : 0);
                        }
                    }
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- AVX-512: 12 rows × 32 columns */

/* The tile's inner loop is written in assembly: it is the whole cost, and assembly runs at full
   speed in a debug build too (unoptimised C keeps every vector on the stack, 150 times slower),
   so the tests exercise the very code that ships. 24 accumulators (zmm0–23) hold 12 rows × 32
   columns; each step loads 32 values of B (zmm24–25) and broadcasts one value (or, for
   bfloat16, one pair) of each row of A (zmm26). The tile is written to `tile` (12 × 32 floats). */
enum { AVX512_ROWS = 12 };

#define Z(r) "vpxord %%zmm" #r ", %%zmm" #r ", %%zmm" #r "\n\t"
#define ROW(BROADCAST, FMA, r0, r1) \
    BROADCAST " (%%rax), %%zmm26\n\t" FMA " %%zmm24, %%zmm26, %%zmm" #r0 "\n\t" FMA " %%zmm25, %%zmm26, %%zmm" #r1 "\n\t" \
    "add %[lda], %%rax\n\t"
#define S(r, offset) "vmovups %%zmm" #r ", " #offset "(%[t])\n\t"
#define FULL_TILE(name, attributes, BROADCAST, FMA) \
    static attributes void name(long steps, const void *a, long lda_bytes, const void *b, float *tile) { \
        __asm__ volatile( \
            Z(0) Z(1) Z(2) Z(3) Z(4) Z(5) Z(6) Z(7) Z(8) Z(9) Z(10) Z(11) \
            Z(12) Z(13) Z(14) Z(15) Z(16) Z(17) Z(18) Z(19) Z(20) Z(21) Z(22) Z(23) \
            "test %[n], %[n]\n\t" \
            "jz 2f\n\t" \
            "1:\n\t" \
            "vmovups (%[b]), %%zmm24\n\t" \
            "vmovups 64(%[b]), %%zmm25\n\t" \
            "mov %[a], %%rax\n\t" \
            ROW(BROADCAST, FMA, 0, 1) ROW(BROADCAST, FMA, 2, 3) ROW(BROADCAST, FMA, 4, 5) ROW(BROADCAST, FMA, 6, 7) \
            ROW(BROADCAST, FMA, 8, 9) ROW(BROADCAST, FMA, 10, 11) ROW(BROADCAST, FMA, 12, 13) ROW(BROADCAST, FMA, 14, 15) \
            ROW(BROADCAST, FMA, 16, 17) ROW(BROADCAST, FMA, 18, 19) ROW(BROADCAST, FMA, 20, 21) ROW(BROADCAST, FMA, 22, 23) \
            "add $4, %[a]\n\t" \
            "add $128, %[b]\n\t" \
            "dec %[n]\n\t" \
            "jnz 1b\n\t" \
            "2:\n\t" \
            S(0, 0) S(1, 64) S(2, 128) S(3, 192) S(4, 256) S(5, 320) S(6, 384) S(7, 448) \
            S(8, 512) S(9, 576) S(10, 640) S(11, 704) S(12, 768) S(13, 832) S(14, 896) S(15, 960) \
            S(16, 1024) S(17, 1088) S(18, 1152) S(19, 1216) S(20, 1280) S(21, 1344) S(22, 1408) S(23, 1472) \
            : [a] "+r"(a), [b] "+r"(b), [n] "+r"(steps) \
            : [lda] "r"(lda_bytes), [t] "r"(tile) \
            : "rax", "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", \
              "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", \
              "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26"); \
    }

/* float32: one float of A per step (4 bytes), 32 floats of B (128 bytes). */
FULL_TILE(full_tile_avx512, AVX512, "vbroadcastss", "vfmadd231ps")
/* bfloat16: one pair of A per step (4 bytes), 32 pairs of B (128 bytes). */
FULL_TILE(full_tile_bf16, AVX512BF16, "vpbroadcastd", "vdpbf16ps")

#undef Z
#undef ROW
#undef S
#undef FULL_TILE

static inline __mmask16 lane_mask(int width) {
    return width >= 16 ? (__mmask16)0xffff : width <= 0 ? (__mmask16)0 : (__mmask16)((1u << width) - 1);
}

/* C's rows (+)= alpha · tile, the first `rows` of 12, the columns m0 and m1 allow. */
AVX512 static void store_tile(int rows, const float *tile, float alpha, float *c, int ldc, int add, __mmask16 m0,
                              __mmask16 m1) {
    __m512 scale = _mm512_set1_ps(alpha);
    for (int r = 0; r < rows; r++) {
        float *row = c + (size_t)r * ldc;
        __m512 v0 = _mm512_mul_ps(_mm512_loadu_ps(tile + r * PANEL), scale);
        __m512 v1 = _mm512_mul_ps(_mm512_loadu_ps(tile + r * PANEL + 16), scale);
        if (add) {
            v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, row));
            v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, row + 16));
        }
        _mm512_mask_storeu_ps(row, m0, v0);
        _mm512_mask_storeu_ps(row + 16, m1, v1);
    }
}

AVX512 static void gemm_avx512(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c,
                               int ldc, int accumulate) {
    float tile[AVX512_ROWS * PANEL] __attribute__((aligned(64)));
    /* The last rows of A, fewer than a tile, copied beside zeros: every tile runs the full kernel. */
    float rest[AVX512_ROWS * DEPTH_BLOCK] __attribute__((aligned(64)));
    for (int pc = 0; pc < k; pc += DEPTH_BLOCK) {
        int depth = min_int(DEPTH_BLOCK, k - pc);
        int add = accumulate || pc > 0;
        for (int ic = 0; ic < m; ic += ROW_BLOCK) {
            int block = min_int(ROW_BLOCK, m - ic);
            int whole = block / AVX512_ROWS * AVX512_ROWS;
            if (whole < block) {
                memset(rest, 0, (size_t)AVX512_ROWS * depth * sizeof(float));
                for (int r = whole; r < block; r++)
                    memcpy(rest + (size_t)(r - whole) * depth, a + (size_t)(ic + r) * lda + pc, (size_t)depth * sizeof(float));
            }
            for (int q = 0; q * PANEL < n; q++) {
                int width = n - q * PANEL;
                __mmask16 m0 = lane_mask(width), m1 = lane_mask(width - 16);
                const float *b = packed + (size_t)q * k * PANEL + (size_t)pc * PANEL;
                for (int ir = 0; ir < block; ir += AVX512_ROWS) {
                    int rows = min_int(AVX512_ROWS, block - ir);
                    if (rows == AVX512_ROWS)
                        full_tile_avx512(depth, a + (size_t)(ic + ir) * lda + pc, (long)lda * 4, b, tile);
                    else
                        full_tile_avx512(depth, rest, (long)depth * 4, b, tile);
                    store_tile(rows, tile, alpha, c + (size_t)(ic + ir) * ldc + q * PANEL, ldc, add, m0, m1);
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- AVX512_BF16: 12 rows × 32 columns */

/* Rows of A rounded to bfloat16, `even` values a row (zeros past `depth`), and zero rows up to
   whole tiles. */
AVX512BF16 static void convert_block(int rows, int padded, int depth, int even, const float *a, int lda, uint16_t *out) {
    for (int r = 0; r < rows; r++) {
        const float *source = a + (size_t)r * lda;
        uint16_t *target = out + (size_t)r * even;
        int p = 0;
        for (; p + 16 <= depth; p += 16) {
            __m256bh v = _mm512_cvtneps_pbh(_mm512_loadu_ps(source + p));
            _mm256_storeu_si256((__m256i *)(target + p), (__m256i)v);
        }
        for (; p < depth; p++) target[p] = to_bf16(source[p]);
        for (; p < even; p++) target[p] = 0;
    }
    memset(out + (size_t)rows * even, 0, (size_t)(padded - rows) * even * sizeof(uint16_t));
}

AVX512BF16 static void gemm_bf16_avx512(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c,
                                        int ldc, int accumulate, uint16_t *scratch) {
    float tile[AVX512_ROWS * PANEL] __attribute__((aligned(64)));
    int even = (k + 1) & ~1;
    for (int pc = 0; pc < even; pc += DEPTH_BLOCK) {
        int depth = min_int(DEPTH_BLOCK, even - pc);
        int add = accumulate || pc > 0;
        for (int ic = 0; ic < m; ic += ROW_BLOCK) {
            int block = min_int(ROW_BLOCK, m - ic);
            int padded = (block + AVX512_ROWS - 1) / AVX512_ROWS * AVX512_ROWS;
            convert_block(block, padded, min_int(depth, k - pc), depth, a + (size_t)ic * lda + pc, lda, scratch);
            for (int q = 0; q * PANEL < n; q++) {
                int width = n - q * PANEL;
                __mmask16 m0 = lane_mask(width), m1 = lane_mask(width - 16);
                const uint16_t *b = packed + (size_t)q * even * PANEL + (size_t)pc * PANEL;
                for (int ir = 0; ir < block; ir += AVX512_ROWS) {
                    full_tile_bf16(depth / 2, scratch + (size_t)ir * depth, (long)depth * 2, b, tile);
                    store_tile(min_int(AVX512_ROWS, block - ir), tile, 1, c + (size_t)(ic + ir) * ldc + q * PANEL, ldc, add,
                               m0, m1);
                }
            }
        }
    }
}
#endif /* LECTERN_X86 */

/* ---------------------------------------------------------------- dispatch */

enum kernel { KERNEL_UNKNOWN, KERNEL_PORTABLE, KERNEL_AVX2, KERNEL_AVX512 };

static int cpu_has(enum kernel kernel);

static int chosen_kernel(void) {
    static int kernel = KERNEL_UNKNOWN;
    int k = __atomic_load_n(&kernel, __ATOMIC_RELAXED);
    if (k != KERNEL_UNKNOWN) return k;
    k = KERNEL_PORTABLE;
#ifdef LECTERN_X86
    if (cpu_has(KERNEL_AVX512))
        k = KERNEL_AVX512;
    else if (cpu_has(KERNEL_AVX2))
        k = KERNEL_AVX2;
    /* LECTERN_GEMM_KERNEL=avx2|portable narrows the choice (to measure, or to test a fallback
       on a machine that has more); it never picks what the CPU lacks. */
    const char *asked = getenv("LECTERN_GEMM_KERNEL");
    if (asked != NULL) {
        if (strcmp(asked, "portable") == 0) k = KERNEL_PORTABLE;
        else if (strcmp(asked, "avx2") == 0 && k == KERNEL_AVX512) k = KERNEL_AVX2;
    }
#endif
    __atomic_store_n(&kernel, k, __ATOMIC_RELAXED);
    return k;
}

const char *lectern_gemm_kernel(void) {
    switch (chosen_kernel()) {
    case KERNEL_AVX512: return "avx512";
    case KERNEL_AVX2: return "avx2";
    default: return "portable";
    }
}

static int cpu_has(enum kernel kernel) {
#ifdef LECTERN_X86
    __builtin_cpu_init();
    if (kernel == KERNEL_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (kernel == KERNEL_AVX2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    return kernel == KERNEL_PORTABLE;
}

static enum kernel kernel_named(const char *name) {
    return strcmp(name, "avx512") == 0 ? KERNEL_AVX512 : strcmp(name, "avx2") == 0 ? KERNEL_AVX2
         : strcmp(name, "portable") == 0 ? KERNEL_PORTABLE : KERNEL_UNKNOWN;
}

int lectern_cpu_runs_kernel(const char *name) {
    enum kernel kernel = kernel_named(name);
    return kernel != KERNEL_UNKNOWN && cpu_has(kernel);
}

int lectern_gemm_by(const char *name, int m, int n, int k, float alpha, const float *a, int lda, const float *packed,
                    float *c, int ldc, int accumulate) {
    if (!lectern_cpu_runs_kernel(name)) return 0;
    enum kernel kernel = kernel_named(name);
    if (m <= 0 || n <= 0 || k <= 0) {
        lectern_gemm(m, n, k, alpha, a, lda, packed, c, ldc, accumulate);
        return 1;
    }
    switch (kernel) {
#ifdef LECTERN_X86
    case KERNEL_AVX512: gemm_avx512(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); break;
    case KERNEL_AVX2: gemm_avx2(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); break;
#endif
    default: gemm_portable(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); break;
    }
    return 1;
}

void lectern_gemm(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c, int ldc,
                  int accumulate) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        for (int i = 0; i < m; i++)
            if (!accumulate) memset(c + (size_t)i * ldc, 0, (size_t)n * sizeof(float));
        return;
    }
    switch (chosen_kernel()) {
#ifdef LECTERN_X86
    case KERNEL_AVX512: gemm_avx512(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); return;
    case KERNEL_AVX2: gemm_avx2(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); return;
#endif
    default: gemm_portable(m, n, k, alpha, a, lda, packed, c, ldc, accumulate); return;
    }
}

int lectern_gemm_bf16_native(void) {
#ifdef LECTERN_X86
    if (chosen_kernel() != KERNEL_AVX512) return 0;
    static int native = -1;
    int v = __atomic_load_n(&native, __ATOMIC_RELAXED);
    if (v < 0) {
        v = __builtin_cpu_supports("avx512bf16") ? 1 : 0;
        __atomic_store_n(&native, v, __ATOMIC_RELAXED);
    }
    return v;
#else
    return 0;
#endif
}

void lectern_gemm_bf16(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c, int ldc,
                       int accumulate) {
    if (m <= 0 || n <= 0) return;
#ifdef LECTERN_X86
    if (k > 0 && lectern_gemm_bf16_native()) {
        /* 72 KB: on the heap, not on a worker thread's stack. */
        uint16_t *scratch = malloc(sizeof(uint16_t) * ROW_BLOCK * DEPTH_BLOCK);
        if (scratch != NULL) {
            gemm_bf16_avx512(m, n, k, a, lda, packed, c, ldc, accumulate, scratch);
            free(scratch);
            return;
        }
    }
#endif
    gemm_bf16_portable(m, n, k, a, lda, packed, c, ldc, accumulate);
}

void lectern_gemm_bf16_portable(int m, int n, int k, const float *a, int lda, const uint16_t *packed, float *c, int ldc,
                                int accumulate) {
    if (m <= 0 || n <= 0) return;
    gemm_bf16_portable(m, n, k, a, lda, packed, c, ldc, accumulate);
}
