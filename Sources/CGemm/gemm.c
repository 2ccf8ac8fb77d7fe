/* Lectern's float32 and bfloat16 matrix products for MiniLM (see include/gemm.h).
   Each kernel keeps a tile of C in registers and streams a packed panel of B (32 columns, laid
   out k-major so one step reads 32 consecutive floats) against broadcasts of A's rows: 12 × 32 with
   AVX-512, 6 × 16 with AVX2 + FMA, 4 × 8 over 4-lane vectors in the portable kernel, the latter two
   reading A from micro-panels packed per row block (one stream instead of a stream per row). The
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
/* The AVX2 kernel's blocks (-D to try others with bench/gemm_bench.c): the same depth; half the
   rows, 48 (a 72 KB block of packed A), which ran the products faster than 96 in turns. */
#ifndef AVX2_DEPTH_BLOCK
#define AVX2_DEPTH_BLOCK DEPTH_BLOCK
#endif
#ifndef AVX2_ROW_BLOCK
#define AVX2_ROW_BLOCK 48
#endif
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* The row loops of a tile run a constant number of times once inlined: unrolled, the tile stays
   in registers. */
#define UNROLL _Pragma("unroll")

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* ---------------------------------------------------------------- packing */

size_t lectern_gemm_packed_count(int n, int k) {
    return (size_t)((n + PANEL - 1) / PANEL) * PANEL * (size_t)k;
}

/* Four floats: SSE2 on x86-64's baseline, NEON on ARM. */
typedef float quad __attribute__((vector_size(16), aligned(4)));

/* Four rows of w at a time, four depths a turn: a 4 × 4 transpose writes four steps' values of
   four columns with a load and a store per four values instead of per value. Attention packs
   every head's keys of every sequence this way: a head of 250 keys took 3.9–5.2 µs value by
   value, 1.7 µs so (the product that uses them ~57 µs with AVX2). */
