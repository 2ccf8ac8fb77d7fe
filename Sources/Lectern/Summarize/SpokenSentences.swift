import Foundation

/// A lecture's sentences as a reader can take them: what a transcript states, without the talk
/// around it. Speech carries fillers ("um", "you know"), openers that only keep it going ("So",
/// "And now", "OK,"), false starts broken off with "--", remarks to the audience and the board
/// ("let's", "you see", "over here", "draw"), and derivations read aloud ("Tb minus Ta equals M
/// a"); a summary wants the statements: what is defined, what a law says, what follows. The
/// lecture's announcement of its subject ("Today we'd like to discuss tension in a rope") is
/// kept as a statement about the lecture ("The lecture discusses tension in a rope.").
enum SpokenSentences {
    /// The paragraph's sentences that read as written statements, cleaned, in order; "" when
    /// none does.
    static func written(_ paragraph: String) -> String {
        let text = TextCleanup.collapseWhitespace(paragraph.replacingOccurrences(of: #"<[^>]{1,20}>"#, with: "", options: .regularExpression))
        return SentenceSplitter.split(text).compactMap { written(sentence: $0.text) }.joined(separator: " ")
    }

    /// One spoken sentence as a written statement, or nil when it is not one.
    static func written(sentence raw: String) -> String? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        // A sound ("(chalk tapping)", "[MUSIC]") and a caption's speaker dash ("- Today we…").
        text = text.replacingOccurrences(of: #"^[\(\[][A-Za-z ]{2,30}[\)\]]\s*|\s*\[[A-Z ]{2,30}\]"#, with: "", options: .regularExpression)
        while let first = text.first, "-–—".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        // A false start is broken off ("if we had a rope and say we were pulling-- here's…"):
        // the sentence has no one grammar.
        if text.contains("--") || text.contains("—") { return nil }
        guard let last = text.last, ".!".contains(last) else { return nil }
        text = text.replacingOccurrences(of: #"(?i)(,\s*)?\b(um+|uh+|erm|er|ah)\b(\s*,)?"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(?i),?\s*\b(you know|I mean)\b\s*,?"#, with: ",", options: .regularExpression)
        text = TextCleanup.collapseWhitespace(text.replacingOccurrences(of: " ,", with: ","))
        // Openers that only keep the talk going: "And so now, …", "OK, so …", "Well, …".
        while let opener = text.range(of: #"^(?i)(and|so|now|well|ok|okay|alright|all right|then|but)\b,?\s+|^(?i)right,\s+"#,
                                         options: .regularExpression) {
            text.removeSubrange(opener)
        }
        while let first = text.first, ",;".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        guard !text.isEmpty else { return nil }
        if let announced = announcement(text) { return announced }
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" }).map { $0.lowercased() }
        if words.contains(where: { addressing.contains($0) }) { return nil }
        let lower = " " + words.joined(separator: " ") + " "
        if board.contains(where: { lower.contains(" \($0) ") }) { return nil }
        for (index, word) in words.enumerated() where ["this", "these", "those"].contains(word) {
            if index + 1 >= words.count || !ownSubjects.contains(words[index + 1]) { return nil }
        }
        if isDerivation(words) { return nil }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// Words that speak to the audience or of the speaker: the sentence is about the talk.
    static let addressing: Set<String> = [
        "i", "i'm", "i'll", "i've", "i'd", "i’m", "i’ll", "me", "my", "you", "you're", "you'll", "you've", "your", "you’re", "yourself",
        "let's", "let’s", "let", "okay", "ok", "guys", "gonna", "wanna", "hmm", "yeah", "hello", "hi", "welcome",
    ]

    /// What points at the board or the picture being drawn, or back at what was said.
    static let board = [
        "here", "here's", "there's our", "over there", "this guy", "this side", "that side", "this picture", "this diagram", "this figure",
        "the board", "draw", "drew", "drawn", "drawing", "as i said", "we said", "we saw", "we just", "we did", "last time", "next time",
        "this one", "that one", "these guys", "like this", "like that", "so far", "on the left", "on the right", "et cetera",
    ]

    /// What "this", "these" and "those" may point at in a statement that stands alone; in a
    /// lecture any other ("at this location", "this wheel", "in this case") points at the board
    /// or at what was just said.
    static let ownSubjects: Set<String> = ["lecture", "lectures", "course", "video", "videos", "lesson", "chapter", "week", "series", "section", "class", "unit"]

    /// Operations read aloud: a line of working says several, or one among symbols.
    static let spokenOperators: Set<String> = ["equals", "equal", "minus", "plus", "times", "squared", "cubed", "divided", "over", "prime", "sub"]

    /// Short words of English that are not symbols.
    static let shortWords: Set<String> = [
        "a", "i", "is", "of", "in", "at", "on", "to", "be", "we", "it", "as", "or", "if", "so", "an", "by", "up", "do", "go", "no", "us",
        "am", "he", "my", "me", "oh", "ok", "ah",
    ]

    /// A line of a derivation read aloud: operators between symbols ("Tb minus Ta equals M a",
    /// "P2 is equal to P1"), unless it names the law or definition it states.
    static func isDerivation(_ words: [String]) -> Bool {
        let operators = words.filter { spokenOperators.contains($0) }.count
        let symbols = words.filter { word in
            word.count <= 2 && !shortWords.contains(word) || word.range(of: #"^[a-z]{1,2}\d+$"#, options: .regularExpression) != nil
        }.count
        guard operators >= 2 || (operators >= 1 && symbols >= 2) || symbols >= 4 else { return false }
        let named = words.contains { ["law", "laws", "defined", "definition", "principle", "theorem", "called"].contains($0) }
        return !(named && operators <= 2)
    }

    /// Verbs a lecture announces its subject with, and how a statement about it says them.
    static let announcingVerbs: [(spoken: String, written: String)] = [
        ("discuss", "discusses"), ("talk about", "talks about"), ("look at", "looks at"), ("introduce", "introduces"),
        ("study", "studies"), ("analyze", "analyzes"), ("analyse", "analyses"), ("derive", "derives"), ("explore", "explores"),
        ("describe", "describes"), ("explain", "explains"), ("define", "defines"), ("examine", "examines"),
        ("investigate", "investigates"), ("learn about", "covers"), ("cover", "covers"), ("review", "reviews"),
    ]

    private static let announcing: NSRegularExpression = {
        let verbs = announcingVerbs.map { NSRegularExpression.escapedPattern(for: $0.spoken) }.joined(separator: "|")
        let who = #"(?:we(?:'d| would|’d)? like to|we(?:'ll| will|’ll)|we(?:'re| are|’re) going to|we want to|i(?:'d| would|’d) like to|i(?:'m| am|’m) going to|i want to|i(?:'ll| will|’ll)|let(?:'s|’s| us))"#
        let when = #"(?:(?:today|in this (?:video|lecture|lesson|section|class|part)|here|first|next|now),?\s+)?"#
        return try! NSRegularExpression(pattern: "^" + when + who + #"\s+(?:briefly\s+)?("# + verbs + #")\s+(.+)$"#, options: [.caseInsensitive])
    }()

    /// "Today, we'd like to discuss tension in a rope." → "The lecture discusses tension in a rope."
    static func announcement(_ text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = announcing.firstMatch(in: text, range: range),
              let verbRange = Range(match.range(at: 1), in: text), let restRange = Range(match.range(at: 2), in: text) else { return nil }
        let verb = text[verbRange].lowercased()
        let rest = String(text[restRange])
        let restWords = rest.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map { $0.lowercased() }
        let spaced = " " + restWords.joined(separator: " ") + " "
        guard restWords.count >= 2, !restWords.contains(where: { addressing.contains($0) }), !board.contains(where: { spaced.contains(" \($0) ") }),
              let written = announcingVerbs.first(where: { $0.spoken == verb })?.written else { return nil }
        return "The lecture \(written) \(rest)"
    }
}
