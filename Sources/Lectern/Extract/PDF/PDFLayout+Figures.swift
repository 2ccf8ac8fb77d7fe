import Foundation

/// Figures: labels inside a figure and axis text set apart from the body, bare pages given their
/// text.
extension PDFLayout {
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
}
