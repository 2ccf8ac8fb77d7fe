import Foundation
import XCTest
@testable import Lectern

/// A test case whose tests run on both store backends: `eachBackend` gives each test a fresh
/// SQLite library file and a fresh PostgreSQL database (a real PostgreSQL 18 with pgvector,
/// Support/PostgresServer, started once for the test process) and runs the same body on both,
/// naming the backend in every failure.
class BackendStoreTestCase: XCTestCase {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    /// A new, empty library of `backend` (one database per test name on the server).
    func makeLibrary(_ backend: Backend) throws -> any LibraryTransfer {
        switch backend {
        case .sqlite:
            return try LibraryStore(path: folder.file("library-\(UUID().uuidString.prefix(6)).db").path)
        case .postgres:
            let number = Self.made.withLock { count in
                count += 1
                return count
            }
            lastURL = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_\(number)")
            return try PostgresLibrary(url: lastURL!)
        }
    }

    /// The databases made so far in this process: each test's own.
    private static let made = Locked(0)
    private var lastURL: String?

    /// Another handle on `library`, as another process (or machine) opens it.
    func reopen(_ library: any LibraryBackend) throws -> any LibraryBackend {
        if let store = library as? LibraryStore { return try LibraryStore(path: store.path) }
        return try PostgresLibrary(url: try XCTUnwrap(lastURL))
    }

    /// `body` on a fresh library of each backend.
    func eachBackend(_ body: (Backend, any LibraryTransfer) throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        for backend in Backend.allCases {
            let library = try makeLibrary(backend)
            do {
                try body(backend, library)
            } catch {
                XCTFail("\(backend): \(error)", file: file, line: line)
            }
        }
    }

    /// A Markdown note read, chunked and embedded (hashing) as `lectern ingest` stores it.
    func write(_ name: String, _ text: String, embedder: HashingEmbedder = HashingEmbedder()) throws -> LibraryStore.DocumentWrite {
        let data = Data(text.utf8)
        let path = "/notes/\(name)"
        let input = SourceInput(uri: "file://" + path, path: path, data: data)
        let (extractor, document) = try DocumentReader().extract(input, display: name)
        let passages = Chunker(settings: ChunkSettings(), tokenCounter: embedder.tokenCounter).chunk(document.blocks)
        let vectors = try embedder.embed(passages.map { ContextualHeader.embedded($0.text, title: document.title, sectionPath: $0.sectionPath) })
        let hash = ContentHash.sha256(data)
        return LibraryStore.DocumentWrite(
            sourceURI: input.uri, sourceKind: .file, uri: input.uri, path: path, extractor: extractor.name,
            extractorVersion: extractor.version, contentHash: hash, skipKey: SkipKey(passages: hash, embedder: embedder.info.key),
            document: document, passages: passages, vectors: vectors, embedder: embedder.info)
    }

    static let cells = """
        # Cells

        ## Membranes

        The cell membrane is a lipid bilayer that lets water through and keeps most ions out.

        ## Mitochondria

        Mitochondria make ATP from glucose and oxygen in cellular respiration.
        """
    static let orbits = """
        # Orbits

        A planet moves on an ellipse with the sun at one focus, fastest near the sun.
        """
}

/// The store's operations (Store/LibraryBackend, Store/LibraryTransfer), each run on a SQLite
/// library and on a PostgreSQL one: what one backend does, the other does alike.
final class StoreSuiteTests: BackendStoreTestCase {
    func testADocumentReadsBackAsItWasWritten() throws {
        let note = try write("cells.md", Self.cells)
        try eachBackend { backend, library in
            let id = try library.replaceDocument(note)
            let stored = try XCTUnwrap(try library.document(uri: note.uri), "\(backend)")
            XCTAssertEqual(stored.id, id, "\(backend)")
            XCTAssertEqual(stored.title, "Cells", "\(backend)")
            XCTAssertEqual(stored.passageCount, note.passages.count, "\(backend)")
            XCTAssertEqual(try library.blocks(documentId: id).map(\.text), note.document.blocks.map(\.text), "\(backend)")
            let passages = try library.passages(documentId: id)
            XCTAssertEqual(passages.map(\.text), note.passages.map(\.text), "\(backend)")
            XCTAssertEqual(passages.map(\.sectionPath), note.passages.map(\.sectionPath), "\(backend)")
            XCTAssertEqual(try library.passages(ids: Array(passages.map(\.id).reversed())).map(\.ordinal), Array(passages.map(\.ordinal).reversed()), "\(backend)")
            XCTAssertEqual(try library.sources().map(\.uri), [note.sourceURI], "\(backend)")
            XCTAssertEqual(try library.documents(matching: "cells.md", absolutePath: "/notes/cells.md").map(\.uri), [note.uri], "\(backend)")
            XCTAssertEqual(try library.recordedEmbedder(), note.embedder, "\(backend)")
            let stats = try library.stats()
            XCTAssertEqual([stats.documents, stats.passages, stats.vectors], [1, note.passages.count, note.passages.count], "\(backend)")
            // Vectors read back bit for bit: what a copy into the other backend writes.
            let vectors = try library.passageVectors(embedder: note.embedder).lookup(passages.map(\.id))
            XCTAssertEqual(vectors, note.vectors, "\(backend)")
        }
    }

