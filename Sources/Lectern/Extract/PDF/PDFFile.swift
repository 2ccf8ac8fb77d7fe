import CPoppler
import Foundation

/// One line of a PDF page as poppler's text layout gives it, in poppler's reading order
/// (columns one after the other), with its box and the font most of its characters use.
struct PDFLine {
    var text: String
    var page: Int
    /// Box in points from the page's top-left corner.
    var x1: Double, y1: Double, x2: Double, y2: Double
    var fontSize: Double
    var bold: Bool
    /// A blank line before it in poppler's text: poppler saw a block boundary.
    var blockBreakBefore: Bool
    /// The pieces of the line that wide gaps set apart (a table row's cells), when there are
    /// several; empty for an ordinary line.
    var cells: [PDFCell] = []
    /// Tesseract's mean word confidence (0–100) for a line read by OCR; nil for the text layer's.
    var ocrConfidence: Double? = nil

    var height: Double { max(y2 - y1, 1) }
}

/// A piece of a line that a wide gap sets apart from the rest: a table cell, a contents entry's page number.
struct PDFCell {
    var text: String
    var x1: Double, x2: Double
}

/// One outline (bookmark) entry.
struct PDFOutlineEntry {
    var title: String
    var level: Int
    var page: Int
    /// Top of the destination, in points from the page's top, when the outline says.
    var top: Double?
}

/// An open poppler document. Pages are read one at a time and released, so memory stays flat
/// whatever the page count.
final class PDFFile {
    let document: OpaquePointer
    let pageCount: Int

    private static let setup: Void = { lectern_poppler_silence() }()

    /// Opens `path`; encrypted files need `password`. Poppler's own messages never reach stderr.
    init(path: String, password: String?) throws {
        try SystemLibrary.poppler.load()
        Self.setup
        var error: UnsafeMutablePointer<GError>?
        guard let uri = lazy_g_filename_to_uri(path, nil, &error) else {
            defer { lazy_g_clear_error(&error) }
            throw LecternError(.unreadable, nil, "cannot name the file for poppler")
        }
        defer { lazy_g_free(uri) }
        guard let document = lazy_poppler_document_new_from_file(uri, password, &error) else {
            defer { lazy_g_clear_error(&error) }
            if lectern_poppler_error_is_encrypted(error) != 0 {
                if password == nil { throw LecternError(.encrypted, nil, "encrypted: pass --password") }
                throw LecternError(.encrypted, nil, "encrypted, and the password given does not open it")
            }
            let detail = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            throw LecternError(.corrupt, nil, "not a readable PDF (damaged or truncated): \(detail)")
        }
        self.document = document
        pageCount = Int(lazy_poppler_document_get_n_pages(document))
    }

    deinit { lazy_g_object_unref(UnsafeMutableRawPointer(document)) }

    var raw: OpaquePointer { document }

