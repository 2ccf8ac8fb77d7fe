import Foundation

/// Outline: the file's bookmarks matched to the headings found, as the section tree.
extension PDFLayout {
    static func matchKey(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// "2.1 Methods" → "Methods"; "Chapter 3: Cells" → "Cells".
    static func withoutNumbering(_ text: String) -> String {
        var rest = Substring(text)
        for prefix in ["chapter ", "section ", "kapitel ", "part "] where rest.lowercased().hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
        }
        let token = rest.prefix { !$0.isWhitespace }
        if !token.isEmpty, token.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" || "IVXLC".contains($0) }) {
            rest = rest.dropFirst(token.count)
        }
        return rest.trimmingCharacters(in: CharacterSet(charactersIn: " :.–-"))
    }

    /// The text after a heading that starts `text` and whose letters and digits are `key` (after
    /// a section number, if any): "" when the heading is all of it, nil when the key ends inside
    /// a word ("Cell" does not start "Cells are …").
    static func runInRemainder(_ text: String, key: String) -> String? {
        var seen = ""
        var end = text.startIndex
        while end < text.endIndex, !seen.hasSuffix(key) {
            seen += matchKey(String(text[end]))
            end = text.index(after: end)
        }
        guard seen.hasSuffix(key) else { return nil }
        if end < text.endIndex, text[end].isLetter || text[end].isNumber { return nil }
        // The punctuation that closes a run-in heading ("Osmosis." "Methods:") goes with it.
        var rest = text[end...].drop { $0.isWhitespace }
        if let first = rest.first, ".:–—".contains(first) { rest = rest.dropFirst().drop { $0.isWhitespace } }
        return String(rest)
    }

    /// The outline is the section tree: each entry becomes the heading it points at, found on its
    /// page by its text. An entry whose text is not on the page it points to is not used: a page cut
    /// from a paper keeps the whole paper's outline, whose other entries name nothing on it. A
    /// paragraph that only starts with the entry's text (a run-in heading: short, or exactly where
    /// the entry points) is split: the heading, then the rest of its words as a paragraph.
    /// Headings found by font alone are kept only on slides (as frame titles below the outline).
    /// Returns nil when no entry is on its page (the outline is then no guide: the detected
    /// headings stay), else the entries whose sections are open where the text begins (on a cut-out
    /// page, the section that runs on before its first heading).
    func applyOutline(_ paragraphs: inout [Paragraph], keepDetected: Bool) -> [PDFOutlineEntry]? {
        var matched = Set<Int>()
        var firstFound: (entry: Int, paragraph: Int)?
        var insertions: [(index: Int, paragraph: Paragraph)] = []
        for (entryIndex, entry) in outline.enumerated() {
            let key = Self.matchKey(entry.title)
            guard !key.isEmpty else { continue }
            let candidates = paragraphs.indices.filter {
                !matched.contains($0) && !paragraphs[$0].kind.isFurniture && paragraphs[$0].kind != .table
                    && (entry.page == 0 || paragraphs[$0].page == entry.page || paragraphs[$0].page == entry.page + 1)
            }
            // Where the destination points: the first paragraph of the page at or below its top.
            let destination = entry.page > 0
                ? paragraphs.indices.first { i in
                    paragraphs[i].page > entry.page || (paragraphs[i].page == entry.page && entry.top.map { top in paragraphs[i].y1 >= top - 4 } ?? true)
                } ?? paragraphs.count
                : nil
            var remainder: String?
            let found = candidates.first { index in
                let p = paragraphs[index]
                let text = Self.matchKey(p.text)
                let bare = Self.matchKey(Self.withoutNumbering(p.text))
                if text == key || bare == key { return true }
                // A longer paragraph only where the destination points exactly.
                let short = p.wordCount <= 25 || (entry.top != nil && index == destination)
                guard short, key.count >= 4, text.hasPrefix(key) || bare.hasPrefix(key),
                      let rest = Self.runInRemainder(p.text, key: key) else { return false }
                remainder = rest
                return true
            }
            guard let found else { continue }
            matched.insert(found)
            if found < firstFound?.paragraph ?? .max { firstFound = (entryIndex, found) }
            let original = paragraphs[found]
            paragraphs[found].kind = .heading
            paragraphs[found].level = entry.level
            paragraphs[found].text = entry.title
            // A run-in heading ("Osmosis. Water moves …"): the words after it stay, as the
            // paragraph that follows the heading.
            if let remainder, !remainder.isEmpty {
                var body = original
                body.text = remainder
                insertions.append((found + 1, body))
            }
        }
        guard let firstFound else { return nil }
        if !keepDetected {
            for index in paragraphs.indices where paragraphs[index].kind == .heading && !matched.contains(index) {
                paragraphs[index].kind = .paragraph
            }
        } else {
            // Frame titles that repeat an outline entry's text were matched; the rest sit below the outline.
            let depth = outline.map(\.level).max() ?? 0
            for index in paragraphs.indices where paragraphs[index].kind == .heading && !matched.contains(index) {
                paragraphs[index].level = depth + 1
            }
        }
        // Later entries first, so that several headings at one place keep outline order.
        for insertion in insertions.enumerated().sorted(by: { ($0.element.index, $0.offset) > ($1.element.index, $1.offset) }) {
            paragraphs.insert(insertion.element.paragraph, at: insertion.element.index)
        }
        // Text before the first heading found, on a page the entries before it point to, is in
        // their sections: the outline says what this page goes on from.
        let textBefore = paragraphs[..<firstFound.paragraph].contains { !$0.kind.isFurniture && $0.kind != .title }
        guard textBefore, let firstPage = paragraphs.first?.page else { return [] }
        return outline[..<firstFound.entry].filter { $0.page > 0 && $0.page <= firstPage }
    }
}
