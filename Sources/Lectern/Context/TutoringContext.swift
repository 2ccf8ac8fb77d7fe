import Foundation

/// What a tutor (an assistant, a tutoring app) is handed for one question or topic: where the
/// topic sits in its course and what it asks of the learner, when the library has curricula,
/// then the passages that teach it, each cited, all within a token budget.
public struct TutoringContext: Codable, Sendable, Equatable {
    /// The question asked, when there was one.
    public var query: String?
    /// The topic, when the library has curricula and one was named or found.
    public var topic: ContextTopic?
    /// Most useful first; `[n]` in the Markdown is `passages[n-1]`.
    public var passages: [ContextPassage]
    /// The budget asked for, and the tokens the Markdown rendering takes as `counter` counts them.
    public var budget: Int
    public var tokens: Int
    /// How tokens were counted: the model server's tokenizer, or the estimate with its margin.
    public var counter: String
    /// Passages found for the question that did not fit the budget.
    public var omittedPassages: Int
}

/// A topic with its place in the course, as the context shows it.
public struct ContextTopic: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var curriculum: String
    public var curriculumTitle: String
    public var unit: String
    /// 1-based place in the course's reading order, of `topicCount`.
    public var position: Int
    public var topicCount: Int
    public var studyMinutes: Int
    public var objectives: [String]
    /// Topics this one builds on (with the term it borrows from each), and the ones after it.
    public var prerequisites: [ContextTopicLink]
    public var next: [ContextTopicLink]
    public var keyTerms: [ContextKeyTerm]
    public var summary: String?
}

public struct ContextTopicLink: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    /// The key term that links the two topics, for a prerequisite.
    public var term: String?
    /// For a prerequisite the text refers back to: the words that do ("the chapter on logic").
    public var reference: String? = nil
}

public struct ContextKeyTerm: Codable, Sendable, Equatable {
    public var term: String
    public var definition: String
}

/// Where a context's passage was found: in the topic itself, in a topic it builds on, or by search.
public enum ContextPassageOrigin: String, Codable, Sendable, Equatable, CaseIterable {
    case topic
    /// A topic this one builds on.
    case prerequisite
    case search
}

/// One passage of a context with its citation: the document and where in it (page or time).
public struct ContextPassage: Codable, Sendable, Equatable {
    /// `p123`: what `lectern show` opens.
    public var passage: String
    /// The document's short id and title.
    public var documentId: String
    public var title: String
    /// `book.pdf p.12 § Cells`, `lecture.vtt @ 00:12:34`.
    public var location: String
    public var page: Int?
    public var pageLabel: String?
    /// Seconds into a recording.
    public var time: Double?
    public var uri: String
    public var link: String?
    /// Where it was found.
    public var from: ContextPassageOrigin
    public var text: String
    /// False when only its leading sentences fit the budget (it is cut between sentences).
    public var complete: Bool

    /// The citation as a person reads it: `Biology 2e — biology.pdf p.12 § Cells`.
    public var citation: String { "\(title) — \(location)" }
}

extension TutoringContext {
    /// The context as Markdown, the form a prompt takes it in.
    public var markdown: String {
        var blocks = [Self.heading(query: query, topic: topic)]
        if let topic { blocks += Self.topicBlocks(topic) }
        if !passages.isEmpty {
            blocks.append("## Passages")
            blocks += passages.enumerated().map { Self.passageBlock($1, number: $0 + 1) }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    static func heading(query: String?, topic: ContextTopic?) -> String {
        guard let topic else { return "# Context for \u{201C}\(query ?? "")\u{201D}" }
        var place = "Topic \(topic.position) of \(topic.topicCount) in \(topic.curriculumTitle), unit \u{201C}\(topic.unit)\u{201D}"
        if topic.studyMinutes > 0 { place += " · about \(topic.studyMinutes) min" }
        return "# \(topic.title)\n\(place)"
    }

    /// The topic's sections in the order a tutor needs them; the packer drops items from the end.
    static func topicBlocks(_ topic: ContextTopic) -> [String] {
        var blocks: [String] = []
        if !topic.objectives.isEmpty {
            blocks.append("## Objectives\n" + topic.objectives.map { "- \($0)" }.joined(separator: "\n"))
        }
        if !topic.prerequisites.isEmpty {
            blocks.append("## Builds on\n" + topic.prerequisites.map { link in
                "- \(link.title)" + (link.term.map { " (\u{201C}\($0)\u{201D})" } ?? "")
                    + (link.reference.map { " (the text refers to it: \u{201C}\($0)\u{201D})" } ?? "")
            }.joined(separator: "\n"))
        }
        if !topic.next.isEmpty {
            blocks.append("## Comes next\n" + topic.next.map { "- \($0.title)" }.joined(separator: "\n"))
        }
        if !topic.keyTerms.isEmpty {
            blocks.append("## Key terms\n" + topic.keyTerms.map { "- **\($0.term)**: \($0.definition)" }.joined(separator: "\n"))
        }
        if let summary = topic.summary, !summary.isEmpty {
            blocks.append("## Summary\n" + summary)
        }
        return blocks
    }

    static func passageBlock(_ passage: ContextPassage, number: Int) -> String {
        var block = "### [\(number)] \(passage.citation)\n"
        if let link = passage.link { block += "<\(link)>\n" }
        return block + passage.text + (passage.complete ? "" : " […]")
    }
}
