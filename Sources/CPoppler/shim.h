#ifndef LECTERN_CPOPPLER_SHIM_H
#define LECTERN_CPOPPLER_SHIM_H
#include <poppler.h>
#include <glib.h>
#include <glib-object.h>

/* poppler-glib reports damaged files through g_log in the "Poppler" domain, which prints to
   stderr by default. A library must not print: drop them (the caller gets a GError). */
static void lectern_poppler_quiet_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}
static inline void lectern_poppler_silence(void) {
    g_log_set_handler("Poppler", (GLogLevelFlags)(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
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
        PopplerDest *named = poppler_document_find_dest(doc, dest->named_dest);
        if (named != NULL) {
            page = named->page_num;
            if (named->change_top) *top = named->top;
            poppler_dest_free(named);
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
    return error != NULL && error->domain == POPPLER_ERROR && error->code == POPPLER_ERROR_ENCRYPTED;
}

/* Font facts of one text-attribute run (GList of PopplerTextAttributes). */
static inline PopplerTextAttributes *lectern_poppler_attributes(GList *item) { return (PopplerTextAttributes *)item->data; }
#endif
