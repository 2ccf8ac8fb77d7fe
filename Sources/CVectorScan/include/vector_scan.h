#ifndef LECTERN_VECTOR_SCAN_H
#define LECTERN_VECTOR_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// Scans `count` int8 vectors of `dimension` codes (row-major, each with its own float
/// scale) against a query quantised to int16 (`query_scale` per unit), and keeps the `keep`
/// best approximate scores (scale · query_scale · Σ code·query) with their row numbers
/// (`first_row` + index). Rows whose id is not set in the `allowed` bitmap (bit `id` of word
/// `id / 64`; ids at or past `allowed_words · 64` are not allowed) are skipped; a null
/// bitmap allows every row. `top_scores`/`top_rows` hold `keep` slots, unordered; returns
/// how many are filled. Of rows with equal scores the earlier are kept, so a scan split into
/// pieces keeps what one whole scan keeps. Uses AVX-512BW or AVX2 where the CPU has them.
size_t lectern_scan_int8(const int8_t *codes, const float *scales, const int64_t *ids, size_t count,
                         size_t dimension, const int16_t *query, float query_scale,
                         const uint64_t *allowed, size_t allowed_words, size_t keep, uint32_t first_row,
                         float *top_scores, uint32_t *top_rows);

/// Σ a[i]·b[i] over `count` floats, summed in order.
float lectern_dot_f32(const float *a, const float *b, size_t count);

/// Quantises `count` floats to int8 codes with one scale (max |value| / 127; 0 for a zero
/// vector), written to `codes`; returns the scale.
float lectern_quantize_int8(const float *values, size_t count, int8_t *codes);

/// Which kernel `lectern_scan_int8` runs: "avx512bw", "avx2" or "portable".
const char *lectern_scan_kernel(void);

#endif
