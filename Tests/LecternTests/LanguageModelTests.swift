import Foundation
import XCTest
@testable import Lectern

/// The schema validator, configuration of the model, context budgeting and the extractive
/// summariser on a whole real textbook.
final class LanguageModelTests: XCTestCase {
    let summarySchema = ModelSummarizer.schema

    func testTheValidatorNamesEveryWayAnAnswerBreaksTheSchema() throws {
        XCTAssertEqual(summarySchema.violations(of: ["summary": "Cells make ATP.", "key_points": ["ATP"]]), [])
        XCTAssertEqual(summarySchema.violations(of: ["summary": "", "key_points": []]), [
            "$.key_points: must have at least 1 item, found 0",
            "$.summary: must have at least 1 character",
        ])
        XCTAssertEqual(summarySchema.violations(of: ["key_points": ["a", 3], "extra": true]), [
            "$: missing required property 'summary'",
            "$: unexpected property 'extra'",
            "$.key_points[1]: expected string, found integer",
        ])
        XCTAssertEqual(summarySchema.violations(of: ["summary": "x", "key_points": .array(Array(repeating: "p", count: 7))]),
                       ["$.key_points: must have at most 6 items, found 7"])
        XCTAssertEqual(summarySchema.violations(of: "just text"), ["$: expected object, found string"])
        let colour = JSONSchema(name: "c", ["type": "string", "enum": ["red", "green"]])
        XCTAssertEqual(colour.violations(of: "blue"), [#"$: must be one of "red", "green""#])
        XCTAssertEqual(JSONSchema(name: "n", ["type": "number"]).violations(of: 3), [], "an integer is a number")
    }

    func testJSONIsFoundInAnAnswerWithProseOrACodeFence() throws {
        XCTAssertEqual(JSONSchema.extractJSON(from: "```json\n{\"a\": 1}\n```"), ["a": 1])
        XCTAssertEqual(JSONSchema.extractJSON(from: "Here it is: {\"a\": [1, 2]} Hope that helps."), ["a": [1, 2]])
        XCTAssertNil(JSONSchema.extractJSON(from: "I cannot answer that."))
    }

    func testConfigurationReadsTheModelSettingsAndPrices() throws {
        let layer = try ConfigLayer.toml("""
            [llm]
            provider = "anthropic"
            model = "claude-3-5-haiku-latest"
            api_key_env = "MY_ANTHROPIC_KEY"
            max_concurrency = 4
            context_tokens = 32000

            [llm.prices."claude-3-5-haiku-latest"]
            input = 0.8
            output = 4

            [llm.prices."gpt-4.1-mini"]
            input = 0.4
            output = 1.6
            """, name: "config.toml", baseDirectory: nil)
        let environment = ConfigLayer.environment(["LECTERN_LLM_MAX_TOKENS": "256", "LECTERN_LLM_PRICES": "local=0/0"], knownKeys: Configuration.knownKeys)
        let configuration = try Configuration.merge([layer, environment])
        XCTAssertEqual(configuration.llm.provider, "anthropic")
        XCTAssertEqual(configuration.llm.apiKeyEnv, "MY_ANTHROPIC_KEY")
        XCTAssertEqual(configuration.llm.maxConcurrency, 4)
        XCTAssertEqual(configuration.llm.contextTokens, 32000)
        XCTAssertEqual(configuration.llm.maxTokens, 256)
        XCTAssertEqual(configuration.llm.prices["claude-3-5-haiku-latest"], ModelPrice(input: 0.8, output: 4))
        XCTAssertEqual(configuration.llm.prices["gpt-4.1-mini"], ModelPrice(input: 0.4, output: 1.6), "a model name may hold dots")
        XCTAssertEqual(configuration.llm.prices["local"], ModelPrice(input: 0, output: 0))
        XCTAssertTrue(configuration.extra.isEmpty, "every llm key has a field: \(configuration.extra)")
    }

    func testAKeyPastedIntoTheConfigurationIsRefusedWithoutRepeatingIt() throws {
        let key = "sk-proj-AbCdEf0123456789"
        let layer = ConfigLayer(name: "config.toml", values: ["llm.api_key_env": .string(key)])
        XCTAssertThrowsError(try Configuration.merge([layer])) { error in
            XCTAssertTrue("\(error)".contains("must be the NAME of an environment variable"), "\(error)")
            XCTAssertFalse("\(error)".contains(key))
        }
        XCTAssertThrowsError(try Configuration.merge([ConfigLayer(name: "flags", values: ["llm.provider": .string("gpt")])])) { error in
            XCTAssertTrue("\(error)".contains("llm.provider 'gpt' is not one of openai, anthropic, ollama, extractive"), "\(error)")
        }
        var settings = LLMSettings()
        settings.provider = "ollama"
        XCTAssertThrowsError(try LanguageModelCatalog.make(settings, environment: [:])) { error in
            XCTAssertEqual("\(error)", "llm.model: llm.provider is ollama but no llm.model is set")
        }
        settings.provider = "extractive"
        XCTAssertNil(try LanguageModelCatalog.make(settings, environment: [:]), "extractive is the offline default, no model")
    }

    func testTheContextBudgetKeepsWholePassagesFirstAndCutsTheLastAtAWord() {
        let budget = ContextBudget(contextTokens: 400, answerTokens: 100)
        let passage = String(repeating: "photosynthesis stores light energy in sugar. ", count: 20)  // about 140 tokens
        let room = budget.available(besides: "Answer from the passages.")
        XCTAssertLessThan(room, 400 - 100)
        let fitted = budget.fit([passage, passage, passage], within: room)
        XCTAssertEqual(fitted.count, 2)
        XCTAssertEqual(fitted[0], passage)
        XCTAssertTrue(fitted[1].hasSuffix(" …"))
        XCTAssertLessThanOrEqual(fitted.map(budget.counter.count).reduce(0, +), room)
    }

    func testAskTrimsItsPassagesToTheContextWindowAndCitesOnlyWhatTheModelSaw() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lib.db").path)
        let recorder = try RunRecorder(store: store, command: "ingest", arguments: [])
        _ = Ingestor(store: store, embedder: HashingEmbedder(), chunkSettings: ChunkSettings())
            .ingest([TestPaths.corpora.appendingPathComponent("notes").path], recorder: recorder) { _ in }
        let server = try TestServer(routes: ["/v1/chat/completions": ["json": [
            "model": "small", "choices": [["message": ["role": "assistant", "content": "See [2] and [9]."], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 500, "completion_tokens": 5],
        ]]])
        defer { server.stop() }
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "small"
        settings.baseURL = server.url("/v1")
        settings.contextTokens = 900
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
        let answerer = Answerer(searcher: Searcher(store: store, embedder: HashingEmbedder()), languageModel: model, maxTokens: 200)
        let answer = try answerer.ask("how does the chain rule work", k: 8)

        XCTAssertLessThan(answer.passages.count, 8, "eight passages do not fit 900 tokens with a 200-token answer")
        XCTAssertGreaterThanOrEqual(answer.passages.count, 2)
        XCTAssertEqual(answer.cited, [2], "[9] names no passage the model saw")
        let body = try XCTUnwrap(JSONValue.parse(try XCTUnwrap(server.requests().first?["body"] as? String)))
        let prompt = try XCTUnwrap(body["messages"]?[1]?["content"]?.stringValue)
        XCTAssertLessThanOrEqual(ApproximateTokenCounter().count(prompt), 900 - 200)
        XCTAssertFalse(prompt.contains("[\(answer.passages.count + 1)] "), "no passage beyond those kept is in the prompt")
    }

    func testTheExtractiveSummariserReadsAWholeTextbookByChapter() throws {
        let book = try TestPaths.sharedCorpus("openstax/introduction-philosophy")
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lib.db").path)
        let ingestor = Ingestor(store: store, embedder: HashingEmbedder(), chunkSettings: ChunkSettings())
        let recorder = try RunRecorder(store: store, command: "ingest", arguments: [])
        _ = ingestor.ingest([book.path], recorder: recorder) { _ in }
        let document = try XCTUnwrap(store.allDocuments().first)

        let (summaries, failures) = try DocumentSummaries(store: store, summarizer: ExtractiveSummarizer()).summarize(document)
        XCTAssertEqual(failures, [])
        let chapters = summaries.compactMap(\.section)
        XCTAssertTrue(chapters.contains("1 Introduction to Philosophy"), "\(chapters)")
        XCTAssertTrue(chapters.contains("7 Epistemology"), "\(chapters)")
        XCTAssertGreaterThanOrEqual(chapters.count, 12)
        for summary in summaries {
            XCTAssertTrue((1...5).contains(SentenceSplitter.split(summary.text).count), summary.text)
            XCTAssertFalse(summary.text.contains("http"), "links are not summary sentences: \(summary.text)")
            for sentence in SentenceSplitter.split(summary.text) {
                XCTAssertFalse(sentence.text.trimmingCharacters(in: ExtractiveSummarizer.closingMarks).hasSuffix("?"),
                               "questions are not summary sentences: \(sentence.text)")
            }
        }
        XCTAssertEqual(try store.summaries(documentId: document.id), summaries, "stored as made")
        let epistemology = try XCTUnwrap(summaries.first { $0.section == "7 Epistemology" })
        XCTAssertTrue(epistemology.text.lowercased().contains("knowledge"), epistemology.text)
    }
}
