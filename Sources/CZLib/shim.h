#ifndef LECTERN_CZLIB_SHIM_H
#define LECTERN_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro: a raw-deflate (ZIP entry) inflater Swift can call. */
static inline int lectern_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
