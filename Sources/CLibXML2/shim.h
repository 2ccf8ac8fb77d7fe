#ifndef LECTERN_CLIBXML2_SHIM_H
#define LECTERN_CLIBXML2_SHIM_H
/* Foundation links ICU with its own UErrorCode: hide libxml2's ICU headers from Swift. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xmlerror.h>

static inline const char *lectern_xml_version(void) { return xmlParserVersion; }
#endif
