import Foundation

/// A summary of some text: a few sentences and the points (or terms) a student should keep.
public struct Summary: Codable, Sendable, Equatable {
    public var text: String
    public var keyPoints: [String]

    public init(text: String, keyPoints: [String]) {
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
    public var title: String
    /// The top-level section, nil for the whole document.
    public var section: String?
    public var paragraphs: [String]
    /// Summaries of the document's sections, when summarising a whole document from them.
    public var sectionSummaries: [(section: String, summary: Summary)]

    public init(title: String, section: String? = nil, paragraphs: [String], sectionSummaries: [(section: String, summary: Summary)] = []) {
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
