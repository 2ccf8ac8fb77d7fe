import Foundation

/// A lecturer's sentence as a card can show it. Speech ties each sentence to the one before
/// ("And so now", "But recall that", "Remember,"), fills pauses ("uh", "um"), says a word twice,
/// speaks of "our velocity" for the velocity and of a quantity that "is just the derivative of"
/// another; a transcript's caption may run the speaker's name into the sentence ("Deepto
/// Chakrabarty The total mechanical energy …"). Cleaning drops only what leaves the meaning as it
/// was: a false start ("--") and everything else the lecturer said stay, for the checks to judge.
enum SpokenSentence {
    private static let speakerName = try! NSRegularExpression(
        pattern: #"^(?:(?:Dr|Prof)\.? |Professor )?[A-Z][a-z]+(?: [A-Z][a-z]+){1,2} (?=(?:The|So|And|Now|We|We've|We're|In|Today|Let's|This|Well|OK|Okay|But|Here|When|If|Recall|Remember|Our|It)\b)"#)
    private static let opener = try! NSRegularExpression(
        pattern: #"^(?:(?:and|so|now|but|well|ok|okay|then|again|also)\b,?\s+|(?:all ?right|right),\s+|(?:recall|remember|notice|note)(?: that\b|,)\s*)"#,
        options: [.caseInsensitive])
    private static let filler = try! NSRegularExpression(pattern: #"\b(?:uh|um|erm)\b,?\s*"#, options: [.caseInsensitive])
    private static let repeated = try! NSRegularExpression(pattern: #"\b(the|a|an|we|it|is|are|and|so|to|of)\s+\1\b"#, options: [.caseInsensitive])
    private static let possessive = try! NSRegularExpression(pattern: #"^(?:[Oo]ur|[Mm]y) (?=[a-z])"#)
    private static let copulaFiller = try! NSRegularExpression(
        pattern: #"\b(is|are) (?:just|simply|precisely|basically|exactly|nothing but|nothing more than|nothing other than) (?=(?:the|a|an)\b)"#)

    /// `sentence` without the run-in speaker's name, the openers, fillers and doubled words of
    /// speech, "our X" as "the X", and "is just the …" as "is the …"; its first letter upper case.
    static func cleaned(_ sentence: String) -> String {
        var text = TextCleanup.collapseWhitespace(sentence).trimmingCharacters(in: .whitespaces)
        text = replacing(speakerName, in: text, with: "")
        text = replacing(filler, in: text, with: "")
        text = replacing(repeated, in: text, with: "$1")
        // "Now, again, notice that …": openers come in runs.
        while true {
            let shorter = replacing(opener, in: text, with: "")
            if shorter == text || shorter.isEmpty { break }
            text = shorter
        }
        text = replacing(possessive, in: text, with: "the ")
        text = replacing(copulaFiller, in: text, with: "$1 ")
        text = TextCleanup.collapseWhitespace(text).trimmingCharacters(in: .whitespaces)
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    private static func replacing(_ regex: NSRegularExpression, in text: String, with template: String) -> String {
        regex.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length), withTemplate: template)
    }
}
