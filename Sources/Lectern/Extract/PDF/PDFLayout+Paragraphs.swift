import Foundation

/// Paragraphs: lines grouped by spacing and type, list items and captions, hyphenated words
/// re-joined.
extension PDFLayout {
    static func bodyFontSize(_ lines: [PDFLine]) -> Double {
        var weights: [Double: Int] = [:]
        for line in lines { weights[line.fontSize, default: 0] += line.text.count }
        return weights.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 10
    }

    /// Every word the document writes whole, to tell a hyphenated line break ("infor-mation")
    /// from a real compound broken at its hyphen ("well-known").
    static func lexicon(_ lines: [PDFLine]) -> Set<String> {
        // Only needed when some line ends with a hyphen.
        guard lines.contains(where: { $0.text.utf8.last == UInt8(ascii: "-") || $0.text.hasSuffix("- ") }) else { return [] }
        var words = Set<String>()
        // Scalars, not Characters: this reads every word of the document. (A fresh view per word:
        // `removeAll(keepingCapacity:)` on a scalar view goes through slow generic code.)
        var word = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { words.insert(String(word)) }
            word = String.UnicodeScalarView()
        }
        for line in lines {
            for scalar in line.text.lowercased().unicodeScalars {
                let value = scalar.value
                let letter = value < 0x80 ? (0x61...0x7A).contains(value) || value == 0x2D : scalar.properties.isAlphabetic
                if letter { word.append(scalar) } else { flush() }
            }
            flush()
        }
        return words
    }

    static let bullets: Set<Character> = ["•", "◦", "▪", "▫", "‣", "●", "○", "■", "□", "–", "—", "-", "*", "·", "➢", "►", "✓"]

    static func listMarker(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " }
        guard let first = trimmed.first else { return false }
        if bullets.contains(first), trimmed.dropFirst().first == " " { return true }
        // 1.  2)  (a)  a)  iv.
        let token = trimmed.prefix { $0 != " " }
        guard token.count <= 5, trimmed.count > token.count else { return false }
        let core = token.trimmingCharacters(in: CharacterSet(charactersIn: "()."))
        let closes = token.hasSuffix(".") || token.hasSuffix(")")
        if closes, !core.isEmpty, core.allSatisfy(\.isNumber) { return true }
        if token.hasSuffix(")"), core.count == 1, core.first?.isLetter == true { return true }
        if closes, !core.isEmpty, core.allSatisfy({ "ivxlc".contains($0) }), core.count <= 4 { return true }
        return false
    }

    static func isCaption(_ text: String) -> Bool {
        let prefixes = ["figure ", "fig. ", "fig ", "table ", "abbildung ", "abb. ", "tabelle ", "listing "]
        guard let initial = text.first, "FfTtAaLl".contains(initial) else { return false }
        let lower = text.prefix(16).lowercased()
        guard let prefix = prefixes.first(where: { lower.hasPrefix($0) }) else { return false }
        guard lower.dropFirst(prefix.count).first?.isNumber == true else { return false }
        // "Table 1 shows …" is a sentence about the table: a caption's number is not followed by a verb.
        let words = text.split(separator: " ", maxSplits: 3)
        guard words.count > 2, let closing = words[1].last, !".:".contains(closing), let next = words[2].first else { return true }
        return !next.isLowercase
    }

    static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last(where: { $0 != " " }) else { return false }
        return ".!?:;".contains(last) || last == "”" || last == "\""
    }

    /// A beamer block's title ("Potential Problems", "Example") sits on its own short line in the
    /// body's font, a little further above the block's text than its lines are apart: on a slide
    /// it is a line of its own, not the first words of the sentence under it.
    static func isBlockTitle(_ title: PDFLine, before line: PDFLine) -> Bool {
        guard title.x2 < line.x2 - (line.x2 - line.x1) * 0.3, !endsSentence(title.text),
              line.text.first?.isUppercase == true, line.y1 - title.y2 > title.height * 0.6 else { return false }
        let words = PDFRow.wordCount(title.text)
        return words >= 1 && words <= 4 && title.text.first?.isUppercase == true
    }

    func group(_ lines: [PDFLine], bodySize: Double, slides: Bool = false) -> [Paragraph] {
        var paragraphs: [Paragraph] = []
        var current: [PDFLine] = []
        var rightEdge = 0.0
        func flush() {
            if !current.isEmpty { paragraphs.append(Paragraph(lines: current)) }
            current.removeAll()
            rightEdge = 0
        }
        for line in lines {
            if let previous = current.last {
                let sameFont = abs(line.fontSize - previous.fontSize) <= 0.6 && line.bold == previous.bold
                let gap = line.y1 - previous.y2
                let wentUp = line.y1 < previous.y1 - 2
                let nextColumn = line.x1 > previous.x2 + 5 && line.y1 < previous.y2
                let bigGap = gap > max(previous.height * 0.9, 3)
                let indented = line.x1 > current[0].x1 + 6 && Self.endsSentence(previous.text) && current.count > 1
                let shortLast = Self.endsSentence(previous.text) && previous.x2 < rightEdge - max(20, (rightEdge - current[0].x1) * 0.12)
                let newPage = line.page != previous.page
                let startsItem = Self.listMarker(line.text) || Self.isCaption(line.text)
                let previousIsHeadingLike = previous.fontSize > bodySize * 1.12 || (previous.bold && current.count == 1)
                let blockTitle = slides && current.count == 1 && Self.isBlockTitle(previous, before: line)
                if newPage || line.blockBreakBefore || !sameFont || wentUp || nextColumn || bigGap || indented || shortLast
                    || startsItem || (previousIsHeadingLike && !sameFont) || blockTitle {
                    flush()
                }
            }
            current.append(line)
            rightEdge = max(rightEdge, line.x2)
        }
        flush()
        return paragraphs
    }

    /// Each page's paragraphs in poppler's order: a contents page as its entries, a table as its
    /// rows (`Belgium | 11.5 | 30,689 | …`), the other lines grouped into paragraphs.
    func pageParagraphs(_ lines: [PDFLine], bodySize: Double, slides: Bool) -> [Paragraph] {
        var result: [Paragraph] = []
        var start = 0
        var contentsPage = -1
        while start < lines.count {
            let page = lines[start].page
            var end = start
            while end < lines.count, lines[end].page == page { end += 1 }
            // Rows only where there can be a table or a contents page: cells, or several short lines.
            var shortLines = 0
            let mayHoldRows = contentsPage == page - 1 || lines[start..<end].contains { line in
                if PDFRow.wordCount(line.text) <= 3 { shortLines += 1 }
                return !line.cells.isEmpty || shortLines >= 3
            }
            guard mayHoldRows else {
                result += group(Array(lines[start..<end]), bodySize: bodySize, slides: slides)
                start = end
                continue
            }
            let rows = PDFRow.rows(Array(start..<end), of: lines)
            func paragraph(_ indices: [Int], _ kind: BlockKind, _ text: String) -> Paragraph {
                Paragraph(lines: indices.sorted().map { lines[$0] }, kind: kind, text: text)
            }
            if PDFRow.isContents(rows, followsContents: contentsPage == page - 1, slides: slides) {
                contentsPage = page
                result += rows.map { paragraph($0.lines, .contentsEntry, $0.segments.map(\.text).joined(separator: " ")) }
                start = end
                continue
            }
            var tableRows: [(first: Int, paragraph: Paragraph)] = []
            var taken = Set<Int>()
            for table in PDFRow.tables(rows) {
                for row in table.rows {
                    tableRows.append((row.lines.min() ?? start, paragraph(row.lines, .table, row.cells.joined(separator: " | "))))
                    taken.formUnion(row.lines)
                }
            }
            if tableRows.isEmpty {
                result += group(Array(lines[start..<end]), bodySize: bodySize, slides: slides)
            } else {
                // Table rows take the place of their first line among the page's paragraphs.
                let rest = (start..<end).filter { !taken.contains($0) }
                var merged: [(first: Int, paragraph: Paragraph)] = []
                var position = 0
                for grouped in group(rest.map { lines[$0] }, bodySize: bodySize, slides: slides) {
                    merged.append((rest[position], grouped))
                    position += grouped.lines.count
                }
                result += (merged + tableRows).sorted { $0.first < $1.first }.map(\.paragraph)
            }
            start = end
        }
        return result
    }

    /// Lines → text: words hyphenated at a line end re-joined unless the hyphen is part of the
    /// word (see `joinsHyphen`); ligatures expanded; NFC.
    static func join(_ lines: [PDFLine], lexicon: Set<String>) -> String {
        var text = ""
        for line in lines {
            append(line.text, to: &text, lexicon: lexicon)  // cleaned when the line was read
        }
        return text
    }

    /// `piece` after `text` across a line or page break: a word hyphenated at the break is
    /// re-joined when it is one word, kept hyphenated when it is a compound; else one space.
    static func append(_ piece: String, to text: inout String, lexicon: Set<String>) {
        guard !piece.isEmpty else { return }
        if text.hasSuffix("-"), let before = text.dropLast().last, before.isLetter,
           let after = piece.first, after.isLetter || after.isNumber {
            let head = String(text.dropLast().reversed().prefix { $0.isLetter }.reversed())
            let tail = String(piece.prefix { $0.isLetter })
            if joinsHyphen(head: head, tail: piece.first?.isLetter == true ? tail : "", lexicon: lexicon) {
                text.removeLast()
            }
            text += piece  // no space either way: "infor-" + "mation", "well-" + "known"
        } else {
            if !text.isEmpty { text += " " }
            text += piece
        }
    }

    /// Prefixes that make real compounds ("self-assembling", "well-known", "non-linear"); a word
    /// broken after one of them keeps its hyphen unless the document writes it whole elsewhere.
    static let compoundPrefixes: Set<String> = ["self", "well", "half", "cross", "non", "quasi", "semi", "multi", "two", "three"]
    /// Endings that only ever continue a word ("cross-" + "ing" is "crossing").
    static let suffixes: Set<String> = ["s", "es", "ed", "er", "ers", "ing", "ings", "ly", "ness", "ish", "ful", "less", "ment", "ments",
                                        "able", "ible", "ary", "ity", "ive", "ion", "ions", "nar", "nars", "al"]

    /// Whether a hyphen at a line end only breaks the word ("infor-" + "mation" → "information")
    /// rather than belonging to it. The hyphen stays when: the next part starts with a capital or
    /// a digit ("Anglo-Saxon", "COVID-19"); the document writes the hyphenated form elsewhere
    /// and never the joined one; or the first part is a compound-making prefix (`compoundPrefixes`),
    /// the second is not a bare suffix ("semi-nar") and the document never writes the joined word.
    /// Otherwise it is a typesetter's break: join.
    static func joinsHyphen(head: String, tail: String, lexicon: Set<String>) -> Bool {
        guard let first = tail.first, first.isLowercase, !head.isEmpty else { return false }
        let joined = (head + tail).lowercased()
        let hyphenated = head.lowercased() + "-" + tail.lowercased()
        if lexicon.contains(joined) { return true }
        if lexicon.contains(hyphenated) { return false }
        if compoundPrefixes.contains(head.lowercased()), !suffixes.contains(tail.lowercased()) { return false }
        return true
    }
}
