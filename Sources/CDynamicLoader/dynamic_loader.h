#ifndef LECTERN_DYNAMIC_LOADER_H
#define LECTERN_DYNAMIC_LOADER_H
/* The dynamic loader of the shims: a system library opened with dlopen on first use instead of
   being linked, so that a command loads only the libraries it uses (poppler-glib alone brings
   ~50). Each shim (CPoppler, CCurl, CLibXML2) declares the types and constants it
   uses itself (no -dev include paths, so no unsafeFlags; ShimLayoutTests compares them with the
   real headers), lists the functions Lectern calls, and gets from the macros below:
     lectern_<lib>_handle()   the library, opened once (RTLD_LOCAL), NULL when it cannot be;
     lectern_<lib>_load()     NULL when it is loaded with every listed function, "" when it
                              cannot be loaded, else the first function it lacks (an older
                              version); Swift's `SystemLibrary.<lib>.load()` turns that into one
                              clear LecternError before the first call;
     LECTERN_LAZY_FN(lib, f)  the function f with its own type, looked up on the first call and
                              cached: one atomic load per call afterwards, never a dlsym. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define LECTERN_LAZY_LIBRARY(lib, soname, fallback) \
    static inline void *lectern_##lib##_handle(void) { \
        static void *handle; \
        void *h = __atomic_load_n(&handle, __ATOMIC_ACQUIRE); \
        if (h == NULL) { \
            /* Two threads racing here both get the same handle. */ \
            h = dlopen(soname, RTLD_NOW | RTLD_LOCAL); \
            if (h == NULL) h = dlopen(fallback, RTLD_NOW | RTLD_LOCAL); \
            if (h != NULL) __atomic_store_n(&handle, h, __ATOMIC_RELEASE); \
        } \
        return h; \
    } \
    /* Reaching a wrapper without a successful load() is a programming error: say which, and \
       stop (calling through NULL would be a bare segfault). */ \
    static inline void *lectern_##lib##_symbol(const char *name) { \
        void *h = lectern_##lib##_handle(); \
        void *symbol = h != NULL ? dlsym(h, name) : NULL; \
        if (symbol == NULL) { \
            fprintf(stderr, "lectern: internal error: %s called without %s loaded (SystemLibrary.%s.load())\n", \
                    name, soname, #lib); \
            abort(); \
        } \
        return symbol; \
    }

#define LECTERN_LAZY_FN(lib, name) (__extension__({ \
    static void *slot_; \
    void *fn_ = __atomic_load_n(&slot_, __ATOMIC_ACQUIRE); \
    if (__builtin_expect(fn_ == NULL, 0)) { \
        fn_ = lectern_##lib##_symbol(#name); \
        __atomic_store_n(&slot_, fn_, __ATOMIC_RELEASE); \
    } \
    (__typeof__(&name))fn_; }))

/* For a shim's list `API(X, V)` of (return type, name, parameters, arguments), V for functions
   that return nothing: the declarations (never called directly: `&name` only gives the type;
   the parentheses keep a header's function-like macro of the same name out), and the names for
   the load() check. */
#define LECTERN_LAZY_DECLARE(ret, name, params, args) extern ret (name) params;
#define LECTERN_LAZY_NAME(ret, name, params, args) #name,

/* lectern_<lib>_load(), checking every name given (a list of string literals with commas). */
#define LECTERN_LAZY_LOAD(lib, ...) \
    static inline const char *lectern_##lib##_load(void) { \
        static int ready; \
        if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) return NULL; \
        void *h = lectern_##lib##_handle(); \
        if (h == NULL) return ""; \
        static const char *const names[] = { __VA_ARGS__ }; \
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) { \
            if (dlsym(h, names[i]) == NULL) return names[i]; \
        } \
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE); \
        return NULL; \
    }

#endif
