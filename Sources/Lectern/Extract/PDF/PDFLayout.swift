import Foundation

/// Turns the lines of every page into typed blocks: furniture (repeating headers, footers,
/// page numbers) set aside, lines grouped into whole paragraphs, headings ranked by font size
/// and weight, list items and captions recognised, words hyphenated across lines re-joined, and
/// the section tree taken from the outline when the file has one.
struct PDFLayout {
    struct PageInfo {
        var width: Double
        var height: Double
        /// The page's own name where it differs from its number (`iii`, a slide's frame number).
        var label: String? = nil
    }

    var pages: [PageInfo]
    var lines: [PDFLine]
    var outline: [PDFOutlineEntry]

    /// A paragraph being built, with the geometry classification needs.
    struct Paragraph {
        var lines: [PDFLine]
        var kind: BlockKind = .paragraph
        var level: Int?
        var text = ""
        var page: Int { lines[0].page }
        var y1: Double { lines[0].y1 }
        var fontSize: Double { lines.map(\.fontSize).max() ?? 0 }
        var bold: Bool { lines.allSatisfy(\.bold) }
        var wordCount: Int { text.split(separator: " ").count }
    }

    struct Result {
        var blocks: [Block]
        var furniture: [String]
        var isSlides: Bool
        var largestFirstPageText: String?
    }

    func run() -> Result {
        let furniture = furnitureKeys()
        var extremes: [Int: (top: Double, bottom: Double)] = [:]
        for line in lines {
            let known = extremes[line.page] ?? (line.y2, line.y1)
            extremes[line.page] = (min(known.top, line.y2), max(known.bottom, line.y1))
        }
        let numbering = pageNumberOffset(extremes)
        var bodyLines: [PDFLine] = []
        var furnitureBlocks: [Int: [Block]] = [:]
        var furnitureTexts: [String] = []
        var kinds = lines.map { line in
            furnitureKind(line, page: pages[line.page - 1], repeating: furniture, extremes: extremes[line.page], numbering: numbering)
        }
        // A running title set on the page number's line ("16   1.5. KOMPAKTHEIT") is furniture
        // too, though a section's title does not repeat on enough pages to be found as such.
        var furnitureBands: [Int: [(y1: Double, y2: Double, kind: BlockKind)]] = [:]
        for (line, kind) in zip(lines, kinds) {
            if let kind { furnitureBands[line.page, default: []].append((line.y1, line.y2, kind)) }
        }
        for (index, line) in lines.enumerated() where kinds[index] == nil {
            guard let bands = furnitureBands[line.page], let extreme = extremes[line.page],
                  line.y2 <= extreme.top + 1 || line.y1 >= extreme.bottom - 1,
                  line.text.split(separator: " ").count <= 12 else { continue }
            if let band = bands.first(where: { min($0.y2, line.y2) - max($0.y1, line.y1) > 0.5 * (line.y2 - line.y1) }) {
                kinds[index] = band.kind
            }
        }
        for (line, kind) in zip(lines, kinds) {
            if let kind {
                let text = line.text
                var attributes: [String: String] = [:]
                Self.markOCR([line], in: &attributes)
                furnitureBlocks[line.page, default: []].append(Block(kind: kind, text: text, page: line.page, attributes: attributes))
                let key = Self.furnitureKey(text)
                if !furnitureTexts.contains(key) { furnitureTexts.append(key) }
            } else {
                bodyLines.append(line)
            }
        }
        let bodySize = Self.bodyFontSize(bodyLines)
        let lexicon = Self.lexicon(bodyLines)
        let isSlides = pages.count >= 2 && pages.allSatisfy { $0.width > $0.height * 1.15 }
        var paragraphs = readingOrder(pageParagraphs(bodyLines, bodySize: bodySize, slides: isSlides))
        for index in paragraphs.indices where paragraphs[index].kind == .paragraph {
            paragraphs[index].text = Self.join(paragraphs[index].lines, lexicon: lexicon)
        }
        paragraphs.removeAll { $0.text.isEmpty }
        joinContinuations(&paragraphs, lexicon: lexicon)
        finishSentencesAcrossPages(&paragraphs, lexicon: lexicon)
        mergeSectionNumbers(&paragraphs)
        // Nothing to read: a lone mark (a decoration's dot, a bullet no text stands beside).
        paragraphs.removeAll { $0.text.count <= 2 && !$0.text.contains { $0.isLetter || $0.isNumber } }
        classify(&paragraphs, bodySize: bodySize)
        markFigureLabels(&paragraphs)
        if isSlides { markSlideTitles(&paragraphs, bodySize: bodySize) }
        var openAtStart: [PDFOutlineEntry] = []
        var outlineDepth = 0
        if !outline.isEmpty, let used = applyOutline(&paragraphs, keepDetected: isSlides) {
            openAtStart = used
            outlineDepth = outline.map(\.level).max() ?? 0
        }
        rankHeadings(&paragraphs, below: outlineDepth)
        if isSlides {
            foldOverlays(&paragraphs)
            giveBarePagesText(&paragraphs)
        }

        // Section paths, and furniture blocks placed at the start of their pages.
        var blocks: [Block] = []
        var tracker = SectionTracker()
        // A page cut from a longer work starts inside a section its outline names.
        for entry in openAtStart { tracker.open(level: entry.level, title: entry.title) }
        var pageDone = Set<Int>()
        for paragraph in paragraphs {
            if pageDone.insert(paragraph.page).inserted, let extra = furnitureBlocks[paragraph.page] {
                blocks += extra.map { var b = $0; b.sectionPath = tracker.path; b.pageLabel = pages[paragraph.page - 1].label; return b }
            }
            // The title names the document; the outline (or the headings) is its section tree.
            if paragraph.kind == .heading {
                tracker.open(level: paragraph.level ?? 1, title: paragraph.text)
            }
            var attributes: [String: String] = [:]
            attributes["font_size"] = String(format: "%.1f", paragraph.fontSize)
            if paragraph.bold { attributes["bold"] = "true" }
            Self.markOCR(paragraph.lines, in: &attributes)
            blocks.append(Block(kind: paragraph.kind, text: paragraph.text, level: paragraph.level,
                                sectionPath: tracker.path, page: paragraph.page, attributes: attributes,
                                pageLabel: pages[paragraph.page - 1].label))
        }
        let firstPage = paragraphs.filter { $0.page == 1 && !$0.kind.isFurniture && $0.kind != .table }
        // The largest text on page 1, when it is larger than the body text.
        let largest = firstPage.filter { $0.fontSize > bodySize + 0.6 }.max { $0.fontSize < $1.fontSize }
        return Result(blocks: blocks, furniture: furnitureTexts, isSlides: isSlides,
                      largestFirstPageText: largest.map { TextCleanup.firstLineTitle($0.text) })
    }

