import Foundation

/// A title for a recording whose file gives none: SubRip has no title line, so ingest names it
/// after its file ("lecture_03_final"), which is no title for a lesson. The lecture's own words
/// name it instead: the subject it announces ("So let's talk about the carbon footprint of
/// transformers", "In this video, we'll study the encoder architecture"), a title said or shown
/// first ("The pipeline function.", "What is transfer learning?"), its first section heading,
/// and failing these its key phrases. A title the reader found (a WebVTT header) stands.
enum StatedTitle {
    /// Documents read from timed captions and transcripts.
    static let transcriptTypes: Set<DocumentType> = [.srt, .vtt, .transcript]

    /// The opening a lecturer names the subject in: its first sentences.
    static let openingSentences = 3
    /// A stated title longer than this is a sentence, not a title.
    static let maximumWords = 10

    /// Whether `document`'s title is its file name (what ingest falls back to when a reader
    /// finds no title).
    static func isFileName(_ document: StoredDocument) -> Bool {
        let names = [document.path, document.uri].compactMap { $0 }.map { TextCleanup.titleFromPath($0) }
        return names.contains(document.title)
    }

    /// `document` with a title from its content when it is a transcript named only by its file.
    static func titled(_ document: StoredDocument, passages: () throws -> [Passage]) rethrows -> StoredDocument {
        guard transcriptTypes.contains(document.type), isFileName(document) else { return document }
        var titled = document
        if let stated = title(of: try passages()) { titled.title = stated }
        return titled
    }

    /// The title the text gives itself: announced, said first, a heading, else its key phrases;
    /// nil for a text with no words.
    static func title(of passages: [Passage]) -> String? {
        guard !passages.isEmpty else { return nil }
        let opening = passages.prefix(2).flatMap { SentenceSplitter.split($0.text).map { TextCleanup.collapseWhitespace($0.text) } }
        let following = Set(opening.dropFirst().flatMap { TermMatcher.stems($0) })
        for (index, sentence) in opening.prefix(openingSentences).enumerated() {
            if let subject = announced(in: sentence) { return capitalised(subject) }
            // Only the very first sentence can be a title said aloud, and only one the lecture
            // goes on to talk about.
            if index == 0, let said = saidAsTitle(sentence), repeats(said, in: following) { return said }
        }
        if let heading = passages.lazy.compactMap({ $0.sectionPath.first }).first(where: { !$0.isEmpty }) { return heading }
        let phrases = KeyPhrases.title(for: passages)
        return phrases.isEmpty ? nil : phrases
    }

    /// "let's talk about X", "in this video we'll study X", "today we are going to look at X",
    /// "this lecture is about X": X.
    static func announced(in sentence: String) -> String? {
        let lead = #"^(?:(?:so|now|okay|ok|alright|all right|well|hi|hello|right)[,!]?\s+)*(?:(?:in|for) this (?:video|lecture|lesson|talk|session|section|chapter|part|episode|class)[,]?\s+|today[,]?\s+)?"#
        let patterns = [
            lead + #"(?:let's|let us|we'll|we will|we're going to|we are going to|we're gonna|i'll|i will|i'm going to|i am going to|i want to|we want to|we|i)\s+(?:now\s+|first\s+|briefly\s+)?(?:talk about|study|look at|discuss|learn about|cover|explore|introduce|examine|review|be talking about|be looking at|be studying|dive into|go over|take a look at|have a look at)\s+(.+?)[.!]?$"#,
            #"^(?:this|today's|the) (?:video|lecture|lesson|talk|session|topic|subject)(?: of (?:this|today's) (?:video|lecture|lesson|talk))? is (?:about |on )?(.+?)[.!]?$"#,
        ]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                  let match = regex.firstMatch(in: sentence, range: NSRange(sentence.startIndex..., in: sentence)),
                  let range = Range(match.range(at: 1), in: sentence) else { continue }
            var subject = String(sentence[range])
            // "the French Revolution before the exam", "limits today": when is not what.
            for tail in [" before ", " today", " again", " this time", " in this video", " in this lecture", " for the exam"] {
                if let cut = subject.range(of: tail, options: .caseInsensitive), cut.lowerBound > subject.startIndex {
                    subject = String(subject[..<cut.lowerBound])
                }
            }
            subject = subject.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
            let words = subject.split(separator: " ")
            guard let first = words.first, words.count <= maximumWords,
                  !pointers.contains(first.lowercased()), subject.contains(where: \.isLetter) else { continue }
            return subject
        }
        return nil
    }

    /// A first sentence that is a title, not a statement: "The pipeline function.", "Welcome
    /// to the Hugging Face Course.", "What is transfer learning?" (its end mark dropped but a
    /// question's).
    static func saidAsTitle(_ sentence: String) -> String? {
        var text = sentence.trimmingCharacters(in: .whitespaces)
        while let last = text.last, ".!:".contains(last) { text.removeLast() }
        let words = text.split(separator: " ").map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        guard words.count >= 2, words.count <= maximumWords, !text.contains(","), text.first?.isUppercase == true else { return nil }
        if text.hasSuffix("?") {
            return ["what", "how", "why"].contains(words[0]) ? text : nil
        }
        if words[0] == "welcome", words[1] == "to" { return text }
        // A noun phrase: no pronoun, finite verb or greeting ("Good morning everyone").
        return words.contains(where: { statementWords.contains($0) || $0.contains("'") || $0.contains("’") }) ? nil : text
    }

    /// Whether most of `title`'s content words come back in the sentences after it.
    static func repeats(_ title: String, in following: Set<String>) -> Bool {
        let content = TermMatcher.stems(title).filter { !ContentWords.stopwords.contains($0) && !["welcome"].contains($0) }
        guard !content.isEmpty else { return false }
        return content.filter(following.contains).count * 2 >= content.count
    }

    static func capitalised(_ subject: String) -> String {
        guard let first = subject.first else { return subject }
        return first.uppercased() + subject.dropFirst()
    }

    /// Words an announced subject does not start with: it points back at something unnamed.
    static let pointers: Set<String> = ["it", "this", "that", "these", "those", "them", "what", "some", "something", "how", "why"]

    /// Words that make a short sentence a statement or a greeting rather than a title.
    static let statementWords: Set<String> = [
        "i", "you", "we", "he", "she", "it", "they", "me", "us", "him", "them", "my", "our", "your", "is", "are", "was",
        "were", "am", "be", "been", "do", "does", "did", "have", "has", "had", "can", "will", "would", "should", "could",
        "let", "hi", "hello", "thanks", "thank", "okay", "ok", "so", "yes", "no", "um", "uh", "good", "morning",
        "afternoon", "evening", "everyone", "everybody", "this", "that", "there", "here", "now", "today", "not",
    ]
}
