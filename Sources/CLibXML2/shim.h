#ifndef LECTERN_CLIBXML2_SHIM_H
#define LECTERN_CLIBXML2_SHIM_H
/* Foundation links ICU with its own UErrorCode: hide libxml2's ICU headers from Swift. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <libxml/xmlIO.h>

static inline const char *lectern_xml_version(void) { return xmlParserVersion; }

/* xmlFree is a global function pointer, which Swift 6 will not touch: free through this. */
static inline void lectern_xml_free(void *pointer) { xmlFree(pointer); }

/* libxml2 reports parse problems on stderr by default; a library must not print. */
static void lectern_xml_generic_silent(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static void lectern_xml_structured_silent(void *ctx, xmlErrorPtr error) { (void)ctx; (void)error; }

/* Untrusted documents never reach the file system or the network through the parser:
   every external entity, DTD or XInclude load is refused. */
static xmlParserInputPtr lectern_xml_refuse_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)url; (void)id; (void)ctxt;
    return NULL;
}

/* Error handlers are per thread in libxml2: call before every parse. */
static inline void lectern_xml_harden(void) {
    xmlSetGenericErrorFunc(NULL, lectern_xml_generic_silent);
    xmlSetStructuredErrorFunc(NULL, lectern_xml_structured_silent);
    xmlSetExternalEntityLoader(lectern_xml_refuse_loader);
}
#endif
