/// Cuts a document's blocks into passages of at most `maxTokens` tokens that end on sentence
/// boundaries, overlap by whole sentences, keep section path, page, time and offsets, and
/// never cross a page or a top-level section. Headings become section paths, and heading lines
/// only where small sections merge (so their titles stay searchable); a lead-in ("… you will be
/// able to:") stays with its list; a passage too small to stand alone joins a neighbour in its
/// section; page headers and footers never reach passages.
struct Chunker: Sendable {
    /// The way of cutting, part of every document's skip key (`ChunkSettings.key`): a new
    /// version re-cuts each document once. 2: merged sections keep their headings, lead-ins
    /// stay with their lists, passages under `tinyTokens` join a neighbour.
    static let version = 2

    /// A passage under this many tokens says too little alone (a lone caption, a lead-in, the
    /// last words of a long sentence): it joins a neighbour in its own section when there is one.
    static let tinyTokens = 20

    var settings: ChunkSettings
    var tokenCounter: any TokenCounter

    init(settings: ChunkSettings = ChunkSettings(), tokenCounter: any TokenCounter = ApproximateTokenCounter()) {
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
        /// The sentence that introduces the list after it: never the last words of a passage.
        var isLeadIn = false
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

    func chunk(_ blocks: [Block]) -> [Passage] {
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
        let content = blocks.indices.filter { index in
            let block = blocks[index]
            return !(block.kind.isFurniture || block.kind == .heading || block.kind == .title)
                && !block.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        for (position, index) in content.enumerated() {
            let block = blocks[index]
            let text = block.text.trimmingCharacters(in: .whitespacesAndNewlines)
            var kindClass = Self.kindClass(block.kind)
            // A short code block in prose is usually a formula or a one-line example: it reads
            // with the sentences around it rather than as a passage of its own.
            if block.kind == .code, tokenCounter.count(text) < settings.minTokens { kindClass = .text }
            var blockPieces = pieces(of: block, index: index)
            if position + 1 < content.count, isLeadIn(blocks, index, before: content[position + 1]), !blockPieces.isEmpty {
                // The lead-in goes where its list goes (learning objectives are their own kind).
                kindClass = Self.kindClass(blocks[content[position + 1]].kind)
                blockPieces[blockPieces.count - 1].isLeadIn = true
            }
            if units.last.map({ $0.sectionPath != block.sectionPath || $0.page != block.page || $0.kindClass != kindClass }) ?? true {
                units.append(Unit(sectionPath: block.sectionPath, page: block.page, kindClass: kindClass))
            }
            units[units.count - 1].pieces.append(contentsOf: blockPieces)
        }
        return joinTiny(units)
    }

    /// A paragraph ending in a colon right before a list in the same place introduces that list.
    func isLeadIn(_ blocks: [Block], _ index: Int, before next: Int) -> Bool {
        let block = blocks[index]
        let list = blocks[next]
        guard block.kind == .paragraph, list.kind == .listItem || list.kind == .objective,
              block.sectionPath == list.sectionPath, block.page == list.page,
              block.text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(":") else { return false }
        return !blocks[(index + 1)..<next].contains { $0.kind == .heading || $0.kind == .title }
    }

    /// A unit too small to stand alone (a caption before its table, a speaker line before a
    /// transcript, a lead-in before learning objectives) joins the next unit in the same section
    /// and page, or else the one before; the larger one's kind of content wins. A program
    /// listing takes no prose, so that searching code finds code.
    func joinTiny(_ units: [Unit]) -> [Unit] {
        func tokens(_ unit: Unit) -> Int { unit.pieces.reduce(0) { $0 + $1.tokens } }
        func samePlace(_ a: Unit, _ b: Unit) -> Bool {
            a.sectionPath == b.sectionPath && a.page == b.page && a.kindClass != .code && b.kindClass != .code
        }
        func joined(_ first: Unit, _ second: Unit) -> Unit {
            var unit = tokens(first) > tokens(second) ? first : second
            unit.pieces = first.pieces + second.pieces
            return unit
        }
        var pending = units
        var result: [Unit] = []
        for index in pending.indices {
            let unit = pending[index]
            if tokens(unit) < Self.tinyTokens {
                if index + 1 < pending.count, samePlace(unit, pending[index + 1]) {
                    pending[index + 1] = joined(unit, pending[index + 1])
                    continue
                }
                if let last = result.last, samePlace(last, unit) {
                    result[result.count - 1] = joined(last, unit)
                    continue
                }
            }
            result.append(unit)
        }
        return result
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

    /// Slices an over-long sentence (or code block, or table) at word boundaries to fit the
    /// budget, less room for a few words more (a table's caption, a lead-in) in its passage.
    func splitLong(_ text: String, offset: Int) -> [(String, Int)] {
        typealias Word = (text: Substring, offset: Int, tokens: Int)
        let budget = settings.maxTokens > 4 * Self.tinyTokens ? settings.maxTokens - Self.tinyTokens : settings.maxTokens
        var slices: [[Word]] = []
        var current: [Word] = []
        var currentTokens = 0
        var position = offset
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            defer { position += word.count + 1 }
            let tokens = tokenCounter.count(String(word))
            if tokens > budget {
                // One "word" longer than a passage (a URL, a base64 run): cut it by characters.
                if !current.isEmpty { slices.append(current) }
                current = []
                currentTokens = 0
                var rest = word
                var at = position
                while !rest.isEmpty {
                    let slice = rest.prefix(budget)
                    slices.append([(slice, at, tokenCounter.count(String(slice)))])
                    at += slice.count
                    rest = rest.dropFirst(slice.count)
                }
                continue
            }
            if currentTokens + tokens > budget, !current.isEmpty {
                slices.append(current)
                current = []
                currentTokens = 0
            }
            current.append((word, position, tokens))
            currentTokens += tokens
        }
        if !current.isEmpty { slices.append(current) }
        // The last few words would be a passage saying nothing: they take words from the slice
        // before them (which stays under the budget, as it only loses words).
        if slices.count >= 2 {
            let last = slices.count - 1
            var lastTokens = slices[last].reduce(0) { $0 + $1.tokens }
            while lastTokens < Self.tinyTokens, slices[last - 1].count > 1, let word = slices[last - 1].last,
                  lastTokens + word.tokens <= budget {
                slices[last - 1].removeLast()
                slices[last].insert(word, at: 0)
                lastTokens += word.tokens
            }
        }
        return slices.map { words in (words.map(\.text).joined(separator: " "), words[0].offset) }
    }

    /// Greedy packing of sentences into passages, repeating whole trailing sentences as overlap.
    func pack(_ pieces: [Piece]) -> [[Piece]] {
        var passages: [[Piece]] = []
        var overlaps: [Int] = []  // how many leading pieces of each passage repeat the one before
        var current: [Piece] = []
        var currentOverlap = 0
        var tokens = 0
        var freshInCurrent = 0
        for piece in pieces {
            if tokens + piece.tokens > settings.maxTokens, freshInCurrent > 0 {
                // A lead-in never ends a passage: it opens the next one, before its list.
                var leadIn: Piece?
                if let last = current.last, last.isLeadIn, freshInCurrent > 1, last.tokens + piece.tokens <= settings.maxTokens {
                    leadIn = current.removeLast()
                }
                passages.append(current)
                overlaps.append(currentOverlap)
                var overlap: [Piece] = []
                var overlapTokens = 0
                if let leadIn {
                    overlap = [leadIn]
                    overlapTokens = leadIn.tokens
                } else {
                    for previous in current.reversed() {
                        if overlapTokens + previous.tokens > settings.overlapTokens { break }
                        overlap.insert(previous, at: 0)
                        overlapTokens += previous.tokens
                    }
                    if overlapTokens + piece.tokens > settings.maxTokens {
                        overlap = []
                        overlapTokens = 0
                    }
                }
                current = overlap
                currentOverlap = leadIn == nil ? overlap.count : 0
                tokens = overlapTokens
                freshInCurrent = leadIn == nil ? 0 : 1
            }
            current.append(piece)
            tokens += piece.tokens
            freshInCurrent += 1
        }
        if freshInCurrent > 0 {
            passages.append(current)
            overlaps.append(currentOverlap)
        }
        // A last passage of a few words repeats more of the one before it, so that it reads
        // as a passage: whole sentences, within the budget.
        if passages.count >= 2, let overlap = overlaps.last {
            var last = passages[passages.count - 1]
            var lastTokens = last.reduce(0) { $0 + $1.tokens }
            var earlier = passages[passages.count - 2].dropLast(overlap)
            while lastTokens < Self.tinyTokens, let piece = earlier.popLast(), lastTokens + piece.tokens <= settings.maxTokens {
                last.insert(piece, at: 0)
                lastTokens += piece.tokens
            }
            passages[passages.count - 1] = last
        }
        return passages
    }

    /// Lets a small section join the next one when both sit under the same parent, on the
    /// same page and in the same top-level section, and the two still fit the budget. The
    /// joined passage is filed under the common parent, so the titles that the section path
    /// no longer names become heading lines in its text (and count toward the budget).
    func mergeSmall(_ groups: [(unit: Unit, pieces: [Piece])]) -> [(unit: Unit, pieces: [Piece])] {
        var result: [(unit: Unit, pieces: [Piece])] = []
        for group in groups {
            if var last = result.last {
                let lastTokens = last.pieces.reduce(0) { $0 + $1.tokens }
                let tokens = group.pieces.reduce(0) { $0 + $1.tokens }
                let a = last.unit.sectionPath
                let b = group.unit.sectionPath
                let related = a.first == b.first && (a.dropLast() == b.dropLast() || isPrefix(a, of: b) || isPrefix(b, of: a))
                let common = commonPrefix(a, b)
                let lastHeadings = headingPieces(a.dropFirst(common.count), page: last.unit.page)
                let headings = headingPieces(b.dropFirst(common.count), page: group.unit.page)
                let headingTokens = (lastHeadings + headings).reduce(0) { $0 + $1.tokens }
                if a != b, related, last.unit.page == group.unit.page, last.unit.kindClass == group.unit.kindClass,
                   min(lastTokens, tokens) < settings.minTokens, lastTokens + tokens + headingTokens <= settings.maxTokens {
                    last.unit.sectionPath = common
                    last.pieces = lastHeadings + last.pieces + headings + group.pieces
                    result[result.count - 1] = last
                    continue
                }
            }
            result.append(group)
        }
        return result
    }

    /// Heading lines for section titles that a merged passage's path leaves out.
    func headingPieces(_ titles: ArraySlice<String>, page: Int?) -> [Piece] {
        titles.map { Piece(text: $0, tokens: tokenCounter.count($0), block: -1, kind: .heading, page: page) }
    }

    private func isPrefix(_ a: [String], of b: [String]) -> Bool {
        a.count <= b.count && Array(b.prefix(a.count)) == a
    }

    private func commonPrefix(_ a: [String], _ b: [String]) -> [String] {
        Array(zip(a, b).prefix { $0 == $1 }.map(\.0))
    }

    func makePassage(ordinal: Int, sectionPath: [String], kindClass: PassageKind, pieces: [Piece]) -> Passage {
        var text = ""
        var previousBlock = -1
        var previousKind: BlockKind?
        var timeline: [TimePoint] = []
        var length = 0  // text.count, kept without recounting
        for piece in pieces {
            if !text.isEmpty {
                let separator: String
                if piece.kind == .heading {
                    separator = previousKind == .heading ? "\n" : "\n\n"
                } else if previousKind == .heading {
                    separator = "\n"
                } else if piece.block == previousBlock {
                    separator = " "
                } else if kindClass == .transcript, piece.kind == .cue, previousKind == .cue {
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
            previousKind = piece.kind
        }
        let kind: PassageKind
        // Heading lines and a list's lead-in do not make a list or a caption into prose.
        let body = pieces.filter { $0.kind != .heading && !$0.isLeadIn }
        if kindClass == .text, !body.isEmpty {
            kind = body.allSatisfy { $0.kind == .listItem } ? .list :
                body.allSatisfy { $0.kind == .caption } ? .caption : .text
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
