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

    /// Sentences with their character offsets in `text`. With `symbols`, a one-letter word that
    /// ends a sentence is a symbol, not an initial (see `isAbbreviation`): what a summary reads,
    /// where "a distance d. Now this is …" is two sentences. (The chunker, transcripts and cards
    /// cut without it: their passages and cards stay as they were.)
    static func split(_ text: String, symbols: Bool = false) -> [(text: String, offset: Int)] {
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
                    if startsSentence && !(c == "." && isAbbreviation(chars, before: i, next: k, symbols: symbols)) {
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

    /// Words that open a sentence, not a name: after a one-letter capital ("of length L. For a
    /// uniform rod …", "the total mass M. The …") the capital is a symbol ending a sentence, not
    /// an initial ("J. Smith", "John F. Kennedy").
    static let sentenceOpeners: Set<String> = [
        "the", "this", "that", "these", "those", "there", "then", "now", "so", "and", "but", "for", "if", "in",
        "we", "it", "its", "let", "let's", "consider", "here", "what", "when", "where", "which", "suppose", "thus",
        "hence", "since", "because", "a", "an", "our", "they", "you", "i",
    ]

    private static func isAbbreviation(_ chars: [Character], before dot: Int, next: Int, symbols: Bool) -> Bool {
        var s = dot
        while s > 0, chars[s - 1].isLetter || chars[s - 1] == "." { s -= 1 }
        let word = String(chars[s..<dot]).lowercased()
        if abbreviations.contains(word) { return true }
        if word.count == 1, let letter = chars[s..<dot].first, letter.isLetter {
            guard symbols else { return true } // an initial: "J. Smith"
            // A one-letter word after a word, not after "(" or the text's start, is a symbol
            // ending a sentence ("a distance d. Now this is …", "delta m over delta l. For a
            // uniform rod …"); a lower-case one stays an abbreviation before another
            // one-letter one ("z. B. die Winkel") or where it opens the text or a bracket
            // ("(s. Abb. 3)"), and a capital is an initial unless a sentence opens after it.
            guard s >= 2, chars[s - 1] == " ", chars[s - 2].isLetter || chars[s - 2].isNumber || chars[s - 2] == "," else { return true }
            if letter.isUppercase {
                guard chars[s - 2].isLowercase || chars[s - 2].isNumber else { return true }
                var e = next
                while e < chars.count, chars[e].isLetter || chars[e] == "'" || chars[e] == "’" { e += 1 }
                return !sentenceOpeners.contains(String(chars[next..<e]).lowercased())
            }
            return next + 1 < chars.count && chars[next + 1] == "."
        }
        return false
    }
}
