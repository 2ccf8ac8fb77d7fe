import Foundation
import XCTest

/// `lectern context` as a user runs it: Markdown for a prompt, or the same as JSON; bad budgets
/// and missing questions refused with one line before any work.
final class ContextCommandTests: CommandTestCase {
    func testContextPrintsCitedMarkdownOrJSON() throws {
        XCTAssertEqual(try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("notes").path,
                                       TestPaths.corpora.appendingPathComponent("transcripts").path], in: folder.url).status, 0)
        let markdown = try runLectern(["context", "what does the chain rule say about composite functions?", "--budget", "300"], in: folder.url)
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.hasPrefix("# Context for \u{201C}what does the chain rule say about composite functions?\u{201D}\n"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("\n## Passages\n"))
        XCTAssertTrue(markdown.stdout.contains("### [1] "))
        XCTAssertTrue(markdown.stdout.contains("chain-rule.md"), markdown.stdout)

        let json = try runLectern(["context", "what does the chain rule say about composite functions?", "--budget", "300", "--format", "json"], in: folder.url)
        XCTAssertEqual(json.status, 0, json.stderr)
        let context = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(context["budget"] as? Int, 300)
        XCTAssertLessThanOrEqual(context["tokens"] as? Int ?? 999, 270)
        let passages = try XCTUnwrap(context["passages"] as? [[String: Any]])
        XCTAssertFalse(passages.isEmpty)
        XCTAssertTrue(markdown.stdout.contains("### [1] \(passages[0]["title"] as? String ?? "") — \(passages[0]["location"] as? String ?? "")"))

        let nothing = try runLectern(["context", "chain rule", "--source", "elsewhere/"], in: folder.url)
        XCTAssertEqual(nothing.status, 0)
        XCTAssertTrue(nothing.stderr.contains("--source elsewhere/ matches no document"), nothing.stderr)
    }

    func testATopicComesWithItsPlaceObjectivesAndPassages() throws {
        let corpora = TestPaths.corpora
        XCTAssertEqual(try runLectern(["ingest", corpora.path], in: folder.url).status, 0)
        let build = try runLectern(["curriculum", "build", "biology", corpora.appendingPathComponent("notes/photosynthesis.md").path,
                                    corpora.appendingPathComponent("transcripts/cell-respiration-lecture.vtt").path], in: folder.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        let show = try runLectern(["curriculum", "show", "biology", "--json"], in: folder.url)
        let curriculum = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let topics = try XCTUnwrap((curriculum["units"] as? [[String: Any]])?.flatMap { $0["topics"] as? [[String: Any]] ?? [] })
        let calvin = try XCTUnwrap(topics.first { $0["title"] as? String == "The Calvin cycle" }?["stableId"] as? String)

        let context = try runLectern(["context", "--topic", calvin, "--budget", "600"], in: folder.url)
        XCTAssertEqual(context.status, 0, context.stderr)
        XCTAssertTrue(context.stdout.hasPrefix("# The Calvin cycle\nTopic 4 of \(topics.count) in biology, unit \u{201C}Photosynthesis\u{201D}"), context.stdout)
        for section in ["## Objectives\n- ", "## Comes next\n- Adaptations to hot and dry climates", "## Summary\n", "## Passages\n\n### [1] Photosynthesis — "] {
            XCTAssertTrue(context.stdout.contains(section), "no \(section) in\n\(context.stdout)")
        }
        let json = try runLectern(["context", "--topic", String(calvin.prefix(6)), "--budget", "600", "--format", "json"], in: folder.url)
        let structured = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertLessThanOrEqual(structured["tokens"] as? Int ?? 999, 540)
        XCTAssertEqual((structured["passages"] as? [[String: Any]])?.first?["from"] as? String, "topic")

        let unknown = try runLectern(["context", "--topic", "feedbeef"], in: folder.url)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "lectern: feedbeef: no topic with this id (see `lectern curriculum show`)\n")
    }

    func testBadRequestsAreRefusedWithOneLine() throws {
        let small = try runLectern(["context", "entropy", "--budget", "-5"], in: folder.url)
        XCTAssertEqual(small.status, 2)
        XCTAssertTrue(small.stderr.contains("the budget must be at least 64 tokens (got -5)"), small.stderr)
        let none = try runLectern(["context"], in: folder.url)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("give a question or a topic id"), none.stderr)
        let noLibrary = try runLectern(["context", "entropy"], in: folder.url)
        XCTAssertEqual(noLibrary.status, 1)
        XCTAssertTrue(noLibrary.stderr.contains("no library here yet"), noLibrary.stderr)
    }
}
