import Foundation

/// Turns caption cues into what a reader of a lecture wants: whole sentences, grouped into
/// paragraphs, each with the time it is said and who says it.
///
/// Captions split sentences across cues, roll (a cue repeats the previous cue's last line),
/// and carry sound descriptions ("(logo whooshing)", "[MUSIC]", "♪"). The builder removes the
/// rolled repeats, takes the sound tags out of the text (they are kept as metadata), joins
/// the cues of one speaker into a text stream, splits it into sentences, and gives each
/// sentence the start of the cue it begins in and the end of the cue it ends in.
struct TranscriptBuilder: Sendable {
    /// A silence longer than this between two sentences starts a new paragraph.
    var paragraphPause: Double = 2.5
    /// Paragraphs are cut after this many sentences or words, whichever comes first.
    var paragraphSentences = 6
    var paragraphWords = 150
    /// A run without sentence punctuation (automatic captions) is cut at cue boundaries into
    /// pieces of about this many words, so each keeps a precise time.
    var unpunctuatedWords = 40

    init() {}

    /// A sound description taken out of the text, and when it was heard.
    struct Sound: Sendable, Equatable {
        var time: Double
        var text: String
    }

    struct Result: Sendable {
        var blocks: [Block]
        var sounds: [Sound]
        var speakers: [String]
        var duration: Double?
        /// Cues dropped because they only repeated the previous cue (rolling captions).
        var rolledRepeats: Int
    }

    /// Cleaned cue text, with what was learned from its markup.
    struct CleanCue {
        var start: Double
        var end: Double
        var text: String
        var speaker: String?
        var newTurn: Bool
        /// The caption lines last shown on screen (this cue's, or a later repeat's), folded
        /// for comparison (`fold`): a rolling
        /// caption repeats the previous cue's last lines.
        var shown: [String]
        /// How long those lines were shown: YouTube's 10 ms repeats are rolling, a line said
        /// twice (each for a while) is speech.
        var shownDuration: Double
    }

    func build(_ cues: [Cue], sectionPath: [String] = []) -> Result {
        var sounds: [Sound] = []
        var cleaned: [CleanCue] = []
        var rolled = 0
        let ordered = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        // A cue holding only a speaker label ("PROFESSOR:" as its own timed span) names the
        // speaker of the cues that follow.
        var pending: (speaker: String?, newTurn: Bool)?
        for (index, cue) in ordered.enumerated() {
            let end = cue.end ?? (index + 1 < ordered.count ? ordered[index + 1].start : cue.start + 2)
            var (text, tags) = Self.removeSoundTags(cue.text)
            sounds += tags.map { Sound(time: cue.start, text: $0) }
            var speaker = cue.speaker
            var newTurn = false
            (text, speaker, newTurn) = Self.takeSpeaker(text, speaker: speaker)
            if newTurn, let label = pending, speaker == nil { speaker = label.speaker }
            if let label = pending, !newTurn {
                speaker = speaker ?? label.speaker
                newTurn = label.newTurn
            }
            var lines = text.split(separator: "\n").map { Self.dropOrphanMarks(TextCleanup.collapseWhitespace(String($0))) }
                .filter { !$0.isEmpty }
            guard lines.contains(where: { $0.contains(where: { $0.isLetter || $0.isNumber }) }) else {
                if newTurn { pending = (speaker, true) }
                continue
            }
            pending = nil
            let shown = lines.map(Self.fold)
            let duration = max(0, end - cue.start)
            if let previous = cleaned.last, previous.speaker == speaker || speaker == nil {
                // One line said again ("horizontal, vertical," twice; "very" "very" as word
                // spans) is speech; everything else repeated, and YouTube's 10 ms repeats of a
                // line, is the caption rolling.
                let saidAgain = shown.count == 1 && previous.shown.count == 1 && shown[0] == previous.shown[0]
                    && duration >= 0.05 && previous.shownDuration >= 0.05
                if !saidAgain {
                    let kept = Self.removeRolledLines(lines, folded: shown, after: previous.shown)
                    if kept.isEmpty {
                        cleaned[cleaned.count - 1].end = max(previous.end, end)
                        cleaned[cleaned.count - 1].shown = shown
                        cleaned[cleaned.count - 1].shownDuration = duration
                        rolled += 1
                        continue
                    }
                    lines = kept
                }
            }
            text = lines.joined(separator: " ")
            if speaker == nil, !newTurn, let previous = cleaned.last { speaker = previous.speaker }
            cleaned.append(CleanCue(start: cue.start, end: max(end, cue.start), text: text, speaker: speaker, newTurn: newTurn,
                                   shown: shown, shownDuration: duration))
        }

        var blocks: [Block] = []
        var speakers: [String] = []
        var turn: [CleanCue] = []
        func flushTurn() {
            guard !turn.isEmpty else { return }
            blocks += sentenceBlocks(turn, sectionPath: sectionPath)
            turn.removeAll()
        }
        for cue in cleaned {
            if let last = turn.last, cue.newTurn || cue.speaker != last.speaker { flushTurn() }
            if let speaker = cue.speaker, !speakers.contains(speaker) { speakers.append(speaker) }
            turn.append(cue)
        }
        flushTurn()
        Self.attach(sounds, to: &blocks)
        return Result(blocks: blocks, sounds: sounds, speakers: speakers, duration: cleaned.map(\.end).max(), rolledRepeats: rolled)
    }

