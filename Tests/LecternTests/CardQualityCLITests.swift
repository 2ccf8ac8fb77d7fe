import Foundation
import XCTest
@testable import Lectern

/// `lectern cards generate | list --json | stats` with the six checks, on notes written for the
/// test: each listed card carries its `quality` (score and six named checks with reasons),
/// stats count the scores and the rejections by reason, `--min-quality` loosens the filter.
final class CardQualityCLITests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    static let notes = """
        # Logic

        ## Fallacies

        Begging the question is a fallacy in which an argument assumes the truth of what it sets out to prove. Here is an example you might be familiar with:

        1. The intentional killing of an innocent person is murder.
        2. Abortion is the intentional killing of an innocent person.
        3. Therefore, abortion is murder.

        This is a valid argument, but its second premise assumes what is at issue in the debate.

        Now the bicyclist is a rider who stops at every light on the road. Suppose a politician is a person who answers every question about taxes by talking about crime.

        ## Knowledge

        **Epistemology** is the branch of philosophy that studies knowledge and justified belief. A justified belief is a belief that is supported by good reasons or evidence. Knowledge has long been described as justified true belief, and epistemologists ask whether that description is complete.
        """

    func testCardsCarryTheirChecksInListAndStats() throws {
        let file = try folder.write("logic.md", Self.notes)
        XCTAssertEqual(try lectern("ingest", file.path, "--embedder", "hashing").status, 0)
        var result = try lectern("curriculum", "build", "logic", file.path)
        XCTAssertEqual(result.status, 0, result.stderr)

        result = try lectern("cards", "generate", "logic", "--min-quality", "2")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--min-quality 2"), result.stderr)

        result = try lectern("cards", "generate", "logic", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let strict = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rejections = try XCTUnwrap(strict["rejections"] as? [String: Int])
        XCTAssertGreaterThan(rejections["not-asserted"] ?? 0, 0, "\(rejections)")
        XCTAssertGreaterThan(rejections["subject-form"] ?? 0, 0, "\(rejections)")

        result = try lectern("cards", "list", "--curriculum", "logic", "--json")
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertFalse(listed.isEmpty)
        XCTAssertFalse(listed.contains { "\($0["front"] ?? "") \($0["back"] ?? "")".contains("Abortion") }, "\(listed)")
        XCTAssertFalse(listed.contains { ($0["front"] as? String ?? "").contains("Now the") }, "\(listed)")
        XCTAssertTrue(listed.contains { ($0["front"] as? String ?? "").lowercased().contains("epistemology") }, "\(listed)")
        for card in listed {
            let quality = try XCTUnwrap(card["quality"] as? [String: Any], "\(card)")
            XCTAssertEqual(quality["score"] as? Double, 1)
            let checks = try XCTUnwrap(quality["checks"] as? [[String: Any]])
            XCTAssertEqual(checks.compactMap { $0["name"] as? String },
                           ["source-assertion", "subject-form", "cloze-target", "answerability", "grounding", "duplication"])
            XCTAssertTrue(checks.allSatisfy { $0["passed"] as? Bool == true && !($0["reason"] as? String ?? "").isEmpty })
        }
        // A key term's card says why it is a term (Markdown's emphasis is read as plain text).
        let keyTerm = try XCTUnwrap(listed.first { ($0["origin"] as? String) == "key-term" }, "\(listed.map { $0["front"] ?? "" })")
        XCTAssertEqual(keyTerm["basis"] as? String, "defined", "\(keyTerm)")

        result = try lectern("cards", "stats")
        XCTAssertTrue(result.stdout.contains("quality: \(listed.count) at 1.00"), result.stdout)
        XCTAssertTrue(result.stdout.contains("not-asserted"), result.stdout)
        // --curriculum: that curriculum's counts alone; a curriculum with no cards has none.
        result = try lectern("cards", "stats", "--curriculum", "logic", "--json")
        let only = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
        XCTAssertEqual(only.compactMap { $0["curriculum"] as? String }, ["logic"])
        XCTAssertEqual(only.first?["notes"] as? Int, listed.count)
        result = try lectern("cards", "stats", "--curriculum", "no-such-curriculum", "--json")
        XCTAssertEqual((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any])?.count ?? 0, 0, result.stdout + result.stderr)

        // Loosened: more notes, the failing ones showing which check they fail.
        result = try lectern("cards", "generate", "logic", "--min-quality", "0.5")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try lectern("cards", "list", "--curriculum", "logic", "--json")
        let loose = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertGreaterThan(loose.count, listed.count)
        let failing = loose.filter { (($0["quality"] as? [String: Any])?["score"] as? Double ?? 1) < 1 }
        XCTAssertFalse(failing.isEmpty)
        result = try lectern("cards", "stats", "--json")
        let stats = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let failed = try XCTUnwrap(stats["failedChecks"] as? [String: Int])
        XCTAssertEqual(failed.values.reduce(0, +), failing.reduce(0) { total, card in
            total + ((card["quality"] as? [String: Any])?["checks"] as? [[String: Any]] ?? []).filter { $0["passed"] as? Bool == false }.count
        })
        result = try lectern("cards", "list", "--curriculum", "logic")
        XCTAssertTrue(result.stdout.contains("quality 1.00"), result.stdout)
        XCTAssertTrue(result.stdout.contains("source-assertion: ") || result.stdout.contains("subject-form: "), result.stdout)
    }
}
