import Foundation

/// What the transcript readers share: cues → sentence blocks, metadata, and the rule for bad
/// cues (a file with some bad cues ingests the good ones with a warning; a file with none
/// good fails naming the first bad line).
enum TranscriptDocument {
    static func make(type: String, title: String?, cues: [Cue], bad: [BadCue], decoding: ExtractionWarning? = nil) throws -> ExtractedDocument {
        if cues.isEmpty {
            if let first = bad.first {
                let more = bad.count > 1 ? " (and \(bad.count - 1) more bad cue\(bad.count > 2 ? "s" : ""))" : ""
                throw LecternError(.corrupt, nil, first.reason + more, line: first.line)
            }
            throw LecternError(.empty, nil, "no cues found")
        }
        let result = TranscriptBuilder().build(cues)
        guard !result.blocks.isEmpty else { throw LecternError(.empty, nil, "no spoken text found (only sound tags)") }
        var warnings = bad.prefix(5).map { ExtractionWarning($0.reason + " (cue skipped)", line: $0.line) }
        if bad.count > 5 { warnings.append(ExtractionWarning("\(bad.count - 5) more bad cues skipped")) }
        if let decoding { warnings.append(decoding) }
        var metadata: [String: String] = ["cues": String(cues.count)]
        if let duration = result.duration { metadata["duration"] = String(format: "%.3f", duration) }
        if !result.speakers.isEmpty { metadata["speakers"] = result.speakers.joined(separator: ", ") }
        if !result.sounds.isEmpty {
            metadata["sounds"] = result.sounds.prefix(200).map { "\(TimeFormat.clock($0.time)) \($0.text)" }.joined(separator: "; ")
        }
        if result.rolledRepeats > 0 { metadata["rolled_repeats_removed"] = String(result.rolledRepeats) }
        return ExtractedDocument(type: type, title: title ?? "", blocks: result.blocks, metadata: metadata, warnings: warnings)
    }

    /// The first non-blank lines of a text file (UTF-8 or UTF-16), without a BOM, for sniffing.
    static func headLines(_ data: Data, count: Int = 12) -> [Substring] {
        var head = TextDecoding.decode(data.prefix(4096)).text
        if head.hasPrefix("\u{FEFF}") { head.removeFirst() }
        return Array(head.split(whereSeparator: \.isNewline).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.prefix(count))
    }
}
