#ifndef LECTERN_CPOPPLER_SHIM_H
#define LECTERN_CPOPPLER_SHIM_H
/* poppler-glib (with the glib and gobject calls Lectern makes on its objects) is opened with
   dlopen on first use, not linked: only commands that read a PDF pay for loading its ~50
   libraries. This header declares what Lectern uses of them itself, so that building needs
   neither the -dev packages nor their include paths (poppler/glib, glib-2.0, cairo: an
   `unsafeFlags` would make the package unusable as a dependency). Every function goes through a
   `lazy_` wrapper below that looks its symbol up once. Swift calls `SystemLibrary.poppler.load()`
   (which throws a clear LecternError when the library is missing) before the first wrapper.
   The cairo calls that render a page for OCR are found through the same handle: dlsym searches
   poppler-glib's own dependencies, and it links libcairo. */
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real headers instead of the declarations below, which
   it compares with them field by field and constant by constant. */
#include <poppler.h>
#include <glib.h>
#include <glib-object.h>
#else
/* glib's basic types (gtypes.h, glibconfig.h). */
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef gint gboolean;
typedef double gdouble;
typedef void *gpointer;
typedef unsigned short guint16;
typedef unsigned int guint32;
typedef guint32 GQuark;

typedef struct _GError GError;
struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
};

typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

typedef enum {
    G_LOG_FLAG_RECURSION = 1 << 0,
    G_LOG_FLAG_FATAL = 1 << 1,
    G_LOG_LEVEL_MASK = ~(G_LOG_FLAG_RECURSION | G_LOG_FLAG_FATAL)
} GLogLevelFlags;
typedef void (*GLogFunc)(const gchar *log_domain, GLogLevelFlags log_level, const gchar *message, gpointer user_data);

/* GObjects, only handled through pointers. */
typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;
typedef struct _PopplerIndexIter PopplerIndexIter;

typedef enum {
    POPPLER_ERROR_INVALID = 0,
    POPPLER_ERROR_ENCRYPTED = 1
} PopplerError;

typedef struct _PopplerRectangle PopplerRectangle;
struct _PopplerRectangle {
    gdouble x1;
    gdouble y1;
    gdouble x2;
    gdouble y2;
};

/* Where an image is drawn on a page (poppler_page_get_image_mapping's list). */
typedef struct _PopplerImageMapping PopplerImageMapping;
struct _PopplerImageMapping {
    PopplerRectangle area;
    gint image_id;
};

typedef struct _PopplerColor PopplerColor;
struct _PopplerColor {
    guint16 red;
    guint16 green;
    guint16 blue;
};

typedef struct _PopplerTextAttributes PopplerTextAttributes;
struct _PopplerTextAttributes {
    gchar *font_name;
    gdouble font_size;
    gboolean is_underlined;
    PopplerColor color;
    gint start_index;
    gint end_index;
};

typedef enum {
    POPPLER_DEST_UNKNOWN = 0,
    POPPLER_DEST_XYZ = 1,
    POPPLER_DEST_NAMED = 9
} PopplerDestType;

typedef struct _PopplerDest PopplerDest;
struct _PopplerDest {
    PopplerDestType type;
    int page_num;
    double left;
    double bottom;
    double right;
    double top;
    double zoom;
    gchar *named_dest;
    guint change_left : 1;
    guint change_top : 1;
    guint change_zoom : 1;
};

typedef enum {
    POPPLER_ACTION_UNKNOWN = 0,
    POPPLER_ACTION_NONE = 1,
    POPPLER_ACTION_GOTO_DEST = 2
} PopplerActionType;

typedef struct _PopplerActionAny PopplerActionAny;
struct _PopplerActionAny {
    PopplerActionType type;
    gchar *title;
};

typedef struct _PopplerActionGotoDest PopplerActionGotoDest;
struct _PopplerActionGotoDest {
    PopplerActionType type;
    gchar *title;
    PopplerDest *dest;
};

/* Only through pointers that poppler hands out, so only the members read here. */
typedef union _PopplerAction PopplerAction;
union _PopplerAction { /* partial: poppler's has more members (and is larger) */
    PopplerActionType type;
    PopplerActionAny any;
    PopplerActionGotoDest goto_dest;
};

