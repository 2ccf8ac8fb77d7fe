import Foundation
import XCTest
@testable import Lectern

/// Cards written by a real model (llama.cpp's server with Gemma 3 270M) through the schema,
/// verified by it and grounded offline, for two topics of the shared OpenStax book; and the
/// dry run's plan and the cost limit, which ask nothing.
final class ModelCardTests: XCTestCase {
    func gemma(_ server: LocalModelServer) throws -> any LanguageModel { try server.languageModel() }

    func testGemmaWritesCardsThroughTheSchemaAndItsRejectionsAreCounted() throws {
        let book = try BookCurriculum.load()
        let server = try LocalModelServer()
        defer { server.stop() }
        let model = try gemma(server)
        var curriculum = book.curriculum
        // One topic cut to its first prose passage keeps the calls few and short (Gemma
        // 270M writes about 20 tokens/s here).
        var topic = try XCTUnwrap(curriculum.topics.first { $0.passages.filter { $0.kind == .text }.count >= 2 })
        topic.passages = Array(topic.passages.filter { $0.kind == .text }.prefix(1))
        let topics = [topic]
        curriculum.units = [CurriculumUnit(stableId: "u", title: "Sample", topics: topics)]
        let generator = ModelCardGenerator(languageModel: model, maxTokens: 280, cardsPerTopic: 2)
        let (cards, report, failures) = try CardGeneration.withModel(curriculum, topics: nil, model: generator)
        let fromModel = cards.filter { $0.origin == .model }
        let modelRejections = report.rejections.filter { [.modelRejected, .malformed].contains($0.reason) }
        print("gemma: \(fromModel.count) model cards kept; rejections: \(report.rejectionCounts); failures: \(failures.map(\.reason))")
        XCTAssertEqual(failures.count, 0, "a topic's model call failed: \(failures)")
        // The model wrote cards: more candidates than the offline methods alone make, each
        // kept or rejected with its reason.
        let offline = CardGeneration.offline(curriculum).report
        XCTAssertGreaterThan(report.candidates, offline.candidates, "the model wrote no card at all")
        XCTAssertTrue(modelRejections.allSatisfy { !$0.detail.isEmpty })
        for card in fromModel {
            let passage = try XCTUnwrap(topics.flatMap(\.passages).first { $0.id == card.source.passageId })
            // The test's own word match, not CardGrounding, which made the decision.
            XCTAssertEqual(CardGenerationTests.wordsMissing(card.answer, from: passage.text, prefix: 4), [], "\(card.front) → \(card.answer)")
        }
    }

    func testTheDryRunPlansAndTheCostLimitRefusesBeforeAnyCall() throws {
        let book = try BookCurriculum.load()
        if try book.store.curriculum(named: "philosophy") == nil { try book.store.saveCurriculum(book.curriculum) }
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "gpt-4o-mini"
        settings.baseURL = "http://127.0.0.1:9/v1"  // nothing listens: a call would fail the test
        settings.apiKeyEnv = "LECTERN_TEST_NO_KEY"
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: ["LECTERN_TEST_NO_KEY": "x"]))
        let prices = ["gpt-4o-mini": ModelPrice(input: 0.15, output: 0.6)]
        let cards = Flashcards(store: book.store)
        let plan = try cards.plan(curriculum: "philosophy", languageModel: model, prices: prices)
        XCTAssertEqual(plan.topics, book.curriculum.topics.count)
        XCTAssertGreaterThanOrEqual(plan.calls, plan.topics)
        XCTAssertGreaterThan(plan.inputTokens, 10_000)
        let cost = try XCTUnwrap(plan.cost)
        XCTAssertGreaterThan(cost, 0)
        XCTAssertThrowsError(try cards.generate(curriculum: "philosophy", recorder: nil, languageModel: model, prices: prices,
                                                maxCost: cost / 2)) { error in
            XCTAssertTrue("\(error)".contains("--max-cost"), "\(error)")
        }
    }
}
