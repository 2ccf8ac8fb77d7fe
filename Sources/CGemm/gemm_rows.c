/* lectern_gemm_rows (include/gemm_rows.h): one body, gemm_rows_body.h, built for 16 lanes
   (AVX-512), 8 (AVX2 + FMA) and 4 (portable), chosen as lectern_gemm chooses. */
#include "gemm_rows.h"
#include "gemm.h"
#include "kernel_choice.h"

#include <string.h>

#define LANES 4
#define TARGET
#define NAME(x) x##_portable
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME

#if defined(__x86_64__) || defined(__i386__)
#define LECTERN_X86 1
#define LANES 8
#define TARGET __attribute__((target("avx2,fma")))
#define NAME(x) x##_avx2
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME

#define LANES 16
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))
#define NAME(x) x##_avx512
#include "gemm_rows_body.h"
#undef LANES
#undef TARGET
#undef NAME
#endif

enum rows_width { ROWS_PORTABLE, ROWS_AVX2, ROWS_AVX512 };

static enum rows_width rows_width_of(const char *kernel) {
    return strcmp(kernel, "avx512") == 0 ? ROWS_AVX512 : strcmp(kernel, "avx2") == 0 ? ROWS_AVX2 : ROWS_PORTABLE;
}

static void gemm_rows_at(enum rows_width width, int m, int n, int k, const float *a, int lda, const float *w, int ldw,
                         float *c, int ldc, int accumulate) {
    if (m <= 0 || n <= 0) return;
#ifdef LECTERN_X86
    switch (width) {
    case ROWS_AVX512: gemm_rows_avx512(m, n, k, a, lda, w, ldw, c, ldc, accumulate); return;
    case ROWS_AVX2: gemm_rows_avx2(m, n, k, a, lda, w, ldw, c, ldc, accumulate); return;
    default: break;
    }
#endif
    gemm_rows_portable(m, n, k, a, lda, w, ldw, c, ldc, accumulate);
}

void lectern_gemm_rows(int m, int n, int k, const float *a, int lda, const float *w, int ldw, float *c, int ldc,
                       int accumulate) {
    static int width = -1;
    int chosen = __atomic_load_n(&width, __ATOMIC_RELAXED);
    if (chosen < 0) {
        chosen = (int)rows_width_of(lectern_gemm_kernel());
        __atomic_store_n(&width, chosen, __ATOMIC_RELAXED);
    }
    gemm_rows_at((enum rows_width)chosen, m, n, k, a, lda, w, ldw, c, ldc, accumulate);
}

int lectern_gemm_rows_by(const char *kernel, int m, int n, int k, const float *a, int lda, const float *w, int ldw,
                         float *c, int ldc, int accumulate) {
    if (!lectern_cpu_runs_kernel(kernel)) return 0;
    gemm_rows_at(rows_width_of(kernel), m, n, k, a, lda, w, ldw, c, ldc, accumulate);
    return 1;
}
