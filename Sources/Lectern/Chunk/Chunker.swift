/// Cuts a document's blocks into passages of at most `maxTokens` tokens that end on sentence
/// boundaries, overlap by whole sentences, keep section path, page, time and offsets, and
/// never cross a page or a top-level section. Headings become section paths, not text;
/// page headers and footers never reach passages.
public struct Chunker: Sendable {
    public var settings: ChunkSettings
    public var tokenCounter: any TokenCounter

    public init(settings: ChunkSettings = ChunkSettings(), tokenCounter: any TokenCounter = ApproximateTokenCounter()) {
        self.settings = settings
        self.tokenCounter = tokenCounter
    }

    /// One sentence (or one slice of an over-long sentence, or a whole code block) with provenance.
    struct Piece {
        var text: String
        var tokens: Int
        var block: Int
        var kind: BlockKind
        var page: Int?
        var pageLabel: String? = nil
        var start: Double?
        var end: Double?
        var speaker: String?
        var charStart: Int?
        var charEnd: Int?
        /// The first piece of a transcript paragraph (a new paragraph in the passage text).
        var startsParagraph = false
        /// For transcript pieces spanning several cues: where in `text` each cue's words begin.
        var timeline: [TimePoint] = []
    }


    /// Consecutive blocks that may share passages: same section path, page and kind class.
    struct Unit {
        var sectionPath: [String]
        var page: Int?
        var kindClass: PassageKind
        var pieces: [Piece] = []
    }

    public func chunk(_ blocks: [Block]) -> [Passage] {
        let units = makeUnits(blocks)
        var groups: [(unit: Unit, pieces: [Piece])] = []
        for unit in units {
            for pieces in pack(unit.pieces) { groups.append((unit, pieces)) }
        }
        groups = mergeSmall(groups)
        return groups.enumerated().map { ordinal, group in
            makePassage(ordinal: ordinal, sectionPath: group.unit.sectionPath, kindClass: group.unit.kindClass, pieces: group.pieces)
        }
    }

    /// Which blocks may share a passage: prose with prose, a transcript with itself, and each
    /// other kind of content on its own.
    static func kindClass(_ kind: BlockKind) -> PassageKind {
        switch kind {
        case .cue: return .transcript
        case .code: return .code
        case .table: return .table
        case .objective: return .objective
        case .glossary, .keyTerm: return .glossary
        case .exercise: return .exercise
        default: return .text
        }
    }

    func makeUnits(_ blocks: [Block]) -> [Unit] {
        var units: [Unit] = []
        for (index, block) in blocks.enumerated() {
            if block.kind.isFurniture || block.kind == .heading || block.kind == .title { continue }
            let text = block.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            var kindClass = Self.kindClass(block.kind)
            // A short code block in prose is usually a formula or a one-line example: it reads
            // with the sentences around it rather than as a passage of its own.
            if block.kind == .code, tokenCounter.count(text) < settings.minTokens { kindClass = .text }
            if units.last.map({ $0.sectionPath != block.sectionPath || $0.page != block.page || $0.kindClass != kindClass }) ?? true {
                units.append(Unit(sectionPath: block.sectionPath, page: block.page, kindClass: kindClass))
            }
            units[units.count - 1].pieces.append(contentsOf: pieces(of: block, index: index))
        }
        return units
    }

    func pieces(of block: Block, index: Int) -> [Piece] {
        let timeline = block.timeline
        func piece(_ text: String, _ offset: Int) -> Piece {
            let times = TimePoint.slice(timeline, from: offset, length: text.count)
            return Piece(text: text, tokens: tokenCounter.count(text), block: index, kind: block.kind, page: block.page,
                         pageLabel: block.pageLabel, start: times.first?.seconds ?? block.start, end: block.end, speaker: block.speaker,
                         charStart: block.offset.map { $0 + offset }, charEnd: block.offset.map { $0 + offset + text.count },
                         timeline: times)
        }
        let sentences: [(text: String, offset: Int)]
        if block.kind == .code || block.kind == .table {
            sentences = [(block.text, 0)]
        } else {
            sentences = SentenceSplitter.split(block.text)
        }
        var result: [Piece] = []
        defer {
            if block.startsParagraph, !result.isEmpty { result[0].startsParagraph = true }
        }
        for sentence in sentences {
            let whole = piece(sentence.text, sentence.offset)
            if whole.tokens <= settings.maxTokens {
                result.append(whole)
            } else {
                result.append(contentsOf: splitLong(sentence.text, offset: sentence.offset).map { piece($0.0, $0.1) })
            }
        }
        return result
    }

