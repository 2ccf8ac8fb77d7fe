import Foundation

/// What any reader may make of its input, the same for all of them: a document's text may be
/// at most `expansionFactor` times its input (and at least 1 MiB is always allowed), and no
/// block is longer than `maxBlockCharacters` (longer ones are cut into consecutive blocks at
/// line or sentence ends). A source that would expand further is refused with one line; a
/// giant block would otherwise be one giant string in every later stage.
enum OutputBounds {
    /// How many times its input's size a document's text may be. Text never grows by reading
    /// (PDF streams a few times at most); only an expansion attack grows it this much.
    static let expansionFactor = 16
    /// Small inputs may always give this much text.
    static let minimumTextLimit = 1 << 20
    /// The longest block, in characters (some 10,000 words): longer ones are cut.
    static let maxBlockCharacters = 1 << 16

    /// The most text, in UTF-8 bytes, an input of `inputBytes` may be read as.
    static func textLimit(inputBytes: Int) -> Int {
        max(minimumTextLimit, inputBytes.multipliedReportingOverflow(by: expansionFactor).partialValue)
    }

    /// Whole mebibytes, rounded down, for messages.
    static func mebibytes(_ bytes: Int) -> Int { bytes >> 20 }

    /// `document` within the bounds: blocks cut to `maxBlockCharacters`; refused when its text
    /// exceeds `textLimit(inputBytes:)`.
    static func apply(to document: ExtractedDocument, inputBytes: Int, name: String) throws -> ExtractedDocument {
        let total = document.blocks.reduce(0) { $0 + $1.text.utf8.count }
        if total > textLimit(inputBytes: inputBytes) {
            throw LecternError(.unsupported, name,
                               "refused: \(size(total)) of text from \(size(inputBytes)) of input, over \(expansionFactor) times its size (an expansion attack)")
        }
        guard document.blocks.contains(where: { $0.text.utf8.count > maxBlockCharacters }) else { return document }
        var bounded = document
        bounded.blocks = document.blocks.flatMap { split($0, limit: maxBlockCharacters) }
        return bounded
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    /// `block` as consecutive blocks of at most `limit` characters, cut after a line break,
    /// else after a sentence, else at a space in the second half of each window (else hard).
    /// Offsets, cue times and the paragraph start follow the text they belong to.
    static func split(_ block: Block, limit: Int) -> [Block] {
        let text = block.text
        // A block of at most `limit` UTF-8 bytes has at most `limit` characters.
        guard text.utf8.count > limit else { return [block] }
        var pieces: [Block] = []
        var start = text.startIndex
        var startOffset = 0
        while start < text.endIndex {
            var cut = text.endIndex
            if let windowEnd = text.index(start, offsetBy: limit, limitedBy: text.endIndex), windowEnd < text.endIndex {
                cut = cutPoint(in: text[start..<windowEnd], half: text.index(start, offsetBy: limit / 2))
            }
            let length = text.distance(from: start, to: cut)
            var piece = block
            var end = cut
            while end > start, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
            piece.text = String(text[start..<end])
            piece.offset = block.offset.map { $0 + startOffset }
            piece.startsParagraph = block.startsParagraph && pieces.isEmpty
            if !block.timeline.isEmpty {
                piece.timeline = TimePoint.slice(block.timeline, from: startOffset, length: length)
                piece.start = piece.timeline.first?.seconds ?? block.start
            }
            if !piece.text.isEmpty { pieces.append(piece) }
            startOffset += length
            start = cut
        }
        return pieces
    }

    /// Where to end a piece in `window`: after its last line break, sentence end or space at or
    /// past `half`; the window's end when there is none.
    static func cutPoint(in window: Substring, half: String.Index) -> String.Index {
        let tail = window[half...]
        if let newline = tail.lastIndex(of: "\n") { return window.index(after: newline) }
        var index = tail.endIndex
        var lastSpace: String.Index?
        while index > tail.startIndex {
            let previous = tail.index(before: index)
            if tail[previous].isWhitespace {
                if lastSpace == nil { lastSpace = index }
                if previous > tail.startIndex, ".!?".contains(tail[tail.index(before: previous)]) { return index }
            }
            index = previous
        }
        return lastSpace ?? window.endIndex
    }
}
