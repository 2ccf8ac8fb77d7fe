import Foundation
import XCTest
@testable import Lectern

/// One long topic does not swamp a deck: past its share (one card per 150 words of prose,
/// 10 to 25) the mined sentences go, last first, while the source's own glossary terms and
/// formulas all stay; what was cut is counted as `over-topic-share`.
final class CardTopicShareTests: XCTestCase {
    static let parts = ["gear", "spring", "lever", "pulley", "wheel", "axle", "cam", "ratchet", "pawl", "crank", "shaft", "escapement",
                        "pendulum", "bearing", "bushing", "flywheel", "governor", "clutch", "sprocket", "pinion", "rack", "worm",
                        "spindle", "arbor", "barrel", "fusee", "balance", "hairspring", "dial", "bezel"]

    func testALongTopicKeepsItsShareAndEveryGlossaryTerm() throws {
        let prose = Self.parts.map { "A \($0) is a part of a clock that moves the hands at a steady rate for the \($0) maker." }.joined(separator: " ")
        let glossary = (0..<12).map { "term\($0 == 0 ? "" : String(UnicodeScalar(UInt8(97 + $0))))word: a word the glossary defines as number \($0)" }
            .joined(separator: "\n")
        let passages = [CardQualityTests.passage(1, prose, section: ["1 Clocks", "1.1 Parts"]),
                        CardQualityTests.passage(2, glossary, kind: .glossary, section: ["Glossary"])]
        let curriculum = CardQualityTests.curriculum(passages)
        let topic = try XCTUnwrap(curriculum.topics.first)
        XCTAssertEqual(CardGeneration.topicShare(topic), 10)
        let (cards, report) = CardGeneration.offline(curriculum)
        let glossaryCards = cards.filter { $0.origin == .glossary }
        let mined = cards.filter { $0.origin != .glossary }
        XCTAssertEqual(glossaryCards.count, 12, "\(cards.map(\.front))")
        // The glossary's 12 fill the share: no mined sentence is kept beside them.
        XCTAssertEqual(mined.count, 0, "\(mined.map(\.front))")
        XCTAssertGreaterThanOrEqual(report.rejectionCounts["over-topic-share"] ?? 0, 30, "\(report.rejectionCounts)")

        // Without a glossary, the share is the defined terms' Basic cards first, then their clozes.
        let (alone, _) = CardGeneration.offline(CardQualityTests.curriculum([passages[0]]))
        XCTAssertEqual(alone.count, 10, "\(alone.map(\.front))")
        XCTAssertTrue(alone.allSatisfy { $0.noteType == .basic }, "\(alone.map(\.front))")
        XCTAssertEqual(alone.first?.front, "What is a gear?")
    }
}
