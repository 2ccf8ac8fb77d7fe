#include "vector_scan.h"
#include <math.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LECTERN_X86 1
#endif

// One dot product of int8 codes with int16 query values; the query is quantised to at most
// ±8191, so a 32-bit sum cannot overflow below 2,000 dimensions per lane.
typedef int64_t (*dot_kernel)(const int8_t *codes, const int16_t *query, size_t dimension);

static int64_t dot_portable(const int8_t *codes, const int16_t *query, size_t dimension) {
    int64_t sum = 0;
    for (size_t j = 0; j < dimension; j++) sum += (int32_t)codes[j] * (int32_t)query[j];
    return sum;
}

#ifdef LECTERN_X86
__attribute__((target("avx2")))
static int64_t dot_avx2(const int8_t *codes, const int16_t *query, size_t dimension) {
    __m256i acc = _mm256_setzero_si256();
    size_t j = 0;
    for (; j + 16 <= dimension; j += 16) {
        __m256i c = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(codes + j)));
        __m256i q = _mm256_loadu_si256((const __m256i *)(query + j));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(c, q));
    }
    __m128i half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0x4e));
    half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0xb1));
    int64_t sum = _mm_cvtsi128_si32(half);
    for (; j < dimension; j++) sum += (int32_t)codes[j] * (int32_t)query[j];
    return sum;
}

__attribute__((target("avx512f,avx512bw")))
static int64_t dot_avx512(const int8_t *codes, const int16_t *query, size_t dimension) {
    __m512i acc = _mm512_setzero_si512();
    size_t j = 0;
    for (; j + 32 <= dimension; j += 32) {
        __m512i c = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(codes + j)));
        __m512i q = _mm512_loadu_si512((const void *)(query + j));
        acc = _mm512_add_epi32(acc, _mm512_madd_epi16(c, q));
    }
    int64_t sum = _mm512_reduce_add_epi32(acc);
    for (; j < dimension; j++) sum += (int32_t)codes[j] * (int32_t)query[j];
    return sum;
}
#endif

static dot_kernel chosen_kernel(const char **name) {
#ifdef LECTERN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f")) {
        if (name) *name = "avx512bw";
        return dot_avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        if (name) *name = "avx2";
        return dot_avx2;
    }
#endif
    if (name) *name = "portable";
    return dot_portable;
}

const char *lectern_scan_kernel(void) {
    const char *name = "portable";
    chosen_kernel(&name);
    return name;
}

// The kept rows form a heap whose root is the worst kept: the lowest score, and of equal
// scores the latest row. Rows are kept by (score, then the earlier row), a total order, so
// the rows a scan keeps do not depend on where its pieces or chunks begin: a scan split across
// threads, streamed from the library or read from the sidecar keeps the same rows.
static int worse(const float *scores, const uint32_t *rows, size_t a, size_t b) {
    return scores[a] < scores[b] || (scores[a] == scores[b] && rows[a] > rows[b]);
}

static void sift_down(float *scores, uint32_t *rows, size_t size, size_t at) {
    for (;;) {
        size_t left = 2 * at + 1, smallest = at;
        if (left < size && worse(scores, rows, left, smallest)) smallest = left;
        if (left + 1 < size && worse(scores, rows, left + 1, smallest)) smallest = left + 1;
        if (smallest == at) return;
        float s = scores[at]; scores[at] = scores[smallest]; scores[smallest] = s;
        uint32_t r = rows[at]; rows[at] = rows[smallest]; rows[smallest] = r;
        at = smallest;
    }
}

static void sift_up(float *scores, uint32_t *rows, size_t at) {
    while (at > 0) {
        size_t parent = (at - 1) / 2;
        if (!worse(scores, rows, at, parent)) return;
        float s = scores[at]; scores[at] = scores[parent]; scores[parent] = s;
        uint32_t r = rows[at]; rows[at] = rows[parent]; rows[parent] = r;
        at = parent;
    }
}

size_t lectern_scan_int8(const int8_t *codes, const float *scales, const int64_t *ids, size_t count,
                         size_t dimension, const int16_t *query, float query_scale,
                         const uint64_t *allowed, size_t allowed_words, size_t keep, uint32_t first_row,
                         float *top_scores, uint32_t *top_rows) {
    if (keep == 0) return 0;
    dot_kernel dot = chosen_kernel(NULL);
    size_t filled = 0;
    for (size_t i = 0; i < count; i++) {
        if (allowed) {
            int64_t id = ids[i];
            if (id < 0 || (uint64_t)id >= (uint64_t)allowed_words * 64) continue;
            if (!((allowed[id >> 6] >> (id & 63)) & 1)) continue;
        }
        float score = (float)dot(codes + i * dimension, query, dimension) * scales[i] * query_scale;
        if (filled < keep) {
            top_scores[filled] = score;
            top_rows[filled] = first_row + (uint32_t)i;
            sift_up(top_scores, top_rows, filled);
            filled++;
        } else if (score > top_scores[0] || (score == top_scores[0] && first_row + (uint32_t)i < top_rows[0])) {
            top_scores[0] = score;
            top_rows[0] = first_row + (uint32_t)i;
            sift_down(top_scores, top_rows, filled, 0);
        }
    }
    return filled;
}

// One accumulator, in order: the same float as the exact scan's sum, so a re-ranked score
// equals the score an exact search gives (a few hundred rows a query: speed does not matter).
float lectern_dot_f32(const float *a, const float *b, size_t count) {
    float sum = 0;
    for (size_t j = 0; j < count; j++) sum += a[j] * b[j];
    return sum;
}

float lectern_quantize_int8(const float *values, size_t count, int8_t *codes) {
    float largest = 0;
    for (size_t j = 0; j < count; j++) {
        float magnitude = fabsf(values[j]);
        if (magnitude > largest) largest = magnitude;
    }
    if (!(largest > 0) || !isfinite(largest)) {
        for (size_t j = 0; j < count; j++) codes[j] = 0;
        return 0;
    }
    float scale = largest / 127.0f;
    for (size_t j = 0; j < count; j++) {
        float code = nearbyintf(values[j] / scale);
        codes[j] = (int8_t)(code > 127 ? 127 : (code < -127 ? -127 : code));
    }
    return scale;
}
