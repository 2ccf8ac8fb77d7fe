import Foundation
import XCTest
@testable import Lectern

/// The six checks on generated text written like a textbook: what the source only shows (an
/// argument's premises, an example, a hypothetical, a question) never becomes a fact card, a
/// definition's subject is a term, the glossary's sense wins over a literal one, an objective
/// no passage answers makes no card, and every kept card carries its score and reasons.
final class CardQualityTests: XCTestCase {
    static func passage(_ id: Int64, _ text: String, kind: PassageKind = .text, section: [String] = ["1 Logic", "1.2 Fallacies"]) -> Passage {
        Passage(id: id, documentId: 1, ordinal: Int(id), text: text, kind: kind, sectionPath: section, pageStart: nil,
                     pageEnd: nil, pageLabel: nil, timeStart: nil, timeEnd: nil, tokenCount: WordTokenizer.words(text).count)
    }

    static func curriculum(_ passages: [Passage], objectives: [String] = []) -> Curriculum {
        let topic = Topic(stableId: "t-fallacies", title: "Fallacies", summary: "", summaryOrigin: .offline,
                          objectives: objectives.enumerated().map { LearningObjective(stableId: "o\($0.offset)", statement: $0.element, origin: .source) },
                          keyTerms: KeyTermExtraction.keyTerms(in: passages), studyMinutes: 5, passages: passages, prerequisites: [])
        return Curriculum(name: "logic", title: "Logic", stableId: "c-logic", sources: [],
                          units: [CurriculumUnit(stableId: "u", title: "Logic", topics: [topic])],
                          modelName: nil, createdAt: Date(), modifiedAt: Date())
    }

    static let textbook = [
        passage(1, """
            Begging the question is a fallacy in which an argument assumes the truth of what it sets out to prove. Here is an example you might be familiar with:
            1. The intentional killing of an innocent person is murder.
            2. Abortion is the intentional killing of an innocent person.
            3. Therefore, abortion is murder.
            This is a valid argument, but premise 2 assumes what is at issue in the debate.
            """),
        passage(2, """
            A red herring fallacy is like a strawman, except the arguer ignores their opponent's position and changes the subject. A red herring is a smelly smoked fish that was used to train hunting dogs to track smells. Suppose a politician is a person who answers every question about taxes by talking about crime. Now the bicyclist is a rider who stops at the light. Is an ad hominem a fallacy that attacks the person?
            """),
        passage(3, """
            Epistemology is the branch of philosophy that studies knowledge and justified belief. An argument is a set of statements in which some statements support another statement called the conclusion.
            """),
        passage(4, """
            red herring: a fallacy that distracts from the question at issue by changing the subject
            argument: a set of statements in which some support another
            """, kind: .glossary, section: ["Glossary"]),
    ]