    /// Cues → sentence blocks (kind `.cue`, with start, end, speaker, paragraph starts and the
    /// sounds heard) with the default settings: the entry point for readers of other timed
    /// formats, such as OCW's timed transcript HTML, which make one `Cue` per timed span.
    static func blocks(from cues: [Cue], sectionPath: [String] = []) -> [Block] {
        TranscriptBuilder().build(cues, sectionPath: sectionPath).blocks
    }

    /// A combining accent, joiner or variation selector at the start of a caption line belongs
    /// to nothing; written after a space it would merge with it and shift every offset after.
    static func dropOrphanMarks(_ line: String) -> String {
        let scalars = line.unicodeScalars
        let kept = scalars.drop { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
            default: return scalar.properties.isVariationSelector || scalar.properties.isEmojiModifier
            }
        }
        return kept.count == scalars.count ? line : String(String.UnicodeScalarView(kept))
    }

    /// Each sound goes to the sentence during or right after which it is heard, as the
    /// block's `sounds` attribute (`music; applause`): the text stays speech, the fact stays.
    static func attach(_ sounds: [Sound], to blocks: inout [Block]) {
        guard !blocks.isEmpty else { return }
        var heard: [Int: [String]] = [:]
        for sound in sounds {
            let index = blocks.firstIndex { ($0.end ?? $0.start ?? 0) > sound.time } ?? blocks.count - 1
            if !(heard[index]?.contains(sound.text) ?? false) { heard[index, default: []].append(sound.text) }
        }
        for (index, texts) in heard { blocks[index].attributes["sounds"] = texts.joined(separator: "; ") }
    }

    /// One speaker's consecutive cues → sentence blocks, the first of each paragraph marked.
    func sentenceBlocks(_ cues: [CleanCue], sectionPath: [String]) -> [Block] {
        var stream = ""
        var length = 0  // stream.count, kept without recounting (that would be quadratic)
        var bounds: [(start: Int, end: Int)] = []
        for cue in cues {
            if !stream.isEmpty {
                stream += " "
                length += 1
            }
            let start = length
            stream += cue.text
            length += cue.text.count
            bounds.append((start, length))
        }
        func cueIndex(at offset: Int) -> Int {
            var low = 0
            var high = bounds.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if bounds[mid].start <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
        // Sentences, then over-long unpunctuated runs cut at cue boundaries. `offset` is where
        // the piece's text starts in the stream.
        var pieces: [(text: String, offset: Int, first: Int, last: Int)] = []
        let chars = Array(stream)
        for sentence in SentenceSplitter.split(stream) {
            let sentenceLength = sentence.text.count
            let first = cueIndex(at: sentence.offset)
            let last = cueIndex(at: sentence.offset + max(0, sentenceLength - 1))
            let words = sentence.text.split(separator: " ").count
            if words <= unpunctuatedWords * 3 / 2 || first == last {
                pieces.append((sentence.text, sentence.offset, first, last))
                continue
            }
            var pieceStart = sentence.offset
            var pieceFirst = first
            var wordsSoFar = 0
            for index in first...last {
                // Clamped: offsets are counted per cue, and must never leave the text.
                let cueEnd = min(bounds[index].end, sentence.offset + sentenceLength, chars.count)
                wordsSoFar += String(chars[min(max(bounds[index].start, pieceStart), cueEnd)..<cueEnd]).split(separator: " ").count
                if wordsSoFar >= unpunctuatedWords || index == last {
                    var from = min(pieceStart, cueEnd)
                    while from < cueEnd, chars[from] == " " { from += 1 }
                    let text = String(chars[from..<cueEnd]).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { pieces.append((text, from, pieceFirst, index)) }
                    pieceStart = cueEnd
                    pieceFirst = min(index + 1, last)
                    wordsSoFar = 0
                }
            }
        }

        var blocks: [Block] = []
        var sentencesInParagraph = 0
        var wordsInParagraph = 0
        var previousEnd: Double?
        for piece in pieces {
            let start = cues[piece.first].start
            let end = cues[piece.last].end
            let words = piece.text.split(separator: " ").count
            let pause = previousEnd.map { start - $0 } ?? 0
            let newParagraph = blocks.isEmpty || pause > paragraphPause || sentencesInParagraph >= paragraphSentences
                || wordsInParagraph + words > paragraphWords
            if newParagraph {
                sentencesInParagraph = 0
                wordsInParagraph = 0
            }
            sentencesInParagraph += 1
            wordsInParagraph += words
            previousEnd = end
            // Where each cue of a sentence spanning several begins, so search can name the exact cue.
            let timeline = piece.last > piece.first ? (piece.first...piece.last).map { index in
                TimePoint(offset: max(0, bounds[index].start - piece.offset), seconds: cues[index].start)
            } : []
            blocks.append(Block(kind: .cue, text: piece.text, sectionPath: sectionPath, start: start, end: end,
                                speaker: cues[piece.first].speaker, timeline: timeline, startsParagraph: newParagraph))
        }
        return blocks
    }

    static let soundWords: Set<String> = [
        "music", "applause", "laughter", "laughs", "laughing", "chuckles", "silence", "inaudible", "crosstalk",
        "whooshes", "whooshing", "whoosh", "noise", "cheering", "coughs", "sighs", "beeping", "static", "upbeat",
    ]

    /// Takes `(…)`, `[…]` and `♪…♪` out of caption text: in captions they describe sounds, not
    /// speech. Parentheses holding an ordinary aside inside a sentence (lower-case words after
    /// other words, no sound word) are kept, and so are brackets of maths and code (digits,
    /// operators, or fewer than three letters: `[0, 1]`, `(x + 1)`, `a[i]`), and the words of
    /// MIT's `[? uncertain ?]` transcriptions.
    static func removeSoundTags(_ text: String) -> (String, [String]) {
        var output = ""
        var tags: [String] = []
        var chars = Array(text)[...]
        while let c = chars.first {
            if let close = c == "(" ? ")" as Character : c == "[" ? "]" : c == "♪" ? "♪" : nil,
               let end = chars.dropFirst().firstIndex(of: close) {
                let inner = String(chars[chars.index(after: chars.startIndex)..<end]).trimmingCharacters(in: .whitespaces)
                if c == "[", inner.count >= 2, inner.hasPrefix("?"), inner.hasSuffix("?") {
                    // "[? perp ?]": words the transcriber was unsure of are still speech.
                    output += inner.trimmingCharacters(in: CharacterSet(charactersIn: "? "))
                    chars = chars[chars.index(after: end)...]
                    continue
                }
                let words = inner.lowercased().split(whereSeparator: { !$0.isLetter })
                // Brackets in maths and code ("[0, 1]", "(x + 1)", "a[i]", "(b)") are speech, not sound.
                let described = inner.filter(\.isLetter).count >= 3 && !inner.contains(where: { $0.isASCIIDigit || "=+*/^<>".contains($0) })
                let isSound = c == "♪" || described && (c == "[" || output.trimmingCharacters(in: .whitespaces).isEmpty
                    || words.contains(where: { soundWords.contains(String($0)) }) || inner == inner.uppercased())
                if isSound {
                    let tag = inner.trimmingCharacters(in: CharacterSet(charactersIn: "[]() ♪"))
                    if !tag.isEmpty { tags.append(tag) } else if c == "♪" { tags.append("music") }
                    chars = chars[chars.index(after: end)...]
                    continue
                }
            }
            if c == "♪" {  // a lone note sign
                chars = chars.dropFirst()
                if !tags.contains("music") { tags.append("music") }
                continue
            }
            output.append(c)
            chars = chars.dropFirst()
        }
        return (output, tags)
    }

    /// Leading turn markers: `- `, `>> `, and `NAME:` in capitals (a named speaker).
    static func takeSpeaker(_ text: String, speaker: String?) -> (String, String?, Bool) {
        var rest = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var newTurn = false
        var speaker = speaker
        if rest.hasPrefix(">>") {
            rest = String(rest.dropFirst(2)).trimmingCharacters(in: .whitespaces)
            newTurn = true
        } else if rest.hasPrefix("- ") || rest.hasPrefix("– ") || rest.hasPrefix("— ") {
            rest = String(rest.dropFirst(2))
            newTurn = true
        }
        if let colon = rest.firstIndex(of: ":"), rest.distance(from: rest.startIndex, to: colon) <= 30 {
            let name = rest[..<colon]
            let words = name.split(separator: " ")
            if !words.isEmpty, words.count <= 3, name.contains(where: \.isLetter), name == name.uppercased(),
               name.allSatisfy({ $0.isLetter || $0 == " " || $0 == "." || $0 == "-" || $0 == "'" }) {
                speaker = name.capitalized
                rest = String(rest[rest.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                newTurn = true
            }
        }
        return (rest, speaker, newTurn)
    }

    /// Rolling captions repeat whole lines: the next cue starts with the previous cue's last
    /// line(s) (or repeats the cue outright). Removes the longest such run of whole lines; a
    /// sentence that merely starts with the same words as the one before is kept.
    static func removeRolledLines(_ lines: [String], folded current: [String], after before: [String]) -> [String] {
        if current == before { return [] }
        for length in stride(from: min(current.count, before.count), through: 1, by: -1)
        where before.suffix(length).elementsEqual(current.prefix(length)) {
            return Array(lines.dropFirst(length))
        }
        return lines
    }

    /// A line as compared for repeats: lower-case letters, digits and spaces only.
    static func fold(_ line: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in line.lowercased().unicodeScalars {
            if scalar.isASCII {
                let v = scalar.value
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) || v == 0x20 { scalars.append(scalar) }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
