/// A short window of a passage around the query's words, and where those words stand in it.
enum Snippet {
    /// The `width`-character window with the most query-word hits, cut at word boundaries.
    static func make(_ text: String, terms: [String], width: Int = 220) -> (text: String, highlights: [[Int]]) {
        let flat = TextCleanup.collapseWhitespace(text)
        let words = wordRanges(flat)
        let chars = Array(flat)
        let hits = words.filter { matches(String(chars[$0.start..<$0.end]), terms) }
        var start = 0
        if chars.count > width, !hits.isEmpty {
            var bestCount = 0
            for hit in hits {
                let windowStart = max(0, hit.start - width / 4)
                let count = hits.filter { $0.start >= windowStart && $0.end <= windowStart + width }.count
                if count > bestCount {
                    bestCount = count
                    start = windowStart
                }
            }
            while start > 0, !chars[start - 1].isWhitespace { start -= 1 }
        }
        var end = min(chars.count, start + width)
        if end < chars.count {
            while end > start, !chars[end - 1].isWhitespace { end -= 1 }
            if end == start { end = min(chars.count, start + width) }
        }
        let prefix = start > 0 ? "…" : ""
        let window = String(chars[start..<end])
        let leading = window.prefix { $0 == " " }.count
        let body = window.trimmingCharacters(in: .whitespaces)
        let suffix = end < chars.count ? "…" : ""
        var highlights: [[Int]] = []
        for hit in hits where hit.start >= start && hit.end <= end {
            highlights.append([prefix.count + hit.start - start - leading, hit.end - hit.start])
        }
        return (prefix + body + suffix, highlights)
    }

    static func wordRanges(_ chars: String) -> [(start: Int, end: Int)] {
        var ranges: [(Int, Int)] = []
        var start: Int?
        for (i, c) in chars.enumerated() {
            if c.isLetter || c.isNumber {
                if start == nil { start = i }
            } else if let s = start {
                ranges.append((s, i))
                start = nil
            }
        }
        if let s = start { ranges.append((s, chars.count)) }
        return ranges
    }

    /// A word matches a query term when equal, or when they share a stem-like prefix
    /// (the FTS index stems with Porter, so "reactions" finds "reaction").
    static func matches(_ word: String, _ terms: [String]) -> Bool {
        let w = WordTokenizer.fold(word)
        for term in terms {
            if w == term { return true }
            let stem = term.count >= 5 ? String(term.prefix(term.count - 2)) : term.count >= 4 ? String(term.prefix(term.count - 1)) : nil
            if let stem, w.hasPrefix(stem), w.count <= term.count + 4 { return true }
        }
        return false
    }
}