    private func string(_ value: UnsafeMutablePointer<gchar>?) -> String? {
        guard let value else { return nil }
        defer { lazy_g_free(value) }
        let text = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    var title: String? { string(lazy_poppler_document_get_title(raw)) }
    var author: String? { string(lazy_poppler_document_get_author(raw)) }
    var subject: String? { string(lazy_poppler_document_get_subject(raw)) }
    var creator: String? { string(lazy_poppler_document_get_creator(raw)) }

    /// The outline, depth first, levels from 1.
    func outline() -> [PDFOutlineEntry] {
        guard let iterator = lazy_poppler_index_iter_new(raw) else { return [] }
        defer { lazy_poppler_index_iter_free(iterator) }
        var entries: [PDFOutlineEntry] = []
        walk(iterator, level: 1, into: &entries)
        return entries
    }

    private func walk(_ iterator: OpaquePointer, level: Int, into entries: inout [PDFOutlineEntry]) {
        repeat {
            if let action = lazy_poppler_index_iter_get_action(iterator) {
                var top = -1.0
                let page = Int(lectern_poppler_action_page(raw, action, &top))
                if let title = lectern_poppler_action_title(action).map({ String(cString: $0) }) {
                    let clean = TextCleanup.collapseWhitespace(PDFText.normalize(title))
                    if !clean.isEmpty {
                        var pageTop: Double?
                        if top >= 0, page > 0, let pageHandle = lazy_poppler_document_get_page(raw, Int32(page - 1)) {
                            var width = 0.0, height = 0.0
                            lazy_poppler_page_get_size(pageHandle, &width, &height)
                            pageTop = max(0, height - top)
                            lazy_g_object_unref(UnsafeMutableRawPointer(pageHandle))
                        }
                        entries.append(PDFOutlineEntry(title: clean, level: level, page: page, top: pageTop))
                    }
                }
                lazy_poppler_action_free(action)
            }
            if let child = lazy_poppler_index_iter_get_child(iterator) {
                walk(child, level: level + 1, into: &entries)
                lazy_poppler_index_iter_free(child)
            }
        } while lazy_poppler_index_iter_next(iterator) != 0
    }

    /// What one page holds: its lines, its size, and whether it has images (for the
    /// no-text-layer warning).
    struct Page {
        var lines: [PDFLine]
        var width: Double
        var height: Double
        var hasImages: Bool
        /// The page's own name (`iii`, `A-3`, a beamer frame's number); nil when it is just its position.
        var label: String? = nil
        /// The bytes of text poppler gave for a page over `maxTextBytes`, whose text is left out.
        var oversizedText: Int? = nil
        /// Its text layer is mostly characters no font maps to a letter (see `unusable`).
        var unusableText = false
    }

    /// A text layer is unusable when over half of its visible characters are private-use code
    /// points, U+FFFD or control characters: what poppler gives for glyphs whose font has no
    /// Unicode map (a scan's hidden layer from a poor OCR, a subset font without ToUnicode).
    /// Letters of any script count as usable, so a Korean page keeps its text.
    static func unusable(_ scalars: [Unicode.Scalar]) -> Bool {
        var visible = 0, unmapped = 0
        for scalar in scalars where !TextCleanup.isWhitespace(scalar) {
            visible += 1
            let value = scalar.value
            if (0xE000...0xF8FF).contains(value) || value >= 0xF0000 || value == 0xFFFD || value < 0x20 || (0x7F...0x9F).contains(value) {
                unmapped += 1
            }
        }
        return visible > 0 && unmapped * 2 > visible
    }

    /// The most text one page may hold (a dense page holds some 10 KB): more is a content
    /// stream made to inflate, and would be many times its size again in the layout's arrays.
    static let maxTextBytes = 1 << 20

    func page(_ index: Int) -> Page {
        guard let page = lazy_poppler_document_get_page(raw, Int32(index)) else { return Page(lines: [], width: 0, height: 0, hasImages: false) }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        let label = string(lazy_poppler_page_get_label(page)).flatMap { $0 == String(index + 1) ? nil : $0 }
        var result = readText(page, index: index, width: width, height: height)
        result.label = label
        return result
    }

    private func readText(_ page: OpaquePointer, index: Int, width: Double, height: Double) -> Page {
        guard let cText = lazy_poppler_page_get_text(page) else { return Page(lines: [], width: width, height: height, hasImages: imagesOn(page)) }
        let length = strlen(cText)
        if length > Self.maxTextBytes {
            lazy_g_free(cText)
            return Page(lines: [], width: width, height: height, hasImages: false, oversizedText: length)
        }
        let text = String(cString: cText)
        lazy_g_free(cText)
        let scalars = Array(text.unicodeScalars)
        if scalars.allSatisfy(TextCleanup.isWhitespace) {
            return Page(lines: [], width: width, height: height, hasImages: imagesOn(page))
        }
        // One rectangle per character of the text, when poppler's layout matches it.
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var rectCount: guint = 0
        let haveLayout = lazy_poppler_page_get_text_layout(page, &rects, &rectCount) != 0 && Int(rectCount) == scalars.count
        defer { if let rects { lazy_g_free(rects) } }
        let fonts = Self.fonts(page, count: scalars.count)
        let lines = PDFPageText(scalars: scalars, rects: haveLayout ? rects : nil, sizes: fonts.sizes, bold: fonts.bold,
                                page: index + 1, width: width).lines()
        return Page(lines: lines, width: width, height: height, hasImages: false, unusableText: Self.unusable(scalars))
    }

    /// Font size and weight per character of the page's text, from poppler's attribute runs.
    private static func fonts(_ page: OpaquePointer, count: Int) -> (sizes: [Double], bold: [Bool]) {
        var sizes = [Double](repeating: 0, count: count)
        var bold = [Bool](repeating: false, count: count)
        guard let attributes = lazy_poppler_page_get_text_attributes(page) else { return (sizes, bold) }
        var item: UnsafeMutablePointer<GList>? = attributes
        var boldFonts: [String: Bool] = [:]
        while let node = item {
            let run = lectern_poppler_attributes(node)!.pointee
            let isBold = run.font_name.map { name in
                let font = String(cString: name)
                if let known = boldFonts[font] { return known }
                let answer = PDFText.isBoldFont(font)
                boldFonts[font] = answer
                return answer
            } ?? false
            let lower = max(0, Int(run.start_index)), upper = min(count - 1, Int(run.end_index))
            if lower <= upper {
                for i in lower...upper {
                    sizes[i] = run.font_size
                    bold[i] = isBold
                }
            }
            item = node.pointee.next
        }
        lazy_poppler_page_free_text_attributes(attributes)
        return (sizes, bold)
    }

    private func imagesOn(_ page: OpaquePointer) -> Bool {
        guard let mapping = lazy_poppler_page_get_image_mapping(page) else { return false }
        lazy_poppler_page_free_image_mapping(mapping)
        return true
    }
}

/// Text clean-up for PDF text: ligatures, soft hyphens, NFC, bold font names.
enum PDFText {
    static let ligatures: [(String, String)] = [
        ("\u{FB00}", "ff"), ("\u{FB01}", "fi"), ("\u{FB02}", "fl"), ("\u{FB03}", "ffi"), ("\u{FB04}", "ffl"),
        ("\u{FB05}", "st"), ("\u{FB06}", "st"), ("\u{00AD}", ""),
    ]

