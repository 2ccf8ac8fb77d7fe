#ifndef LECTERN_CLIBXML2_SHIM_H
#define LECTERN_CLIBXML2_SHIM_H
/* libxml2 is opened with dlopen on first use, not linked: only commands that read HTML or XML
   pay for loading it. This header declares what Lectern uses of it itself, so that building
   needs neither libxml2-dev nor its include path (an `unsafeFlags` would make the package
   unusable as a dependency): the types and constants, and the structs node walks read directly.
   Every function goes through a `lazy_` wrapper that looks its symbol up once. Swift calls
   `SystemLibrary.libxml2.load()` (a clear LecternError when missing) first. */
#include "../CDynamicLoader/dynamic_loader.h"

#ifdef LECTERN_SHIM_SYSTEM_HEADERS
/* Only ShimLayoutTests defines this: the real headers instead of the declarations below, which
   it compares with them field by field and constant by constant. */
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#else
typedef unsigned char xmlChar;

typedef enum {
    XML_ELEMENT_NODE = 1,
    XML_ATTRIBUTE_NODE = 2,
    XML_TEXT_NODE = 3,
    XML_CDATA_SECTION_NODE = 4,
    XML_ENTITY_REF_NODE = 5,
    XML_ENTITY_NODE = 6,
    XML_PI_NODE = 7,
    XML_COMMENT_NODE = 8,
    XML_DOCUMENT_NODE = 9,
    XML_DOCUMENT_TYPE_NODE = 10,
    XML_DOCUMENT_FRAG_NODE = 11,
    XML_NOTATION_NODE = 12,
    XML_HTML_DOCUMENT_NODE = 13,
    XML_DTD_NODE = 14,
    XML_ELEMENT_DECL = 15,
    XML_ATTRIBUTE_DECL = 16,
    XML_ENTITY_DECL = 17,
    XML_NAMESPACE_DECL = 18,
    XML_XINCLUDE_START = 19,
    XML_XINCLUDE_END = 20
} xmlElementType;

/* Only handled through pointers. */
typedef struct _xmlDoc xmlDoc;
typedef xmlDoc *xmlDocPtr;
typedef xmlDoc *htmlDocPtr;
typedef struct _xmlNs xmlNs;
typedef struct _xmlAttr xmlAttr;
typedef struct _xmlDtd xmlDtd;
typedef struct _xmlParserInput *xmlParserInputPtr;
typedef struct _xmlParserCtxt *xmlParserCtxtPtr;

typedef struct _xmlNode xmlNode;
typedef xmlNode *xmlNodePtr;
struct _xmlNode {
    void *_private;
    xmlElementType type;
    const xmlChar *name;
    struct _xmlNode *children;
    struct _xmlNode *last;
    struct _xmlNode *parent;
    struct _xmlNode *next;
    struct _xmlNode *prev;
    struct _xmlDoc *doc;
    xmlNs *ns;
    xmlChar *content;
    struct _xmlAttr *properties;
    xmlNs *nsDef;
    void *psvi;
    unsigned short line;
    unsigned short extra;
};

/* Read when counting the text entity references in attribute values stand for. */
typedef enum {
    XML_ATTRIBUTE_CDATA = 1
} xmlAttributeType;

struct _xmlAttr {
    void *_private;
    xmlElementType type;
    const xmlChar *name;
    struct _xmlNode *children;
    struct _xmlNode *last;
    struct _xmlNode *parent;
    struct _xmlAttr *next;
    struct _xmlAttr *prev;
    struct _xmlDoc *doc;
    xmlNs *ns;
    xmlAttributeType atype;
    void *psvi;
};

typedef enum {
    XML_INTERNAL_GENERAL_ENTITY = 1,
    XML_EXTERNAL_GENERAL_PARSED_ENTITY = 2,
    XML_EXTERNAL_GENERAL_UNPARSED_ENTITY = 3,
    XML_INTERNAL_PARAMETER_ENTITY = 4,
    XML_EXTERNAL_PARAMETER_ENTITY = 5,
    XML_INTERNAL_PREDEFINED_ENTITY = 6
} xmlEntityType;

typedef struct _xmlEntity xmlEntity;
typedef xmlEntity *xmlEntityPtr;
struct _xmlEntity {
    void *_private;
    xmlElementType type;
    const xmlChar *name;
    struct _xmlNode *children;
    struct _xmlNode *last;
    struct _xmlDtd *parent;
    struct _xmlNode *next;
    struct _xmlNode *prev;
    struct _xmlDoc *doc;
    xmlChar *orig;
    xmlChar *content;
    int length;
    xmlEntityType etype;
    const xmlChar *ExternalID;
    const xmlChar *SystemID;
    struct _xmlEntity *nexte;
    const xmlChar *URI;
    int owner;
    int checked;
};

typedef enum {
    XML_ERR_NONE = 0,
    XML_ERR_WARNING = 1,
    XML_ERR_ERROR = 2,
    XML_ERR_FATAL = 3
} xmlErrorLevel;

typedef struct _xmlError xmlError;
typedef xmlError *xmlErrorPtr;
struct _xmlError {
    int domain;
    int code;
    char *message;
    xmlErrorLevel level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
    void *ctxt;
    void *node;
};

typedef enum {
    XML_PARSE_RECOVER = 1 << 0,
    XML_PARSE_NOENT = 1 << 1,
    XML_PARSE_DTDLOAD = 1 << 2,
    XML_PARSE_NOERROR = 1 << 5,
    XML_PARSE_NOWARNING = 1 << 6,
    XML_PARSE_NONET = 1 << 11,
    XML_PARSE_NOCDATA = 1 << 14,
    XML_PARSE_COMPACT = 1 << 16,
    XML_PARSE_HUGE = 1 << 19
} xmlParserOption;

typedef enum {
    HTML_PARSE_RECOVER = 1 << 0,
    HTML_PARSE_NODEFDTD = 1 << 2,
    HTML_PARSE_NOERROR = 1 << 5,
    HTML_PARSE_NOWARNING = 1 << 6,
    HTML_PARSE_NOBLANKS = 1 << 8,
    HTML_PARSE_NONET = 1 << 11,
    HTML_PARSE_NOIMPLIED = 1 << 13,
    HTML_PARSE_COMPACT = 1 << 16,
    HTML_PARSE_IGNORE_ENC = 1 << 21
} htmlParserOption;

typedef void (*xmlGenericErrorFunc)(void *ctx, const char *msg, ...);
typedef void (*xmlStructuredErrorFunc)(void *userData, xmlErrorPtr error);
typedef xmlParserInputPtr (*xmlExternalEntityLoader)(const char *URL, const char *ID, xmlParserCtxtPtr context);
typedef void (*xmlFreeFunc)(void *mem);
#endif /* LECTERN_SHIM_SYSTEM_HEADERS */

#define LECTERN_XML_SONAME "libxml2.so.2"
LECTERN_LAZY_LIBRARY(xml, LECTERN_XML_SONAME, "libxml2.so")
#define LECTERN_XML_FN(name) LECTERN_LAZY_FN(xml, name)

/* Every function Lectern calls: (return type, name, parameters, arguments), V for those that
   return nothing. One list gives the declarations, the wrappers and the check that load() makes. */
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

LECTERN_XML_API(LECTERN_LAZY_DECLARE, LECTERN_LAZY_DECLARE)
/* A variable of libxml2 holding its deallocator (a global function pointer). */
extern xmlFreeFunc xmlFree;

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
