import Foundation
import GRDB
import XCTest
@testable import Lectern

/// `lectern summarize`, `show` and `ask` as a user runs them: offline with the extractive
/// summariser, and with a configured OpenAI-compatible provider on the loopback test server
/// (which answers in the chat-completions wire format).
final class SummarizeCLITests: CommandTestCase {
    func lectern(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    /// Ingests the project's photosynthesis notes and the respiration lecture.
    func ingestNotes() throws {
        let notes = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        let lecture = TestPaths.corpora.appendingPathComponent("transcripts/cell-respiration-lecture.vtt").path
        let result = try lectern(["ingest", notes, lecture])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    struct Shown: Decodable { var summaries: [StoredSummary] }

    func testSummarizeOfflineStoresExtractiveSummariesThatShowPrints() throws {
        try ingestNotes()
        var result = try lectern(["summarize"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("2 documents summarised"), result.stdout)
        XCTAssertTrue(result.stdout.contains("extractive/textrank-mmr/4"), result.stdout)

        let notes = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md")
        result = try lectern(["show", notes.path, "--json"])
        let summaries = try JSONDecoder().decode(Shown.self, from: Data(result.stdout.utf8)).summaries
        XCTAssertNil(summaries[0].section, "the document's own summary comes first")
        XCTAssertEqual(summaries.compactMap(\.section),
                       ["The chloroplast", "The light-dependent reactions", "The Calvin cycle", "Adaptations to hot and dry climates"],
                       "one summary per top-level section; review questions are not summarised")
        // Compared word by word: the Markdown's emphasis marks are not part of the text.
        let source = WordTokenizer.words(try String(contentsOf: notes, encoding: .utf8)).joined(separator: " ")
        for summary in summaries {
            XCTAssertEqual(summary.provider, "extractive")
            let sentences = SentenceSplitter.split(summary.text)
            XCTAssertTrue((1...5).contains(sentences.count), summary.text)
            for sentence in sentences {
                XCTAssertTrue(source.contains(WordTokenizer.words(sentence.text).joined(separator: " ")),
                              "an extractive summary quotes its source: \(sentence.text)")
            }
            XCTAssertFalse(summary.keyPoints.isEmpty)
        }
        XCTAssertTrue((3...5).contains(SentenceSplitter.split(summaries[0].text).count), summaries[0].text)

        result = try lectern(["show", notes.path])
        XCTAssertTrue(result.stdout.contains("Summary (extractive/textrank-mmr/4)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("§ The Calvin cycle\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  • "), "key points are listed")

        // Deterministic: the same text gives the same summaries.
        XCTAssertEqual(try lectern(["summarize", notes.path]).status, 0)
        let again = try JSONDecoder().decode(Shown.self, from: Data(try lectern(["show", notes.path, "--json"]).stdout.utf8)).summaries
        XCTAssertEqual(again.map(\.text), summaries.map(\.text))
        XCTAssertEqual(again.map(\.keyPoints), summaries.map(\.keyPoints))
    }

    func testShowSaysWhenASummaryPredatesAChangedDocumentAndRemovingTheDocumentRemovesIt() throws {
        let text = """
            # Enzymes

            Enzymes are proteins that speed up chemical reactions in cells. Each enzyme binds its substrate at an active site. \
            Temperature and pH change how fast an enzyme works. Most enzymes stop working when they are heated too much.
            """
        try folder.write("enzymes.md", text)
        XCTAssertEqual(try lectern(["ingest", "enzymes.md"]).status, 0)
        XCTAssertEqual(try lectern(["summarize", "enzymes.md"]).status, 0)
        XCTAssertFalse(try lectern(["show", "enzymes.md"]).stdout.contains("made before the document changed"))

        try folder.write("enzymes.md", text + "\nInhibitors slow enzymes down by blocking the active site.\n")
        XCTAssertEqual(try lectern(["ingest", "enzymes.md"]).status, 0)
        let shown = try lectern(["show", "enzymes.md"]).stdout
        XCTAssertTrue(shown.contains("made before the document changed: run `lectern summarize "), shown)

        XCTAssertEqual(try lectern(["rm", "enzymes.md"]).status, 0)
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        let left = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM summaries") }
        XCTAssertEqual(left, 0, "a removed document's summaries go with it")
    }

    func testSummarizeNamesAnUnknownSourceAndGoesOn() throws {
        try ingestNotes()
        let result = try lectern(["summarize", "no-such-notes.md", TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no-such-notes.md: no document with this id, path or URI"), result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("1 document summarised"), result.stdout)
    }

    func testAskWithoutAModelPrintsTheBestPassagesAndSaysSo() throws {
        try ingestNotes()
        var result = try lectern(["ask", "does glycolysis need oxygen", "-k", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("no language model is configured"), result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("1. Biology 101, lecture 7: cellular respiration  "), "as search shows hits: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains(" @ 00:00:"), "a transcript passage says when: \(result.stdout)")

        result = try lectern(["ask", "does glycolysis need oxygen", "-k", "2", "--json"])
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertNil(answer.answer)
        XCTAssertEqual(answer.passages.map(\.number), [1, 2])
        XCTAssertNotNil(answer.note)
    }

    // MARK: With a configured provider

    static let summaryJSON = #"{"summary": "Photosynthesis stores light energy in sugar. It runs in two linked stages.", "key_points": ["Light reactions make ATP and NADPH", "The Calvin cycle fixes CO2"]}"#

    func openAIServer(content: String, status: Int = 200) throws -> TestServer {
        if status != 200 {
            return try TestServer(routes: ["/v1/chat/completions": ["status": status, "json": [
                "error": ["message": content, "type": "invalid_request_error", "param": NSNull(), "code": "invalid_api_key"],
            ]]])
        }
        return try TestServer(routes: ["/v1/chat/completions": ["json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test",
            "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120],
        ]]])
    }

    /// A config file naming the provider, with a price table; the key comes from the environment.
    func configure(_ server: TestServer, keyVariable: String? = nil) throws -> [String: String] {
        let keyLine = keyVariable.map { "api_key_env = \"\($0)\"\n" } ?? ""
        try folder.write("lectern.toml", """
            [llm]
            provider = "openai"
            model = "gpt-test"
            base_url = "\(server.url("/v1"))"
            max_concurrency = 2
            \(keyLine)
            [llm.prices."gpt-test"]
            input = 2.5
            output = 10.0

            [http]
            retries = 0
            """)
        return ["LECTERN_CONFIG": folder.file("lectern.toml").path]
    }

    struct RunCounts: Decodable { var id: Int64; var command: String; var counts: [String: Int] }

    func testSummarizeWithAProviderStoresItsSummariesAndTheRerunCostsNothing() throws {
        try ingestNotes()
        let server = try openAIServer(content: Self.summaryJSON)
        defer { server.stop() }
        let environment = try configure(server)

        var result = try lectern(["summarize"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("with openai/gpt-test"), result.stdout)
        let calls = try server.requests().count
        // Four sections and the document for the notes; the lecture has no sections.
        XCTAssertEqual(calls, 6)
        XCTAssertTrue(result.stdout.contains("tokens 600 in / 120 out, 6 calls, 0 cached, cost $0.0027"), result.stdout)

        let notes = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        result = try lectern(["show", notes], environment: environment)
        XCTAssertTrue(result.stdout.contains("Summary (openai/gpt-test)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  • The Calvin cycle fixes CO2"), result.stdout)

        // A re-run is answered from the library's cache: no request, no tokens.
        result = try lectern(["summarize"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try server.requests().count, calls, "the re-run sent requests")
        XCTAssertTrue(result.stdout.contains("tokens 0 in / 0 out, 0 calls, 6 cached"), result.stdout)

        result = try lectern(["summarize", notes, "--no-cache"], environment: environment)
        XCTAssertEqual(try server.requests().count, calls + 5, "--no-cache asks again")

        result = try lectern(["runs", "--json"], environment: environment)
        let runs = try JSONDecoder().decode([RunCounts].self, from: Data(result.stdout.utf8)).filter { $0.command == "summarize" }
        XCTAssertEqual(runs.count, 3)
        XCTAssertEqual(runs[2].counts["llm.calls"], 6)
        XCTAssertEqual(runs[2].counts["llm.input_tokens"], 600)
        XCTAssertEqual(runs[2].counts["llm.output_tokens"], 120)
        XCTAssertEqual(runs[2].counts["llm.cost_microusd"], 2700)
        XCTAssertEqual(runs[1].counts["llm.cache_hits"], 6)
        XCTAssertNil(runs[1].counts["llm.calls"])
        result = try lectern(["runs"], environment: environment)
        XCTAssertTrue(result.stdout.contains("model: tokens 600 in / 120 out, 6 calls, 0 cached, cost $0.0027"), result.stdout)
    }

    func testAskWithAProviderAnswersWithNumberedCitations() throws {
        try ingestNotes()
        let server = try openAIServer(content: "No. Glycolysis is anaerobic and runs with or without oxygen [1].")
        defer { server.stop() }
        let environment = try configure(server)
        var result = try lectern(["ask", "does glycolysis need oxygen", "-k", "3"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "No. Glycolysis is anaerobic and runs with or without oxygen [1].")
        XCTAssertTrue(lines[2].hasPrefix("[1] Biology 101, lecture 7: cellular respiration — "), result.stdout)
        XCTAssertTrue(lines[2].contains("cell-respiration-lecture.vtt @ 00:00:"), result.stdout)

        // The model saw the passages numbered, with their titles and places, and the question.
        let request = try XCTUnwrap(server.requests().first)
        let body = try XCTUnwrap(JSONValue.parse(try XCTUnwrap(request["body"] as? String)))
        let prompt = try XCTUnwrap(body["messages"]?[1]?["content"]?.stringValue)
        XCTAssertTrue(prompt.contains("[1] Biology 101, lecture 7: cellular respiration — "), prompt)
        XCTAssertTrue(prompt.contains("[3] "), prompt)
        XCTAssertTrue(prompt.hasSuffix("Question: does glycolysis need oxygen"), prompt)

        result = try lectern(["ask", "does glycolysis need oxygen", "-k", "3", "--json"], environment: environment)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(answer.cited, [1])
        XCTAssertEqual(answer.model, "gpt-test")
        XCTAssertEqual(answer.passages.count, 3)
        XCTAssertEqual(try server.requests().count, 1, "the same question again is answered from the cache")
    }

    func testAMarkCitingAPassageThatWasNotShownIsDropped() throws {
        try ingestNotes()
        let server = try openAIServer(content: "No [1]. Glycolysis runs in the cytoplasm [2, 9] without oxygen [7].")
        defer { server.stop() }
        let result = try lectern(["ask", "does glycolysis need oxygen", "-k", "3"], environment: try configure(server))
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "No [1]. Glycolysis runs in the cytoplasm [2] without oxygen.")
        XCTAssertEqual(lines.filter { $0.hasPrefix("[") }.map { String($0.prefix(3)) }, ["[1]", "[2]"], "the cited passages are listed")
    }

    // MARK: Flags

    /// `--provider`, `--model`, `--base-url` and `--api-key-env` beat `LECTERN_LLM_*`, which beat the config file.
    func testProviderModelURLAndKeyVariableFlagsBeatTheEnvironmentAndTheConfigFile() throws {
        try ingestNotes()
        let server = try openAIServer(content: Self.summaryJSON)
        defer { server.stop() }
        let key = "sk-lectern-flag-7d41c0a9e2b35f86"
        // The file and the environment name other providers, models, servers and key variables.
        try folder.write("lectern.toml", """
            [llm]
            provider = "anthropic"
            model = "file-model"
            base_url = "http://127.0.0.1:9/file"
            api_key_env = "LECTERN_TEST_FILE_KEY"

            [http]
            retries = 0
            """)
        let environment = [
            "LECTERN_CONFIG": folder.file("lectern.toml").path,
            "LECTERN_LLM_PROVIDER": "ollama", "LECTERN_LLM_MODEL": "env-model",
            "LECTERN_LLM_API_KEY_ENV": "LECTERN_TEST_ENV_KEY", "LECTERN_TEST_FLAG_KEY": key,
        ]
        let notes = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        let flags = ["--provider", "openai", "--model", "flag-model", "--base-url", server.url("/v1"), "--api-key-env", "LECTERN_TEST_FLAG_KEY"]

        var result = try lectern(["summarize", notes] + flags, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("with openai/flag-model"), result.stdout)
        var requests = try server.requests()
        XCTAssertEqual(requests.count, 5, "four sections and the document")
        let sent = try XCTUnwrap(JSONValue.parse(try XCTUnwrap(requests[0]["body"] as? String)))
        XCTAssertEqual(sent["model"]?.stringValue, "flag-model")
        XCTAssertEqual((requests[0]["headers"] as? [String: String])?["authorization"], "Bearer \(key)", "the key from the variable --api-key-env names")
        XCTAssertTrue(try lectern(["show", notes], environment: environment).stdout.contains("Summary (openai/flag-model)"))

        result = try lectern(["ask", "does glycolysis need oxygen", "-k", "2", "--json"] + flags, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8)).model, "gpt-test", "the server's name for its model")
        requests = try server.requests()
        XCTAssertEqual(try XCTUnwrap(JSONValue.parse(try XCTUnwrap(requests.last?["body"] as? String)))["model"]?.stringValue, "flag-model")

        // Without --model the environment's model is asked for; without --api-key-env its variable is read.
        result = try lectern(["summarize", notes, "--provider", "openai", "--base-url", server.url("/v1")], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: llm.api_key_env: the environment variable LECTERN_TEST_ENV_KEY is not set (it should hold the openai API key)\n")
        var withKey = environment
        withKey["LECTERN_TEST_ENV_KEY"] = key
        result = try lectern(["summarize", notes, "--provider", "openai", "--base-url", server.url("/v1")], environment: withKey)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("with openai/env-model"), result.stdout)
        for output in [result.stdout, result.stderr] { XCTAssertFalse(output.contains(key)) }
    }

    func testFlagsAreCheckedLikeTheConfigFileWithoutEchoingAKey() throws {
        try ingestNotes()
        var result = try lectern(["summarize", "--provider", "openia", "--model", "m"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("llm.provider 'openia' is not one of openai, anthropic, ollama, extractive"), result.stderr)

        // A key pasted where its variable's name belongs is refused without being repeated.
        let key = "sk-proj-lectern-pasted-91b2c3d4e5f6"
        result = try lectern(["ask", "what is the chain rule", "--provider", "openai", "--model", "m", "--api-key-env", key])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("llm.api_key_env must be the NAME of an environment variable"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains(key) || result.stdout.contains(key))

        result = try lectern(["summarize", "--help"])
        for flag in ["--provider", "--model", "--base-url", "--api-key-env"] {
            XCTAssertTrue(result.stdout.contains(flag), "summarize --help lists \(flag)")
        }
    }

    func testTheAPIKeyNeverReachesTheTerminalOrTheLibrary() throws {
        try ingestNotes()
        let key = "sk-lectern-fake-3c1e9d0b7a5f42e8"
        // Providers echo a wrong key back in their error message.
        let server = try openAIServer(content: "Incorrect API key provided: \(key). You can find your API key at https://platform.openai.com/account/api-keys.", status: 401)
        defer { server.stop() }
        var environment = try configure(server, keyVariable: "LECTERN_TEST_LLM_KEY")
        environment["LECTERN_TEST_LLM_KEY"] = key

        let summarize = try lectern(["summarize"], environment: environment)
        XCTAssertEqual(summarize.status, 1)
        XCTAssertTrue(summarize.stderr.contains("HTTP 401"), summarize.stderr)
        XCTAssertTrue(summarize.stderr.contains("Incorrect API key provided: ***"), summarize.stderr)
        // A model that refuses the key: the passages all the same, and why there is no answer.
        let ask = try lectern(["ask", "does glycolysis need oxygen"], environment: environment)
        XCTAssertEqual(ask.status, 0, ask.stderr)
        XCTAssertTrue(ask.stderr.contains("could not answer") && ask.stderr.contains("HTTP 401"), ask.stderr)
        XCTAssertTrue(ask.stdout.hasPrefix("1. "), ask.stdout)
        let runs = try lectern(["runs"], environment: environment)
        XCTAssertTrue(runs.stdout.contains("HTTP 401"), "the failure is recorded: \(runs.stdout)")

        let headers = try server.requests().compactMap { $0["headers"] as? [String: String] }
        XCTAssertEqual(headers.first?["authorization"], "Bearer \(key)", "the key was sent, so there was something to leak")
        for output in [summarize.stdout, summarize.stderr, ask.stdout, ask.stderr, runs.stdout] {
            XCTAssertFalse(output.contains(key), output)
            XCTAssertFalse(output.contains(String(key.prefix(12))), output)
        }
        for suffix in ["", "-wal", "-shm"] {
            let path = folder.file("lectern.db" + suffix).path
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            XCTAssertNil(bytes.range(of: Data(key.utf8)), "the key is stored in lectern.db\(suffix)")
        }
    }

    func testAMissingKeyVariableIsOneClearLine() throws {
        try ingestNotes()
        let server = try openAIServer(content: Self.summaryJSON)
        defer { server.stop() }
        let environment = try configure(server, keyVariable: "LECTERN_TEST_UNSET_KEY")
        let result = try lectern(["summarize"], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: llm.api_key_env: the environment variable LECTERN_TEST_UNSET_KEY is not set (it should hold the openai API key)\n")
        XCTAssertEqual(try server.requests().count, 0)
    }
}
