import Foundation

/// Reading order: columns cut apart (XY-cut), paragraphs continued across columns and pages, kinds
/// and heading ranks.
extension PDFLayout {
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
}