    // MARK: - Furniture

    static func furnitureKey(_ text: String) -> String {
        String(text.lowercased().map { $0.isNumber ? "#" : $0 }).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func isPageNumber(_ text: String) -> Bool {
        guard text.utf8.count <= 24, text.contains(where: \.isNumber) else { return false }
        let key = furnitureKey(text).filter { !$0.isPunctuation || $0 == "#" || $0 == "/" }
        let patterns = ["#", "# / #", "#/#", "page #", "page # of #", "# of #", "seite #", "p. #", "p #"]
        let squeezed = key.replacingOccurrences(of: "##", with: "#").replacingOccurrences(of: "##", with: "#").replacingOccurrences(of: "##", with: "#")
        return patterns.contains(squeezed.trimmingCharacters(in: .whitespaces)) || patterns.contains(squeezed.replacingOccurrences(of: " ", with: ""))
    }

    func band(_ line: PDFLine, _ page: PageInfo) -> Bool? {
        if line.y2 <= page.height * 0.12 { return true }  // top
        if line.y1 >= page.height * 0.88 { return false }  // bottom
        return nil
    }

    /// Texts (digits folded) that recur at the top or bottom of many pages.
    func furnitureKeys() -> Set<String> {
        var pagesWith: [String: Set<Int>] = [:]
        var textPages = Set<Int>()
        for line in lines {
            textPages.insert(line.page)
            guard band(line, pages[line.page - 1]) != nil else { continue }
            pagesWith[Self.furnitureKey(line.text), default: []].insert(line.page)
        }
        guard textPages.count >= 3 else { return [] }
        let needed = max(3, Int((Double(textPages.count) * 0.3).rounded(.up)))
        return Set(pagesWith.filter { $0.value.count >= needed }.keys)
    }

    /// Bare numbers at a page's top or bottom that count along with the pages (printed number
    /// minus page index the same on three pages or more) are page numbers; the most common
    /// difference, when there is one. A number off that count (the last entry of a contents
    /// page) is text.
    func pageNumberOffset(_ extremes: [Int: (top: Double, bottom: Double)]) -> Int? {
        var pagesByOffset: [Int: Set<Int>] = [:]
        for line in lines where line.text.utf8.count <= 5 {
            guard let value = Int(line.text), let edge = extremes[line.page],
                  line.y2 <= edge.top + 1 || line.y1 >= edge.bottom - 1 else { continue }
            pagesByOffset[value - line.page, default: []].insert(line.page)
        }
        guard let best = pagesByOffset.max(by: { ($0.value.count, -$0.key) < ($1.value.count, -$1.key) }), best.value.count >= 3 else { return nil }
        return best.key
    }

    func furnitureKind(_ line: PDFLine, page: PageInfo, repeating: Set<String>, extremes: (top: Double, bottom: Double)?,
                       numbering: Int? = nil) -> BlockKind? {
        guard let extremes else { return nil }
        let text = line.text
        let first = line.y2 <= extremes.top + 1, last = line.y1 >= extremes.bottom - 1
        guard first || last else { return nil }
        // Repeating text is furniture when it is the page's first or last line.
        if let top = band(line, page), top ? first : last, repeating.contains(Self.furnitureKey(text)) {
            return top ? .pageHeader : .pageFooter
        }
        // A bare page number is the page's top-most or bottom-most line, in its outer fifth. The
        // page's own number (its label: "iii", a slide's frame number) is one wherever the count
        // of the others goes.
        let ownNumber = text.lowercased() == (page.label ?? String(line.page)).lowercased()
            || (page.label == nil && PDFRow.romanValue(text) == line.page)
        if ownNumber || Self.isPageNumber(text) {
            if !ownNumber, let numbering, let value = Int(text), value - line.page != numbering { return nil }
            if first, line.y2 <= page.height * 0.2 { return .pageHeader }
            if last, line.y1 >= page.height * 0.8 { return .pageFooter }
        }
        return nil
    }

    /// A block read by OCR says so, with Tesseract's mean word confidence over its lines.
    static func markOCR(_ lines: [PDFLine], in attributes: inout [String: String]) {
        let read = lines.compactMap(\.ocrConfidence)
        guard !read.isEmpty else { return }
        attributes["ocr"] = "tesseract"
        attributes["ocr_confidence"] = String(format: "%.1f", read.reduce(0, +) / Double(read.count))
    }

    // MARK: - Paragraphs

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

    func group(_ lines: [PDFLine], bodySize: Double) -> [Paragraph] {
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
                if newPage || line.blockBreakBefore || !sameFont || wentUp || nextColumn || bigGap || indented || shortLast
                    || startsItem || (previousIsHeadingLike && !sameFont) {
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
                result += group(Array(lines[start..<end]), bodySize: bodySize)
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
                result += group(Array(lines[start..<end]), bodySize: bodySize)
            } else {
                // Table rows take the place of their first line among the page's paragraphs.
                let rest = (start..<end).filter { !taken.contains($0) }
                var merged: [(first: Int, paragraph: Paragraph)] = []
                var position = 0
                for grouped in group(rest.map { lines[$0] }, bodySize: bodySize) {
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

    // MARK: - Reading order

    /// Orders each page's paragraphs by recursive XY-cut: a vertical gutter that runs the whole
    /// height of a region splits it into columns read left to right; otherwise the widest
    /// horizontal gap splits it into bands read top to bottom; a region with neither keeps
    /// poppler's order. Full-width titles come first, then the columns one after the other.
    func readingOrder(_ paragraphs: [Paragraph]) -> [Paragraph] {
        var result: [Paragraph] = []
        var start = 0
        while start < paragraphs.count {
            var end = start
            while end < paragraphs.count, paragraphs[end].page == paragraphs[start].page { end += 1 }
            let page = Array(paragraphs[start..<end])
            let boxes = page.map { p in
                (x1: p.lines.map(\.x1).min() ?? 0, y1: p.lines.map(\.y1).min() ?? 0,
                 x2: p.lines.map(\.x2).max() ?? 0, y2: p.lines.map(\.y2).max() ?? 0)
            }
            result += Self.xyCut(Array(page.indices), boxes: boxes).map { page[$0] }
            start = end
        }
        return result
    }

    static func xyCut(_ items: [Int], boxes: [(x1: Double, y1: Double, x2: Double, y2: Double)]) -> [Int] {
        guard items.count > 1 else { return items }
        let top = items.map { boxes[$0].y1 }.min() ?? 0
        let bottom = items.map { boxes[$0].y2 }.max() ?? 0
        // Vertical gutters: x ranges no box crosses, with boxes on both sides.
        let byX = items.sorted { boxes[$0].x1 < boxes[$1].x1 }
        var columns: [[Int]] = [[byX[0]]]
        var reach = boxes[byX[0]].x2
        for item in byX.dropFirst() {
            if boxes[item].x1 > reach + 4 {
                columns.append([item])
            } else {
                columns[columns.count - 1].append(item)
            }
            reach = max(reach, boxes[item].x2)
        }
        // Bullets or numbers hanging left of their text are not a column: columns are wide.
        let regionWidth = (items.map { boxes[$0].x2 }.max() ?? 0) - (items.map { boxes[$0].x1 }.min() ?? 0)
        let wideEnough = columns.allSatisfy { column in
            (column.map { boxes[$0].x2 }.max() ?? 0) - (column.map { boxes[$0].x1 }.min() ?? 0) >= max(40, regionWidth * 0.12)
        }
        if columns.count > 1, wideEnough {
            // A real column spans a good part of the region's height; a lone side note does not stop it.
            let tall = columns.filter { column in
                let height = (column.map { boxes[$0].y2 }.max() ?? 0) - (column.map { boxes[$0].y1 }.min() ?? 0)
                return height >= (bottom - top) * 0.25 || column.count >= 2
            }
            if tall.count >= 2 {
                return columns.flatMap { xyCut($0.sorted(), boxes: boxes) }
            }
        }
        // Horizontal bands at the widest gap.
        let byY = items.sorted { boxes[$0].y1 < boxes[$1].y1 }
        var bestGap = 0.0
        var cutAt = -1
        var lowest = boxes[byY[0]].y2
        for (position, item) in byY.enumerated().dropFirst() {
            let gap = boxes[item].y1 - lowest
            if gap > bestGap + 0.5 {
                bestGap = gap
                cutAt = position
            }
            lowest = max(lowest, boxes[item].y2)
        }
        if cutAt > 0, bestGap > 0 {
            let upper = Array(byY[..<cutAt]).sorted()
            let lower = Array(byY[cutAt...]).sorted()
            return xyCut(upper, boxes: boxes) + xyCut(lower, boxes: boxes)
        }
        return items.sorted()
    }

    /// A paragraph that stops mid-sentence at a column's foot and goes on at the top of the next
    /// column is one paragraph.
    func joinContinuations(_ paragraphs: inout [Paragraph], lexicon: Set<String>) {
        var index = 0
        while index + 1 < paragraphs.count {
            let a = paragraphs[index], b = paragraphs[index + 1]
            let continues = a.page == b.page && a.kind == .paragraph && b.kind == .paragraph && !Self.endsSentence(a.text) && b.text.first?.isLowercase == true
                && abs(a.fontSize - b.fontSize) <= 0.6 && a.bold == b.bold && b.lines[0].y1 < a.lines[a.lines.count - 1].y1
                && !Self.listMarker(b.text) && a.wordCount >= 8
            if continues {
                var merged = a
                merged.lines += b.lines
                merged.text = Self.join(merged.lines, lexicon: lexicon)
                paragraphs[index] = merged
                paragraphs.remove(at: index + 1)
            } else {
                index += 1
            }
        }
    }

    /// A sentence that a page break cuts ("… in endlich viele Intervalle" | "der Länge δ
    /// unterteilen. …") is finished on the page it starts on: the words up to the first sentence
    /// end move back to the paragraph that breaks off, so a passage holds the whole sentence and a
    /// search for it finds it; passages still never cross a page, and the rest stays on its page.
    func finishSentencesAcrossPages(_ paragraphs: inout [Paragraph], lexicon: Set<String>) {
        var index = 0
        while index + 1 < paragraphs.count {
            let a = paragraphs[index], b = paragraphs[index + 1]
            guard b.page == a.page + 1, a.kind == .paragraph, b.kind == .paragraph, !Self.endsSentence(a.text), a.wordCount >= 8,
                  b.text.first?.isLowercase == true, abs(a.fontSize - b.fontSize) <= 0.6, a.bold == b.bold,
                  !Self.listMarker(b.text), let cut = Self.firstSentenceEnd(b.text, maxWords: 50) else {
                index += 1
                continue
            }
            let fragment = String(b.text[..<cut])
            let rest = b.text[cut...].drop { $0 == " " }
            Self.append(fragment, to: &paragraphs[index].text, lexicon: lexicon)
            if rest.isEmpty {
                paragraphs.remove(at: index + 1)
            } else {
                paragraphs[index + 1].text = String(rest)
                index += 1
            }
        }
    }

    /// Just after the first sentence end of `text` (". " before a capital, a digit or a quote, or
    /// the end of the text), if it comes within `maxWords` words.
    static func firstSentenceEnd(_ text: String, maxWords: Int) -> String.Index? {
        var words = 1
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            let next = text.index(after: index)
            if c == " " {
                words += 1
                if words > maxWords { return nil }
            } else if ".!?".contains(c) {
                if next == text.endIndex { return next }
                if text[next] == " ", let after = text[next...].dropFirst().first,
                   after.isUppercase || after.isNumber || "\"“‘(".contains(after) {
                    return next
                }
            }
            index = next
        }
        return nil
    }

    /// "2.1" and "Methods" set on one line often come out of poppler as two blocks: put a bare
    /// section number back in front of the title beside it.
    func mergeSectionNumbers(_ paragraphs: inout [Paragraph]) {
        var index = 0
        while index + 1 < paragraphs.count {
            let number = paragraphs[index]
            let next = paragraphs[index + 1]
            let isBullet = number.text.count == 1 && number.text.first.map(Self.bullets.contains) == true
            let isNumber = isBullet || !number.text.isEmpty && number.text.count <= 8
                && number.text.allSatisfy { $0.isNumber || $0 == "." } && number.text.first?.isNumber == true
            let a = number.lines[0], b = next.lines[0]
            let sameLine = b.y1 < a.y2 && b.y2 > a.y1 && b.x1 >= a.x2 - 1
            let near = b.x1 - a.x2 <= max(a.fontSize, 6) * 4
            // A run-in heading ("5.1 Hyper Parameter Optimization We have chosen …") keeps its number too.
            if isNumber, number.kind == .paragraph, next.kind == .paragraph, number.lines.count == 1, next.page == number.page, sameLine,
               near || next.wordCount <= 20 {
                var merged = next
                merged.text = number.text + " " + next.text
                merged.lines.insert(contentsOf: number.lines, at: 0)
                merged.lines[0].bold = next.lines[0].bold
                merged.lines[0].fontSize = next.lines[0].fontSize
                paragraphs[index] = merged
                paragraphs.remove(at: index + 1)
            }
            index += 1
        }
    }

    func classify(_ paragraphs: inout [Paragraph], bodySize: Double) {
        var titleTaken = false
        let firstPageLargest = paragraphs.filter { $0.page == 1 }.map(\.fontSize).max() ?? 0
        for index in paragraphs.indices where paragraphs[index].kind == .paragraph {
            let p = paragraphs[index]
            let words = p.wordCount
            if Self.listMarker(p.text) {
                paragraphs[index].kind = .listItem
            } else if Self.isCaption(p.text) {
                paragraphs[index].kind = .caption
            } else if !titleTaken, p.page == 1, p.fontSize >= bodySize * 1.3, p.fontSize == firstPageLargest, words <= 30 {
                paragraphs[index].kind = .title
                titleTaken = true
            } else if p.fontSize >= bodySize * 1.12, words <= 25, p.lines.count <= 3, p.text.contains(where: \.isLetter) {
                paragraphs[index].kind = .heading
            } else if p.bold, p.fontSize >= bodySize - 0.6, words <= 14, p.lines.count <= 2, !Self.endsSentence(p.text),
                      p.text.contains(where: \.isLetter) {
                paragraphs[index].kind = .heading
            }
        }
    }

    /// Levels from font-size ranks (larger is higher); bold body-size headings below them all.
    func rankHeadings(_ paragraphs: inout [Paragraph], below base: Int) {
        let sizes = Set(paragraphs.filter { $0.kind == .heading && $0.level == nil }.map { ($0.fontSize * 2).rounded() / 2 }).sorted(by: >)
        for index in paragraphs.indices where paragraphs[index].kind == .heading && paragraphs[index].level == nil {
            let rank = sizes.firstIndex(of: (paragraphs[index].fontSize * 2).rounded() / 2) ?? sizes.count
            paragraphs[index].level = min(6, base + rank + 1)
        }
    }

    // MARK: - Slides

    /// On a slide, the top-most line in a large or bold font is the frame's title.
    func markSlideTitles(_ paragraphs: inout [Paragraph], bodySize: Double) {
        var seen = Set<Int>()
        for index in paragraphs.indices {
            let p = paragraphs[index]
            guard !p.kind.isFurniture, seen.insert(p.page).inserted else { continue }
            let page = pages[p.page - 1]
            if p.y1 < page.height * 0.3, p.wordCount <= 15, p.fontSize >= bodySize, p.kind != .listItem, p.kind != .table {
                paragraphs[index].kind = p.kind == .title ? .title : .heading
                paragraphs[index].lines[0].bold = paragraphs[index].lines[0].bold
                paragraphs[index].level = nil
            }
        }
        // Only a page's first heading is its title; later large text is body.
        var titled = Set<Int>()
        for index in paragraphs.indices where paragraphs[index].kind == .heading {
            if !titled.insert(paragraphs[index].page).inserted { paragraphs[index].kind = .paragraph }
        }
    }

    /// Overlays: beamer builds a frame up over several pages (`\pause`, `\item<2->`), each page
    /// the one before plus a little. A slide whose words all come back on the next one, under the
    /// same frame title (or the same page label: beamer gives a frame's pages one number), is a
    /// step of that frame: only the fullest page is kept, so the frame gives one passage.
    func foldOverlays(_ paragraphs: inout [Paragraph]) {
        var byPage: [Int: [Int]] = [:]
        for (index, p) in paragraphs.enumerated() where !p.kind.isFurniture { byPage[p.page, default: []].append(index) }
        func words(_ page: Int) -> [String: Int] {
            var counts: [String: Int] = [:]
            for index in byPage[page] ?? [] where paragraphs[index].kind != .heading {
                for word in paragraphs[index].text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                    counts[String(word), default: 0] += 1
                }
            }
            return counts
        }
        func title(_ page: Int) -> String? {
            (byPage[page] ?? []).first { paragraphs[$0].kind == .heading }.map { paragraphs[$0].text }
        }
        var steps = Set<Int>()
        for page in byPage.keys.sorted() where byPage[page + 1] != nil {
            let sameFrame = (title(page) != nil && title(page) == title(page + 1))
                || (pages[page - 1].label != nil && pages[page - 1].label == pages[page].label)
            guard sameFrame else { continue }
            let here = words(page), next = words(page + 1)
            if !here.isEmpty, here.allSatisfy({ next[$0.key, default: 0] >= $0.value }) { steps.insert(page) }
        }
        paragraphs.removeAll { steps.contains($0.page) }
    }

    // MARK: - Figures

    /// Short pieces of text set inside a figure (a drawing's part names, an axis's numbers) are
    /// its labels, not prose: those between a figure's caption and the prose above it, and on a
    /// page with no caption, runs of three or more bare numbers (a plot's axes).
    func markFigureLabels(_ paragraphs: inout [Paragraph]) {
        func isFragment(_ p: Paragraph) -> Bool {
            p.kind == .paragraph && p.lines.count <= 2 && p.text.utf8.count <= 96 && p.text.count <= 48
                && PDFRow.wordCount(p.text) <= 6 && !Self.endsSentence(p.text)
        }
        func box(_ p: Paragraph) -> (x1: Double, y1: Double, x2: Double, y2: Double) {
            (p.lines.map(\.x1).min() ?? 0, p.lines.map(\.y1).min() ?? 0, p.lines.map(\.x2).max() ?? 0, p.lines.map(\.y2).max() ?? 0)
        }
        var start = 0
        while start < paragraphs.count {
            var end = start
            while end < paragraphs.count, paragraphs[end].page == paragraphs[start].page { end += 1 }
            let page = start..<end
            start = end
            let fragments = page.filter { isFragment(paragraphs[$0]) }
            guard !fragments.isEmpty else { continue }
            var labels: [Int] = []
            let captions = page.filter { paragraphs[$0].kind == .caption && Self.isFigureCaption(paragraphs[$0].text) }
            if !captions.isEmpty {
                let boxes = page.map { box(paragraphs[$0]) }
                let isFragmentAt = Set(fragments)
                // Prose: what is neither a fragment nor a caption or heading.
                let prose = page.filter { !isFragmentAt.contains($0) && paragraphs[$0].kind != .caption && paragraphs[$0].kind != .heading }
                for index in fragments {
                    let fragment = boxes[index - page.lowerBound]
                    // Below it, a figure caption with no prose between the two.
                    let inFigure = captions.contains { c in
                        let caption = boxes[c - page.lowerBound]
                        guard caption.y1 >= fragment.y2 - 2 else { return false }
                        return !prose.contains { other in
                            let b = boxes[other - page.lowerBound]
                            let between = b.y1 >= fragment.y2 - 1 && b.y2 <= caption.y1 + 1
                            let beside = min(b.x2, max(fragment.x2, caption.x2)) > max(b.x1, min(fragment.x1, caption.x1))
                            return between && beside
                        }
                    }
                    if inFigure { labels.append(index) }
                }
            }
            let numbers = fragments.filter { Self.isAxisText(paragraphs[$0].text) }
            if numbers.count >= 3 { labels += numbers }
            for index in labels { paragraphs[index].kind = .figureLabel }
        }
    }

    static func isFigureCaption(_ text: String) -> Bool {
        let lower = text.prefix(12).lowercased()
        return ["figure", "fig.", "fig ", "abbildung", "abb."].contains { lower.hasPrefix($0) }
    }

    /// An axis's ticks and a plot's letters: numbers ("0.5", "−2", "20,116") and single letters only.
    static func isAxisText(_ text: String) -> Bool {
        let tokens = text.split(separator: " ")
        return !tokens.isEmpty && tokens.allSatisfy { token in
            token.count == 1 && token.first?.isLetter == true
                || (token.contains { $0.isNumber } && token.allSatisfy { $0.isNumber || ".,−-+%".contains($0) })
        }
    }

    /// A slide with only a title still deserves a passage: its title becomes its text.
    func giveBarePagesText(_ paragraphs: inout [Paragraph]) {
        var hasBody = Set<Int>()
        for p in paragraphs where p.kind != .heading && p.kind != .title && !p.kind.isFurniture { hasBody.insert(p.page) }
        var index = 0
        while index < paragraphs.count {
            let p = paragraphs[index]
            if (p.kind == .heading || p.kind == .title), !hasBody.contains(p.page) {
                var copy = p
                copy.kind = .paragraph
                copy.level = nil
                paragraphs.insert(copy, at: index + 1)
                hasBody.insert(p.page)
                index += 1
            }
            index += 1
        }
    }

    // MARK: - Outline

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
