import Foundation
import XCTest
@testable import Lectern

/// The OpenAI-compatible provider against a real model: llama.cpp's server running Gemma 3
/// 270M on 127.0.0.1. Few calls with small answers (about 20 tokens/s on 2 cores); the
/// assertions are on behaviour, never on the model's wording.
final class RealModelTests: LocalModelTestCase {

    func model(_ server: LocalModelServer) throws -> any LanguageModel { try server.languageModel() }

    func testACompletionArrivesWithItsTokenCounts() throws {
        let server = try runningServer()
        let response = try model(server).complete(ChatRequest(messages: [.user("Name one colour.")], maxTokens: 6))
        XCTAssertFalse(response.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "the model answered nothing")
        XCTAssertGreaterThan(response.inputTokens, 0)
        XCTAssertGreaterThan(response.outputTokens, 0)
        XCTAssertLessThanOrEqual(response.outputTokens, 6, "max_tokens is honoured")
    }

    /// llama.cpp's server streams the answer as server-sent events: it arrives in pieces, the
    /// same text as when asked whole (temperature 0), with its token counts and finish reason.
    func testAStreamedAnswerArrivesInPiecesWithItsCountsAndFinishReason() throws {
        let server = try runningServer()
        let request = ChatRequest(messages: [.user("Count from one to ten in words.")], maxTokens: 12)
        final class Pieces: @unchecked Sendable { var texts: [String] = [] }
        let pieces = Pieces()
        let streamed = try model(server).stream(request) { pieces.texts.append($0) }
        XCTAssertGreaterThan(pieces.texts.count, 1, "the answer came in one piece")
        XCTAssertEqual(pieces.texts.joined(), streamed.text)
        XCTAssertEqual(streamed.text, try model(server).complete(request).text, "streamed and whole answers differ")
        XCTAssertGreaterThan(streamed.inputTokens, 0, "no usage in the stream")
        XCTAssertEqual(streamed.outputTokens, 12)
        XCTAssertEqual(streamed.finishReason, "length", "12 tokens cannot count to ten in words")
        XCTAssertTrue(streamed.truncated)
        XCTAssertEqual(streamed.model, "gemma-3-270m")
    }

    struct Colour: Decodable, Sendable { var colour: String }

    func testSchemaConstrainedOutputParsesAndValidates() throws {
        let server = try runningServer()
        let schema = JSONSchema(name: "colour", [
            "type": "object",
            "properties": ["colour": ["type": "string", "enum": ["red", "green", "blue"]]],
            "required": ["colour"],
            "additionalProperties": false,
        ])
        let generated = try model(server).generate(
            Colour.self, request: ChatRequest(messages: [.user("What colour is grass? Answer in JSON.")], maxTokens: 20), schema: schema)
        XCTAssertTrue(["red", "green", "blue"].contains(generated.value.colour))
        XCTAssertEqual(generated.responses.count, 1, "llama.cpp enforces the schema, so no repair was needed")
        XCTAssertTrue(schema.violations(of: try XCTUnwrap(JSONValue.parse(generated.responses[0].text))).isEmpty)
    }

