import Foundation

/// BERT's uncased WordPiece tokenizer, written to give the same ids as Hugging Face
/// `tokenizers` on all-MiniLM-L6-v2's `tokenizer.json` (BertNormalizer with lower-casing and
/// accent stripping, BertPreTokenizer, WordPiece with `##` continuations), so that the model
/// sees exactly the pieces it was trained on. It is also the chunker's token counter: a
/// passage of N pieces is N tokens to the model.
struct WordPieceTokenizer: TokenCounter, Sendable {
    /// Words longer than this (in Unicode scalars) become a single `[UNK]`, as in BERT.
    static let maxCharactersPerWord = 100
    /// Special tokens that are matched in the raw text before normalisation, as the
    /// `added_tokens` of `tokenizer.json` are.
    static let specialTokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

    let vocabulary: WordPieceVocabulary
    let unknownId: Int32
    let classifierId: Int32
    let separatorId: Int32
    var vocabularySize: Int { vocabulary.count }
    /// BERT uncased WordPiece over this vocabulary (the size names it well enough: every
    /// uncased BERT vocabulary of 30,522 pieces counts alike).
    var countingKey: String { "bert-uncased-wordpiece-\(vocabulary.count)" }

    /// One piece per line; the line number is the id (BERT's `vocab.txt`).
    init(vocabularyFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LecternError(.modelMissing, path, "cannot read the tokenizer vocabulary: run `make model`")
        }
        try self.init(vocabulary: WordPieceVocabulary(lines: data), source: path)
    }

    /// The lines of a vocabulary file (LF or CRLF; no empty last line), split on the bytes:
    /// Foundation's `components(separatedBy:)` took 27 ms of every `lectern search` for BERT's
    /// 30,522 lines, a fifth of a semantic call.
    static func lines(_ data: Data) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(32_768)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            func add(_ end: Int) {
                var stop = end
                if stop > start, bytes[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self))
            }
            for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
                add(index)
                start = index + 1
            }
            if start < bytes.count { add(bytes.count) }
        }
        return lines
    }

    init(vocabulary pieces: [String], source: String = "vocabulary") throws {
        try self.init(vocabulary: WordPieceVocabulary(pieces), source: source)
    }

    init(vocabulary: WordPieceVocabulary, source: String) throws {
        guard let unk = vocabulary["[UNK]"], let cls = vocabulary["[CLS]"], let sep = vocabulary["[SEP]"] else {
            throw LecternError(.corrupt, source, "the vocabulary lacks [UNK], [CLS] or [SEP]; reinstall it with `make model`")
        }
        self.vocabulary = vocabulary
        unknownId = unk
        classifierId = cls
        separatorId = sep
    }

    /// The model's input: `[CLS] pieces [SEP]`, cut to `maxLength` ids in all.
    func encode(_ text: String, maxLength: Int = 256) -> [Int32] {
        var ids = [classifierId]
        ids.append(contentsOf: pieceIds(text).prefix(max(0, maxLength - 2)))
        ids.append(separatorId)
        return ids
    }

    /// Word piece ids of `text`, without `[CLS]`/`[SEP]` and without truncation.
    func pieceIds(_ text: String) -> [Int32] {
        var ids: [Int32] = []
        for segment in Self.splitSpecialTokens(text) {
            switch segment {
            case .special(let token):
                if let id = vocabulary[token] { ids.append(id) }
            case .text(let part):
                for word in Self.words(Self.normalize(part)) {
                    appendPieces(of: word, to: &ids)
                }
            }
        }
        return ids
    }

    /// Pieces without `[CLS]`/`[SEP]`: what a passage costs of the model's 256.
    func count(_ text: String) -> Int { pieceIds(text).count }

    /// Greedy longest-match-first WordPiece; a word with an unmatchable rest is `[UNK]`.
    func appendPieces(of word: ArraySlice<Unicode.Scalar>, to ids: inout [Int32]) {
        if word.count > Self.maxCharactersPerWord {
            ids.append(unknownId)
            return
        }
        let mark = ids.count
        var start = word.startIndex
        while start < word.endIndex {
            var end = word.endIndex
            var found: Int32?
            while start < end {
                var candidate = start == word.startIndex ? "" : "##"
                candidate.unicodeScalars.append(contentsOf: word[start..<end])
                if let id = vocabulary[candidate] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let found else {
                ids.removeSubrange(mark...)
                ids.append(unknownId)
                return
            }
            ids.append(found)
            start = end
        }
    }

    // MARK: - BertNormalizer

    /// Clean text (drop NUL, U+FFFD and control characters, whitespace to spaces), space out
    /// CJK ideographs, strip accents (NFD, drop non-spacing marks), lower-case: in that order.
    static func normalize(_ text: String) -> [Unicode.Scalar] {
        var cleaned = String.UnicodeScalarView()
        var isASCII = true
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                if value == 0x09 || value == 0x0A || value == 0x0D || value == 0x20 {
                    cleaned.append(" ")
                } else if value >= 0x21 && value != 0x7F {
                    cleaned.append(scalar)
                }
                continue
            }
            isASCII = false
            if value == 0xFFFD || isControl(scalar) { continue }
            if scalar.properties.isWhitespace {
                cleaned.append(" ")
            } else if isChineseCharacter(value) {
                cleaned.append(" ")
                cleaned.append(scalar)
                cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(cleaned.count)
        if isASCII {
            for scalar in cleaned {
                let value = scalar.value
                result.append(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(value + 32)! : scalar)
            }
            return result
        }
        let decomposed = String(cleaned).decomposedStringWithCanonicalMapping
        for scalar in decomposed.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                result.append(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(value + 32)! : scalar)
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let lower = scalar.properties.lowercaseMapping
            if lower.unicodeScalars.count == 1, lower.unicodeScalars.first == scalar {
                result.append(scalar)
            } else {
                result.append(contentsOf: lower.unicodeScalars)
            }
        }
        return result
    }

    /// Control, format, unassigned, private-use and surrogate code points (tab, newline and
    /// carriage return count as whitespace instead).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: return true
        default: return false
        }
    }

    /// The CJK Unified Ideographs blocks, as BERT defines "Chinese characters".
    static func isChineseCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
             0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }

    // MARK: - BertPreTokenizer

    /// Splits on whitespace and isolates every punctuation character.
    static func words(_ scalars: [Unicode.Scalar]) -> [ArraySlice<Unicode.Scalar>] {
        var words: [ArraySlice<Unicode.Scalar>] = []
        var start = 0
        for (index, scalar) in scalars.enumerated() {
            if isWhitespace(scalar) {
                if start < index { words.append(scalars[start..<index]) }
                start = index + 1
            } else if isPunctuation(scalar) {
                if start < index { words.append(scalars[start..<index]) }
                words.append(scalars[index...index])
                start = index + 1
            }
        }
        if start < scalars.count { words.append(scalars[start...]) }
        return words
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// ASCII punctuation and symbols (`$`, `+`, `^` … as BERT counts them) and Unicode P*.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x21 && value <= 0x2F) || (value >= 0x3A && value <= 0x40)
                || (value >= 0x5B && value <= 0x60) || (value >= 0x7B && value <= 0x7E)
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    // MARK: - Added tokens

    enum Segment: Equatable {
        case text(String)
        case special(String)
    }

    /// Special tokens written literally in the text are kept whole, as `tokenizers` does
    /// (they are matched on the raw text, before normalisation).
    static func splitSpecialTokens(_ text: String) -> [Segment] {
        guard text.utf8.contains(UInt8(ascii: "[")) else { return [.text(text)] }
        let scalars = text.unicodeScalars
        var segments: [Segment] = []
        var textStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if scalars[index] == "[", let token = specialTokens.first(where: { scalars[index...].starts(with: $0.unicodeScalars) }) {
                if textStart < index { segments.append(.text(String(scalars[textStart..<index]))) }
                segments.append(.special(token))
                index = scalars.index(index, offsetBy: token.unicodeScalars.count)
                textStart = index
            } else {
                index = scalars.index(after: index)
            }
        }
        if textStart < scalars.endIndex { segments.append(.text(String(scalars[textStart...]))) }
        return segments
    }
}
