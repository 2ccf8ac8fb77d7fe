#ifndef LECTERN_CPOPPLER_SHIM_H
#define LECTERN_CPOPPLER_SHIM_H
/* poppler-glib (with the glib and gobject calls Lectern makes on its objects) is opened with
   dlopen on first use, not linked: only commands that read a PDF pay for loading its ~50
   libraries. The real headers give the types, enums and constants; every function Lectern
   calls goes through a `lazy_` wrapper below that looks its symbol up once.
   Swift calls `SystemLibrary.poppler.load()` (which throws a clear LecternError when the library
   is missing) before the first wrapper. */
#include <poppler.h>
#include <glib.h>
#include <glib-object.h>
#include "../CLazyLibrary/lazy_library.h"

#define LECTERN_POPPLER_SONAME "libpoppler-glib.so.8"
LECTERN_LAZY_LIBRARY(poppler, LECTERN_POPPLER_SONAME, "libpoppler-glib.so")
#define LECTERN_POPPLER_FN(name) LECTERN_LAZY_FN(poppler, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the wrappers and the check that load() makes. */
#define LECTERN_POPPLER_API(X, V) \
    X(const char *, poppler_get_version, (void), ()) \
    X(GQuark, poppler_error_quark, (void), ()) \
    X(PopplerDocument *, poppler_document_new_from_file, (const char *uri, const char *password, GError **error), (uri, password, error)) \
    X(int, poppler_document_get_n_pages, (PopplerDocument *document), (document)) \
    X(PopplerPage *, poppler_document_get_page, (PopplerDocument *document, int index), (document, index)) \
    X(gchar *, poppler_document_get_title, (PopplerDocument *document), (document)) \
    X(gchar *, poppler_document_get_author, (PopplerDocument *document), (document)) \
    X(gchar *, poppler_document_get_subject, (PopplerDocument *document), (document)) \
    X(gchar *, poppler_document_get_creator, (PopplerDocument *document), (document)) \
    X(PopplerDest *, poppler_document_find_dest, (PopplerDocument *document, const gchar *name), (document, name)) \
    V(void, poppler_dest_free, (PopplerDest *dest), (dest)) \
    V(void, poppler_action_free, (PopplerAction *action), (action)) \
    X(PopplerIndexIter *, poppler_index_iter_new, (PopplerDocument *document), (document)) \
    V(void, poppler_index_iter_free, (PopplerIndexIter *iter), (iter)) \
    X(PopplerIndexIter *, poppler_index_iter_get_child, (PopplerIndexIter *parent), (parent)) \
    X(PopplerAction *, poppler_index_iter_get_action, (PopplerIndexIter *iter), (iter)) \
    X(gboolean, poppler_index_iter_next, (PopplerIndexIter *iter), (iter)) \
    V(void, poppler_page_get_size, (PopplerPage *page, double *width, double *height), (page, width, height)) \
    X(char *, poppler_page_get_text, (PopplerPage *page), (page)) \
    X(gboolean, poppler_page_get_text_layout, (PopplerPage *page, PopplerRectangle **rectangles, guint *count), (page, rectangles, count)) \
    X(GList *, poppler_page_get_text_attributes, (PopplerPage *page), (page)) \
    V(void, poppler_page_free_text_attributes, (GList *list), (list)) \
    X(GList *, poppler_page_get_image_mapping, (PopplerPage *page), (page)) \
    V(void, poppler_page_free_image_mapping, (GList *list), (list)) \
    X(gchar *, g_filename_to_uri, (const gchar *filename, const gchar *hostname, GError **error), (filename, hostname, error)) \
    V(void, g_clear_error, (GError **error), (error)) \
    V(void, g_free, (gpointer memory), (memory)) \
    V(void, g_object_unref, (gpointer object), (object)) \
    X(guint, g_log_set_handler, (const gchar *domain, GLogLevelFlags levels, GLogFunc handler, gpointer data), (domain, levels, handler, data))

#define LECTERN_POPPLER_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_POPPLER_FN(name) args; }
#define LECTERN_POPPLER_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_POPPLER_FN(name) args; }
LECTERN_POPPLER_API(LECTERN_POPPLER_WRAPPER, LECTERN_POPPLER_VOID_WRAPPER)

LECTERN_LAZY_LOAD(poppler, LECTERN_POPPLER_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME))

/* poppler-glib reports damaged files through g_log in the "Poppler" domain, which prints to
   stderr by default. A library must not print: drop them (the caller gets a GError). */
static void lectern_poppler_quiet_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}
static inline void lectern_poppler_silence(void) {
    lazy_g_log_set_handler("Poppler", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
                           lectern_poppler_quiet_handler, NULL);
}

/* The 1-based page an outline action points at (named destinations resolved), or 0; its top
   coordinate (PDF units from the bottom) in *top when known, else -1. */
static inline int lectern_poppler_action_page(PopplerDocument *doc, PopplerAction *action, double *top) {
    *top = -1;
    if (action == NULL || action->type != POPPLER_ACTION_GOTO_DEST || action->goto_dest.dest == NULL) return 0;
    PopplerDest *dest = action->goto_dest.dest;
    int page = 0;
    if (dest->type == POPPLER_DEST_NAMED && dest->named_dest != NULL) {
        PopplerDest *named = lazy_poppler_document_find_dest(doc, dest->named_dest);
        if (named != NULL) {
            page = named->page_num;
            if (named->change_top) *top = named->top;
            lazy_poppler_dest_free(named);
        }
    } else {
        page = dest->page_num;
        if (dest->change_top) *top = dest->top;
    }
    return page;
}

static inline const char *lectern_poppler_action_title(PopplerAction *action) {
    if (action == NULL) return NULL;
    return action->any.title;
}

static inline int lectern_poppler_error_is_encrypted(GError *error) {
    return error != NULL && error->domain == lazy_poppler_error_quark() && error->code == POPPLER_ERROR_ENCRYPTED;
}

/* Font facts of one text-attribute run (GList of PopplerTextAttributes). */
static inline PopplerTextAttributes *lectern_poppler_attributes(GList *item) { return (PopplerTextAttributes *)item->data; }
#endif
