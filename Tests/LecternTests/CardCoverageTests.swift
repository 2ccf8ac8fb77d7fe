import Foundation
import XCTest
@testable import Lectern

/// A topic with at least ~150 words of explanatory text gets a card even when none of its
/// candidates passes all six checks: the best one that is true (asserted by the source,
/// grounded, a term as its subject, answerable) stays; a short topic, an untrue candidate and
/// an objective asking for work do not.
final class CardCoverageTests: XCTestCase {
    static let filler = Array(repeating: "The lecture goes on with several worked problems on the board while students take notes and ask about the homework.", count: 8)
        .joined(separator: " ")

    func testALongTopicKeepsItsBestTrueCandidate() {
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
        XCTAssertEqual(assessed.kept.map(\.front), [cloze.front])
        XCTAssertEqual(assessed.rejected.map(\.front), [objective.front])
        // It carries the check it fails, for `cards stats` to count.
        XCTAssertEqual(assessed.kept.first?.quality?.checks.filter { !$0.passed }.map(\.name), [CardCheck.clozeTarget.rawValue])
        // A topic under ~150 words keeps none.
        let short = CardQualityTests.curriculum([CardQualityTests.passage(1, sentence)])
        XCTAssertTrue(CardGeneration.assess([cloze], topic: short.topics[0], checks: checks, minQuality: 1).kept.isEmpty)
    }

    func testAnUntrueCandidateGetsNoCard() {
        // A premise of an example argument is not asserted: no card, however long the topic.
        let premise = Self.filler + " Here is an example you might be familiar with:\n1. Abortion is the intentional killing of an innocent person.\n2. Therefore, abortion is murder."
        let cards = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, premise)])).cards
        XCTAssertFalse(cards.contains { $0.back.lowercased().contains("killing") || $0.front.lowercased().contains("abortion") }, "\(cards.map(\.front))")
    }
}
