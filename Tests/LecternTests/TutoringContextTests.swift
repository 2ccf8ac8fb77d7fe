import Foundation
import XCTest
@testable import Lectern

/// `lectern context` without curricula: the best passages for a question, cited, most useful
/// first, within the token budget, never cut inside a sentence; tokens counted by the model's
/// server where it offers /tokenize.
final class TutoringContextTests: XCTestCase {
    /// One library of corpora/ (hashing embedder) for the class.
    nonisolated(unsafe) static var folder: TemporaryFolder!
    nonisolated(unsafe) static var store: LibraryStore!

    override class func setUp() {
        super.setUp()
        do {
            folder = try TemporaryFolder()
            store = try LibraryStore(path: folder.file("lectern.db").path)
            let summary = Ingestor(store: store, embedder: HashingEmbedder()).ingest([TestPaths.corpora.path], recorder: nil) { _ in }
            XCTAssertGreaterThan(summary.stored, 5)
        } catch {
            XCTFail("could not build the corpora library: \(error)")
        }
    }

    override class func tearDown() {
        store = nil
        folder = nil
        super.tearDown()
    }

    var session: SearchSession { SearchSession(store: Self.store, embedder: HashingEmbedder()) }

    func testContextFitsTheBudgetAndCitesEachPassage() throws {
        let builder = ContextBuilder(store: Self.store, session: session)
        for budget in [120, 300, 900] {
            let context = try builder.build(ContextRequest(query: "how do plants turn light into sugar?", budget: budget))
            XCTAssertEqual(context.budget, budget)
            XCTAssertFalse(context.passages.isEmpty, "budget \(budget)")
            // The estimate keeps 10% free; the count is of the Markdown a prompt takes.
            XCTAssertEqual(context.tokens, ApproximateTokenCounter().count(context.markdown))
            XCTAssertLessThanOrEqual(context.tokens, budget * 9 / 10, "budget \(budget)")
            XCTAssertTrue(context.counter.contains("estimate"))
            for (number, passage) in context.passages.enumerated() {
                XCTAssertTrue(context.markdown.contains("### [\(number + 1)] \(passage.title) — \(passage.location)"))
                XCTAssertEqual(passage.from, .search)
            }
        }
        let wide = try builder.build(ContextRequest(query: "how do plants turn light into sugar?", budget: 900))
        XCTAssertTrue(wide.passages[0].location.contains("photosynthesis"), wide.passages[0].location)
        XCTAssertTrue(wide.markdown.hasPrefix("# Context for \u{201C}how do plants turn light into sugar?\u{201D}"))
    }

    func testPassagesComeMostUsefulFirstWithPageOrTime() throws {
        let query = "cellular respiration glucose"
        let hits = try session.search(query, k: ContextBuilder.depth(budget: 3000))
        let context = try ContextBuilder(store: Self.store, session: session).build(ContextRequest(query: query, budget: 3000))
        // In the search's order, none left out ahead of one kept unless it did not fit.
        let kept = context.passages.map(\.passage)
        XCTAssertEqual(kept, hits.map(\.passageReference).filter { kept.contains($0) })
        XCTAssertEqual(kept.first, hits.first?.passageReference)
        XCTAssertEqual(context.omittedPassages, hits.count - kept.count)
        let lecture = try XCTUnwrap(context.passages.first { $0.location.contains("cell-respiration-lecture.vtt") })
        XCTAssertNotNil(lecture.time)
        XCTAssertTrue(lecture.location.contains(" @ 00:"), lecture.location)
        let handout = try XCTUnwrap(try ContextBuilder(store: Self.store, session: session)
            .build(ContextRequest(query: "membrane transport osmosis", budget: 3000)).passages.first { $0.page != nil })
        XCTAssertTrue(handout.location.contains(" p.\(handout.page!)"), handout.location)
    }

    func testAPassageThatDoesNotFitIsCutBetweenSentences() throws {
        let sentences = (1...12).map { "Sentence number \($0) explains one more step of the Calvin cycle in plain words." }
        let long = ContextPassage(passage: "p1", documentId: "abcd1234", title: "Notes", location: "notes.md § Calvin cycle",
                                  uri: "file:///notes.md", from: .search, text: sentences.joined(separator: " "), complete: true)
        let short = ContextPassage(passage: "p2", documentId: "abcd1234", title: "Notes", location: "notes.md § Light",
                                   uri: "file:///notes.md", from: .search, text: "Light splits water.", complete: true)
        let context = try ContextPacker(counter: .estimate).pack(query: "calvin", topic: nil, candidates: [short, long], budget: 150)
        XCTAssertLessThanOrEqual(context.tokens, 135)
        XCTAssertEqual(context.passages.map(\.passage), ["p2", "p1"])
        XCTAssertTrue(context.passages[0].complete)
        let cut = try XCTUnwrap(context.passages.last)
        XCTAssertFalse(cut.complete)
        XCTAssertTrue(long.text.hasPrefix(cut.text))
        XCTAssertTrue(cut.text.hasSuffix("plain words."), "cut inside a sentence: \(cut.text)")
        XCTAssertGreaterThan(cut.text.count, sentences[0].count)
        XCTAssertTrue(context.markdown.hasSuffix("plain words. […]\n"))
    }

