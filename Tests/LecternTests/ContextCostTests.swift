import Foundation
import XCTest
@testable import Lectern

/// A tutoring context reads only the passages its budget can hold: it ranks as many as it
/// may need (more than fit, so a long one that does not fit leaves room for the next), but a
/// passage is read as a hit (its text, snippet, location and link) only when the packer comes
/// to it. Counted in SQLite's virtual-machine steps, not timed.
final class ContextCostTests: XCTestCase {
    func testATightBudgetReadsOnlyThePassagesItTries() throws {
        let folder = try TemporaryFolder()
        var notes = "# Field notes\n\n"
        for section in 1...60 {
            notes += "## Day \(section)\n\nOn day \(section) the quokka ate leaves near the lake. It lives in the bush and sleeps by day. "
                + "It drinks little water and keeps to the shade when the sun is high. Its young ride in a pouch for months, and "
                + "visitors who feed it bread do it harm.\n\n"
        }
        try folder.write("notes.md", notes)
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("notes.md").path], recorder: nil) { _ in }.stored, 1)
        let session = SearchSession(store: store, embedder: HashingEmbedder())
        try session.warm(for: .hybrid)
        let query = "what does the quokka eat"
        // Once each to prepare the statements; the second time is counted.
        _ = try session.search(query, k: 20)
        let (_, rankSteps) = try store.countingSteps { try session.ranked(query, k: 20) }
        let (twenty, searchSteps) = try store.countingSteps { try session.search(query, k: 20) }
        XCTAssertEqual(twenty.count, 20)
        let readingAll = searchSteps - rankSteps
        let builder = ContextBuilder(store: store, session: session)
        let request = ContextRequest(query: query, budget: 300)
        _ = try builder.build(request)
        let (context, contextSteps) = try store.countingSteps { try builder.build(request) }
        // What a user sees: a few whole passages, and how many more were ranked and left out.
        XCTAssertGreaterThanOrEqual(context.passages.count, 2)
        XCTAssertLessThan(context.passages.count, 5)
        XCTAssertEqual(context.passages.count + context.omittedPassages, ContextBuilder.depth(budget: 300))
        XCTAssertTrue(context.passages.allSatisfy { $0.text.contains("quokka") })
        // It ranks 20 passages and keeps two: it reads no more than three quarters of them (it
        // read all 20 before; now the two it keeps and the eight that do not fit, a page at a time).
        XCTAssertLessThanOrEqual(contextSteps - rankSteps, readingAll * 3 / 4,
                                 "a context of \(context.passages.count) passages took \(contextSteps) steps, ranking 20: \(rankSteps), reading 20: \(readingAll)")
    }

    /// A question's context asks it three times (its best topic, the topic's passages, the
    /// library's other passages) and embeds it once: a query's embedding is the largest part of
    /// a hybrid search's CPU. A later request embeds its question again (nothing is kept
    /// between requests).
    func testAContextEmbedsItsQuestionOnce() throws {
        let folder = try TemporaryFolder()
        var notes = "# Island animals\n\n"
        for (animal, food) in [("Quokka", "leaves and grasses"), ("Gecko", "crickets and moths"), ("Petrel", "fish and squid")] {
            notes += "## \(animal)\n\nThe \(animal.lowercased()) eats \(food). It lives on the island all year and keeps to the shade "
                + "when the sun is high. Visitors who feed the \(animal.lowercased()) bread do it harm.\n\n"
        }
        try folder.write("animals.md", notes)
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let path = folder.file("animals.md").path
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([path], recorder: nil) { _ in }.stored, 1)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "island", sources: [path], recorder: nil) { _ in }
        let embedder = CountingEmbedder(HashingEmbedder())
        let builder = ContextBuilder(store: store, session: SearchSession(store: store, embedder: embedder))
        let question = "what does the quokka eat"
        let context = try builder.build(ContextRequest(query: question, budget: 1500))
        XCTAssertNotNil(context.topic, "the library's curriculum gives the question a topic")
        XCTAssertTrue(context.passages.first?.text.contains("leaves and grasses") == true, "\(context.passages.map(\.text))")
        XCTAssertEqual(embedder.texts, [question], "embedded three times before")
        _ = try builder.build(ContextRequest(query: question, budget: 1500))
        XCTAssertEqual(embedder.texts, [question, question])
    }

    /// A one-shot context (`lectern context`) searches a topic's passages, then the library's:
    /// both scans stream the library's vectors (or read its sidecar) and neither loads them
    /// into the process (the second loaded every vector before: 943 MB at a million passages);
    /// the context is the one a session holding the vectors gives.
    func testAOneShotContextLoadsNoVectorsAndGivesTheSameContext() throws {
        let folder = try TemporaryFolder()
        var notes = "# Island animals\n\n"
        for (animal, food) in [("Quokka", "leaves and grasses"), ("Gecko", "crickets and moths"), ("Petrel", "fish and squid")] {
            notes += "## \(animal)\n\nThe \(animal.lowercased()) eats \(food). It lives on the island all year and keeps to the shade "
                + "when the sun is high. Visitors who feed the \(animal.lowercased()) bread do it harm.\n\n"
        }
        try folder.write("animals.md", notes)
        try folder.write("more.md", "# Diets\n\nWhat an animal eats depends on the island: quokkas eat leaves, petrels eat fish.\n")
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let paths = [folder.file("animals.md").path, folder.file("more.md").path]
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest(paths, recorder: nil) { _ in }.stored, 2)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "island", sources: [paths[0]], recorder: nil) { _ in }
        let request = ContextRequest(query: "what does the quokka eat", budget: 1500)

        let oneShot = SearchSession(store: store, embedder: HashingEmbedder())
        let context = try ContextBuilder(store: store, session: oneShot).build(request)
        XCTAssertNotNil(context.topic)
        XCTAssertTrue(context.passages.contains { $0.from == .search }, "the library's other passages were searched too")
        XCTAssertEqual(oneShot.searcher.vectorCache.lastSource, .streamed)
        XCTAssertFalse(oneShot.searcher.vectorCache.holdsVectors, "a one-shot context loaded the library's vectors")

        // A session's later request loads them, and builds the same context.
        let warm = SearchSession(store: store, embedder: HashingEmbedder())
        try warm.warm(for: .hybrid)
        let again = try ContextBuilder(store: store, session: warm).build(request)
        XCTAssertTrue(warm.searcher.vectorCache.holdsVectors)
        XCTAssertEqual(again, context)
    }
}

/// A real embedder that also records each text it was asked to embed.
private final class CountingEmbedder: Embedder {
    let base: any Embedder
    private let asked = Locked<[String]>([])
    var texts: [String] { asked.current }

    init(_ base: any Embedder) {
        self.base = base
    }

    var info: EmbedderInfo { base.info }
    var tokenCounter: any TokenCounter { base.tokenCounter }

    func embed(_ texts: [String]) throws -> [[Float]] {
        asked.withLock { $0 += texts }
        return try base.embed(texts)
    }
}
