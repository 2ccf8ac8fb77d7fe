import Foundation
import XCTest
@testable import Lectern

/// A large library keeps its passages' int8 codes in a sidecar file beside it
/// (`lectern.db-vectors`), which a semantic search maps and scans in place: the same hits and
/// scores as the scan of the library, filters included. The sidecar is a cache: one that is
/// stale (after an ingest, a removal, a reembed), of another library, cut short or garbage is
/// never read, and is written again; a library in a folder that cannot be written is searched
/// without one. Generated libraries of a few blocks, the sidecar's threshold lowered to 1 vector.
final class VectorSidecarTests: XCTestCase {
    static func makeDocument(_ store: LibraryStore, uri: String, type: String = "text", passages count: Int, embedder: any Embedder) throws {
        let passages = (0..<count).map {
            Passage(ordinal: $0, text: "Passage \($0) of \(uri) about topic \($0 % 17).", kind: .text, sectionPath: ["S"], tokenCount: 8)
        }
        try store.replaceDocument(LibraryStore.DocumentWrite(
            sourceURI: uri, sourceKind: .file, uri: uri, path: nil, extractor: "text", extractorVersion: 1,
            contentHash: uri, skipKey: SkipKey(passages: uri, embedder: embedder.info.key), document: ExtractedDocument(type: type, title: uri, blocks: []),
            passages: passages, vectors: try embedder.embed(passages.map(\.text)), embedder: embedder.info))
    }

    /// A library of `documents` documents of 100 passages (every third one markdown).
    static func library(_ folder: TemporaryFolder, name: String = "lectern.db", documents: Range<Int>, sidecar: Int = 1) throws -> LibraryStore {
        let store = try LibraryStore(path: folder.file(name).path, vectorSidecar: sidecar)
        for document in documents {
            try makeDocument(store, uri: "notes-\(document).md", type: document % 3 == 0 ? "markdown" : "text", passages: 100, embedder: HashingEmbedder())
        }
        return store
    }

    func sidecar(_ store: LibraryStore) -> String { VectorSidecar.path(library: store.path) }

    /// Whether the sidecar beside `store` is current (what a search would read).
    func isFresh(_ store: LibraryStore, _ embedder: EmbedderInfo = HashingEmbedder().info) throws -> Bool {
        store.mappedVectors(embedder: embedder, key: try store.vectorKey()) != nil
    }

    /// One semantic search by a searcher of its own, and where its scan read the vectors.
    func search(_ store: LibraryStore, _ query: String, embedder: any Embedder = HashingEmbedder(), k: Int = 10,
                mode: SearchMode = .semantic, filter: SearchFilter = SearchFilter()) throws -> (hits: [SearchHit], source: VectorCache.Source?) {
        let searcher = Searcher(store: store, embedder: embedder)
        let hits = try searcher.search(query, k: k, mode: mode, filter: filter)
        return (hits, searcher.vectorCache.lastSource)
    }

    func testTheSidecarScanFindsWhatTheLibraryScanFinds() throws {
        let folder = try TemporaryFolder()
        // 1,300 passages: six blocks of at most 256 vectors.
        let store = try Self.library(folder, documents: 0..<13)
        let without = try LibraryStore(path: store.path, vectorSidecar: 0)
        let questions: [(String, SearchMode, SearchFilter)] = [
            ("passage 7 of notes-3.md about topic 7", .semantic, SearchFilter()),
            ("about topic 11", .semantic, SearchFilter()),
            ("about topic 11", .hybrid, SearchFilter()),
            ("passage 7 about topic 7", .semantic, SearchFilter(sources: ["notes-3.md", "notes-12.md"])),
            ("passage 7 about topic 7", .semantic, SearchFilter(types: ["markdown"])),
            ("passage 7 about topic 7", .hybrid, SearchFilter(passages: Set((1...1300).filter { $0 % 7 == 0 }.map(Int64.init)))),
            ("\"topic 5\" passage", .semantic, SearchFilter()),
        ]
        // The library's scan (no sidecar: `search.sidecar_vectors = 0` writes none).
        var expected: [[SearchHit]] = []
        for (query, mode, filter) in questions {
            let (hits, source) = try search(without, query, k: 20, mode: mode, filter: filter)
            XCTAssertEqual(source, .streamed)
            expected.append(hits)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar(store)))
        XCTAssertTrue(expected[3].allSatisfy { ["notes-3.md", "notes-12.md"].contains($0.uri) }, expected[3].map(\.uri).joined(separator: " "))
        XCTAssertTrue(expected[6].allSatisfy { $0.text.contains("topic 5.") }, expected[6].map(\.text).joined(separator: " | "))
        XCTAssertTrue(expected[4].allSatisfy { ["notes-0.md", "notes-3.md", "notes-6.md", "notes-9.md", "notes-12.md"].contains($0.uri) },
                      expected[4].map(\.uri).joined(separator: " "))

