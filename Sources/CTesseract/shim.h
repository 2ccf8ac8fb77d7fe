#ifndef LECTERN_CTESSERACT_SHIM_H
#define LECTERN_CTESSERACT_SHIM_H
/* libtesseract (Tesseract 5's C API, capi.h) is opened with dlopen on first use, not linked: only
   an ingest that meets a page without a text layer pays for loading it and its language models.
   This header declares what Lectern uses of it itself, so that building needs neither
   libtesseract-dev nor its include paths; ShimLayoutTests compares the declarations with the real
   header. Swift calls `SystemLibrary.tesseract.load()` (a clear LecternError when the library is
   missing) before the first `lazy_` wrapper. */
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real header instead of the declarations below. */
#include <tesseract/capi.h>
#else
typedef int BOOL;

/* Opaque: only handled through pointers. */
typedef struct TessBaseAPI TessBaseAPI;
typedef struct TessPageIterator TessPageIterator;
typedef struct TessResultIterator TessResultIterator;
typedef struct ETEXT_DESC ETEXT_DESC;

typedef enum TessPageSegMode {
    PSM_OSD_ONLY,
    PSM_AUTO_OSD,
    PSM_AUTO_ONLY,
    PSM_AUTO,
    PSM_SINGLE_COLUMN,
    PSM_SINGLE_BLOCK_VERT_TEXT,
    PSM_SINGLE_BLOCK,
    PSM_SINGLE_LINE,
    PSM_SINGLE_WORD,
    PSM_CIRCLE_WORD,
    PSM_SINGLE_CHAR,
    PSM_SPARSE_TEXT,
    PSM_SPARSE_TEXT_OSD,
    PSM_RAW_LINE,
    PSM_COUNT
} TessPageSegMode;

typedef enum TessPageIteratorLevel {
    RIL_BLOCK,
    RIL_PARA,
    RIL_TEXTLINE,
    RIL_WORD,
    RIL_SYMBOL
} TessPageIteratorLevel;
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_TESSERACT_SONAME "libtesseract.so.5"
LECTERN_LAZY_LIBRARY(tesseract, LECTERN_TESSERACT_SONAME, "libtesseract.so")
#define LECTERN_TESSERACT_FN(name) LECTERN_LAZY_FN(tesseract, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. */
#define LECTERN_TESSERACT_API(X, V) \
    X(const char *, TessVersion, (void), ()) \
    V(void, TessDeleteText, (const char *text), (text)) \
    V(void, TessDeleteTextArray, (char **arr), (arr)) \
    X(TessBaseAPI *, TessBaseAPICreate, (void), ()) \
    V(void, TessBaseAPIDelete, (TessBaseAPI *handle), (handle)) \
    V(void, TessBaseAPIEnd, (TessBaseAPI *handle), (handle)) \
    V(void, TessBaseAPIClear, (TessBaseAPI *handle), (handle)) \
    X(int, TessBaseAPIInit3, (TessBaseAPI *handle, const char *datapath, const char *language), (handle, datapath, language)) \
    X(const char *, TessBaseAPIGetDatapath, (TessBaseAPI *handle), (handle)) \
    X(char **, TessBaseAPIGetAvailableLanguagesAsVector, (const TessBaseAPI *handle), (handle)) \
    X(BOOL, TessBaseAPISetVariable, (TessBaseAPI *handle, const char *name, const char *value), (handle, name, value)) \
    V(void, TessBaseAPISetPageSegMode, (TessBaseAPI *handle, TessPageSegMode mode), (handle, mode)) \
    V(void, TessBaseAPISetImage, (TessBaseAPI *handle, const unsigned char *imagedata, int width, int height, int bytes_per_pixel, int bytes_per_line), (handle, imagedata, width, height, bytes_per_pixel, bytes_per_line)) \
    V(void, TessBaseAPISetSourceResolution, (TessBaseAPI *handle, int ppi), (handle, ppi)) \
    X(int, TessBaseAPIRecognize, (TessBaseAPI *handle, ETEXT_DESC *monitor), (handle, monitor)) \
    X(TessResultIterator *, TessBaseAPIGetIterator, (TessBaseAPI *handle), (handle)) \
    V(void, TessResultIteratorDelete, (TessResultIterator *handle), (handle)) \
    X(TessPageIterator *, TessResultIteratorGetPageIterator, (TessResultIterator *handle), (handle)) \
    X(BOOL, TessResultIteratorNext, (TessResultIterator *handle, TessPageIteratorLevel level), (handle, level)) \
    X(char *, TessResultIteratorGetUTF8Text, (const TessResultIterator *handle, TessPageIteratorLevel level), (handle, level)) \
    X(float, TessResultIteratorConfidence, (const TessResultIterator *handle, TessPageIteratorLevel level), (handle, level)) \
    X(const char *, TessResultIteratorWordFontAttributes, (const TessResultIterator *handle, BOOL *is_bold, BOOL *is_italic, BOOL *is_underlined, BOOL *is_monospace, BOOL *is_serif, BOOL *is_smallcaps, int *pointsize, int *font_id), (handle, is_bold, is_italic, is_underlined, is_monospace, is_serif, is_smallcaps, pointsize, font_id)) \
    X(BOOL, TessPageIteratorIsAtBeginningOf, (const TessPageIterator *handle, TessPageIteratorLevel level), (handle, level)) \
    X(BOOL, TessPageIteratorBoundingBox, (const TessPageIterator *handle, TessPageIteratorLevel level, int *left, int *top, int *right, int *bottom), (handle, level, left, top, right, bottom))

LECTERN_TESSERACT_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)

#define LECTERN_TESSERACT_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_TESSERACT_FN(name) args; }
#define LECTERN_TESSERACT_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_TESSERACT_FN(name) args; }
LECTERN_TESSERACT_API(LECTERN_TESSERACT_WRAPPER, LECTERN_TESSERACT_VOID_WRAPPER)

LECTERN_LAZY_LOAD(tesseract, LECTERN_TESSERACT_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME))
#endif
