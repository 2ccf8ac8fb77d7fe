import Foundation
import XCTest
@testable import Lectern

/// Cards graded by hand on the six criteria (correct and grounded, focused, unambiguous, not
/// given away, worth learning, well-formed), kept in `Tests/Fixtures/card-grades` by document,
/// section path and a hash of the cited passage's text (not passage ids, which change when
/// passages are merged). The generator makes the cards again, every candidate scored
/// (`--min-quality 0`); its checks must reject the cards graded bad and keep the good ones.
final class CardGradesTests: CommandTestCase {
    struct Grade: Decodable {
        var document: String
        var section: [String]
        var passage: String
        var front: String
        var back: String
        /// "good", "bad" or "false" (bad, and teaching something untrue).
        var grade: String
        /// The criteria a bad card fails.
        var criteria: [String]
        var note: String?
    }

    static func grades(_ name: String) throws -> [Grade] {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/card-grades/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Grade.self, from: Data($0.utf8)) }
    }

    /// A grade is of one card, its front and back: a card whose back changed since it was graded
    /// ("What is the chain rule?" answered otherwise) is another card, not yet graded.
    static func key(document: String, section: [String], passage: String, front: String, back: String) -> String {
        [document, section.joined(separator: " › "), passage, CardIdentity.normalised(front), CardIdentity.normalised(back)].joined(separator: "\u{1F}")
    }

    /// Every candidate of `curriculum`, scored, by the fixture's key.
    static func scored(_ curriculum: Curriculum) -> [String: Flashcard] {
        let documents = Dictionary(curriculum.sources.map { ($0.documentId, $0.uri.split(separator: "/").suffix(2).joined(separator: "/")) },
                                   uniquingKeysWith: { first, _ in first })
        let passages = Dictionary(curriculum.topics.flatMap(\.passages).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [String: Flashcard] = [:]
        for card in CardGeneration.offline(curriculum, minQuality: 0).cards {
            guard let passage = passages[card.source.passageId] else { continue }
            let hash = String(ContentHash.sha256(passage.text).prefix(16))
            result[key(document: documents[passage.documentId] ?? "", section: passage.sectionPath, passage: hash, front: card.front, back: card.back)] = card
        }
        return result
    }

    func testTheChecksRejectTheCardsGradedBadAndKeepTheGoodOnes() throws {
        let grades = try Self.grades("corpora.jsonl")
        XCTAssertGreaterThanOrEqual(grades.count, 25)
        XCTAssertEqual(try runLectern(["ingest", TestPaths.corpora.path, "--embedder", "hashing"], in: folder.url).status, 0)
        let built = try runLectern(["curriculum", "build", "corpora", TestPaths.corpora.path], in: folder.url)
        XCTAssertEqual(built.status, 0, built.stderr)
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let curriculum = try XCTUnwrap(try store.curriculum(named: "corpora"))
        let cards = Self.scored(curriculum)

        var matched = 0, badRejected = 0, bad = 0, goodKept = 0, good = 0
        var missed: [String] = []
        for grade in grades {
            guard let card = cards[Self.key(document: grade.document, section: grade.section, passage: grade.passage, front: grade.front, back: grade.back)] else {
                // A card graded bad that the generator no longer makes at all is turned away too.
                if grade.grade == "good" { missed.append(grade.front) } else { bad += 1; badRejected += 1 }
                continue
            }
            matched += 1
            let kept = (card.quality?.score ?? 0) >= 1
            if grade.grade == "good" {
                good += 1
                if kept { goodKept += 1 }
            } else {
                bad += 1
                if !kept { badRejected += 1 } else { print("kept, graded \(grade.grade): \(grade.front) (\(grade.criteria.joined(separator: ", ")))") }
            }
        }
        print("graded corpora cards: \(matched) of \(grades.count) made again; bad rejected \(badRejected) of \(bad), good kept \(goodKept) of \(good)")
        XCTAssertLessThanOrEqual(missed.count, 2, "cards graded good no longer made: \(missed)")
        XCTAssertGreaterThanOrEqual(Double(badRejected), Double(bad) * 0.75, "the checks keep cards graded bad")
        XCTAssertGreaterThanOrEqual(Double(goodKept), Double(good) * 0.8, "the checks reject cards graded good")
    }
}