    /// Slices an over-long sentence (or code block) at word boundaries to fit the budget.
    func splitLong(_ text: String, offset: Int) -> [(String, Int)] {
        var slices: [(String, Int)] = []
        var current = ""
        var currentTokens = 0
        var currentOffset = offset
        var position = offset
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let tokens = tokenCounter.count(String(word))
            if currentTokens + tokens > settings.maxTokens, !current.isEmpty {
                slices.append((current, currentOffset))
                current = ""
                currentTokens = 0
                currentOffset = position
            }
            if tokens > settings.maxTokens {
                // One "word" longer than a passage (a URL, a base64 run): cut it by characters.
                var rest = Substring(word)
                while !rest.isEmpty {
                    let slice = rest.prefix(settings.maxTokens)
                    slices.append((String(slice), position))
                    position += slice.count
                    rest = rest.dropFirst(slice.count)
                }
                position += 1
                currentOffset = position
                continue
            }
            current += current.isEmpty ? String(word) : " " + word
            currentTokens += tokens
            position += word.count + 1
        }
        if !current.isEmpty { slices.append((current, currentOffset)) }
        return slices
    }

    /// Greedy packing of sentences into passages, repeating whole trailing sentences as overlap.
    func pack(_ pieces: [Piece]) -> [[Piece]] {
        var passages: [[Piece]] = []
        var current: [Piece] = []
        var tokens = 0
        var freshInCurrent = 0
        for piece in pieces {
            if tokens + piece.tokens > settings.maxTokens, freshInCurrent > 0 {
                passages.append(current)
                var overlap: [Piece] = []
                var overlapTokens = 0
                for previous in current.reversed() {
                    if overlapTokens + previous.tokens > settings.overlapTokens { break }
                    overlap.insert(previous, at: 0)
                    overlapTokens += previous.tokens
                }
                if overlapTokens + piece.tokens > settings.maxTokens {
                    overlap = []
                    overlapTokens = 0
                }
                current = overlap
                tokens = overlapTokens
                freshInCurrent = 0
            }
            current.append(piece)
            tokens += piece.tokens
            freshInCurrent += 1
        }
        if freshInCurrent > 0 { passages.append(current) }
        return passages
    }

    /// Lets a small section join the next one when both sit under the same parent, on the
    /// same page and in the same top-level section, and the two still fit the budget.
    func mergeSmall(_ groups: [(unit: Unit, pieces: [Piece])]) -> [(unit: Unit, pieces: [Piece])] {
        var result: [(unit: Unit, pieces: [Piece])] = []
        for group in groups {
            if var last = result.last {
                let lastTokens = last.pieces.reduce(0) { $0 + $1.tokens }
                let tokens = group.pieces.reduce(0) { $0 + $1.tokens }
                let a = last.unit.sectionPath
                let b = group.unit.sectionPath
                let related = a.first == b.first && (a.dropLast() == b.dropLast() || isPrefix(a, of: b) || isPrefix(b, of: a))
                if a != b, related, last.unit.page == group.unit.page, last.unit.kindClass == group.unit.kindClass,
                   min(lastTokens, tokens) < settings.minTokens, lastTokens + tokens <= settings.maxTokens {
                    last.unit.sectionPath = commonPrefix(a, b)
                    last.pieces += group.pieces
                    result[result.count - 1] = last
                    continue
                }
            }
            result.append(group)
        }
        return result
    }

    private func isPrefix(_ a: [String], of b: [String]) -> Bool {
        a.count <= b.count && Array(b.prefix(a.count)) == a
    }

    private func commonPrefix(_ a: [String], _ b: [String]) -> [String] {
        var out: [String] = []
        for (x, y) in zip(a, b) where x == y { out.append(x) }
        return out
    }

    func makePassage(ordinal: Int, sectionPath: [String], kindClass: PassageKind, pieces: [Piece]) -> Passage {
        var text = ""
        var previousBlock = -1
        var timeline: [TimePoint] = []
        var length = 0  // text.count, kept without recounting
        for piece in pieces {
            if !text.isEmpty {
                let separator: String
                if piece.block == previousBlock {
                    separator = " "
                } else if kindClass == .transcript {
                    separator = piece.startsParagraph ? "\n\n" : " "
                } else {
                    separator = kindClass == .text && piece.kind != .listItem ? "\n\n" : "\n"
                }
                text += separator
                length += separator.count
            }
            if kindClass == .transcript {
                let times = piece.timeline.isEmpty ? piece.start.map { [TimePoint(offset: 0, seconds: $0)] } ?? [] : piece.timeline
                for point in times where timeline.last?.seconds != point.seconds {
                    timeline.append(TimePoint(offset: length + point.offset, seconds: point.seconds))
                }
            }
            text += piece.text
            length += piece.text.count
            previousBlock = piece.block
        }
        let kind: PassageKind
        if kindClass == .text {
            kind = pieces.allSatisfy { $0.kind == .listItem } ? .list :
                pieces.allSatisfy { $0.kind == .caption } ? .caption : .text
        } else {
            kind = kindClass
        }
        let pages = pieces.compactMap(\.page)
        let starts = pieces.compactMap(\.start)
        let ends = pieces.compactMap(\.end)
        var speakers: [String] = []
        for speaker in pieces.compactMap(\.speaker) where !speakers.contains(speaker) { speakers.append(speaker) }
        return Passage(
            ordinal: ordinal, text: text, kind: kind, sectionPath: sectionPath,
            pageStart: pages.min(), pageEnd: pages.max(), timeStart: starts.min(), timeEnd: ends.max() ?? starts.max(),
            speaker: speakers.isEmpty ? nil : speakers.joined(separator: ", "),
            charStart: pieces.compactMap(\.charStart).min(), charEnd: pieces.compactMap(\.charEnd).max(),
            tokenCount: pieces.reduce(0) { $0 + $1.tokens }, timeline: timeline.count > 1 ? timeline : nil,
            pageLabel: pieces.first { $0.page != nil && $0.page == pages.min() }?.pageLabel)
    }
}
