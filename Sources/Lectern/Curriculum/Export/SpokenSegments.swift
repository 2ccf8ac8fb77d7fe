import Foundation

/// One transcript segment as planned from a topic's passages: its spoken text, the passages it
/// holds (indices into the topic's passages, in order) and which part of its first passage it is.
struct SpokenSegment: Equatable, Sendable {
    var text: String
    var passages: [Int]
    /// 1 for a segment that opens its first passage; 2, 3, … for the later parts of a long one.
    var part: Int
}

/// A topic's passages cut into segments a tutor can speak: cleaned (`SpokenText`), long ones
/// split at sentence ends and short ones joined to a neighbour, so every segment holds
/// 100–2,000 characters, the range the UnaMentis importer's analyzer asks of a spoken segment
/// (../shared/formats/umcf/NOTES.md). A short segment is left only where no neighbour has room.
enum SpokenSegments {
    static let minimumCharacters = 100
    static let maximumCharacters = 2000
    /// A long text is cut into parts of about this size, so a part never ends up a tail of a few words.
    static let targetCharacters = 1500

    static func plan(_ passages: [Passage]) -> [SpokenSegment] {
        var pieces: [SpokenSegment] = []
        for (index, passage) in passages.enumerated() {
            var text = passage.text
            if index > 0, passages[index - 1].documentId == passage.documentId, passages[index - 1].ordinal == passage.ordinal - 1 {
                text = SpokenText.withoutRepeatedOpening(text, after: passages[index - 1].text)
            }
            text = SpokenText.clean(text)
            guard !text.isEmpty else { continue }
            for (part, piece) in split(text).enumerated() {
                pieces.append(SpokenSegment(text: piece, passages: [index], part: part + 1))
            }
        }
        return merge(pieces)
    }

    /// `text` in parts of at most `maximumCharacters`, cut between sentences (between words
    /// only inside a sentence longer than a part, as an unpunctuated transcript can be).
    static func split(_ text: String) -> [String] {
        guard text.count > maximumCharacters else { return [text] }
        let parts = (text.count + targetCharacters - 1) / targetCharacters
        let target = (text.count + parts - 1) / parts
        // Sentences, each with the separator that went before it (a paragraph break or a space).
        var units: [(separator: String, text: String)] = []
        for (number, paragraph) in text.components(separatedBy: "\n\n").enumerated() {
            for (position, sentence) in SentenceSplitter.split(paragraph).enumerated() {
                let separator = position == 0 ? (number == 0 ? "" : "\n\n") : " "
                for (piece, words) in byWords(sentence.text).enumerated() {
                    units.append((piece == 0 ? separator : " ", words))
                }
            }
        }
        var result: [String] = []
        var current = ""
        for unit in units {
            if !current.isEmpty, current.count >= target || current.count + unit.separator.count + unit.text.count > maximumCharacters {
                result.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : unit.separator) + unit.text
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// A sentence longer than a part, cut between words; a shorter one whole.
    static func byWords(_ sentence: String) -> [String] {
        guard sentence.count > maximumCharacters else { return [sentence] }
        var result: [String] = []
        var current = ""
        for word in sentence.split(whereSeparator: \.isWhitespace) {
            if !current.isEmpty, current.count + 1 + word.count > targetCharacters {
                result.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Short pieces joined to the one before (or, when it has no room, the one after).
    static func merge(_ pieces: [SpokenSegment]) -> [SpokenSegment] {
        var result: [SpokenSegment] = []
        var carried: SpokenSegment?
        func joined(_ first: SpokenSegment, _ second: SpokenSegment) -> SpokenSegment {
            var passages = first.passages
            for index in second.passages where !passages.contains(index) { passages.append(index) }
            return SpokenSegment(text: first.text + "\n\n" + second.text, passages: passages, part: first.part)
        }
        func fits(_ first: SpokenSegment, _ second: SpokenSegment) -> Bool {
            first.text.count + 2 + second.text.count <= maximumCharacters
        }
        for var piece in pieces {
            if let short = carried {
                carried = nil
                if fits(short, piece) { piece = joined(short, piece) } else { result.append(short) }
            }
            if piece.text.count < minimumCharacters {
                if let last = result.last, fits(last, piece) {
                    result[result.count - 1] = joined(last, piece)
                } else {
                    carried = piece
                }
                continue
            }
            result.append(piece)
        }
        if let short = carried { result.append(short) }
        return result
    }
}
