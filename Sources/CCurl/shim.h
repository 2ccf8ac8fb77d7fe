#ifndef LECTERN_CCURL_SHIM_H
#define LECTERN_CCURL_SHIM_H
/* libcurl is opened with dlopen on first use, not linked: only commands that fetch over HTTP
   pay for loading it and its ~30 libraries. The real header gives the types and constants;
   every function Lectern calls goes through a `lazy_` wrapper that looks its symbol up once.
   Swift calls `SystemLibrary.curl.load()` (a clear LecternError when it is missing) first. */
#include <curl/curl.h>
#include "../CLazyLibrary/lazy_library.h"

#define LECTERN_CURL_SONAME "libcurl.so.4"
LECTERN_LAZY_LIBRARY(curl, LECTERN_CURL_SONAME, "libcurl.so")
#define LECTERN_CURL_FN(name) LECTERN_LAZY_FN(curl, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the wrappers and the check that load() makes. */
#define LECTERN_CURL_API(X, V) \
    X(char *, curl_version, (void), ()) \
    X(CURLcode, curl_global_init, (long flags), (flags)) \
    X(CURL *, curl_easy_init, (void), ()) \
    V(void, curl_easy_cleanup, (CURL *handle), (handle)) \
    X(CURLcode, curl_easy_perform, (CURL *handle), (handle)) \
    X(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *string), (list, string)) \
    V(void, curl_slist_free_all, (struct curl_slist *list), (list))

#define LECTERN_CURL_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_CURL_FN(name) args; }
#define LECTERN_CURL_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_CURL_FN(name) args; }
LECTERN_CURL_API(LECTERN_CURL_WRAPPER, LECTERN_CURL_VOID_WRAPPER)

LECTERN_LAZY_LOAD(curl, LECTERN_CURL_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME) "curl_easy_setopt", "curl_easy_getinfo")

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each
   argument type gets a typed wrapper (the variadic functions themselves are looked up once). */
#define LECTERN_CURL_SETOPT(h, o, v) LECTERN_CURL_FN(curl_easy_setopt)(h, o, v)
#define LECTERN_CURL_GETINFO(h, i, v) LECTERN_CURL_FN(curl_easy_getinfo)(h, i, v)
static inline CURLcode lectern_curl_setopt_long(CURL *h, CURLoption o, long v) { return LECTERN_CURL_SETOPT(h, o, v); }
static inline CURLcode lectern_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return LECTERN_CURL_SETOPT(h, o, v); }
static inline CURLcode lectern_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return LECTERN_CURL_SETOPT(h, o, v); }
static inline CURLcode lectern_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return LECTERN_CURL_SETOPT(h, o, v); }
static inline CURLcode lectern_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return LECTERN_CURL_SETOPT(h, o, v); }
typedef size_t (*lectern_curl_data_callback)(char *, size_t, size_t, void *);
static inline CURLcode lectern_curl_setopt_callback(CURL *h, CURLoption o, lectern_curl_data_callback v) { return LECTERN_CURL_SETOPT(h, o, v); }
typedef int (*lectern_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode lectern_curl_setopt_progress(CURL *h, CURLoption o, lectern_curl_progress_callback v) { return LECTERN_CURL_SETOPT(h, o, v); }
static inline CURLcode lectern_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return LECTERN_CURL_GETINFO(h, i, v); }
static inline CURLcode lectern_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return LECTERN_CURL_GETINFO(h, i, v); }
static inline CURLcode lectern_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return LECTERN_CURL_GETINFO(h, i, v); }
#endif
