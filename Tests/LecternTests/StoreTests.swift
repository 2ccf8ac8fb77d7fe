import GRDB
import XCTest
@testable import Lectern

final class StoreTests: XCTestCase {
    func makeDocument(_ store: LibraryStore, uri: String, passages count: Int, embedder: any Embedder) throws {
        let passages = (0..<count).map { Passage(ordinal: $0, text: "Passage \($0) of \(uri) about topic \($0 % 17).", kind: .text, sectionPath: ["S"], tokenCount: 8) }
        let vectors = try embedder.embed(passages.map(\.text))
        try store.replaceDocument(LibraryStore.DocumentWrite(
            sourceURI: uri, sourceKind: .file, uri: uri, path: nil, extractor: "text", extractorVersion: 1,
            contentHash: uri, skipKey: SkipKey(passages: uri, embedder: embedder.info.key), document: ExtractedDocument(type: "text", title: uri, blocks: []),
            passages: passages, vectors: vectors, embedder: embedder.info))
    }

    func testVectorsLiveInLargeBlocksAndFollowDeletes() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("v.db").path)
        let embedder = HashingEmbedder()
        try makeDocument(store, uri: "doc:a", passages: 1500, embedder: embedder)
        try makeDocument(store, uri: "doc:b", passages: 1500, embedder: embedder)
        var stats = try store.stats()
        XCTAssertEqual(stats.vectors, 3000)
        XCTAssertEqual(stats.vectorBlocks, 12, "3,000 vectors fill eleven 256-vector blocks and part of a twelfth")

        let index = try store.vectorIndex(for: embedder.info)
        let query = try embedder.embed("Passage 7 of doc:b about topic 7.")
        let best = try XCTUnwrap(index.nearest(to: query, k: 1).first)
        XCTAssertEqual(try store.passages(ids: [best.id]).first?.text, "Passage 7 of doc:b about topic 7.")

        try store.removeDocuments(store.documents(matching: "doc:a"))
        stats = try store.stats()
        XCTAssertEqual(stats.vectors, 1500)
        XCTAssertEqual(stats.passages, 1500)
        XCTAssertEqual(stats.sources, 1)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testReembedIsResumableAndSwitchesInOneStep() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("r.db").path)
        let old = HashingEmbedder()
        try makeDocument(store, uri: "doc:a", passages: 300, embedder: old)
        let new = HashingEmbedder(dimension: 128)

        // A first reembed run is stopped (as by Ctrl-C) after its first batch.
        var first = Reembedding(store: store, target: new, batchSize: 100)
        let stop = Cancellation()
        first.cancellation = stop
        let stopped = try first.run(recorder: nil) { event in
            if event.event == .progress { stop.cancel(signal: SIGINT) }
        }
        XCTAssertEqual(stopped.stopped, .interrupted)
        XCTAssertEqual(stopped.embedded, 100)
        XCTAssertFalse(stopped.switched)
        XCTAssertThrowsError(try store.switchEmbedder(to: new.info)) { error in
            XCTAssertTrue("\(error)".contains("200 passages still lack vectors"), "\(error)")
        }
        XCTAssertEqual(try store.recordedEmbedder(), old.info, "the library keeps its embedder until the switch")

        // The next run finishes the job without redoing the first batch.
        let finished = try Reembedding(store: store, target: new, batchSize: 1000).run(recorder: nil) { _ in }
        XCTAssertEqual(finished.embedded, 200)
        XCTAssertTrue(finished.switched)
        XCTAssertNil(finished.stopped)
        XCTAssertEqual(try store.recordedEmbedder(), new.info)
        XCTAssertEqual(try store.stats().vectors, 300, "the old vectors are gone")
        let hits = try Searcher(store: store, embedder: new).search("Passage 42 of doc:a about topic 8", k: 1, mode: .semantic)
        XCTAssertEqual(hits.first?.text, "Passage 42 of doc:a about topic 8.")
    }

    func testNotADatabaseIsOneClearLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.db", "this is not sqlite, just text that is long enough to have a header block.....................")
        XCTAssertThrowsError(try LibraryStore(path: file.path)) { error in
            XCTAssertEqual("\(error)", "\(file.path): not a Lectern library (the file is not an SQLite database)")
        }
    }

    func testStoreUsesWALAndFTS5Porter() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("w.db").path)
        let mode = try store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
        try makeDocument(store, uri: "doc:z", passages: 3, embedder: HashingEmbedder())
        // Porter stemming: "topics" finds "topic".
        let hits = try Searcher(store: store, embedder: HashingEmbedder()).search("topics", mode: .keyword)
        XCTAssertEqual(hits.count, 3)
    }

    /// The store is the only place that knows SQL, and values reach SQL bound, never spliced
    /// into its text (issue 12): a search filter or a list of ids cannot change a statement.
    func testOnlyTheStoreKnowsSQLAndValuesAreBound() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources/Lectern")
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        var importers: [String] = []
        var spliced: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.contains("import GRDB") && !file.hasPrefix("Store/") { importers.append(file) }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("IN (\\(") || line.contains("joined(separator: \",\")") && line.contains("'") {
                spliced.append("\(file):\(number + 1)")
            }
        }
        XCTAssertEqual(importers, [], "only Sources/Lectern/Store imports GRDB")
        XCTAssertEqual(spliced, [], "values spliced into SQL text")

        // A type filter is a value, whatever it holds.
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("s.db").path)
        try makeDocument(store, uri: "doc:q", passages: 3, embedder: HashingEmbedder())
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        XCTAssertEqual(try searcher.search("topic", mode: .keyword, filter: SearchFilter(types: ["text"])).count, 3)
        XCTAssertEqual(try searcher.search("topic", mode: .keyword, filter: SearchFilter(types: ["x') OR ('1' = '1"])).count, 0)
        XCTAssertEqual(try searcher.search("topic", mode: .keyword, filter: SearchFilter(sources: ["doc:q"], types: ["text", "pdf"])).count, 3)
    }

    /// The store hands out typed values: the skip key as its parts, and enums for a source's
    /// kind, a document's type, a run's status and a failure's severity.
    func testStoredRecordsAreTyped() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("t.db").path)
        let note = try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP.\n")
        let recorder = try RunRecorder(store: store, command: "ingest", arguments: [])
        let ingestor = Ingestor(store: store, embedder: HashingEmbedder())
        let summary = ingestor.ingest([note.path, folder.file("missing.md").path], recorder: recorder) { _ in }
        recorder.fail(input: "cells.md", stage: "extract", reason: "a warning", warning: true)
        recorder.finish()
        XCTAssertEqual(summary.stored, 1)

        let document = try XCTUnwrap(store.documents(matching: note.path).first)
        XCTAssertEqual(document.type, .markdown)
        XCTAssertEqual(document.skipKey.embedder, HashingEmbedder().info.key)
        XCTAssertEqual(document.skipKey.passages.count, 64, "a SHA-256 of what the passages are cut from")
        XCTAssertEqual(try store.sources().map(\.kind), [.file])
        XCTAssertEqual(try store.sources().map(\.types), [[.markdown]])
        XCTAssertEqual(try store.passages(documentId: document.id).first?.documentType, .markdown)
        let run = try XCTUnwrap(store.runs().first)
        XCTAssertEqual(run.status, .partial)
        XCTAssertEqual(run.failures.map(\.severity), [.error, .warning])

        // A finished reembed moves every document's embedder part and keeps its passage part.
        let new = HashingEmbedder(dimension: 64)
        let pending = try store.passagesMissingVectors(new.info, limit: 100)
        try store.addVectors(ids: pending.map(\.id), vectors: new.embed(pending.map(\.text)), embedder: new.info)
        try store.switchEmbedder(to: new.info)
        let moved = try XCTUnwrap(store.documents(matching: note.path).first)
        XCTAssertEqual(moved.skipKey, SkipKey(passages: document.skipKey.passages, embedder: new.info.key))
        XCTAssertEqual(Ingestor(store: store, embedder: new).ingest([note.path], recorder: nil) { _ in }.unchanged, 1)
    }

    /// Rows a later Lectern wrote: a passage or block kind it added reads as prose, a document
    /// type is an open set, and a run status it added is one line naming the library and the value.
    func testValuesALaterVersionWroteReadAsProseOrOneLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("later.db").path
        let store = try LibraryStore(path: path)
        let note = try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP for the cell.\n")
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([note.path], recorder: nil) { _ in }.stored, 1)
        let document = try XCTUnwrap(store.documents(matching: note.path).first)
        try store.write { db in
            try db.execute(sql: "UPDATE passages SET kind = 'hologram'")
            try db.execute(sql: "UPDATE blocks SET kind = 'hologram' WHERE kind = 'paragraph'")
        }
        XCTAssertEqual(try store.passages(documentId: document.id).map(\.kind), [.text])
        XCTAssertEqual(try store.blocks(documentId: document.id).last?.kind, .paragraph)
        XCTAssertEqual(try store.blocks(documentId: document.id).last?.text, "The mitochondrion makes ATP for the cell.")

        try store.write { db in try db.execute(sql: "UPDATE documents SET type = 'hologram'") }
        XCTAssertEqual(try store.allDocuments().map(\.type.rawValue), ["hologram"])
        XCTAssertEqual(try store.sources().map(\.types), [[DocumentType(rawValue: "hologram")!]])

        let run = try store.beginRun(command: "ingest", arguments: ["notes"])
        try store.write { db in try db.execute(sql: "UPDATE runs SET status = 'hologram' WHERE id = ?", arguments: [run]) }
        XCTAssertThrowsError(try store.runs()) { error in
            XCTAssertEqual("\(error)".split(separator: "\n").count, 1, "\(error)")
            XCTAssertTrue("\(error)".hasPrefix(path + ": "), "\(error)")
            XCTAssertTrue("\(error)".contains("hologram") && "\(error)".contains("written by a later version"), "\(error)")
        }
    }
}