    func testTheSecondIdenticalCallIsACacheHitAndTokensAreRecordedInTheRun() throws {
        let server = try runningServer()
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lib.db").path)
        let recorder = try RunRecorder(store: store, command: "test", arguments: [])
        let cached = LibraryModel(try model(server), store: store, recorder: recorder,
                                  prices: ["gemma-3-270m": ModelPrice(input: 1, output: 2)])
        let request = ChatRequest(messages: [.user("Say hello.")], maxTokens: 5, template: "test/\(UUID().uuidString)")

        let first = try cached.complete(request)
        let predicted = try server.metric("llamacpp:tokens_predicted_total")
        let prompted = try server.metric("llamacpp:prompt_tokens_total")
        let second = try cached.complete(request)

        XCTAssertFalse(first.cached)
        XCTAssertTrue(second.cached)
        XCTAssertEqual(second.text, first.text)
        XCTAssertEqual(try server.metric("llamacpp:tokens_predicted_total"), predicted, "the cache hit reached the server")
        XCTAssertEqual(try server.metric("llamacpp:prompt_tokens_total"), prompted, "the cache hit reached the server")

        recorder.finish()
        let counts = try XCTUnwrap(store.runs(limit: 1).first).counts
        XCTAssertEqual(counts["llm.calls"], 1)
        XCTAssertEqual(counts["llm.cache_hits"], 1)
        XCTAssertEqual(counts["llm.input_tokens"], first.inputTokens)
        XCTAssertEqual(counts["llm.output_tokens"], first.outputTokens)
        XCTAssertGreaterThan(counts["llm.input_tokens"] ?? 0, 0)
        XCTAssertGreaterThan(counts["llm.cost_microusd"] ?? 0, 0, "cost from the price table")
        let calls = try store.modelCalls(run: recorder.id)
        XCTAssertEqual(calls.map(\.cached), [false, true])
        XCTAssertEqual(calls[1].inputTokens + calls[1].outputTokens, 0, "a cache hit costs no tokens")

        // --no-cache asks again.
        let fresh = LibraryModel(try model(server), store: store, recorder: nil, useCache: false)
        XCTAssertFalse(try fresh.complete(request).cached)
        XCTAssertGreaterThan(try server.metric("llamacpp:tokens_predicted_total"), predicted)
    }

    // MARK: Through the command line

    /// The built `lectern` binary in a fresh folder, with `[llm]` pointing at the real server.
    struct CLI {
        let folder: TemporaryFolder
        let environment: [String: String]

        func callAsFunction(_ arguments: [String]) throws -> CommandResult {
            try runLectern(arguments, in: folder.url, environment: environment)
        }
    }

    /// `context_tokens` nil leaves the openai default (8192), larger than the server's n_ctx.
    func cli(_ server: LocalModelServer, contextTokens: Int? = LocalModelServer.contextTokens, maxTokens: Int) throws -> CLI {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        try folder.write("lectern.toml", """
            [llm]
            provider = "openai"
            model = "gemma-3-270m"
            base_url = "\(server.baseURL)"
            \(contextTokens.map { "context_tokens = \($0)" } ?? "")
            max_tokens = \(maxTokens)
            timeout = 600

            [http]
            retries = 0
            """)
        return CLI(folder: folder, environment: ["LECTERN_CONFIG": folder.file("lectern.toml").path])
    }

    /// The chain-rule note cut to its opening and two sections: three calls (two sections, then
    /// the whole from their summaries) keep the test short on a small CPU.
    func writeChainRuleExcerpt(_ folder: TemporaryFolder) throws -> String {
        let note = try String(contentsOf: TestPaths.corpora.appendingPathComponent("notes/chain-rule.md"), encoding: .utf8)
        let parts = note.components(separatedBy: "\n## ")
        let kept = [parts[0]] + parts.dropFirst().filter { $0.hasPrefix("Statement of the chain rule") || $0.hasPrefix("Related rates") }
        XCTAssertEqual(kept.count, 3)
        try folder.write("chain-rule.md", kept.joined(separator: "\n## "))
        return "chain-rule.md"
    }

    /// Every line on stderr is one `lectern: …` line: no trace, no crash.
    func assertCleanStderr(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) {
        for text in stderr.split(separator: "\n") {
            XCTAssertTrue(text.hasPrefix("lectern: "), "not a lectern message: \(text)", file: file, line: line)
        }
    }

    struct Shown: Decodable { var summaries: [StoredSummary] }
    struct RunCounts: Decodable { var command: String; var counts: [String: Int] }

