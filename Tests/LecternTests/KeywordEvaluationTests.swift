import Foundation
import XCTest
@testable import Lectern

/// A keyword query with a word that nearly every passage holds costs as much on a large library
/// as on a small one: the common word is left out of the match (`KeywordEvaluation`), and the
/// passages holding the rare word come first with the scores the full ranking gives them.
/// Counted in SQLite's virtual-machine steps (a step per passage FTS5 ranks), not timed. This is
/// how a query the keyword postings cannot rank (a phrase of several words) is evaluated: the
/// tests take FTS5's path (`postings: false`).
final class KeywordEvaluationTests: XCTestCase {
    /// A library of `count` passages that all hold "river"; the first 120 hold "quokka" too,
    /// passages 200 and 300 "platypus".
    func library(_ folder: TemporaryFolder, passages count: Int) throws -> LibraryStore {
        let store = try LibraryStore(path: folder.file("rivers\(count).db").path)
        let embedder = HashingEmbedder()
        let passages = (0..<count).map { index in
            let animal = index < 120 ? " A quokka swam across it at dawn." : [200, 300].contains(index) ? " A platypus dived in it at dawn." : ""
            return Passage(ordinal: index, text: "The river of part \(index) floods each spring and leaves silt on the fields.\(animal)",
                           kind: .text, sectionPath: ["Rivers", "Part \(index)"], tokenCount: 20)
        }
        for (document, slice) in stride(from: 0, to: count, by: 100).enumerated() {
            let part = Array(passages[slice..<min(slice + 100, count)])
            let uri = "rivers-\(document).md"
            try store.replaceDocument(LibraryStore.DocumentWrite(
                sourceURI: uri, sourceKind: .file, uri: uri, path: nil, extractor: "markdown", extractorVersion: 1,
                contentHash: uri, skipKey: SkipKey(passages: uri, embedder: embedder.info.key),
                document: ExtractedDocument(type: "markdown", title: uri, blocks: []),
                passages: part, vectors: try embedder.embed(part.map(\.text)), embedder: embedder.info))
        }
        return store
    }

    /// The evaluation a library of 400 passages takes for a large one: a sample of 4 windows of 16 rowids.
    static let small = KeywordEvaluation(fullBelow: 100, windows: 4, windowSpan: 16, postings: false)

    /// The query's ten hits, and the steps SQLite took to rank them (reading ten hits costs the
    /// same at any size: SearchCostTests).
    func search(_ store: LibraryStore, _ evaluation: KeywordEvaluation, _ query: String = "river quokka") throws -> (hits: [SearchHit], steps: Int) {
        var searcher = Searcher(store: store, embedder: HashingEmbedder())
        searcher.keywordEvaluation = evaluation
        // Once to prepare the statements; the second time is counted.
        let hits = try searcher.search(query, k: 10, mode: .keyword)
        var timings = SearchTimings()
        var notes: [String] = []
        let steps = try store.countingSteps {
            try searcher.rank(query, k: 10, mode: .keyword, filter: SearchFilter(), timings: &timings, notes: &notes)
        }.steps
        return (hits, steps)
    }

    func testACommonWordDoesNotMakeAQueryCostMoreOnALargerLibrary() throws {
        let folder = try TemporaryFolder()
        let smaller = try library(folder, passages: 400)
        let larger = try library(folder, passages: 1600)
        let full = (small: try search(smaller, .fts5), large: try search(larger, .fts5))
        let pruned = (small: try search(smaller, Self.small), large: try search(larger, Self.small))
        // The cause: FTS5 ranks every passage holding "river".
        XCTAssertGreaterThan(full.large.steps, full.small.steps * 2, "full: \(full.large.steps) steps at 1,600 passages, \(full.small.steps) at 400")
        // "river" left out, the 120 passages holding "quokka" are all FTS5 ranks, at any size
        // (what grows is FTS5 reading a larger index's pages: 4,082 steps at 400, 4,595 at 1,600).
        XCTAssertLessThanOrEqual(pruned.large.steps, pruned.small.steps + pruned.small.steps / 4,
                                 "river left out: \(pruned.large.steps) steps at 1,600 passages, \(pruned.small.steps) at 400")
        // What a user sees: the passages with "quokka", in the order and with the scores (to
        // 10⁻⁵: river's idf is FTS5's floor) the full ranking gives them.
        for (pruned, full) in [(pruned.small, full.small), (pruned.large, full.large)] {
            XCTAssertEqual(pruned.hits.count, 10)
            XCTAssertEqual(pruned.hits.map(\.passageId), full.hits.map(\.passageId))
            XCTAssertTrue(pruned.hits.allSatisfy { $0.text.contains("quokka") })
            for (a, b) in zip(pruned.hits, full.hits) {
                XCTAssertEqual(a.bm25 ?? 0, b.bm25 ?? 1, accuracy: 1e-5)
            }
        }
        // Two passages hold "platypus": they come first, then passages holding "river" alone.
        let platypus = try search(larger, Self.small, "river platypus").hits
        XCTAssertEqual(platypus.count, 10)
        XCTAssertEqual(platypus.prefix(2).map(\.passageId), try search(larger, .fts5, "river platypus").hits.prefix(2).map(\.passageId))
        XCTAssertTrue(platypus.prefix(2).allSatisfy { $0.text.contains("platypus") })
        XCTAssertTrue(platypus.suffix(8).allSatisfy { $0.text.contains("river") && !$0.text.contains("platypus") })
    }

    func testAWordOfTinyIdfBesideARareOneIsLeftOutAndACheapQueryIsNot() {
        let evaluation = KeywordEvaluation()
        // Half a million passages hold "energy", 400 hold "entropy": energy's idf is FTS5's floor.
        XCTAssertEqual(evaluation.commonWords(shares: [0.5, 0.0004], passages: 1_000_000), [0])
        // 30% and 1%: idf 0.85 beside 4.6, under a quarter of it.
        XCTAssertEqual(evaluation.commonWords(shares: [0.01, 0.3], passages: 1_000_000), [1])
        // 10% and 1%: idf 2.2 beside 4.6, kept.
        XCTAssertEqual(evaluation.commonWords(shares: [0.1, 0.01], passages: 1_000_000), [])
        // The same shares of 10,000 passages hold fewer than 50,000 passages: every word is ranked.
        XCTAssertEqual(evaluation.commonWords(shares: [0.5, 0.0004], passages: 10_000), [])
        // One word, or two words that most passages hold: one stays.
        XCTAssertEqual(evaluation.commonWords(shares: [0.9], passages: 1_000_000), [])
        XCTAssertEqual(evaluation.commonWords(shares: [0.9, 0.8], passages: 1_000_000).count, 1)
    }
}
