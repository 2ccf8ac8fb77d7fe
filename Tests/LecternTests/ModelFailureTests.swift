import XCTest
@testable import Lectern

/// A model that cannot be asked (a refused key, 429, an answer that is not the API's JSON, a
/// refused connection) is said once, in one line, against a real server on 127.0.0.1: it stops
/// `summarize` and `cards generate`, and a curriculum build, whose topics fall back to the
/// offline methods by design, says so in one warning and on its run. Only an answer off its
/// schema is a rejection of that answer.
final class ModelFailureTests: CommandTestCase {
    var servers: [TestServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        super.tearDown()
    }

    func lectern(_ arguments: [String], model url: String? = nil) throws -> CommandResult {
        let flags = url.map { ["--provider", "openai", "--model", "m", "--base-url", $0] } ?? []
        return try runLectern(arguments + flags, in: folder.url, environment: ["LECTERN_HTTP_RETRIES": "0", "LECTERN_LLM_API_KEY_ENV": "TEST_MODEL_KEY", "TEST_MODEL_KEY": "sk-wrong-key-123"])
    }

    /// An OpenAI-compatible chat answer holding `content`.
    static func answer(_ content: String) -> [String: Any] {
        ["json": ["id": "chatcmpl-1", "object": "chat.completion", "model": "m",
                  "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": "stop"]]]]
    }

    /// Servers that cannot be asked, each by its own failure, and a port nothing listens on.
    func unavailableModels() throws -> [(name: String, url: String, says: String)] {
        let refused = try TestServer(routes: ["/v1/chat/completions": ["status": 401, "json": ["error": ["message": "Incorrect API key provided"]]]])
        let limited = try TestServer(routes: ["/v1/chat/completions": ["status": 429, "headers": ["Retry-After": "1"], "body": "slow down"]])
        let garbage = try TestServer(routes: ["/v1/chat/completions": ["body": "<html>upstream gateway error</html>"]])
        servers += [refused, limited, garbage]
        return [("401", refused.url("/v1"), "HTTP 401"), ("429", limited.url("/v1"), "HTTP 429"),
                ("garbage", garbage.url("/v1"), "is not JSON"), ("refused", "http://127.0.0.1:9/v1", "127.0.0.1:9")]
    }

    func writeNotes() throws {
        for (index, subject) in ["entropy", "capacity", "redundancy"].enumerated() {
            var text = "# \(subject.capitalized)\n\n"
            for part in 0..<3 {
                text += "## Part \(part)\n\n\(subject.capitalized) \(part) is the quantity of signal \(index * 3 + part) that a channel carries per symbol. "
                    + "Part \(part) of the note on \(subject) says that noise lowers what the channel carries.\n\n"
            }
            try folder.write("notes/\(subject).md", text)
        }
        XCTAssertEqual(try lectern(["ingest", "notes"]).status, 0)
    }

    func stderrLines(_ result: CommandResult) -> [Substring] {
        result.stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    func testSummarizeStopsWithOneLineWhenTheModelCannotBeAsked() throws {
        try writeNotes()
        for model in try unavailableModels() {
            let result = try lectern(["summarize"], model: model.url)
            XCTAssertEqual(result.status, 1, "\(model.name): \(result.stdout)")
            let lines = stderrLines(result)
            XCTAssertEqual(lines.count, 1, "\(model.name): one line, not one per document or section: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(model.says), "\(model.name): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("sk-wrong-key-123"), "no secrets in messages")
        }
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        for document in try store.allDocuments() {
            XCTAssertEqual(try store.summaries(documentId: document.id), [], "\(document.title): nothing stored")
        }
    }

    func testCurriculumSummariesFallBackOfflineWithOneWarningOnTheRun() throws {
        try writeNotes()
        let model = try XCTUnwrap(try unavailableModels().first)
        let built = try lectern(["curriculum", "build", "info", "notes"], model: model.url)
        XCTAssertEqual(built.status, 0, built.stderr)
        let warnings = stderrLines(built).filter { $0.contains("could not be asked") }
        XCTAssertEqual(warnings.count, 1, built.stderr)
        XCTAssertTrue(warnings.first?.contains("HTTP 401") ?? false, built.stderr)
        XCTAssertEqual(stderrLines(built).filter { $0.contains("401") }.count, 1, "said once, not per topic: \(built.stderr)")

        let shown = try lectern(["runs", "show", "2"])
        XCTAssertTrue(shown.stdout.contains("curriculum build"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("could not be asked"), shown.stdout)
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        let topics = try XCTUnwrap(store.curriculum(named: "info")).topics
        XCTAssertFalse(topics.isEmpty)
        XCTAssertTrue(topics.allSatisfy { $0.summaryOrigin != .model && !$0.summary.isEmpty }, "offline summaries stand")
    }

    /// The model writes a card, then cannot be asked to verify it: the run stops with the
    /// server's status instead of counting the card as "did not follow its schema".
    func testCardVerificationThatCannotBeAskedStopsInsteadOfRejecting() throws {
        try writeNotes()
        XCTAssertEqual(try lectern(["curriculum", "build", "info", "notes"]).status, 0)
        let written = Self.answer(#"{"cards": [{"question": "What does noise lower?", "answer": "what the channel carries", "passage": 1}]}"#)
        let server = try TestServer(routes: ["/v1/chat/completions": ["status": 429, "body": "slow down"]], replay: [
            ["request": ["method": "POST", "path": "/v1/chat/completions", "json": ["response_format": ["json_schema": ["name": "flashcards"]]]],
             "response": written],
        ])
        servers.append(server)
        let result = try lectern(["cards", "generate", "info"], model: server.url("/v1"))
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertEqual(stderrLines(result).count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("HTTP 429"), result.stderr)
        let listed = try lectern(["cards", "list", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count, 0, "nothing stored: \(listed.stdout)")
    }

    /// A verifying answer off its schema is still that card's rejection; the run goes on.
    func testAVerdictOffItsSchemaIsStillARejection() throws {
        try writeNotes()
        XCTAssertEqual(try lectern(["curriculum", "build", "info", "notes"]).status, 0)
        let written = Self.answer(#"{"cards": [{"question": "What does noise lower?", "answer": "what the channel carries", "passage": 1}]}"#)
        let server = try TestServer(routes: ["/v1/chat/completions": Self.answer(#"{"supported": "perhaps"}"#)], replay: [
            ["request": ["method": "POST", "path": "/v1/chat/completions", "json": ["response_format": ["json_schema": ["name": "flashcards"]]]],
             "response": written],
        ])
        servers.append(server)
        let result = try lectern(["cards", "generate", "info", "--json"], model: server.url("/v1"))
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rejections = try XCTUnwrap(summary["rejections"] as? [String: Int], result.stdout)
        XCTAssertGreaterThan(rejections["model-rejected"] ?? 0, 0, result.stdout)
    }
}