    func testWritingADocumentAgainReplacesItAndRemovingItTakesItsSource() throws {
        let note = try write("cells.md", Self.cells), orbits = try write("orbits.md", Self.orbits)
        var changed = try write("cells.md", Self.cells + "\n## Nucleus\n\nThe nucleus holds the cell's DNA.\n")
        changed.contentHash = "changed"
        try eachBackend { backend, library in
            try library.replaceDocument(note)
            try library.replaceDocument(orbits)
            try library.replaceDocument(changed)
            XCTAssertEqual(try library.allDocuments().map(\.uri), [note.uri, orbits.uri], "\(backend)")
            XCTAssertEqual(try library.stats().passages, changed.passages.count + orbits.passages.count, "\(backend): replaced, not doubled")
            let cells = try XCTUnwrap(try library.document(uri: note.uri))
            XCTAssertEqual(try library.removeDocuments([cells]), [note.uri], "\(backend)")
            XCTAssertEqual(try library.sources().map(\.uri), [orbits.sourceURI], "\(backend): the source went with its last document")
            XCTAssertEqual(try library.keywordMatches(SearchQuery(parsing: "mitochondria"), limit: 5).count, 0, "\(backend)")
        }
    }

    func testAnotherEmbedderIsRefusedInOneLine() throws {
        let note = try write("cells.md", Self.cells)
        var other = try write("orbits.md", Self.orbits)
        other.embedder = EmbedderInfo(name: "other", model: "other", dimension: note.embedder.dimension, version: 1)
        try eachBackend { backend, library in
            try library.replaceDocument(note)
            XCTAssertThrowsError(try library.replaceDocument(other), "\(backend)") { error in
                XCTAssertEqual((error as? LecternError)?.code, .embedderMismatch, "\(backend): \(error)")
            }
            XCTAssertEqual(try library.allDocuments().count, 1, "\(backend)")
        }
    }

    func testTitlesLabelsAndSettings() throws {
        let note = try write("cells.md", Self.cells)
        try eachBackend { backend, library in
            let id = try library.replaceDocument(note)
            try library.setTitle(documentId: id, "Cell biology")
            XCTAssertEqual(try library.document(uri: note.uri)?.title, "Cell biology", "\(backend)")
            XCTAssertTrue(try library.label(documentId: id, licence: "CC BY 4.0", tags: ["biology"]), "\(backend)")
            XCTAssertFalse(try library.label(documentId: id, licence: "CC BY 4.0", tags: ["biology"]), "\(backend): unchanged, not written")
            let metadata = try library.metadata(documentId: id)
            XCTAssertEqual(metadata[DocumentLabels.licenceKey], "CC BY 4.0", "\(backend)")
            XCTAssertEqual(DocumentLabels.tags(metadata), ["biology"], "\(backend)")
        }
    }

