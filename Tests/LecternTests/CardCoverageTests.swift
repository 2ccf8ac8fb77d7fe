import Foundation
import XCTest
@testable import Lectern

/// A topic with at least ~150 words of explanatory text gets a card only from a candidate that
/// passes all six checks: a candidate failing one (a cloze of a word that is no term, a
/// glossary term's other sense, an objective asking for work) is no card however bare its
/// topic; the guarantee comes from facts the prose states in lesser shapes (`FallbackFacts`).
final class CardCoverageTests: XCTestCase {
    static let filler = Array(repeating: "The lecture goes on with several worked problems on the board while students take notes and ask about the homework.", count: 8)
        .joined(separator: " ")

    func testALongTopicKeepsNoCandidateFailingACheck() {
        let sentence = "Momentum changes quickly when a large force acts on a body."
        let curriculum = CardQualityTests.curriculum([CardQualityTests.passage(1, Self.filler + " " + sentence)])
        let topic = curriculum.topics[0]
        let deck = CardDeckContext(curriculum: curriculum, now: Date())
        // A cloze of a word that is no term: true, but not what a teacher would delete.
        let cloze = deck.card(topic: topic, type: .cloze, front: "Momentum changes {{c1::quickly}} when a large force acts on a body.",
                              back: "", origin: .keyTerm, passage: topic.passages[0])
        let objective = deck.card(topic: topic, type: .basic, front: "Summarise the main ideas of momentum.", back: sentence,
                                  origin: .objective, passage: topic.passages[0])
        let checks = CardChecks(curriculum: curriculum)
        let assessed = CardGeneration.assess([objective, cloze], topic: topic, checks: checks, minQuality: 1)
        // (Before: the cloze stayed as the topic's one card, failing `cloze-target`.)
        XCTAssertEqual(assessed.kept.map(\.front), [])
        XCTAssertEqual(assessed.rejected.map(\.front), [objective.front, cloze.front])
        XCTAssertEqual(assessed.rejected.map(\.reason), [CardRejection.Reason(.answerability), CardRejection.Reason(.clozeTarget)])
        // `--min-quality` loosens the checks where the user asks for it.
        XCTAssertEqual(CardGeneration.assess([objective, cloze], topic: topic, checks: checks, minQuality: 0.5).kept.map(\.front), [objective.front, cloze.front])
    }

    func testAnUntrueCandidateGetsNoCard() {
        // A premise of an example argument is not asserted: no card, however long the topic.
        let premise = Self.filler + " Here is an example you might be familiar with:\n1. Abortion is the intentional killing of an innocent person.\n2. Therefore, abortion is murder."
        let cards = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, premise)])).cards
        XCTAssertFalse(cards.contains { $0.back.lowercased().contains("killing") || $0.front.lowercased().contains("abortion") }, "\(cards.map(\.front))")
    }
}
