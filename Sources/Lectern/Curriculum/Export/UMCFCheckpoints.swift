import Foundation

/// Comprehension checkpoints in a topic's transcript: one after every third segment (the
/// UnaMentis importer's analyzer asks for one in every topic of three or more content segments,
/// ../shared/formats/umcf/NOTES.md), each asking a card of the topic about what was just said.
enum UMCFCheckpoints {
    /// A checkpoint follows every this many segments.
    static let every = 3

    /// Puts checkpoints on `segments` (`passages[i]` are the passage ids segment i speaks). The
    /// card asked is one grounded in the segments since the last checkpoint, else one grounded
    /// in an earlier segment (never one about what the tutor has not said yet), each card asked
    /// once; without one, the learner explains the last segments back, naming their key terms.
    static func place(in segments: inout [UMCFTranscriptSegment], passages: [[Int64]], cards: [TopicAssessment]) {
        guard segments.count >= every else { return }
        var unused = cards
        var heard: [Int64] = []
        var lastCheckpoint = -1
        for index in segments.indices {
            heard += passages[index]
            guard (index + 1) % every == 0 else { continue }
            let recent = Set(passages[(lastCheckpoint + 1)...index].joined())
            let earlier = Set(heard)
            let pick = unused.firstIndex { $0.passageId.map(recent.contains) == true }
                ?? unused.firstIndex { $0.passageId.map(earlier.contains) == true }
            if let pick {
                segments[index].checkpoint = checkpoint(asking: unused.remove(at: pick))
            } else {
                let concepts = segments[(lastCheckpoint + 1)...index].flatMap { $0.glossaryRefs ?? [] }
                segments[index].checkpoint = teachback(concepts: concepts)
            }
            lastCheckpoint = index
        }
    }

    static func checkpoint(asking card: TopicAssessment) -> UMCFCheckpoint {
        UMCFCheckpoint(type: .comprehensionCheck, prompt: card.question, question: card.question,
                       expectedResponsePatterns: [card.answer], fallbackBehavior: "simplify")
    }

    /// "Explain in your own words …", naming up to three of the key terms just spoken.
    static func teachback(concepts: [String]) -> UMCFCheckpoint {
        var seen = Set<String>()
        let named = Array(concepts.filter { seen.insert($0.lowercased()).inserted }.prefix(3))
        let question = named.isEmpty
            ? "Can you explain in your own words what we have just covered?"
            : "Can you explain in your own words what we have just said about \(list(named))?"
        return UMCFCheckpoint(type: .teachback, prompt: question, question: question,
                              evaluationCriteria: named.isEmpty ? nil : .init(requiredConcepts: named), fallbackBehavior: "simplify")
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
