#ifndef LECTERN_CCURL_SHIM_H
#define LECTERN_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each
   argument type gets a typed wrapper. */
static inline CURLcode lectern_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode lectern_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode lectern_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode lectern_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode lectern_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*lectern_curl_data_callback)(char *, size_t, size_t, void *);
static inline CURLcode lectern_curl_setopt_callback(CURL *h, CURLoption o, lectern_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
typedef int (*lectern_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode lectern_curl_setopt_progress(CURL *h, CURLoption o, lectern_curl_progress_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode lectern_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode lectern_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode lectern_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
#endif