    func testTheCachesKeepWhatAnIngestLeavesThere() throws {
        let embedder = HashingEmbedder().info
        let entry = FetchCacheEntry(url: "https://example.org/a", etag: "\"v1\"", lastModified: nil, contentType: "text/html",
                                    contentHash: "abc", fetchedAt: "2026-01-01T00:00:00Z")
        try eachBackend { backend, library in
            let vector = (0..<embedder.dimension).map { Float($0) / 1000 }
            try library.cacheVectors(embedder: embedder, textHashes: ["h1", "h2"], vectors: [vector, Array(vector.reversed())])
            XCTAssertEqual(try library.cachedVectors(embedder: embedder, textHashes: ["h1", "h3"]), ["h1": vector], "\(backend)")
            XCTAssertEqual(try library.allCachedVectors(embedder: embedder).count, 2, "\(backend)")
            XCTAssertEqual(try library.cachedVectorCount(), 2, "\(backend)")
            XCTAssertEqual(try library.clearEmbeddingCache(), 2, "\(backend)")
            try library.recordFetch(entry)
            XCTAssertEqual(try library.fetchCache(url: entry.url), entry, "\(backend)")
            XCTAssertEqual(try library.fetchCacheEntries(), [entry], "\(backend)")
            // Every row `lectern migrate` compares: the validator, nothing else.
            let none = Dictionary(uniqueKeysWithValues: LibraryTransferCounts.names.map { ($0, 0) })
            XCTAssertEqual(try library.transferCounts(), none.merging(["web validators": 1]) { $1 }, "\(backend)")
        }
    }

    func testRunsRecordCountsFailuresAndTheirEnd() throws {
        try eachBackend { backend, library in
            let id = try library.beginRun(command: "ingest", arguments: ["notes"])
            try library.recordFailure(run: id, input: "bad.pdf", stage: "extract", reason: "no text layer", severity: .error)
            try library.updateRun(id, counts: ["stored": 2, "failed": 1], status: nil)
            var run = try XCTUnwrap(try library.runs(limit: 5, id: nil).first)
            XCTAssertEqual(run.status, .running, "\(backend): its process still runs it")
            try library.updateRun(id, counts: ["stored": 2, "failed": 1], status: .failed)
            run = try XCTUnwrap(try library.runs(limit: 1, id: id).first)
            XCTAssertEqual([run.command] + run.arguments, ["ingest", "notes"], "\(backend)")
            XCTAssertEqual(run.status, .failed, "\(backend)")
            XCTAssertEqual(run.counts, ["stored": 2, "failed": 1], "\(backend)")
            XCTAssertEqual(run.failures.map(\.reason), ["no text layer"], "\(backend)")
            XCTAssertNotNil(run.endedAt, "\(backend)")
            XCTAssertEqual(try library.modelCallLog(limit: nil, template: nil).count, 0, "\(backend)")
            // A run copied from another library keeps its id; a second copy adds nothing.
            var copied = run
            copied.id = 40
            XCTAssertTrue(try library.importRun(copied), "\(backend)")
            XCTAssertFalse(try library.importRun(copied), "\(backend)")
            let next = try library.beginRun(command: "search", arguments: [])
            XCTAssertGreaterThan(next, 40, "\(backend): later runs follow the copied ones")
            XCTAssertEqual(try library.runs(limit: 10, id: nil).map(\.id), [next, 40, id], "\(backend)")
        }
    }

    func testTheWriterLockIsOneAtATime() throws {
        try eachBackend { backend, library in
            // A second handle on the same library: another process's, another machine's.
            let other = try reopen(library)
            try library.withWriterLock(wait: false) {
                XCTAssertThrowsError(try other.withWriterLock(wait: false) {}, "\(backend)") { error in
                    XCTAssertEqual((error as? RunLock.Held)?.holder?.pid, getpid(), "\(backend): the holder is named")
                }
            }
            XCTAssertEqual(try other.withWriterLock(wait: false) { 42 }, 42, "\(backend): released")
        }
    }

    func testKeywordsAndVectorsFindTheSamePassages() throws {
        let notes = [try write("cells.md", Self.cells), try write("orbits.md", Self.orbits)]
        var found: [[String]] = []
        try eachBackend { backend, library in
            for note in notes { try library.replaceDocument(note) }
            let keyword = try library.keywordMatches(SearchQuery(parsing: "membrane water"), limit: 3)
            let vector = try HashingEmbedder().embed("a planet moves on an ellipse with the sun at one focus")
            let nearest = try library.nearestPassages(to: vector, k: 2, embedder: notes[0].embedder)
            let places = try library.passageLocators(keyword.map(\.id) + nearest.map(\.id))
            found.append((keyword.map(\.id) + nearest.map(\.id)).map { places[$0]!.description })
            XCTAssertFalse(keyword.isEmpty, "\(backend)")
            XCTAssertTrue(places[nearest[0].id]!.documentURI.hasSuffix("orbits.md"), "\(backend)")
        }
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(found.first, found.last, "the backends find different passages")
    }
}