    func testWhatTheSourceOnlyShowsNeverBecomesACard() throws {
        let curriculum = Self.curriculum(Self.textbook, objectives: ["Summarise the main ideas of Problem Set 1.", "Explain what epistemology studies."])
        let (cards, report) = CardGeneration.offline(curriculum)
        let text = cards.map { "\($0.front) → \($0.back)" }
        // Nothing of the argument's premises, the hypothetical, the discourse-word subject or the question.
        XCTAssertFalse(text.contains { $0.lowercased().contains("abortion") }, "\(text)")
        XCTAssertFalse(text.contains { $0.contains("politician") }, "\(text)")
        XCTAssertFalse(text.contains { $0.contains("What is Now") || $0.contains("bicyclist") }, "\(text)")
        XCTAssertFalse(text.contains { $0.contains("ad hominem") }, "\(text)")
        // The glossary's sense of "red herring" wins over the fish.
        XCTAssertFalse(text.contains { $0.contains("smelly") }, "\(text)")
        XCTAssertTrue(text.contains("red herring → a fallacy that distracts from the question at issue by changing the subject"), "\(text)")
        // An objective asking for work is no card; one the passage answers is.
        XCTAssertFalse(text.contains { $0.contains("Summarise") }, "\(text)")
        XCTAssertTrue(cards.contains { $0.origin == .objective && $0.front == "Explain what epistemology studies." }, "\(text)")
        XCTAssertTrue(text.contains("What is Epistemology? → The branch of philosophy that studies knowledge and justified belief"), "\(text)")

        // Every kept card passed all six checks, with a reason for each.
        for card in cards {
            let quality = try XCTUnwrap(card.quality, card.front)
            XCTAssertEqual(quality.checks.map(\.name), CardCheck.allCases.map(\.rawValue))
            XCTAssertEqual(quality.score, 1, "\(card.front): \(quality.checks.filter { !$0.passed })")
            XCTAssertFalse(quality.checks.contains { $0.reason.isEmpty })
        }
        // The rejections say which check failed and why.
        let reasons = Set(report.rejections.map(\.reason))
        for reason in [CardRejection.Reason.notAsserted, .subjectForm, .duplicateSense] {
            XCTAssertTrue(reasons.contains(reason), "no rejection for \(reason): \(report.rejections.map { "\($0.reason.rawValue): \($0.front) — \($0.detail)" })")
        }
        let premise = try XCTUnwrap(report.rejections.first { $0.front.contains("Abortion") || $0.answer.contains("Abortion") })
        XCTAssertEqual(premise.reason, .notAsserted)
        XCTAssertTrue(premise.detail.contains("argument") || premise.detail.contains("example"), premise.detail)

        // Loosened, the failing cards stay with their failed checks shown.
        let loose = CardGeneration.offline(curriculum, minQuality: 0).cards
        XCTAssertGreaterThan(loose.count, cards.count)
        let fish = try XCTUnwrap(loose.first { $0.back.contains("smelly") }, "\(loose.map(\.front))")
        let failed = try XCTUnwrap(fish.quality?.checks.first { !$0.passed })
        XCTAssertEqual(failed.name, "duplication")
        XCTAssertTrue(failed.reason.contains("glossary defines"), failed.reason)
        XCTAssertLessThan(fish.quality?.score ?? 1, 1)
    }

    /// A model's card is held to the same checks: one whose answer sits in a premise of the
    /// argument is turned away, one the text asserts is kept; a summary objective is no card.
    func testModelCardsPassTheSameChecks() throws {
        let curriculum = Self.curriculum(Self.textbook)
        let topic = try XCTUnwrap(curriculum.topics.first)
        let deck = CardDeckContext(curriculum: curriculum)
        let premise = deck.card(topic: topic, type: .basic, front: "What is abortion?", back: "the intentional killing of an innocent person",
                                origin: .model, passage: Self.textbook[0])
        let asserted = deck.card(topic: topic, type: .basic, front: "What does begging the question assume?",
                                 back: "the truth of what it sets out to prove", origin: .model, passage: Self.textbook[0])
        // An objective asking for a summary is no card, whatever passage it cites.
        let summary = deck.card(topic: topic, type: .basic, front: "Summarise the main ideas of begging the question.",
                                back: "Begging the question is a fallacy in which an argument assumes the truth of what it sets out to prove.",
                                origin: .objective, passage: Self.textbook[0])
        let grounded = CardGeneration.ground([premise, asserted, summary], topic: topic)
        XCTAssertEqual(grounded.kept.count, 3, "every answer's words are in the passage")
        let assessed = CardGeneration.assess(grounded.kept, topic: topic, checks: CardChecks(curriculum: curriculum), minQuality: 1)
        XCTAssertEqual(assessed.kept.map(\.front), ["What does begging the question assume?"])
        XCTAssertEqual(assessed.rejected.map(\.reason), [.notAsserted, .notAnswerable])
    }

    /// Key terms record why they are terms: the book's glossary, a defining sentence, emphasis.
    func testKeyTermsRecordTheirBasis() {
        let terms = KeyTermExtraction.keyTerms(in: Self.textbook + [
            Self.passage(5, "**Modus ponens** is the rule that from P and if P then Q, Q follows."),
            Self.passage(6, "fallacy: an error of reasoning", kind: .glossary, section: ["1.2 Fallacies", "Key Terms"]),
        ])
        let basis = Dictionary(terms.map { ($0.term.lowercased(), $0.basis) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(basis["red herring"], .glossary)
        XCTAssertEqual(basis["epistemology"], .defined)
        XCTAssertEqual(basis["modus ponens"], .emphasised)
        XCTAssertEqual(basis["fallacy"], .emphasised)
    }
}
