import Foundation

/// The Source field as HTML: the attribution, then a link to the moment in the lecture.
extension CardSource {
    var attributionHTML: String {
        let text = HTMLText.escape(attribution)
        guard let link, let timeStart else { return text }
        return text + " <a href=\"\(HTMLText.escape(link))\">▶ \(TimeFormat.clock(timeStart))</a>"
    }
}

/// One note of a deck: its identity, what it asks, what it answers and where that answer is.
struct Flashcard: Codable, Sendable, Equatable {
    /// Anki's note GUID: stable while the curriculum, topic and front (Cloze: the deleted
    /// answer) hold, so a re-imported deck updates notes instead of adding them.
    var guid: String
    var curriculumStableId: String
    var topicStableId: String
    var noteType: CardNoteType
    /// Basic: the question side. Cloze: the sentence with its deletion (`{{c1::…}}`).
    var front: String
    /// Basic: the answer side. Cloze: extra text shown with the answer (may be empty).
    var back: String
    var origin: CardOrigin
    var source: CardSource
    var tags: [String]
    /// The share of the answer's content words found in the cited passage (1 for a kept card).
    var grounding: Double
    /// The six checks and their score (`CardChecks`); nil on a card not yet checked.
    var quality: CardQuality? = nil
    /// Newer whenever the card's text changes, so Anki takes the new version on import.
    var modifiedAt: Date

    /// The words the card asks the learner to recall: what grounding checks.
    var answer: String {
        noteType == .cloze ? ClozeText.deletions(in: front).joined(separator: " ") : back
    }

    /// Cards Anki makes of this note.
    var cardCount: Int { noteType.cardsPerNote }

    /// The text whose change means the note must be updated on import.
    var contentKey: String {
        [noteType.rawValue, front, back, source.attribution + (source.link.map { " " + $0 } ?? ""), tags.joined(separator: " ")].joined(separator: "\u{1F}")
    }
}

/// A candidate a generator proposed and grounding or dedup turned away, with the reason.
struct CardRejection: Codable, Sendable, Equatable {
    enum Reason: String, Codable, Sendable, CaseIterable {
        /// Answer content words the cited passage does not hold.
        case unsupported = "answer-not-in-passage"
        /// The answer has no content word to check.
        case emptyAnswer = "empty-answer"
        /// The cited passage is not one of the topic's.
        case unknownPassage = "passage-not-in-topic"
        /// The model, asked to verify, said the passage does not support it.
        case modelRejected = "model-rejected"
        /// The model's answer did not follow the schema.
        case malformed = "malformed"
        /// A check of `CardChecks` failed (the first failed check names the reason).
        case notAsserted = "not-asserted"
        case subjectForm = "subject-form"
        case clozeTarget = "cloze-target"
        case notAnswerable = "not-answerable"
        case notStated = "not-stated"
        case duplicateSense = "duplicate-sense"
        /// The topic already has its share of cards (`CardGeneration.topicShare`), all ranked above this one.
        case overTopicShare = "over-topic-share"

        init(_ check: CardCheck) {
            switch check {
            case .sourceAssertion: self = .notAsserted
            case .subjectForm: self = .subjectForm
            case .clozeTarget: self = .clozeTarget
            case .answerability: self = .notAnswerable
            case .grounding: self = .notStated
            case .duplication: self = .duplicateSense
            }
        }
    }

    var topicStableId: String
    var front: String
    var answer: String
    var reason: Reason
    /// What exactly failed: the missing words, the passage id, the model's words.
    var detail: String
}

enum ClozeText {
    /// The deleted texts of `{{c1::answer}}` or `{{c1::answer::hint}}`.
    static func deletions(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "{{c"), let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) {
            let inner = rest[open.upperBound..<close.lowerBound]
            if let separator = inner.range(of: "::") {
                let body = inner[separator.upperBound...]
                let answer = body.range(of: "::").map { body[..<$0.lowerBound] } ?? body
                found.append(String(answer))
            }
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// The sentence with its deletions shown as their answers.
    static func revealed(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.range(of: "{{c"), let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) {
            result += rest[..<open.lowerBound]
            let inner = rest[open.upperBound..<close.lowerBound]
            if let separator = inner.range(of: "::") {
                let body = inner[separator.upperBound...]
                result += body.range(of: "::").map { body[..<$0.lowerBound] } ?? body
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}

extension CardSource: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
