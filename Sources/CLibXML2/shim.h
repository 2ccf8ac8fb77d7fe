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
#include "../CLazyLibrary/lazy_library.h"

/* libxml2 is opened with dlopen on first use, not linked: only commands that read HTML or XML
   pay for loading it. The headers give the types and constants (node walks read the structs
   directly); every function goes through a `lazy_` wrapper that looks its symbol up once.
   Swift calls `SystemLibrary.libxml2.load()` (a clear LecternError when missing) first. */

#define LECTERN_XML_SONAME "libxml2.so.2"
LECTERN_LAZY_LIBRARY(xml, LECTERN_XML_SONAME, "libxml2.so")
#define LECTERN_XML_FN(name) LECTERN_LAZY_FN(xml, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the wrappers and the check that load() makes. */
#define LECTERN_XML_API(X, V) \
    X(const char **, __xmlParserVersion, (void), ()) \
    V(void, xmlInitParser, (void), ()) \
    V(void, xmlFreeDoc, (xmlDocPtr doc), (doc)) \
    X(htmlDocPtr, htmlReadMemory, (const char *buffer, int size, const char *url, const char *encoding, int options), \
        (buffer, size, url, encoding, options)) \
    X(xmlDocPtr, xmlReadMemory, (const char *buffer, int size, const char *url, const char *encoding, int options), \
        (buffer, size, url, encoding, options)) \
    X(xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *doc), (doc)) \
    X(xmlErrorPtr, xmlGetLastError, (void), ()) \
    X(xmlChar *, xmlGetProp, (const xmlNode *node, const xmlChar *name), (node, name)) \
    X(xmlEntityPtr, xmlGetDocEntity, (const xmlDoc *doc, const xmlChar *name), (doc, name)) \
    V(void, xmlSetGenericErrorFunc, (void *ctx, xmlGenericErrorFunc handler), (ctx, handler)) \
    V(void, xmlSetStructuredErrorFunc, (void *ctx, xmlStructuredErrorFunc handler), (ctx, handler)) \
    V(void, xmlSetExternalEntityLoader, (xmlExternalEntityLoader loader), (loader))

#define LECTERN_XML_WRAPPER(ret, name, params, args) \
    static inline ret lazy_##name params { return LECTERN_XML_FN(name) args; }
#define LECTERN_XML_VOID_WRAPPER(ret, name, params, args) \
    static inline void lazy_##name params { LECTERN_XML_FN(name) args; }
LECTERN_XML_API(LECTERN_XML_WRAPPER, LECTERN_XML_VOID_WRAPPER)

LECTERN_LAZY_LOAD(xml, LECTERN_XML_API(LECTERN_LAZY_NAME, LECTERN_LAZY_NAME) "xmlFree")

/* The version string libxml2 reports ("20914"). */
static inline const char *lectern_xml_version(void) { return *lazy___xmlParserVersion(); }

/* xmlFree is a global function pointer (a variable of libxml2), which Swift 6 will not touch:
   free through this. Its address is looked up once like a function's. */
static inline void lectern_xml_free(void *pointer) { (*LECTERN_XML_FN(xmlFree))(pointer); }

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
    lazy_xmlSetGenericErrorFunc(NULL, lectern_xml_generic_silent);
    lazy_xmlSetStructuredErrorFunc(NULL, lectern_xml_structured_silent);
    lazy_xmlSetExternalEntityLoader(lectern_xml_refuse_loader);
}
#endif
