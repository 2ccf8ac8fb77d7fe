import Foundation

/// A summary of some text: a few sentences and the points (or terms) a student should keep.
public struct Summary: Codable, Sendable, Equatable {
    var text: String
    var keyPoints: [String]

    init(text: String, keyPoints: [String]) {
        self.text = text
        self.keyPoints = Self.distinct(keyPoints)
    }

    /// The points once each, in order, blank ones dropped: two points that differ only in case,
    /// accents, punctuation, spacing, a leading article or a plural `s` are the same point (a
    /// small model often repeats one, and a key phrase can come up in two spellings).
    static func distinct(_ points: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for point in points {
            let trimmed = point.trimmingCharacters(in: .whitespacesAndNewlines)
            // A point of only punctuation is its own identity (not silently dropped).
            let key = identity(trimmed).isEmpty ? trimmed : identity(trimmed)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            result.append(trimmed)
        }
        return result
    }

    static func identity(_ point: String) -> String {
        let folded = point.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var words = folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if let first = words.first, ["the", "a", "an"].contains(first), words.count > 1 { words.removeFirst() }
        return words.map { $0.count > 3 && $0.hasSuffix("s") && !$0.hasSuffix("ss") ? String($0.dropLast()) : $0 }.joined(separator: " ")
    }

    enum CodingKeys: String, CodingKey {
        case text = "summary"
        case keyPoints = "key_points"
    }
}

/// What a summariser reads: a document's (or a section's) paragraphs in reading order.
public struct SummaryInput: Sendable {
    var title: String
    /// The top-level section, nil for the whole document.
    var section: String?
    var paragraphs: [String]
    /// Summaries of the document's sections, when summarising a whole document from them.
    var sectionSummaries: [(section: String, summary: Summary)]

    init(title: String, section: String? = nil, paragraphs: [String], sectionSummaries: [(section: String, summary: Summary)] = []) {
        self.title = title
        self.section = section
        self.paragraphs = paragraphs
        self.sectionSummaries = sectionSummaries
    }
}

/// Turns text into a `Summary`. The provider and model are stored with every summary.
public protocol Summarizer: Sendable {
    var provider: String { get }
    var model: String { get }
    func summarize(_ input: SummaryInput) throws -> Summary
}
