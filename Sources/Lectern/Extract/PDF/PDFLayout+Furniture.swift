import Foundation

/// Furniture: running headers and footers, page numbers, and the lines set aside with them.
extension PDFLayout {
    /// The lines set aside as furniture (repeating headers and footers, page numbers, a running
    /// title beside them) as blocks by page and their distinct texts, and the body's lines.
    func separateFurniture() -> (body: [PDFLine], blocks: [Int: [Block]], texts: [String]) {
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
        return (bodyLines, furnitureBlocks, furnitureTexts)
    }

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
}
