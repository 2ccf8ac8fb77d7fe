#ifndef LECTERN_COPENBLAS_SHIM_H
#define LECTERN_COPENBLAS_SHIM_H
/* OpenBLAS's CBLAS interface (cblas_sgemm) and its thread control, for the MiniLM encoder.
   Opened with dlopen on first use, not linked: only commands that embed with MiniLM pay for
   loading it (and its thread pool). The header gives the types and enums; every function
   goes through a `lazy_` wrapper that looks its symbol up once (cblas_sgemm runs per layer:
   one atomic load per call, never a dlsym). Swift calls `SystemLibrary.openblas.load()` first. */
#include <cblas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define LECTERN_OPENBLAS_SONAME "libopenblas.so.0"

/* The library, opened once (RTLD_LOCAL); NULL when it cannot be loaded. Two threads racing
   here both get the same handle. */
static inline void *lectern_openblas_handle(void) {
    static void *handle;
    void *h = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
    if (h == NULL) {
        h = dlopen(LECTERN_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) h = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) __atomic_store_n(&handle, h, __ATOMIC_RELEASE);
    }
    return h;
}

/* A symbol of the library. Reaching a wrapper without a successful load() is a programming
   error: say which, and stop (calling through NULL would be a bare segfault). */
static inline void *lectern_openblas_symbol(const char *name) {
    void *h = lectern_openblas_handle();
    void *symbol = h != NULL ? dlsym(h, name) : NULL;
    if (symbol == NULL) {
        fprintf(stderr, "lectern: internal error: %s called without %s loaded (SystemLibrary.openblas.load())\n",
                name, LECTERN_OPENBLAS_SONAME);
        abort();
    }
    return symbol;
}

/* The function `name`, with its own type, looked up on the first call and cached. */
#define LECTERN_OPENBLAS_FN(name) (__extension__({ \
    static void *slot_; \
    void *fn_ = __atomic_load_n(&slot_, __ATOMIC_ACQUIRE); \
    if (__builtin_expect(fn_ == NULL, 0)) { \
        fn_ = lectern_openblas_symbol(#name); \
        __atomic_store_n(&slot_, fn_, __ATOMIC_RELEASE); \
    } \
    (__typeof__(&name))fn_; }))

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

/* NULL when the library is loaded and has every function above; "" when it cannot be loaded;
   else the name of the first function it lacks (an older version). Cheap once it succeeded. */
#define LECTERN_OPENBLAS_NAME(ret, name, params, args) #name,
static inline const char *lectern_openblas_load(void) {
    static int ready;
    if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) return NULL;
    void *h = lectern_openblas_handle();
    if (h == NULL) return "";
    static const char *const names[] = { LECTERN_OPENBLAS_API(LECTERN_OPENBLAS_NAME, LECTERN_OPENBLAS_NAME) };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (dlsym(h, names[i]) == NULL) return names[i];
    }
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    return NULL;
}

#endif
