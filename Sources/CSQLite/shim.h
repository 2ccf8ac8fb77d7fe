#ifndef LECTERN_CSQLITE_SHIM_H
#define LECTERN_CSQLITE_SHIM_H
#include <sqlite3.h>
/* sqlite3_db_config is variadic: a typed wrapper for the integer options. */
static inline int lectern_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *out) { return sqlite3_db_config(db, op, value, out); }

/* FTS5's own tokenizer, as the keyword index uses it: the keyword postings (KeywordPostings)
   must hold exactly the tokens FTS5 holds, so they are made by FTS5's code, not a copy of it. */
typedef struct {
    fts5_tokenizer methods;
    Fts5Tokenizer *instance;
} lectern_fts5_tokenizer;

/* The connection's fts5_api, fetched as the FTS5 documentation says: SELECT fts5(?1) with a
   pointer bound. NULL when the SQLite library has no FTS5. */
static inline fts5_api *lectern_fts5_api(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

/* Opens the tokenizer `arguments[0]` with the rest as its arguments (e.g. "porter",
   "unicode61", "remove_diacritics", "2", as `tokenize='porter unicode61 remove_diacritics 2'`). */
static inline int lectern_fts5_tokenizer_open(sqlite3 *db, const char **arguments, int count, lectern_fts5_tokenizer *out) {
    out->instance = 0;
    fts5_api *api = lectern_fts5_api(db);
    if (!api || count < 1) return SQLITE_ERROR;
    void *context = 0;
    int rc = api->xFindTokenizer(api, arguments[0], &context, &out->methods);
    if (rc != SQLITE_OK) return rc;
    return out->methods.xCreate(context, arguments + 1, count - 1, &out->instance);
}

static inline void lectern_fts5_tokenizer_close(lectern_fts5_tokenizer *tokenizer) {
    if (tokenizer->instance) tokenizer->methods.xDelete(tokenizer->instance);
    tokenizer->instance = 0;
}

typedef int (*lectern_fts5_token_callback)(void *context, int flags, const char *token, int length, int start, int end);

/* `flags`: FTS5_TOKENIZE_DOCUMENT or FTS5_TOKENIZE_QUERY. */
static inline int lectern_fts5_tokenize(lectern_fts5_tokenizer *tokenizer, int flags, const char *text, int length,
                                        void *context, lectern_fts5_token_callback callback) {
    return tokenizer->methods.xTokenize(tokenizer->instance, context, flags, text, length, callback);
}
#endif
