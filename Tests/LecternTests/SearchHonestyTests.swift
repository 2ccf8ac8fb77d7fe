import Foundation
import XCTest
@testable import Lectern

/// A search that says when it missed: a quoted phrase or an exclusion that leaves nothing is
/// named on stderr with what is shown instead, scores mean the same whatever the query (a
/// gibberish query's best hit is weak, not a perfect match), and nothing found exits 1, apart
/// from errors (2), as grep does.
final class SearchHonestyTests: CommandTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try folder.write("notes/fallacies.md", """
            # Fallacies

            ## Circular reasoning

            Begging the question is a fallacy in which the premises assume the conclusion they are meant to support.

            ## Relevance

            A red herring is a fallacy that draws attention away from the question at hand with an unrelated topic.
            """)
        try folder.write("notes/debate.md", """
            # Debate

            Good debaters ask what question the other side is begging when an argument goes around in a circle.
            The question of who carries the burden of proof decides many disputes before they start.
            """)
        // Notes on other subjects, so that BM25 knows which words are rare (with three
        // passages every word is common and BM25 scores nothing).
        let subjects = ["tomatoes", "bicycles", "volcanoes", "violins", "glaciers", "bread", "comets", "bees", "tides", "maps"]
        for (index, subject) in subjects.enumerated() {
            for part in 0..<4 {
                try folder.write("notes/other-\(index)-\(part).md", "# \(subject.capitalized) \(part)\n\nNotes on \(subject), part \(part): "
                                 + "how \(subject) are studied, measured and described in the field guide.\n")
            }
        }
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
    }

    func hits(_ result: CommandResult) throws -> [SearchHit] {
        try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
    }

    func testAPhraseThatEveryExcludedPassageHoldsIsNamedWithWhatIsShownInstead() throws {
        let result = try runLectern(["search", "\"begging the question\" -fallacy", "--mode", "keyword", "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let shown = try hits(result)
        XCTAssertFalse(shown.isEmpty)
        XCTAssertFalse(shown.contains { $0.text.lowercased().contains("begging the question") })
        XCTAssertEqual(result.stderr, "lectern: every passage holding \"begging the question\" also holds \"fallacy\": showing passages with its words apart\n")

        let events = try runLectern(["search", "\"begging the question\" -fallacy", "--events", "json", "--json"], in: folder.url)
        let note = try XCTUnwrap(events.stderr.split(separator: "\n").first.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(note?["event"] as? String, "note")
        XCTAssertTrue((note?["message"] as? String)?.contains("\"begging the question\"") ?? false, events.stderr)
        XCTAssertFalse(try hits(events).isEmpty, "stdout stays an array of hits")

        let nowhere = try runLectern(["search", "\"question of the burden\""], in: folder.url)
        XCTAssertTrue(nowhere.stderr.contains("no passage holds \"question of the burden\": showing passages with its words apart"), nowhere.stderr)
        XCTAssertTrue(nowhere.stdout.contains("burden of proof"), nowhere.stdout)
    }

    func testAnExclusionThatLeavesNothingIsNamedAndExitsOne() throws {
        let result = try runLectern(["search", "herring -fallacy", "--mode", "keyword"], in: folder.url)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "lectern: every passage that matches also holds \"fallacy\", which the query leaves out\n")
    }

    func testNothingFoundExitsOneAndAnErrorExitsTwo() throws {
        let none = try runLectern(["search", "zzzxqy", "--mode", "keyword"], in: folder.url)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderr, "lectern: no passages match 'zzzxqy'\n")
        let json = try runLectern(["search", "zzzxqy", "--mode", "keyword", "--json"], in: folder.url)
        XCTAssertEqual(json.status, 1)
        XCTAssertEqual(try hits(json).count, 0, "--json still prints []: \(json.stdout)")
        let filtered = try runLectern(["search", "fallacy", "--source", "nothing"], in: folder.url)
        XCTAssertEqual(filtered.status, 1)
        XCTAssertTrue(filtered.stderr.contains("--source nothing matches no document"), filtered.stderr)

        let missing = try runLectern(["search", "fallacy", "--db", "missing.db"], in: folder.url)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("missing.db"), missing.stderr)
        let usage = try runLectern(["search", "fallacy", "-k", "0"], in: folder.url)
        XCTAssertEqual(usage.status, 2, usage.stderr)
        XCTAssertEqual(try runLectern(["search", "fallacy"], in: folder.url).status, 0)
    }

    func testAGibberishQuerysBestHitIsWeakAndScoresMeanTheSameAcrossQueries() throws {
        let gibberish = try hits(try runLectern(["search", "asdkjh qwpoe", "--json"], in: folder.url))
        let answer = try hits(try runLectern(["search", "red herring fallacy", "--json"], in: folder.url))
        // BM25's evidence alone is strong; the tests' hashing embedder has little meaning to add.
        let byWords = try hits(try runLectern(["search", "red herring fallacy", "--mode", "keyword", "--json"], in: folder.url))
        let top = try XCTUnwrap(gibberish.first)
        XCTAssertLessThan(top.score, Relevance.weakBelow)
        XCTAssertTrue(top.weak)
        XCTAssertNil(top.bm25, "no passage holds its words")
        XCTAssertNotNil(top.cosine)
        let best = try XCTUnwrap(answer.first)
        XCTAssertNotNil(best.bm25)
        XCTAssertGreaterThan(best.score, 2 * top.score)
        XCTAssertEqual(byWords.first?.passageId, best.passageId)
        XCTAssertFalse(try XCTUnwrap(byWords.first).weak, "\(byWords.map(\.score))")

        let text = try runLectern(["search", "asdkjh qwpoe", "-k", "1"], in: folder.url)
        XCTAssertTrue(text.stdout.split(separator: "\n").first?.hasSuffix("weak") ?? false, text.stdout)
        let floor = try runLectern(["search", "asdkjh qwpoe", "--min-score", "0.3"], in: folder.url)
        XCTAssertEqual(floor.status, 1)
        XCTAssertTrue(floor.stderr.contains("no hit scores 0.30 or more (--min-score)"), floor.stderr)
        let kept = try hits(try runLectern(["search", "red herring fallacy", "--mode", "keyword", "--min-score", "0.3", "--json"], in: folder.url))
        XCTAssertFalse(kept.isEmpty)
        XCTAssertTrue(kept.allSatisfy { $0.score >= 0.3 })
    }
}
