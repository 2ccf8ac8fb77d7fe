#ifndef LECTERN_CPOPPLER_SHIM_H
#define LECTERN_CPOPPLER_SHIM_H
#include <poppler.h>
#include <glib.h>
#include <glib-object.h>
#endif