void lectern_gemm_pack_rows(int n, int k, const float *w, int ldw, float *packed) {
    int columns = (n + PANEL - 1) / PANEL * PANEL;
    for (int j = 0; j < columns; j += 4) {
        float *column = packed + (size_t)(j / PANEL) * k * PANEL + j % PANEL;
        int p = 0;
        if (j + 4 <= n) {
            const float *r0 = w + (size_t)j * ldw, *r1 = r0 + ldw, *r2 = r1 + ldw, *r3 = r2 + ldw;
            for (; p + 4 <= k; p += 4) {
                quad a = *(const quad *)(r0 + p), b = *(const quad *)(r1 + p);
                quad c = *(const quad *)(r2 + p), d = *(const quad *)(r3 + p);
                quad ab01 = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab23 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
                quad cd01 = __builtin_shufflevector(c, d, 0, 4, 1, 5), cd23 = __builtin_shufflevector(c, d, 2, 6, 3, 7);
                float *step = column + (size_t)p * PANEL;
                *(quad *)step = __builtin_shufflevector(ab01, cd01, 0, 1, 4, 5);
                *(quad *)(step + PANEL) = __builtin_shufflevector(ab01, cd01, 2, 3, 6, 7);
                *(quad *)(step + 2 * PANEL) = __builtin_shufflevector(ab23, cd23, 0, 1, 4, 5);
                *(quad *)(step + 3 * PANEL) = __builtin_shufflevector(ab23, cd23, 2, 3, 6, 7);
            }
        }
        /* The depths past whole turns, and columns past n (zeros). */
        for (int jj = 0; jj < 4; jj++)
            for (int q = p; q < k; q++) column[(size_t)q * PANEL + jj] = j + jj < n ? w[(size_t)(j + jj) * ldw + q] : 0;
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

typedef float pair __attribute__((vector_size(8), aligned(4)));

/* Six rows of A as an AVX2 tile's micro-panel (value p of row r at 6p + r), four depths a turn:
   rows 0–3 by a 4 × 4 transpose, rows 4–5 interleaved in pairs. Packed value by value, the
   products only 384 columns wide (attention's output, the FFN's), whose packing serves fewest
   tiles, ran ~10% slower (bench/gemm_bench.c, in turns). */
static void pack_six_rows(int depth, const float *a, int lda, float *out) {
    const float *r0 = a, *r1 = a + lda, *r2 = r1 + lda, *r3 = r2 + lda, *r4 = r3 + lda, *r5 = r4 + lda;
    int p = 0;
    for (; p + 4 <= depth; p += 4) {
        quad w = *(const quad *)(r0 + p), x = *(const quad *)(r1 + p), y = *(const quad *)(r2 + p), z = *(const quad *)(r3 + p);
        quad u = *(const quad *)(r4 + p), v = *(const quad *)(r5 + p);
        quad wx01 = __builtin_shufflevector(w, x, 0, 4, 1, 5), wx23 = __builtin_shufflevector(w, x, 2, 6, 3, 7);
        quad yz01 = __builtin_shufflevector(y, z, 0, 4, 1, 5), yz23 = __builtin_shufflevector(y, z, 2, 6, 3, 7);
        quad uv01 = __builtin_shufflevector(u, v, 0, 4, 1, 5), uv23 = __builtin_shufflevector(u, v, 2, 6, 3, 7);
        float *step = out + (size_t)p * 6;
        *(quad *)step = __builtin_shufflevector(wx01, yz01, 0, 1, 4, 5);
        *(pair *)(step + 4) = __builtin_shufflevector(uv01, uv01, 0, 1);
        *(quad *)(step + 6) = __builtin_shufflevector(wx01, yz01, 2, 3, 6, 7);
        *(pair *)(step + 10) = __builtin_shufflevector(uv01, uv01, 2, 3);
        *(quad *)(step + 12) = __builtin_shufflevector(wx23, yz23, 0, 1, 4, 5);
        *(pair *)(step + 16) = __builtin_shufflevector(uv23, uv23, 0, 1);
        *(quad *)(step + 18) = __builtin_shufflevector(wx23, yz23, 2, 3, 6, 7);
        *(pair *)(step + 22) = __builtin_shufflevector(uv23, uv23, 2, 3);
    }
    for (; p < depth; p++) {
        float *step = out + (size_t)p * 6;
        step[0] = r0[p], step[1] = r1[p], step[2] = r2[p], step[3] = r3[p], step[4] = r4[p], step[5] = r5[p];
    }
}

/* Rows [0, rows) of A (depth values from `a`, rows lda apart) as micro-panels of `height` rows,
   step by step (value p of the panel's row r at [(p·height + r)·copies], repeated `copies` times),
   zero rows up to a whole panel: a tile then reads its rows' values of A as one stream. */
static void pack_micro_panels(int height, int copies, int rows, int depth, const float *a, int lda, float *out) {
    for (int t = 0; t < rows; t += height) {
        float *panel = out + (size_t)t * depth * copies;
        int live = min_int(height, rows - t);
        if (height == 6 && copies == 1 && live == 6) {
            pack_six_rows(depth, a + (size_t)t * lda, lda, panel);
            continue;
        }
        for (int r = 0; r < height; r++) {
            const float *source = a + (size_t)(t + r) * lda;
            for (int p = 0; p < depth; p++) {
                float value = r < live ? source[p] : 0;
                for (int c = 0; c < copies; c++) panel[((size_t)p * height + r) * copies + c] = value;
            }
        }
    }
}

/* ---------------------------------------------------------------- portable kernels */

/* Over the compiler's 4-lane vectors, as the encoder's passes are: SSE2 on x86-64's baseline,
   NEON on ARM. A tile of 4 rows × 8 columns keeps 8 accumulators, 2 vectors of B and a row's
   value of A broadcast in SSE's 16 registers (NEON has 32). x86's baseline has no broadcast from
   memory, and a shuffle per row and step would take the pipe the adds need: there A's values are
   packed already broadcast (PORTABLE_COPIES of each), so a row's vector is one load. NEON
   multiplies by a lane of one load of the 4 rows' values (fmla by element). */
typedef float portable_vf __attribute__((vector_size(16), aligned(4)));
enum { PORTABLE_ROWS = 4, PORTABLE_COLUMNS = 8 };
#ifdef LECTERN_X86
enum { PORTABLE_COPIES = 4 };
#else
enum { PORTABLE_COPIES = 1 };
#endif

static inline __attribute__((always_inline)) portable_vf load_vf(const float *p) { return *(const portable_vf *)p; }

static void tile_portable(int depth, const float *a, const float *b, float tile[PORTABLE_ROWS][PORTABLE_COLUMNS]) {
    portable_vf x0 = {0}, x1 = {0}, x2 = {0}, x3 = {0}, y0 = {0}, y1 = {0}, y2 = {0}, y3 = {0};
    for (int p = 0; p < depth; p++) {
        portable_vf b0 = load_vf(b + (size_t)p * PANEL), b1 = load_vf(b + (size_t)p * PANEL + 4);
        const float *values = a + (size_t)p * PORTABLE_ROWS * PORTABLE_COPIES;
#if defined(LECTERN_X86)
        portable_vf r0 = load_vf(values), r1 = load_vf(values + 4), r2 = load_vf(values + 8), r3 = load_vf(values + 12);
#else
        portable_vf v = load_vf(values);
        portable_vf r0 = __builtin_shufflevector(v, v, 0, 0, 0, 0), r1 = __builtin_shufflevector(v, v, 1, 1, 1, 1);
        portable_vf r2 = __builtin_shufflevector(v, v, 2, 2, 2, 2), r3 = __builtin_shufflevector(v, v, 3, 3, 3, 3);
#endif
        x0 += r0 * b0, y0 += r0 * b1;
        x1 += r1 * b0, y1 += r1 * b1;
        x2 += r2 * b0, y2 += r2 * b1;
        x3 += r3 * b0, y3 += r3 * b1;
    }
    portable_vf out[PORTABLE_ROWS][2] = {{x0, y0}, {x1, y1}, {x2, y2}, {x3, y3}};
    memcpy(tile, out, sizeof out);
}

/* `scratch` holds a row block's micro-panels: ROW_BLOCK × DEPTH_BLOCK × PORTABLE_COPIES floats. */
static void gemm_portable(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c,
                          int ldc, int accumulate, float *scratch) {
    float tile[PORTABLE_ROWS][PORTABLE_COLUMNS];
    for (int pc = 0; pc < k; pc += DEPTH_BLOCK) {
        int depth = min_int(DEPTH_BLOCK, k - pc);
        int add = accumulate || pc > 0;
        for (int ic = 0; ic < m; ic += ROW_BLOCK) {
            int block = min_int(ROW_BLOCK, m - ic);
            pack_micro_panels(PORTABLE_ROWS, PORTABLE_COPIES, block, depth, a + (size_t)ic * lda + pc, lda, scratch);
            for (int col = 0; col < n; col += PORTABLE_COLUMNS) {
                int width = min_int(PORTABLE_COLUMNS, n - col);
                const float *b = packed + (size_t)(col / PANEL) * k * PANEL + (size_t)pc * PANEL + col % PANEL;
                for (int ir = 0; ir < block; ir += PORTABLE_ROWS) {
                    tile_portable(depth, scratch + (size_t)ir * depth * PORTABLE_COPIES, b, tile);
                    int rows = min_int(PORTABLE_ROWS, block - ir);
                    for (int r = 0; r < rows; r++) {
                        float *row = c + (size_t)(ic + ir + r) * ldc + col;
                        for (int jj = 0; jj < width; jj++) row[jj] = alpha * tile[r][jj] + (add ? row[jj] : 0);
                    }
                }
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

/* Assembly for the same reasons as the AVX-512 tile below. 12 accumulators (ymm0–11) hold 6 rows
   × 16 columns, half a panel; each step loads those 16 values of B (ymm12–13, a panel's row is
   PANEL floats) and broadcasts the 6 rows' values of A, row r at a + r·row_bytes, then moves A on
   by step_bytes: a packed micro-panel (4 and 24: one stream) or A as it lies (lda·4 and 4). 12
   FMAs to 8 loads: the two FMA pipes stay fed. Two steps a turn of the loop (one more when the
   depth is odd), so the pointer arithmetic costs half as much. The tile is written straight to
   its 6 rows of `out` (row_out bytes apart) as alpha · tile, plus what they held when `add`:
   a round trip through a buffer cost a sixth of attention's depth-32 products. */
enum { AVX2_ROWS = 6, AVX2_COLUMNS = 16 };

#define Y(r) "vxorps %%ymm" #r ", %%ymm" #r ", %%ymm" #r "\n\t"
#define ROW(address, v, r0, r1) \
    "vbroadcastss " address ", %%ymm" #v "\n\t" "vfmadd231ps %%ymm12, %%ymm" #v ", %%ymm" #r0 "\n\t" \
    "vfmadd231ps %%ymm13, %%ymm" #v ", %%ymm" #r1 "\n\t"
#define STEP(d, bd) \
    "vmovups " #bd "(%[b]), %%ymm12\n\t" \
    "vmovups " #bd "+32(%[b]), %%ymm13\n\t" \
    ROW(#d "(%[a])", 14, 0, 1) ROW(#d "(%[a],%[rs],1)", 15, 2, 3) ROW(#d "(%[a],%[rs],2)", 14, 4, 5) \
    ROW(#d "(%[a3])", 15, 6, 7) ROW(#d "(%[a],%[rs],4)", 14, 8, 9) ROW(#d "(%[a3],%[rs],2)", 15, 10, 11)
/* One row of the tile out: scaled, plus the row's old values when adding. */
#define ADD_OUT(r0, r1) \
    "vfmadd213ps (%[c]), %%ymm14, %%ymm" #r0 "\n\t" "vfmadd213ps 32(%[c]), %%ymm14, %%ymm" #r1 "\n\t" \
    "vmovups %%ymm" #r0 ", (%[c])\n\t" "vmovups %%ymm" #r1 ", 32(%[c])\n\t" "add %[ldc], %[c]\n\t"
#define SET_OUT(r0, r1) \
    "vmulps %%ymm14, %%ymm" #r0 ", %%ymm" #r0 "\n\t" "vmulps %%ymm14, %%ymm" #r1 ", %%ymm" #r1 "\n\t" \
    "vmovups %%ymm" #r0 ", (%[c])\n\t" "vmovups %%ymm" #r1 ", 32(%[c])\n\t" "add %[ldc], %[c]\n\t"
/* The same kernel for A packed (step 24 bytes) and A as it lies (step 4 bytes): the second step
   of a turn reads A `step` bytes further on, a displacement the assembler needs as a constant.
   PREFETCH asks for A's packed stream ahead of its use. */
#define FULL_TILE_AVX2(name, STEP_BYTES, PREFETCH) \
static AVX2 void name(long steps, const float *a, long row_bytes, const float *b, float *out, long row_out, \
                      const float *alpha, long add) { \
    const char *a3 = (const char *)a + 3 * row_bytes; \
    long pairs = steps / 2, odd = steps & 1; \
    __asm__ volatile( \
        Y(0) Y(1) Y(2) Y(3) Y(4) Y(5) Y(6) Y(7) Y(8) Y(9) Y(10) Y(11) \
        "test %[n], %[n]\n\t" \
        "jz 2f\n\t" \
        "1:\n\t" \
        PREFETCH \
        STEP(0, 0) STEP(STEP_BYTES, 128) \
        "add $" #STEP_BYTES "*2, %[a]\n\t" \
        "add $" #STEP_BYTES "*2, %[a3]\n\t" \
        "add $256, %[b]\n\t" \
        "dec %[n]\n\t" \
        "jnz 1b\n\t" \
        "2:\n\t" \
        "test %[odd], %[odd]\n\t" \
        "jz 3f\n\t" \
        STEP(0, 0) \
        "3:\n\t" \
        "vbroadcastss (%[alpha]), %%ymm14\n\t" \
        "test %[add], %[add]\n\t" \
        "jz 4f\n\t" \
        ADD_OUT(0, 1) ADD_OUT(2, 3) ADD_OUT(4, 5) ADD_OUT(6, 7) ADD_OUT(8, 9) ADD_OUT(10, 11) \
        "jmp 5f\n\t" \
        "4:\n\t" \
        SET_OUT(0, 1) SET_OUT(2, 3) SET_OUT(4, 5) SET_OUT(6, 7) SET_OUT(8, 9) SET_OUT(10, 11) \
        "5:\n\t" \
        : [a] "+r"(a), [a3] "+r"(a3), [b] "+r"(b), [n] "+r"(pairs), [c] "+r"(out) \
        : [rs] "r"(row_bytes), [odd] "r"(odd), [ldc] "r"(row_out), [alpha] "r"(alpha), [add] "r"(add) \
        : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
          "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"); \
}
/* How far ahead the packed tile asks for A (bytes; 0: not at all). */
#ifndef AVX2_PREFETCH
#define AVX2_PREFETCH 512
#endif
#define STRINGIFY(x) #x
#define PREFETCH_AT(distance) "prefetcht0 " STRINGIFY(distance) "(%[a])\n\t"
/* A packed in micro-panels: row r's value at a + 4r, a step 24 bytes on. */
#if AVX2_PREFETCH > 0
FULL_TILE_AVX2(packed_tile_avx2, 24, PREFETCH_AT(AVX2_PREFETCH))
#else
FULL_TILE_AVX2(packed_tile_avx2, 24, "")
#endif
/* A as it lies: row r at a + r·lda·4, a step 4 bytes on. */
FULL_TILE_AVX2(strided_tile_avx2, 4, "")
#undef Y
#undef ROW
#undef STEP
#undef ADD_OUT
#undef SET_OUT
#undef FULL_TILE_AVX2

/* C's rows (+)= tile, the first `rows` of 6, the first `width` of 16 columns (alpha is applied). */
static void store_part_tile_avx2(int rows, int width, const float *tile, float *c, int ldc, int add) {
    for (int r = 0; r < rows; r++) {
        float *row = c + (size_t)r * ldc;
        const float *t = tile + r * AVX2_COLUMNS;
        for (int jj = 0; jj < width; jj++) row[jj] = t[jj] + (add ? row[jj] : 0);
    }
}

/* Asks for `rows` rows of 16 floats of C, ldc apart (two cache lines each when C is not on one). */
static inline void prefetch_rows_avx2(int rows, const float *c, int ldc) {
    for (int r = 0; r < rows; r++) {
        __builtin_prefetch(c + (size_t)r * ldc, 1);
        __builtin_prefetch(c + (size_t)r * ldc + 15, 1);
    }
}

/* `scratch` holds a row block's micro-panels: AVX2_ROW_BLOCK × AVX2_DEPTH_BLOCK floats. A is packed when
   its rows serve many column tiles (the dense layers, attention's scores); for a product only a
   panel or two wide (attention's P·V: 32 columns) the packing would cost a third of the work, and
   whole tiles read A where it lies. */
AVX2 static void gemm_avx2(int m, int n, int k, float alpha, const float *a, int lda, const float *packed, float *c,
                           int ldc, int accumulate, float *scratch) {
    float tile[AVX2_ROWS * AVX2_COLUMNS] __attribute__((aligned(32)));
    int pack = n > 2 * PANEL;
    for (int pc = 0; pc < k; pc += AVX2_DEPTH_BLOCK) {
        int depth = min_int(AVX2_DEPTH_BLOCK, k - pc);
        int add = accumulate || pc > 0;
        for (int ic = 0; ic < m; ic += AVX2_ROW_BLOCK) {
            int block = min_int(AVX2_ROW_BLOCK, m - ic);
            const float *rows = a + (size_t)ic * lda + pc;
            /* Packed: every tile; else only the last rows, fewer than a tile (beside zero rows). */
            int whole = pack ? 0 : block / AVX2_ROWS * AVX2_ROWS;
            pack_micro_panels(AVX2_ROWS, 1, block - whole, depth, rows + (size_t)whole * lda, lda, scratch + (size_t)whole * depth);
            for (int col = 0; col < n; col += AVX2_COLUMNS) {
                int width = min_int(AVX2_COLUMNS, n - col);
                /* Half a panel; a panel's columns past n are zeros, so the whole tile is computed. */
                const float *b = packed + (size_t)(col / PANEL) * k * PANEL + (size_t)pc * PANEL + col % PANEL;
                if (add) prefetch_rows_avx2(min_int(AVX2_ROWS, block), c + (size_t)ic * ldc + col, ldc);
                for (int ir = 0; ir < block; ir += AVX2_ROWS) {
                    int live = min_int(AVX2_ROWS, block - ir);
                    float *target = c + (size_t)(ic + ir) * ldc + col;
                    /* The next tile's rows of C, which it adds to (a bias, or the depth block before):
                       on their way while this one runs. */
                    if (add && ir + AVX2_ROWS < block)
                        prefetch_rows_avx2(min_int(AVX2_ROWS, block - ir - AVX2_ROWS), target + (size_t)AVX2_ROWS * ldc, ldc);
                    /* A whole tile goes straight to C; the last rows or columns through `tile`. */
                    int straight = live == AVX2_ROWS && width == AVX2_COLUMNS;
                    float *out = straight ? target : tile;
                    long row_out = straight ? (long)ldc * 4 : AVX2_COLUMNS * 4, add_out = straight && add;
                    if (ir < whole)
                        strided_tile_avx2(depth, rows + (size_t)ir * lda, (long)lda * 4, b, out, row_out, &alpha, add_out);
                    else
                        packed_tile_avx2(depth, scratch + (size_t)ir * depth, 4, b, out, row_out, &alpha, add_out);
                    if (!straight) store_part_tile_avx2(live, width, tile, target, ldc, add);
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

/* Runs `kernel` on a product of at least one row, column and step. */
static void gemm_with(enum kernel kernel, int m, int n, int k, float alpha, const float *a, int lda, const float *packed,
                      float *c, int ldc, int accumulate) {
#ifdef LECTERN_X86
    if (kernel == KERNEL_AVX512) {
        gemm_avx512(m, n, k, alpha, a, lda, packed, c, ldc, accumulate);
        return;
    }
#endif
    /* A row block's micro-panels (up to 150 KB, the portable kernel's broadcast ones 600 KB): on
       the heap, not on a worker thread's stack. */
    int row_block = ROW_BLOCK > AVX2_ROW_BLOCK ? ROW_BLOCK : AVX2_ROW_BLOCK;
    int depth_block = DEPTH_BLOCK > AVX2_DEPTH_BLOCK ? DEPTH_BLOCK : AVX2_DEPTH_BLOCK;
    size_t rows = (size_t)min_int(m, row_block) + 8 /* up to a whole tile */, depth = (size_t)min_int(k, depth_block);
    /* On a cache line, as the packed weights are (a load split across two lines costs twice). */
    size_t bytes = (sizeof(float) * rows * depth * PORTABLE_COPIES + 63) / 64 * 64;
    float *scratch = aligned_alloc(64, bytes);
    if (scratch == NULL) abort();
#ifdef LECTERN_X86
    if (kernel == KERNEL_AVX2) gemm_avx2(m, n, k, alpha, a, lda, packed, c, ldc, accumulate, scratch);
    else
#endif
        gemm_portable(m, n, k, alpha, a, lda, packed, c, ldc, accumulate, scratch);
    free(scratch);
}

int lectern_gemm_by(const char *name, int m, int n, int k, float alpha, const float *a, int lda, const float *packed,
                    float *c, int ldc, int accumulate) {
    if (!lectern_cpu_runs_kernel(name)) return 0;
    if (m <= 0 || n <= 0 || k <= 0) lectern_gemm(m, n, k, alpha, a, lda, packed, c, ldc, accumulate);
    else gemm_with(kernel_named(name), m, n, k, alpha, a, lda, packed, c, ldc, accumulate);
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
    gemm_with((enum kernel)chosen_kernel(), m, n, k, alpha, a, lda, packed, c, ldc, accumulate);
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
