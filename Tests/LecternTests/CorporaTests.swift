import XCTest
@testable import Lectern

/// The project's own study notes in `corpora/`, read the way `make demo` reads them: each demo
/// question must come back with the note and the section that answers it.
final class CorporaTests: CommandTestCase {
    /// With MiniLM, as `make demo` reads them (the fused scores are calibrated on its cosines;
    /// the hashing baseline's are on another scale).
    func search(_ query: String, _ extra: String...) throws -> [SearchHit] {
        let result = try runLectern(["search", query, "--json", "-k", "3"] + extra, in: folder.url,
                                    environment: ["LECTERN_EMBEDDER": "", "LECTERN_MODELS": modelsFolder])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
    }

    var modelsFolder = ""

    func testDemoQuestionsFindTheNotesThatAnswerThem() throws {
        modelsFolder = (try MiniLMFixtures.modelDirectory() as NSString).deletingLastPathComponent
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        let ingest = try runLectern(["ingest", notes], in: folder.url, environment: ["LECTERN_EMBEDDER": "", "LECTERN_MODELS": modelsFolder])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertEqual(ingest.stderr, "", "the project's own notes ingest without a warning")

        var hits = try search("light-dependent reactions in the thylakoid")
        XCTAssertEqual(hits.first?.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "photosynthesis.md")
        XCTAssertEqual(hits.first?.sectionPath, ["Photosynthesis", "The light-dependent reactions"])

        hits = try search("chain rule", "--mode", "keyword")
        XCTAssertEqual(hits.first?.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "chain-rule.md")
        XCTAssertTrue(hits.first?.snippet.lowercased().contains("chain rule") ?? false, hits.first?.snippet ?? "")

        hits = try search("how did printing change the spread of ideas")
        XCTAssertEqual(hits.first?.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "printing-press.txt")
        XCTAssertTrue(hits.first?.text.contains("How did printing change the spread of ideas?") ?? false)

        // Passages of a Markdown note never mix two top-level sections.
        hits = try search("rubisco photorespiration Calvin cycle", "--mode", "keyword")
        XCTAssertEqual(hits.first?.sectionPath.prefix(2).last, "The Calvin cycle")
    }
}
