import Foundation

/// A summary of some text: a few sentences and the points (or terms) a student should keep.
public struct Summary: Codable, Sendable, Equatable {
    var text: String
    var keyPoints: [String]

    init(text: String, keyPoints: [String]) {
        self.text = text
        self.keyPoints = keyPoints
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
