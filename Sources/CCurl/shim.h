#ifndef LECTERN_CCURL_SHIM_H
#define LECTERN_CCURL_SHIM_H
/* libcurl is opened with dlopen on first use, not linked: only commands that fetch over HTTP
   pay for loading it and its ~30 libraries. This header declares the types and constants
   Lectern uses itself (building needs no libcurl-dev), and every function Lectern calls goes
   through a `lazy_` wrapper that looks its symbol up once. Swift calls
   `SystemLibrary.curl.load()` (a clear LecternError when it is missing) first. */
#include <stddef.h>
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real header instead of the declarations below, which
   it compares with them field by field and constant by constant. */
#include <curl/curl.h>
#else
typedef void CURL;
typedef long curl_off_t;

struct curl_slist {
    char *data;
    struct curl_slist *next;
};

/* The values are libcurl's ABI, stable across versions; only those Lectern names. */
typedef enum {
    CURLE_OK = 0,
    CURLE_UNSUPPORTED_PROTOCOL = 1,
    CURLE_FAILED_INIT = 2,
    CURLE_URL_MALFORMAT = 3,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_HTTP2 = 16,
    CURLE_PARTIAL_FILE = 18,
    CURLE_WRITE_ERROR = 23,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_SSL_CONNECT_ERROR = 35,
    CURLE_ABORTED_BY_CALLBACK = 42,
    CURLE_TOO_MANY_REDIRECTS = 47,
    CURLE_GOT_NOTHING = 52,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_PEER_FAILED_VERIFICATION = 60,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURLE_HTTP2_STREAM = 92
} CURLcode;

/* An option's number is its argument type's base (long 0, pointer 10000, function 20000,
   curl_off_t 30000) plus its index. */
typedef enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_USERAGENT = 10018,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_NOPROGRESS = 43,
    CURLOPT_NOBODY = 44,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_XFERINFODATA = 10057,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_ACCEPT_ENCODING = 10102,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_COPYPOSTFIELDS = 10165,
    CURLOPT_XFERINFOFUNCTION = 20219,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_REDIR_PROTOCOLS_STR = 10319
} CURLoption;

/* An item's number is its result type's base (string 0x100000, long 0x200000, double
   0x300000) plus its index. */
typedef enum {
    CURLINFO_EFFECTIVE_URL = 0x100001,
    CURLINFO_RESPONSE_CODE = 0x200002,
    CURLINFO_TOTAL_TIME = 0x300003,
    CURLINFO_CONTENT_TYPE = 0x100012,
    CURLINFO_REDIRECT_URL = 0x10001F
} CURLINFO;

#define CURL_GLOBAL_DEFAULT 3
#define CURL_ERROR_SIZE 256
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_CURL_SONAME "libcurl.so.4"
LECTERN_LAZY_LIBRARY(curl, LECTERN_CURL_SONAME, "libcurl.so")
#define LECTERN_CURL_FN(name) LECTERN_LAZY_FN(curl, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the declarations, the wrappers and the check that load() makes. */
#define LECTERN_CURL_API(X, V) \
    X(char *, curl_version, (void), ()) \
    X(CURLcode, curl_global_init, (long flags), (flags)) \
    X(CURL *, curl_easy_init, (void), ()) \
    V(void, curl_easy_cleanup, (CURL *handle), (handle)) \
    X(CURLcode, curl_easy_perform, (CURL *handle), (handle)) \
    X(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *string), (list, string)) \
    V(void, curl_slist_free_all, (struct curl_slist *list), (list))

LECTERN_CURL_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)
/* Variadic: never called from Swift, only through the typed wrappers below. */
extern CURLcode (curl_easy_setopt)(CURL *handle, CURLoption option, ...);
extern CURLcode (curl_easy_getinfo)(CURL *handle, CURLINFO info, ...);

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
