import Foundation

/// Slides: titles by size and place, overlays (the same slide built up) folded into one.
extension PDFLayout {
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
}
