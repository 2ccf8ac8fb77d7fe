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
        let unusable = Self.unusable(scalars)
        // One rectangle per character of the text, when poppler's layout matches it.
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var rectCount: guint = 0
        let haveLayout = lazy_poppler_page_get_text_layout(page, &rects, &rectCount) != 0 && Int(rectCount) == scalars.count
        defer { if let rects { lazy_g_free(rects) } }
        // Font size and weight per character, from the attribute runs.
        var sizes = [Double](repeating: 0, count: scalars.count)
        var bold = [Bool](repeating: false, count: scalars.count)
        if let attributes = lazy_poppler_page_get_text_attributes(page) {
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
                let lower = max(0, Int(run.start_index)), upper = min(scalars.count - 1, Int(run.end_index))
                if lower <= upper {
                    for i in lower...upper {
                        sizes[i] = run.font_size
                        bold[i] = isBold
                    }
                }
                item = node.pointee.next
            }
            lazy_poppler_page_free_text_attributes(attributes)
        }

        var lines: [PDFLine] = []
        var lineStart = 0
        var blankBefore = false
        func finishLine(_ end: Int, resumeAt: Int? = nil) {
            defer { lineStart = resumeAt ?? end + 1 }
            // One pass: the line's text with whitespace runs collapsed to one space, its box, and
            // the size and weight most of its characters have.
            var scalarsOfLine = String.UnicodeScalarView()
            var pendingSpace = false
            var x1 = Double.greatestFiniteMagnitude, y1 = Double.greatestFiniteMagnitude, x2 = 0.0, y2 = 0.0
            var sizeValues: [Double] = [], sizeCounts: [Int] = []
            var boldCount = 0, visible = 0
            // Gaps wider than an em inside the line (word spaces are a third of one): where a table's cells start.
            var cellStarts: [Int] = [], cellBoxes: [(x1: Double, x2: Double)] = []
            var cellX1 = 0.0, cellX2 = 0.0, scalarCount = 0, previous: Int?
            for i in lineStart..<end {
                let scalar = scalars[i]
                if TextCleanup.isWhitespace(scalar) {
                    pendingSpace = visible > 0
                    continue
                }
                if haveLayout, let rects {
                    let r = rects[i]
                    if let p = previous {
                        if r.x1 - rects[p].x2 > max(sizes[i], sizes[p], 6) {
                            cellBoxes.append((cellX1, cellX2))
                            cellStarts.append(scalarCount + 1)
                            pendingSpace = true
                            cellX1 = r.x1
                        }
                    } else {
                        cellX1 = r.x1
                    }
                    cellX2 = r.x2
                    previous = i
                }
                if pendingSpace { scalarsOfLine.append(" "); scalarCount += 1 }
                pendingSpace = false
                scalarsOfLine.append(scalar)
                scalarCount += 1
                visible += 1
                if haveLayout, let rects {
                    let r = rects[i]
                    x1 = min(x1, r.x1); y1 = min(y1, r.y1); x2 = max(x2, r.x2); y2 = max(y2, r.y2)
                }
                let size = (sizes[i] * 2).rounded() / 2
                if let known = sizeValues.firstIndex(of: size) { sizeCounts[known] += 1 } else { sizeValues.append(size); sizeCounts.append(1) }
                if bold[i] { boldCount += 1 }
            }
            guard visible > 0 else {
                blankBefore = true
                return
            }
            // Ligatures and NFC once here: everything after reads clean lines.
            let lineText = PDFText.dropLeaders(PDFText.normalize(String(scalarsOfLine)))
            var cells: [PDFCell] = []
            if !cellStarts.isEmpty {
                cellBoxes.append((cellX1, cellX2))
                let all = Array(scalarsOfLine)
                let bounds = [0] + cellStarts + [all.count]
                for (n, box) in cellBoxes.enumerated() {
                    var piece = String.UnicodeScalarView()
                    piece.append(contentsOf: all[bounds[n]..<bounds[n + 1]])
                    let text = PDFText.dropLeaders(PDFText.normalize(String(piece))).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { cells.append(PDFCell(text: text, x1: box.x1, x2: box.x2)) }
                }
            }
            var size = 0.0, sizeCount = 0
            for (value, count) in zip(sizeValues, sizeCounts) where count > sizeCount || (count == sizeCount && value > size) {
                size = value; sizeCount = count
            }
            if !haveLayout { x1 = 0; y1 = Double(lines.count) * 12; x2 = width; y2 = y1 + 10 }
            lines.append(PDFLine(text: lineText, page: index + 1, x1: x1, y1: y1, x2: x2, y2: y2, fontSize: size,
                                 bold: boldCount * 2 > visible, blockBreakBefore: blankBefore, cells: cells.count > 1 ? cells : []))
            blankBefore = false
        }
        // Poppler's text sometimes runs two blocks together without a newline ("zero.The", a
        // heading beside another): a jump in the layout between two characters ends a line too.
        var lastVisible: Int?
        for (i, scalar) in scalars.enumerated() {
            if scalar == "\n" {
                finishLine(i)
                lastVisible = nil
                continue
            }
            guard haveLayout, let rects, !TextCleanup.isWhitespace(scalar) else { continue }
            if let p = lastVisible, p >= lineStart {
                let a = rects[p], b = rects[i]
                let size = max(sizes[i], 6)
                let otherRow = b.y1 >= a.y2 - 0.5 || b.y2 <= a.y1 + 0.5
                let farRight = b.x1 > a.x2 + max(size * 2.5, 15)
                let back = b.x2 < a.x1 - size
                if otherRow || farRight || back { finishLine(i, resumeAt: i) }
            }
            lastVisible = i
        }
        if lineStart < scalars.count { finishLine(scalars.count) }
        return Page(lines: lines, width: width, height: height, hasImages: false, unusableText: unusable)
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
