import Foundation
import XCTest
@testable import Lectern

/// A one-shot semantic search (`lectern search "…"`) scans the library's vectors a chunk of
/// blocks at a time through one small buffer instead of loading them all into its memory, and
/// finds what a loaded scan finds; a long-lived session loads them on its second search and
/// keeps them. Counted in rows and buffer sizes, not timed.
final class StreamedScanTests: XCTestCase {
    func testAOneShotSearchHoldsOneChunkOfVectorsAndFindsWhatALoadedScanFinds() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let embedder = HashingEmbedder()
        // 1,300 passages: six blocks of at most 256 vectors.
        for document in 0..<13 {
            try CompactVectorTests.makeDocument(store, uri: "notes-\(document).md", passages: 100, embedder: embedder)
        }
        let query = try embedder.embed("passage 7 of notes-3.md about topic 7")
        let loaded = try XCTUnwrap(try store.compactVectors(embedder: embedder.info))
        let expected = loaded.candidates(for: query, keep: 100).map { (id: loaded.ids[$0.row], score: $0.score) }
        let streamed = try XCTUnwrap(try store.streamedCandidates(embedder: embedder.info, query: query, keep: 100, allowed: nil, chunkRows: 512))
        XCTAssertEqual(streamed.rows, 1300)
        XCTAssertLessThanOrEqual(streamed.bufferRows, 512)
        XCTAssertEqual(streamed.candidates.map(\.score), expected.map(\.score))
        // The same rows, ties at the last score kept included: of equal scores a scan keeps the
        // earlier rows, wherever its chunks and pieces begin.
        XCTAssertEqual(streamed.candidates.map(\.id), expected.map(\.id))
        // Each candidate's float32 place is its own row.
        for candidate in streamed.candidates.prefix(10) {
            let exact = try store.exactScores(places: [candidate.place], query: query)[0]
            XCTAssertEqual(exact, candidate.score, accuracy: 0.05)
        }

        // Through a searcher: the first search keeps nothing, and ranks as a warmed session does.
        let warmed = SearchSession(store: store, embedder: embedder)
        try warmed.warm(for: .semantic)
        let expectedHits = try warmed.search("passage 7 of notes-3.md about topic 7", k: 10, mode: .semantic)
        let searcher = Searcher(store: store, embedder: embedder)
        let first = try searcher.search("passage 7 of notes-3.md about topic 7", k: 10, mode: .semantic)
        XCTAssertFalse(searcher.vectorCache.holdsVectors, "a single search loaded the library's vectors")
        XCTAssertEqual(first.map(\.passageId), expectedHits.map(\.passageId))
        XCTAssertEqual(first.map(\.score), expectedHits.map(\.score))
        XCTAssertEqual(first.first?.text, "Passage 7 of notes-3.md about topic 7.")
        // A second search of the same searcher (a session's) loads them and keeps them.
        let second = try searcher.search("passage 7 of notes-3.md about topic 7", k: 10, mode: .semantic)
        XCTAssertTrue(searcher.vectorCache.holdsVectors)
        XCTAssertEqual(second.map(\.passageId), expectedHits.map(\.passageId))
    }
}