    /// A topic's summary goes in whole or not at all: its first sentences alone can misstate it
    /// (before, a tight budget kept a summary cut after its second sentence).
    func testATopicSummaryThatDoesNotFitIsLeftOutWhole() throws {
        let summary = (1...8).map { "Step \($0) of the Calvin cycle fixes carbon dioxide into sugar with the energy of ATP." }.joined(separator: " ")
        let topic = ContextTopic(id: "t1", title: "The Calvin cycle", curriculum: "study", curriculumTitle: "Study", unit: "Photosynthesis",
                                 position: 2, topicCount: 3, studyMinutes: 5, objectives: ["Describe the Calvin cycle"],
                                 prerequisites: [], next: [], keyTerms: [ContextKeyTerm(term: "rubisco", definition: "the enzyme that fixes carbon")],
                                 summary: summary)
        let packer = ContextPacker(counter: .estimate)
        let (tight, _) = try packer.packTopic(topic, within: 80)
        XCTAssertEqual(tight.objectives, topic.objectives)
        XCTAssertNil(tight.summary, "left out rather than cut: \(tight.summary ?? "")")
        let (roomy, _) = try packer.packTopic(topic, within: 400)
        XCTAssertEqual(roomy.summary, summary)
    }

    func testBadRequestsAreOneLineEach() throws {
        let builder = ContextBuilder(store: Self.store, session: session)
        XCTAssertThrowsError(try builder.build(ContextRequest(query: "entropy", budget: 10))) { error in
            XCTAssertEqual((error as? LecternError)?.reason, "the budget must be at least 64 tokens (got 10)")
        }
        XCTAssertThrowsError(try builder.build(ContextRequest(query: "  "))) { error in
            XCTAssertEqual((error as? LecternError)?.reason, "give a question or a topic id")
        }
        let nothing = try builder.build(ContextRequest(query: "entropy", filter: SearchFilter(sources: ["nowhere/"])))
        XCTAssertTrue(nothing.passages.isEmpty)
        XCTAssertEqual(nothing.markdown, "# Context for \u{201C}entropy\u{201D}\n")
    }

    func testTokensAreCountedByTheModelServerWhenItHasTokenize() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        var configuration = Configuration()
        configuration.llm.provider = "openai"
        configuration.llm.model = "gemma3-270m"
        configuration.llm.baseURL = server.baseURL
        let counter = PromptTokenCounter.make(for: configuration)
        XCTAssertTrue(counter.name.contains("/tokenize"), counter.name)
        XCTAssertEqual(counter.margin, 0)
        XCTAssertEqual(counter.usable(500), 500)
        // Gemma's tokenizer, not the word-piece estimate: the counts differ on this text.
        let text = "Photosynthesis: 6CO₂ + 6H₂O → C₆H₁₂O₆ + 6O₂, in the chloroplast's thylakoids."
        let counted = try counter.count(text)
        XCTAssertGreaterThan(counted, 10)
        XCTAssertNotEqual(counted, ApproximateTokenCounter().count(text))
        let context = try ContextBuilder(store: Self.store, session: session, counter: counter)
            .build(ContextRequest(query: "chlorophyll light reactions", budget: 250))
        XCTAssertFalse(context.passages.isEmpty)
        XCTAssertLessThanOrEqual(context.tokens, 250)
        XCTAssertEqual(context.tokens, try counter.count(context.markdown))
    }

    func testAServerWithoutTokenizeFallsBackToTheEstimate() throws {
        // A port nobody listens on: refused at once, the estimate with its margin instead.
        var configuration = Configuration()
        configuration.llm.provider = "openai"
        configuration.llm.model = "m"
        configuration.llm.baseURL = "http://127.0.0.1:9/v1"
        let started = Date()
        let counter = PromptTokenCounter.make(for: configuration)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertTrue(counter.name.contains("estimate"), counter.name)
        XCTAssertEqual(counter.usable(1000), 900)
        XCTAssertTrue(PromptTokenCounter.make(for: Configuration()).name.contains("estimate"))
    }
}
