/// Splits text into sentences at `.`, `!`, `?` (and their CJK forms) followed by a space and
/// an upper-case letter, digit or opening mark, leaving common abbreviations and initials alone.
/// Here in Model: transcripts (Extract), the chunker and summaries all cut text into sentences.
enum SentenceSplitter {
    static let abbreviations: Set<String> = [
        "e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "prof", "fig", "eq", "no",
        "vol", "pp", "p", "ch", "sec", "st", "jr", "sr", "al", "approx", "ca", "dept", "inc", "ltd",
        // German: a noun after them is capitalised, so "bzw. Winkel" looked like a new sentence.
        "bzw", "z.b", "d.h", "vgl", "u.a", "s.o", "s.u", "o.ä", "u.ä", "ggf", "evtl", "bspw", "sog", "inkl",
        "nr", "abb", "bzgl", "z.t", "u.u", "v.a", "def", "bsp",
    ]

    /// Sentences with their character offsets in `text`.
    static func split(_ text: String) -> [(text: String, offset: Int)] {
        let chars = Array(text)
        var result: [(String, Int)] = []
        var start = 0
        var i = 0
        func push(_ end: Int) {
            var s = start
            while s < end, chars[s].isWhitespace { s += 1 }
            var e = end
            while e > s, chars[e - 1].isWhitespace { e -= 1 }
            if e > s { result.append((String(chars[s..<e]), s)) }
            start = end
        }
        while i < chars.count {
            let c = chars[i]
            if c == "。" || c == "！" || c == "？" {
                push(i + 1)
            } else if c == "." || c == "!" || c == "?" || c == "…" {
                var j = i + 1
                while j < chars.count, "\"'”’)]".contains(chars[j]) { j += 1 }
                if j < chars.count, chars[j].isWhitespace {
                    var k = j
                    while k < chars.count, chars[k].isWhitespace { k += 1 }
                    let next = k < chars.count ? chars[k] : " "
                    let startsSentence = next.isUppercase || next.isNumber || "\"'“‘([".contains(next)
                    if startsSentence && !(c == "." && isAbbreviation(chars, before: i)) {
                        push(j)
                        i = j
                        continue
                    }
                }
            }
            i += 1
        }
        push(chars.count)
        return result
    }

    private static func isAbbreviation(_ chars: [Character], before dot: Int) -> Bool {
        var s = dot
        while s > 0, chars[s - 1].isLetter || chars[s - 1] == "." { s -= 1 }
        let word = String(chars[s..<dot]).lowercased()
        if word.count == 1 && word.first!.isLetter { return true } // an initial: "J. Smith"
        return abbreviations.contains(word)
    }
}
