import CLibXML2
import Foundation

/// A parsed HTML or XML document that owns its libxml2 tree.
///
/// Parsing is hardened for untrusted input: no network (`NONET`), no DTD loading, no entity
/// substitution (`NOENT` is never set), an entity loader that refuses every external load,
/// a size cap, a refusal of entity declarations that expand hugely, and libxml2's own error
/// printing silenced (a library never prints).
// Safe: owns a libxml2 document (a C handle) that is never changed after parsing and is freed
// once, in `deinit`; libxml2 reads a finished tree from any thread.
final class MarkupDocument: @unchecked Sendable {
    let pointer: xmlDocPtr

    /// Larger documents are refused before parsing.
    static let maxBytes = 64 << 20

    private init(_ pointer: xmlDocPtr) { self.pointer = pointer }

    deinit { lazy_xmlFreeDoc(pointer) }

    /// libxml2 wants one initialisation before parsers run on several threads.
    private static let initialized: Void = { lazy_xmlInitParser() }()

    /// Parses HTML (any quality; libxml2 recovers) into a tree. `encoding` is the one the user
    /// named; else `contentType`, the server's `Content-Type`, whose charset wins over the
    /// page's own declaration.
    static func html(_ data: Data, name: String, contentType: String? = nil, encoding: TextEncoding? = nil) throws -> MarkupDocument {
        try SystemLibrary.libxml2.load()
        Self.initialized
        try checkSize(data, name: name)
        // XHTML may declare entities; the HTML parser never expands them, but a document that
        // tries an expansion attack is refused all the same, and its declarations are no text.
        try EntityGuard.check(data, name: name)
        let data = stripInternalSubset(data)
        lectern_xml_harden()
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue)
        let bytes = data.isEmpty ? Data(" ".utf8) : data
        let document: xmlDocPtr? = bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
            return lazy_htmlReadMemory(base, Int32(raw.count), nil, encoding?.rawValue ?? Self.charset(contentType) ?? Self.sniffEncoding(bytes), options)
        }
        guard let document else { throw LecternError(.corrupt, name, "not readable as HTML") }
        return MarkupDocument(document)
    }

    /// Parses well-formed XML (CNXML, collection XML, books.xml). Entity references stay
    /// references: internal ones are read as their text, external ones as nothing.
    static func xml(_ data: Data, name: String) throws -> MarkupDocument {
        try SystemLibrary.libxml2.load()
        Self.initialized
        try checkSize(data, name: name)
        try EntityGuard.check(data, name: name)
        lectern_xml_harden()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { raw in
            let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
            return lazy_xmlReadMemory(base, Int32(raw.count), nil, nil, options)
        }
        guard let document else { throw lastError(name: name) }
        let parsed = MarkupDocument(document)
        // However its entities were declared, what their references stand for is counted
        // before any reader expands them.
        try EntityGuard.checkParsed(document, inputBytes: data.count, name: name)
        return parsed
    }

    var root: MarkupNode? {
        lazy_xmlDocGetRootElement(pointer).map { MarkupNode($0, self) }
    }

    /// The first element named `name` in document order.
    func first(_ name: String) -> MarkupNode? { root?.first { $0.name == name } }

    private static func checkSize(_ data: Data, name: String) throws {
        if data.count > maxBytes {
            throw LecternError(.tooLarge, name, "document is \(data.count >> 20) MiB, over the \(maxBytes >> 20) MiB limit for markup")
        }
    }

    /// libxml2's XML_ERR_ENTITY_LOOP, which its own amplification limit reports too.
    private static let entityLoop: Int32 = 89

    /// Why libxml2 gave no document, as one line.
    private static func lastError(name: String) -> LecternError {
        guard let error = lazy_xmlGetLastError(), let message = error.pointee.message else {
            return LecternError(.corrupt, name, "not well-formed XML")
        }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        let line = error.pointee.line
        if error.pointee.code == entityLoop {
            return LecternError(.unsupported, name, "refused: its entities expand without bound (libxml2 stopped at line \(line): \(text); an entity-expansion attack)")
        }
        return LecternError(.corrupt, name, text.isEmpty ? "not well-formed XML" : "not well-formed XML (line \(line)): \(text)")
    }

    /// `<!DOCTYPE html [ … ]>` → `<!DOCTYPE html>`: the HTML parser would show the internal
    /// subset's declarations as text.
    static func stripInternalSubset(_ data: Data) -> Data {
        guard let doctype = data.range(of: Data("<!DOCTYPE".utf8)) ?? data.range(of: Data("<!doctype".utf8)),
              doctype.lowerBound < 4096 else { return data }
        let afterDoctype = data[doctype.upperBound...]
        guard let open = afterDoctype.firstIndex(of: UInt8(ascii: "[")),
              let close = afterDoctype.firstIndex(of: UInt8(ascii: ">")), open < close else { return data }
        guard let end = data[open...].range(of: Data("]>".utf8)) ?? data[open...].range(of: Data("]\n>".utf8)) else { return data }
        var stripped = Data(data[..<open])
        stripped.append(UInt8(ascii: ">"))
        stripped.append(data[end.upperBound...])
        return stripped
    }

    /// `text/html; charset=ISO-8859-1` → `ISO-8859-1`.
    static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "charset" {
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// HTML without a charset declaration is read as UTF-8 (libxml2 would guess Latin-1),
    /// unless it is not UTF-8 and reads as Windows-1252.
    static func sniffEncoding(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        if head.contains("charset=") || head.contains("encoding=") { return nil }
        return TextDecoding.recognise(data).rawValue
    }
}