        // The first search writes the sidecar from what it reads; the next ones map it.
        let first = try search(store, questions[0].0, k: 20)
        XCTAssertEqual(first.source, .streamed)
        XCTAssertTrue(try isFresh(store), "the first semantic search wrote no sidecar")
        XCTAssertFalse(FileManager.default.fileExists(atPath: VectorSidecar.temporaryPath(library: store.path)))
        for ((query, mode, filter), hits) in zip(questions, expected) {
            let (mapped, source) = try search(store, query, k: 20, mode: mode, filter: filter)
            XCTAssertEqual(source, .sidecar, query)
            XCTAssertEqual(mapped.map(\.passageId), hits.map(\.passageId), "\(query) \(mode) \(filter)")
            XCTAssertEqual(mapped.map(\.score), hits.map(\.score), query)
            XCTAssertEqual(mapped.map(\.cosine), hits.map(\.cosine), query)
        }
        // A session asked many questions keeps the mapping, and loads nothing into its memory.
        let session = SearchSession(store: store, embedder: HashingEmbedder())
        for (query, mode, filter) in questions { _ = try session.search(query, k: 20, mode: mode, filter: filter) }
        XCTAssertEqual(session.searcher.vectorCache.lastSource, .sidecar)
        XCTAssertFalse(session.searcher.vectorCache.holdsVectors)
    }

    func testAStaleSidecarIsNotReadAndIsWrittenAgain() throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder, documents: 0..<4)
        _ = try search(store, "about topic 3")
        XCTAssertTrue(try isFresh(store))

        // An ingest: the sidecar lacks the new passages; a search does not read it.
        try Self.makeDocument(store, uri: "later.md", passages: 30, embedder: HashingEmbedder())
        XCTAssertFalse(try isFresh(store))
        var (hits, source) = try search(store, "passage 4 of later.md about topic 4", k: 1)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.first?.text, "Passage 4 of later.md about topic 4.")
        XCTAssertTrue(try isFresh(store), "the search wrote the sidecar again")
        (hits, source) = try search(store, "passage 4 of later.md about topic 4", k: 1)
        XCTAssertEqual(source, .sidecar)
        XCTAssertEqual(hits.first?.text, "Passage 4 of later.md about topic 4.")

        // A removal.
        XCTAssertEqual(try store.removeDocuments(store.documents(matching: "later.md")).count, 1)
        XCTAssertFalse(try isFresh(store))
        (hits, source) = try search(store, "passage 4 of later.md about topic 4", k: 5)
        XCTAssertEqual(source, .streamed)
        XCTAssertFalse(hits.contains { $0.uri == "later.md" }, "a removed passage came back from the sidecar")
        XCTAssertTrue(try isFresh(store))

        // A writing command brings the sidecar up to date as it ends (`refreshVectorSidecar`).
        try Self.makeDocument(store, uri: "evening.md", passages: 10, embedder: HashingEmbedder())
        XCTAssertFalse(try isFresh(store))
        store.refreshVectorSidecar()
        XCTAssertTrue(try isFresh(store))
        (hits, source) = try search(store, "passage 2 of evening.md about topic 2", k: 1)
        XCTAssertEqual(source, .sidecar)
        XCTAssertEqual(hits.first?.text, "Passage 2 of evening.md about topic 2.")

        // A reembed: the sidecar holds the old embedder's codes; the new one's are written.
        let target = HashingEmbedder(dimension: 128)
        let reembed = try Reembedding(store: store, target: target).run(recorder: nil) { _ in }
        XCTAssertTrue(reembed.switched)
        XCTAssertFalse(try isFresh(store, target.info))
        (hits, source) = try search(store, "passage 2 of evening.md about topic 2", embedder: target, k: 1)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.first?.text, "Passage 2 of evening.md about topic 2.")
        XCTAssertTrue(try isFresh(store, target.info))
        XCTAssertEqual(try search(store, "passage 2 of evening.md about topic 2", embedder: target, k: 1).source, .sidecar)
    }

    func testASidecarOfAnotherLibraryOrDamagedIsNeverRead() throws {
        let folder = try TemporaryFolder()
        let first = try Self.library(folder, name: "first.db", documents: 0..<3)
        let second = try Self.library(folder, name: "second.db", documents: 5..<8)
        _ = try search(first, "about topic 3")
        XCTAssertTrue(try isFresh(first))
        let question = "passage 9 of notes-6.md about topic 9"
        let right = try search(try LibraryStore(path: second.path, vectorSidecar: 0), question).hits
        XCTAssertEqual(right.first?.text, "Passage 9 of notes-6.md about topic 9.")

        // The first library's sidecar put beside the second: another library's, never read.
        try FileManager.default.copyItem(atPath: sidecar(first), toPath: sidecar(second))
        var (hits, source) = try search(second, question)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.map(\.passageId), right.map(\.passageId))
        XCTAssertEqual(try search(second, question).source, .sidecar, "the second library's own sidecar was written in its place")

        // Cut short (a copy interrupted), then garbage of the same size.
        let whole = try Data(contentsOf: URL(fileURLWithPath: sidecar(second)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: sidecar(second)))
        (hits, source) = try search(second, question)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.map(\.passageId), right.map(\.passageId))
        XCTAssertTrue(try isFresh(second))
        var random = CompactVectorTests.SplitMix(state: 5)
        try Data((0..<whole.count).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: URL(fileURLWithPath: sidecar(second)))
        (hits, source) = try search(second, question)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.map(\.passageId), right.map(\.passageId))
        // A header that says the right library and generation over arrays cut short.
        XCTAssertTrue(try isFresh(second))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: sidecar(second)))
        try handle.truncate(atOffset: UInt64(whole.count - 64))
        try handle.close()
        (hits, source) = try search(second, question)
        XCTAssertEqual(source, .streamed)
        XCTAssertEqual(hits.map(\.passageId), right.map(\.passageId))
    }

    /// Through the command line: a semantic search writes the sidecar, a writing command keeps it
    /// current, and a library in a folder that cannot be written is searched without one.
    func testTheCommandLineKeepsTheSidecarAndAReadOnlyFolderSearchesWithoutOne() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion produces ATP through oxidative phosphorylation.\n")
        try folder.write("more.md", "# Leaves\n\nChloroplasts capture light to make sugar from carbon dioxide and water.\n")
        let environment = ["LECTERN_SEARCH_SIDECAR_VECTORS": "1"]
        func lectern(_ arguments: String..., unprivileged: Bool = false) throws -> CommandResult {
            try runLectern(arguments, in: folder.url, environment: environment, asUnprivilegedUser: unprivileged)
        }
        var result = try lectern("ingest", "notes")
        XCTAssertEqual(result.status, 0, result.stderr)
        let library = folder.file("lectern.db").path
        let sidecar = VectorSidecar.path(library: library)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar), "an ingest made a sidecar nobody searched with")
        result = try lectern("search", "what makes ATP", "--mode", "semantic", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar))
        result = try lectern("ingest", "more.md")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try isFresh(try LibraryStore(path: library, access: .read)), "the ingest left the sidecar stale")

        // A read-only library in a read-only folder: no sidecar can be written; search still works.
        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertEqual(chmod(library, 0o444), 0)
        XCTAssertEqual(chmod(folder.path, 0o555), 0)
        defer {
            chmod(folder.path, 0o755)
            chmod(library, 0o644)
        }
        result = try lectern("search", "light and sugar", "--mode", "semantic", "--json", unprivileged: true)
        XCTAssertEqual(result.status, 0, result.stderr)
        let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(hits.first?.title, "Leaves")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar))
    }
}
