#ifndef LECTERN_COPENBLAS_SHIM_H
#define LECTERN_COPENBLAS_SHIM_H
/* OpenBLAS's CBLAS interface (cblas_sgemm) and its thread control, for the MiniLM encoder.
   Opened with dlopen on first use, not linked: only commands that embed with MiniLM pay for
   loading it (and its thread pool). The header gives the types and enums; every function
   goes through a `lazy_` wrapper that looks its symbol up once (cblas_sgemm runs per layer:
   one atomic load per call, never a dlsym). Swift calls `SystemLibrary.openblas.load()` first. */
#include <cblas.h>
#include "../CLazyLibrary/lazy_library.h"

#define LECTERN_OPENBLAS_SONAME "libopenblas.so.0"
LECTERN_LAZY_LIBRARY(openblas, LECTERN_OPENBLAS_SONAME, "libopenblas.so")
#define LECTERN_OPENBLAS_FN(name) LECTERN_LAZY_FN(openblas, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the wrappers and the check that load() makes. */
#define LECTERN_OPENBLAS_API(X, V) \
    X(char *, openblas_get_config, (void), ()) \
    X(char *, openblas_get_corename, (void), ()) \
    V(void, openblas_set_num_threads, (int threads), (threads)) \
    X(CBLAS_INDEX, cblas_isamax, (OPENBLAS_CONST blasint n, OPENBLAS_CONST float *x, OPENBLAS_CONST blasint incx), (n, x, incx)) \
    V(void, cblas_sgemv, (OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE trans, OPENBLAS_CONST blasint m, \
        OPENBLAS_CONST blasint n, OPENBLAS_CONST float alpha, OPENBLAS_CONST float *a, OPENBLAS_CONST blasint lda, \
        OPENBLAS_CONST float *x, OPENBLAS_CONST blasint incx, OPENBLAS_CONST float beta, float *y, OPENBLAS_CONST blasint incy), \
        (order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)) \
    V(void, cblas_sgemm, (OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE transA, \
        OPENBLAS_CONST enum CBLAS_TRANSPOSE transB, OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n, OPENBLAS_CONST blasint k, \
        OPENBLAS_CONST float alpha, OPENBLAS_CONST float *a, OPENBLAS_CONST blasint lda, OPENBLAS_CONST float *b, \
        OPENBLAS_CONST blasint ldb, OPENBLAS_CONST float beta, float *c, OPENBLAS_CONST blasint ldc), \
        (order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))

#define LECTERN_OPENBLAS_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_OPENBLAS_FN(name) args; }
#define LECTERN_OPENBLAS_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_OPENBLAS_FN(name) args; }
LECTERN_OPENBLAS_API(LECTERN_OPENBLAS_WRAPPER, LECTERN_OPENBLAS_VOID_WRAPPER)

LECTERN_LAZY_LOAD(openblas, LECTERN_OPENBLAS_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME))

#endif