    static func normalize(_ text: String) -> String {
        // ASCII is already NFC and has no ligatures: most lines of most PDFs skip the work.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var text = text
        if text.unicodeScalars.contains(where: { (0xFB00...0xFB06).contains($0.value) || $0.value == 0xAD }) {
            for (ligature, letters) in ligatures { text = text.replacingOccurrences(of: ligature, with: letters) }
        }
        // NFC only where a combining mark could change something.
        if text.unicodeScalars.contains(where: { $0.value >= 0x300 && $0.properties.canonicalCombiningClass != .notReordered }) {
            return text.precomposedStringWithCanonicalMapping
        }
        return text
    }

    /// A table of contents' dot leaders ("Cells . . . . . . 12", "Cells ........ 12") become one
    /// space: they are layout, and would fill passages with dots.
    static func dropLeaders(_ text: String) -> String {
        guard text.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count >= 4 else { return text }
        var out = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        var dots = 0
        func flush() {
            if dots >= 4 {
                if out.last != " " { out.append(" ") }
            } else {
                out.append(contentsOf: run)
            }
            run = String.UnicodeScalarView()
            dots = 0
        }
        for scalar in text.unicodeScalars {
            if scalar == "." || scalar == "·" || scalar == "…" || (scalar == " " && !run.isEmpty) {
                run.append(scalar)
                if scalar != " " { dots += 1 }
            } else {
                // A run's trailing spaces belong after it.
                let trailing = run.reversed().prefix { $0 == " " }.count
                if dots >= 4 {
                    flush()
                } else {
                    out.append(contentsOf: run.dropLast(trailing))
                    if trailing > 0 { out.append(" ") }
                    run = String.UnicodeScalarView()
                    dots = 0
                }
                out.append(scalar)
            }
        }
        if dots >= 4 { flush() } else { out.append(contentsOf: run) }
        return String(String(out).trimmingCharacters(in: .whitespaces))
    }

    static func isBoldFont(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["bold", "black", "heavy", "semibold", "demi", ".b", "-bd", "cmbx"].contains { lower.contains($0) }
    }
}