/* cairo (cairo.h), for rendering a page without a text layer for OCR. */
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef enum _cairo_format {
    CAIRO_FORMAT_INVALID = -1,
    CAIRO_FORMAT_ARGB32 = 0,
    CAIRO_FORMAT_RGB24 = 1
} cairo_format_t;
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_POPPLER_SONAME "libpoppler-glib.so.8"
LECTERN_LAZY_LIBRARY(poppler, LECTERN_POPPLER_SONAME, "libpoppler-glib.so")
#define LECTERN_POPPLER_FN(name) LECTERN_LAZY_FN(poppler, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the declarations, the wrappers and the check that load() makes. */
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
    X(gchar *, poppler_page_get_label, (PopplerPage *page), (page)) \
    X(gboolean, poppler_page_get_text_layout, (PopplerPage *page, PopplerRectangle **rectangles, guint *count), (page, rectangles, count)) \
    X(GList *, poppler_page_get_text_attributes, (PopplerPage *page), (page)) \
    V(void, poppler_page_free_text_attributes, (GList *list), (list)) \
    X(GList *, poppler_page_get_image_mapping, (PopplerPage *page), (page)) \
    V(void, poppler_page_free_image_mapping, (GList *list), (list)) \
    V(void, poppler_page_render, (PopplerPage *page, cairo_t *cairo), (page, cairo)) \
    X(cairo_surface_t *, poppler_page_get_image, (PopplerPage *page, gint image_id), (page, image_id)) \
    X(int, cairo_image_surface_get_width, (cairo_surface_t *surface), (surface)) \
    X(int, cairo_image_surface_get_height, (cairo_surface_t *surface), (surface)) \
    X(cairo_format_t, cairo_image_surface_get_format, (cairo_surface_t *surface), (surface)) \
    X(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height), (format, width, height)) \
    X(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *surface), (surface)) \
    X(int, cairo_image_surface_get_stride, (cairo_surface_t *surface), (surface)) \
    V(void, cairo_surface_flush, (cairo_surface_t *surface), (surface)) \
    V(void, cairo_surface_destroy, (cairo_surface_t *surface), (surface)) \
    X(cairo_t *, cairo_create, (cairo_surface_t *target), (target)) \
    V(void, cairo_destroy, (cairo_t *cr), (cr)) \
    V(void, cairo_scale, (cairo_t *cr, double sx, double sy), (cr, sx, sy)) \
    V(void, cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), (cr, red, green, blue)) \
    V(void, cairo_paint, (cairo_t *cr), (cr)) \
    X(gchar *, g_filename_to_uri, (const gchar *filename, const gchar *hostname, GError **error), (filename, hostname, error)) \
    V(void, g_clear_error, (GError **error), (error)) \
    V(void, g_free, (gpointer memory), (memory)) \
    V(void, g_object_unref, (gpointer object), (object)) \
    X(guint, g_log_set_handler, (const gchar *domain, GLogLevelFlags levels, GLogFunc handler, gpointer data), (domain, levels, handler, data))

LECTERN_POPPLER_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)

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

/* The pixels of a cairo RGB24 or ARGB32 surface as grey on white (`gray`: width x height bytes,
   one a pixel, 0 black .. 255 white), as OCR reads them. In C: a page at 300 dpi is 8.7 million
   pixels, which a debug build of Swift would take a second over. */
static inline void lectern_cairo_surface_gray(cairo_surface_t *surface, int width, int height, unsigned char *gray) {
    lazy_cairo_surface_flush(surface);
    const unsigned char *data = lazy_cairo_image_surface_get_data(surface);
    int stride = lazy_cairo_image_surface_get_stride(surface);
    /* ARGB32 is premultiplied: on white, a pixel is its colour plus what its alpha leaves of the
       white. RGB24's top byte is unused. */
    unsigned int alpha = lazy_cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32;
    for (int y = 0; y < height; y++) {
        const unsigned int *row = (const unsigned int *)(data + (size_t)y * (size_t)stride);
        unsigned char *out = gray + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            unsigned int p = row[x];
            /* ITU-R 601 luma, in integers: (77 R + 150 G + 29 B) / 256. */
            unsigned int luma = (77u * ((p >> 16) & 0xFF) + 150u * ((p >> 8) & 0xFF) + 29u * (p & 0xFF)) >> 8;
            if (alpha) luma += 255u - (p >> 24);
            out[x] = (unsigned char)(luma > 255u ? 255u : luma);
        }
    }
}

/* Renders `page` at `scale` (pixels per point) on white into `gray` (width x height bytes).
   Returns 0 when cairo cannot make the surface (out of memory, a size over its limit). The
   surface is freed before returning: only the grey copy outlives the call. */
static inline int lectern_poppler_render_gray(PopplerPage *page, double scale, int width, int height, unsigned char *gray) {
    cairo_surface_t *surface = lazy_cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (surface == NULL) return 0;
    if (lazy_cairo_image_surface_get_data(surface) == NULL) { lazy_cairo_surface_destroy(surface); return 0; }
    cairo_t *cr = lazy_cairo_create(surface);
    lazy_cairo_set_source_rgb(cr, 1, 1, 1);
    lazy_cairo_paint(cr);
    lazy_cairo_scale(cr, scale, scale);
    lazy_poppler_page_render(page, cr);
    lazy_cairo_destroy(cr);
    lectern_cairo_surface_gray(surface, width, height, gray);
    lazy_cairo_surface_destroy(surface);
    return 1;
}

/* The one image drawn on `page`, when there is exactly one: its id and where it is drawn (in
   points from the top-left corner). Returns 0 for a page with no image or several. */
static inline int lectern_poppler_single_image(PopplerPage *page, int *image_id, PopplerRectangle *area) {
    GList *mapping = lazy_poppler_page_get_image_mapping(page);
    if (mapping == NULL) return 0;
    int found = mapping->next == NULL;
    if (found) {
        const PopplerImageMapping *image = (const PopplerImageMapping *)mapping->data;
        *image_id = image->image_id;
        *area = image->area;
    }
    lazy_poppler_page_free_image_mapping(mapping);
    return found;
}

/* Font facts of one text-attribute run (GList of PopplerTextAttributes). */
static inline PopplerTextAttributes *lectern_poppler_attributes(GList *item) { return (PopplerTextAttributes *)item->data; }
#endif
