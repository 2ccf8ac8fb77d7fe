#ifndef LECTERN_CSQLITE_SHIM_H
#define LECTERN_CSQLITE_SHIM_H
#include <sqlite3.h>
/* sqlite3_db_config is variadic: a typed wrapper for the integer options. */
static inline int lectern_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *out) { return sqlite3_db_config(db, op, value, out); }
#endif
