#ifndef LECTERN_COPENBLAS_SHIM_H
#define LECTERN_COPENBLAS_SHIM_H
/* OpenBLAS's CBLAS interface (cblas_sgemm) and its thread control, for the MiniLM encoder.
   Opened with dlopen on first use, not linked: only commands that embed with MiniLM pay for
   loading it (and its thread pool). This header declares the types and enums itself (building
   needs no libopenblas-dev); every function goes through a `lazy_` wrapper that looks its
   symbol up once (cblas_sgemm runs per layer: one atomic load per call, never a dlsym). Swift
   calls `SystemLibrary.openblas.load()` first. */
#include <stddef.h>
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real header instead of the declarations below, which
   it compares with them constant by constant. */
#include <cblas.h>
#else
/* Debian's libopenblas0 has the 32-bit integer interface (libopenblas64-0 is the other). */
typedef int blasint;
typedef size_t CBLAS_INDEX;

typedef enum CBLAS_ORDER {
    CblasRowMajor = 101,
    CblasColMajor = 102
} CBLAS_ORDER;

typedef enum CBLAS_TRANSPOSE {
    CblasNoTrans = 111,
    CblasTrans = 112,
    CblasConjTrans = 113,
    CblasConjNoTrans = 114
} CBLAS_TRANSPOSE;
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_OPENBLAS_SONAME "libopenblas.so.0"
LECTERN_LAZY_LIBRARY(openblas, LECTERN_OPENBLAS_SONAME, "libopenblas.so")
#define LECTERN_OPENBLAS_FN(name) LECTERN_LAZY_FN(openblas, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the declarations, the wrappers and the check that load() makes. */
#define LECTERN_OPENBLAS_API(X, V) \
    X(char *, openblas_get_config, (void), ()) \
    X(char *, openblas_get_corename, (void), ()) \
    V(void, openblas_set_num_threads, (int threads), (threads)) \
    X(CBLAS_INDEX, cblas_isamax, (blasint n, const float *x, blasint incx), (n, x, incx)) \
    V(void, cblas_sgemv, (enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans, blasint m, blasint n, float alpha, \
        const float *a, blasint lda, const float *x, blasint incx, float beta, float *y, blasint incy), \
        (order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)) \
    V(void, cblas_sgemm, (enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE transA, enum CBLAS_TRANSPOSE transB, \
        blasint m, blasint n, blasint k, float alpha, const float *a, blasint lda, const float *b, blasint ldb, \
        float beta, float *c, blasint ldc), \
        (order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))

LECTERN_OPENBLAS_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)

#define LECTERN_OPENBLAS_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_OPENBLAS_FN(name) args; }
#define LECTERN_OPENBLAS_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_OPENBLAS_FN(name) args; }
LECTERN_OPENBLAS_API(LECTERN_OPENBLAS_WRAPPER, LECTERN_OPENBLAS_VOID_WRAPPER)

LECTERN_LAZY_LOAD(openblas, LECTERN_OPENBLAS_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME))

#endif
