/// A short window of a passage around the query's words, and where those words stand in it.
enum Snippet {
    /// The `width`-character window with the most query-word hits, cut at word boundaries.
    /// Offsets in `highlights` count Characters of the returned text.
    static func make(_ text: String, terms: [String], width: Int = 220) -> (text: String, highlights: [[Int]]) {
        let flat = TextCleanup.collapseWhitespace(text)
        // Where every Unicode scalar is a Character of its own (English, most Latin text, Greek,
        // typographic punctuation, math), the window is found on scalars: splitting the text
        // into Characters was most of a search's time (10 hits, ~1,000 characters each).
        if let scalars = singleScalarCharacters(flat) {
            return window(scalars, terms: terms, width: width, isWhitespace: isWhitespace, isWordPart: isWordPart) {
                String(String.UnicodeScalarView(scalars[$0]))
            }
        }
        return characterWindow(flat, terms: terms, width: width)
    }

    /// `make` on Characters whatever the text holds: the reference the scalar path is tested against.
    static func makeByCharacters(_ text: String, terms: [String], width: Int = 220) -> (text: String, highlights: [[Int]]) {
        characterWindow(TextCleanup.collapseWhitespace(text), terms: terms, width: width)
    }

    private static func characterWindow(_ flat: String, terms: [String], width: Int) -> (text: String, highlights: [[Int]]) {
        let chars = Array(flat)
        return window(chars, terms: terms, width: width, isWhitespace: \.isWhitespace, isWordPart: isWordPart) { String(chars[$0]) }
    }

    /// The window over `units` (Characters, or scalars that are each a Character), `string`
    /// giving the text of a range of them.
    private static func window<Unit>(_ units: [Unit], terms: [String], width: Int, isWhitespace: (Unit) -> Bool,
                                     isWordPart: (Unit) -> Bool, string: (Range<Int>) -> String) -> (text: String, highlights: [[Int]]) {
        let words = wordRanges(units, isWordPart: isWordPart)
        let prepared = terms.map(Term.init)
        let hits = words.filter { matches(string($0.start..<$0.end), prepared) }
        var start = 0
        if units.count > width, !hits.isEmpty {
            var bestCount = 0
            for hit in hits {
                let windowStart = max(0, hit.start - width / 4)
                let count = hits.filter { $0.start >= windowStart && $0.end <= windowStart + width }.count
                if count > bestCount {
                    bestCount = count
                    start = windowStart
                }
            }
            while start > 0, !isWhitespace(units[start - 1]) { start -= 1 }
        }
        var end = min(units.count, start + width)
        if end < units.count {
            while end > start, !isWhitespace(units[end - 1]) { end -= 1 }
            if end == start { end = min(units.count, start + width) }
        }
        let prefix = start > 0 ? "…" : ""
        let window = string(start..<end)
        let leading = window.prefix { $0 == " " }.count
        let body = window.trimmingCharacters(in: .whitespaces)
        let suffix = end < units.count ? "…" : ""
        var highlights: [[Int]] = []
        for hit in hits where hit.start >= start && hit.end <= end {
            highlights.append([prefix.count + hit.start - start - leading, hit.end - hit.start])
        }
        return (prefix + body + suffix, highlights)
    }

    /// The runs of letters and digits among `chars`, as offsets.
    static func wordRanges(_ chars: [Character]) -> [(start: Int, end: Int)] {
        wordRanges(chars, isWordPart: isWordPart)
    }

    private static func isWordPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    private static func wordRanges<Unit>(_ units: [Unit], isWordPart: (Unit) -> Bool) -> [(start: Int, end: Int)] {
        var ranges: [(Int, Int)] = []
        var start: Int?
        for (i, unit) in units.enumerated() {
            if isWordPart(unit) {
                if start == nil { start = i }
            } else if let s = start {
                ranges.append((s, i))
                start = nil
            }
        }
        if let s = start { ranges.append((s, units.count)) }
        return ranges
    }

    /// The text's scalars when each one is a Character of its own, else nil. Conservative: only
    /// blocks without combining marks, joiners or other scalars that extend a Character, and
    /// no carriage return (which joins a following line feed).
    static func singleScalarCharacters(_ text: String) -> [Unicode.Scalar]? {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let alone = v < 0x300 ? v != 0x0D
                : (0x370..<0x483).contains(v) || (0x2000..<0x200C).contains(v) || (0x200E..<0x20D0).contains(v)
                    || (0x2100..<0x2300).contains(v)
            guard alone else { return nil }
            scalars.append(scalar)
        }
        return scalars
    }

    /// Character.isWhitespace of a one-scalar Character, without the property lookup for ASCII.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return Character(scalar).isWhitespace
    }

    /// Character.isLetter || .isNumber of a one-scalar Character, without the lookup for ASCII.
    private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 { return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) }
        let character = Character(scalar)
        return character.isLetter || character.isNumber
    }

    /// A query term with its stem-like prefix, worked out once rather than for every word.
    struct Term {
        let word: String
        let length: Int
        let stem: String?

        init(_ word: String) {
            self.word = word
            length = word.count
            stem = length >= 5 ? String(word.prefix(length - 2)) : length >= 4 ? String(word.prefix(length - 1)) : nil
        }
    }

    /// A word matches a query term when equal, or when they share a stem-like prefix
    /// (the FTS index stems with Porter, so "reactions" finds "reaction").
    static func matches(_ word: String, _ terms: [Term]) -> Bool {
        let w = WordTokenizer.fold(word)
        for term in terms {
            if w == term.word { return true }
            if let stem = term.stem, w.hasPrefix(stem), w.count <= term.length + 4 { return true }
        }
        return false
    }
}
