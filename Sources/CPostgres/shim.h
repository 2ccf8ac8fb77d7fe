#ifndef LECTERN_CPOSTGRES_SHIM_H
#define LECTERN_CPOSTGRES_SHIM_H
/* libpq (PostgreSQL's client library, Debian's libpq5) is opened with dlopen on first use, not
   linked: only a library on PostgreSQL pays for loading it, and a SQLite user's start time and
   the build are unchanged (a Swift PostgreSQL client would bring swift-nio-ssl's BoringSSL).
   This header declares what Lectern uses of libpq-fe.h itself, so that building needs no
   libpq-dev; ShimLayoutTests compares the declarations with the real header. Swift calls
   `SystemLibrary.postgres.load()` (a clear LecternError when libpq5 is missing) before the first
   `lazy_` wrapper. */
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real header instead of the declarations below. */
#include <libpq-fe.h>
#else
typedef unsigned int Oid;

/* Opaque: only handled through pointers. */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* The first values only (libpq's ABI, stable since 7.4); Lectern tests for CONNECTION_OK. */
typedef enum {
    CONNECTION_OK,
    CONNECTION_BAD
} ConnStatusType;

typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK,
    PGRES_TUPLES_OK,
    PGRES_COPY_OUT,
    PGRES_COPY_IN,
    PGRES_BAD_RESPONSE,
    PGRES_NONFATAL_ERROR,
    PGRES_FATAL_ERROR
} ExecStatusType;

typedef void (*PQnoticeProcessor)(void *arg, const char *message);

/* PQresultErrorField's codes (postgres_ext.h). */
#define PG_DIAG_SQLSTATE 'C'
#define PG_DIAG_MESSAGE_PRIMARY 'M'
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_PQ_SONAME "libpq.so.5"
LECTERN_LAZY_LIBRARY(pq, LECTERN_PQ_SONAME, "libpq.so")
#define LECTERN_PQ_FN(name) LECTERN_LAZY_FN(pq, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. */
#define LECTERN_PQ_API(X, V) \
    X(int, PQlibVersion, (void), ()) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(int, PQserverVersion, (const PGconn *conn), (conn)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    V(void, PQfinish, (PGconn *conn), (conn)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
      const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    V(void, PQclear, (PGresult *res), (res))

LECTERN_PQ_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)

#define LECTERN_PQ_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_PQ_FN(name) args; }
#define LECTERN_PQ_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_PQ_FN(name) args; }
LECTERN_PQ_API(LECTERN_PQ_WRAPPER, LECTERN_PQ_VOID_WRAPPER)

LECTERN_LAZY_LOAD(pq, LECTERN_PQ_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME))

/* Swift imports no character-literal macro: the field codes as constants. */
static const int lectern_pq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int lectern_pq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;

/* libpq prints the server's notices ("extension \"vector\" already exists, skipping") to stderr
   by default; a library never prints, so a connection drops them. */
static void lectern_pq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void lectern_pq_quiet(PGconn *conn) { lazy_PQsetNoticeProcessor(conn, lectern_pq_ignore_notice, NULL); }
#endif