    func testSummarizeThroughTheCLIStoresTheModelsSummariesAndTheRerunIsAllCacheHits() throws {
        let server = try runningServer()
        let lectern = try cli(server, maxTokens: 512)
        let note = try writeChainRuleExcerpt(lectern.folder)
        XCTAssertEqual(try lectern(["ingest", note]).status, 0)

        let started = Date()
        let first = try lectern(["summarize"])
        let took = Date().timeIntervalSince(started)
        assertCleanStderr(first.stderr)
        XCTAssertEqual(first.status, 0, "the document was not summarised: \(first.stdout)\(first.stderr)")
        let shown = try JSONDecoder().decode(Shown.self, from: Data(try lectern(["show", note, "--json"]).stdout.utf8)).summaries
        // The document is summarised; each section is summarised or named in a warning.
        let warnings = first.stderr.split(separator: "\n").filter { $0.hasPrefix("lectern: warning: ") }
        XCTAssertEqual(warnings.count, first.stderr.split(separator: "\n").count, "only warnings: \(first.stderr)")
        let sections = shown.compactMap(\.section)
        XCTAssertTrue(Set(sections).isSubset(of: ["Statement of the chain rule", "Related rates"]), "\(sections)")
        XCTAssertEqual(shown.count, sections.count + 1, "one summary of the whole document: \(shown.map(\.section))")
        XCTAssertNil(shown.first?.section, "the document's own summary comes first")
        XCTAssertEqual(sections.count + warnings.count, 2, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("1 document summarised (\(sections.count) section"), first.stdout)
        for summary in shown {
            XCTAssertEqual(summary.provider, "openai")
            XCTAssertEqual(summary.model, "gemma-3-270m")
            XCTAssertFalse(summary.text.isEmpty)
            XCTAssertFalse(summary.keyPoints.isEmpty)
        }
        XCTAssertTrue(try lectern(["show", note]).stdout.contains("Summary (openai/gemma-3-270m)"))
        print("RealModelTests: the first summarize took \(Int(took)) s: \(first.stdout)\(first.stderr)")

        // The re-run sends nothing: every answer, valid or not, is in the library.
        let predicted = try server.metric("llamacpp:tokens_predicted_total")
        let prompted = try server.metric("llamacpp:prompt_tokens_total")
        let second = try lectern(["summarize"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try server.metric("llamacpp:tokens_predicted_total"), predicted, "the re-run reached the server")
        XCTAssertEqual(try server.metric("llamacpp:prompt_tokens_total"), prompted, "the re-run reached the server")
        let runs = try JSONDecoder().decode([RunCounts].self, from: Data(try lectern(["runs", "--json"]).stdout.utf8))
            .filter { $0.command == "summarize" }
        XCTAssertEqual(runs.count, 2)
        XCTAssertGreaterThan(runs[1].counts["llm.calls"] ?? 0, 0, "the first run asked the model")
        XCTAssertEqual(runs[0].counts["llm.calls"] ?? 0, 0, "the re-run asked the model")
        XCTAssertEqual(runs[0].counts["llm.cache_hits"], runs[1].counts["llm.calls"], "each call of the first run is a hit")
        let again = try JSONDecoder().decode(Shown.self, from: Data(try lectern(["show", note, "--json"]).stdout.utf8)).summaries
        XCTAssertEqual(again.map(\.text), shown.map(\.text))
    }

    func testAskThroughTheCLICitesOnlyThePassagesItLists() throws {
        let server = try runningServer()
        let lectern = try cli(server, maxTokens: 64)
        XCTAssertEqual(try lectern(["ingest", TestPaths.corpora.appendingPathComponent("notes/chain-rule.md").path]).status, 0)

        let question = ["ask", "how do you differentiate a composite function?", "-k", "3"]
        let result = try lectern(question + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertFalse((answer.answer ?? "").isEmpty, "the model answered nothing")
        XCTAssertEqual(answer.provider, "openai")
        XCTAssertEqual(answer.model, "gemma-3-270m")
        XCTAssertTrue((1...3).contains(answer.passages.count), "\(answer.passages.count) passages")
        let numbers = Set(answer.passages.map(\.number))
        XCTAssertTrue(Set(answer.cited).isSubset(of: numbers), "cited \(answer.cited) of \(numbers)")
        XCTAssertTrue(Set(citationMarks(answer.answer ?? "")).isSubset(of: numbers), "the answer cites a passage it was not given: \(answer.answer ?? "")")

        // The same question as text: the cache answers, and every [n] in it is listed below it.
        let predicted = try server.metric("llamacpp:tokens_predicted_total")
        let text = try lectern(question)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(try server.metric("llamacpp:tokens_predicted_total"), predicted, "the cached answer was asked again")
        // The answer (the same cached text as above, whatever the model wrote, blank lines and
        // bare marks included), a blank line, then the list of the passages it cites.
        let answerText = answer.answer ?? ""
        XCTAssertTrue(text.stdout.hasPrefix(answerText + "\n\n"), text.stdout)
        let listing = text.stdout.dropFirst(answerText.count + 2)
        let listed = Set(listing.split(separator: "\n").compactMap { line in line.hasPrefix("[") ? Int(line.dropFirst().prefix { $0.isNumber }) : nil })
        XCTAssertFalse(listed.isEmpty, text.stdout)
        XCTAssertTrue(listed.isSubset(of: numbers))
        XCTAssertTrue(Set(citationMarks(answerText)).isSubset(of: listed), text.stdout)
    }

    /// The numbers inside `[n]` and `[n, m]` marks.
    func citationMarks(_ text: String) -> [Int] {
        let pattern = try! NSRegularExpression(pattern: #"\[(\d+(?:\s*[,–-]\s*\d+)*)\]"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).flatMap { match in
            text[Range(match.range(at: 1), in: text)!].split(whereSeparator: { ",–-".contains($0) }).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    func testAPromptLongerThanTheServersContextIsOneLineNamingContextTokens() throws {
        let server = try runningServer()
        // llm.context_tokens left at the openai default, 8192: four times the server's window.
        let lectern = try cli(server, contextTokens: nil, maxTokens: 64)
        let lecture = try String(contentsOf: TestPaths.corpora.appendingPathComponent("notes/printing-press.txt"), encoding: .utf8)
        let body = lecture.components(separatedBy: "\n\n").dropFirst(2).joined(separator: "\n\n")
        try lectern.folder.write("long.txt", Array(repeating: body, count: 6).joined(separator: "\n\n"))
        XCTAssertEqual(try lectern(["ingest", "long.txt"]).status, 0)

        let result = try lectern(["summarize"])
        XCTAssertEqual(result.status, 1, result.stdout)
        assertCleanStderr(result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertTrue(line.contains("llm.context_tokens (8192) is larger than the model's context window: set it to at most 2048"), String(line))
        }
        // A model that cannot take the prompt stops the stage with that one line (#34 item 5):
        // every later call would fail alike.
        XCTAssertEqual(lines.count, 1, result.stderr)
    }

    func testAnInstalledServerThatDoesNotStartFailsWithItsStderrRatherThanSkipping() throws {
        try LlamaProcess.requireInstalled(skipping: "the server-start failure test")
        let folder = try TemporaryFolder()
        let broken = try folder.write("not-a-model.gguf", "this is not a GGUF file\n")
        XCTAssertThrowsError(try LlamaProcess.start(script: "llm_server.py", arguments: ["2048"], model: broken,
                                                    missing: "not installed", failed: "the local model server did not start")) { error in
            XCTAssertFalse(error is XCTSkip, "an installed server that fails is a failure, not a skip")
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("the local model server did not start (exit status "), message)
            // llama.cpp's own words about the file, and xllamacpp's.
            XCTAssertTrue(message.contains("failed to load model '\(broken.path)'"), "the server's stderr names the file it could not load: \(message)")
            XCTAssertTrue(message.contains("RuntimeError: Failed to init server"), message)
        }
    }
}
