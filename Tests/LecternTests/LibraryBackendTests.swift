import Foundation
import GRDB
import XCTest
@testable import Lectern

/// The backend seam (Store/LibraryBackend): the same documents written into a SQLite library
/// and a PostgreSQL one (a real PostgreSQL 18 with pgvector, Support/PostgresServer) give the
/// same hits; PostgreSQL's schema, writes and writer lock behave as a SQLite library's do.
final class LibraryBackendTests: XCTestCase {
    /// corpora/ (notes, PDFs, transcripts) read, chunked and embedded (hashing) by Lectern's own
    /// readers and chunker, into one write per document, as `lectern ingest` stores them.
    private static func corporaWrites() throws -> [LibraryStore.DocumentWrite] {
        try madeWrites.get()
    }

    /// Made once per test process: reading the PDFs is most of the cost.
    private static let madeWrites = Result { try makeCorporaWrites() }

    private static func makeCorporaWrites() throws -> [LibraryStore.DocumentWrite] {
        try writes(of: TestPaths.packageRoot.appendingPathComponent("corpora"))
    }

    /// Every file under `root`, read, chunked and embedded (hashing) as `lectern ingest` does.
    private static func writes(of root: URL) throws -> [LibraryStore.DocumentWrite] {
        let embedder = HashingEmbedder()
        let chunker = Chunker(settings: ChunkSettings(), tokenCounter: embedder.tokenCounter)
        let reader = DocumentReader()
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { !$0.hasDirectoryPath }.sorted { $0.path < $1.path }
        return try files.map { file in
            let data = try Data(contentsOf: file)
            let input = SourceInput(uri: file.absoluteString, path: file.path, data: data)
            let (extractor, document) = try reader.extract(input, display: file.lastPathComponent)
            let passages = chunker.chunk(document.blocks)
            let vectors = try embedder.embed(passages.map {
                ContextualHeader.embedded($0.text, title: document.title, sectionPath: $0.sectionPath)
            })
            let hash = ContentHash.sha256(data)
            return LibraryStore.DocumentWrite(
                sourceURI: input.uri, sourceKind: .file, uri: input.uri, path: file.path, extractor: extractor.name,
                extractorVersion: extractor.version, contentHash: hash,
                skipKey: SkipKey(passages: hash, embedder: embedder.info.key), document: document, passages: passages,
                vectors: vectors, embedder: embedder.info)
        }
    }

    /// corpora/ and `more` written into a fresh PostgreSQL database (named by `suffix`) and into
    /// a library file, the pair a comparison of the backends needs; `folder` holds the file.
    private static func corporaOnBothBackends(_ suffix: String, more: [LibraryStore.DocumentWrite] = []) throws
        -> (url: String, postgres: PostgresLibrary, sqlite: LibraryStore, folder: TemporaryFolder) {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: suffix)
        let postgres = try PostgresLibrary(url: url)
        let folder = try TemporaryFolder()
        let sqlite = try LibraryStore(path: folder.file("library.db").path)
        for write in try corporaWrites() + more {
            try postgres.replaceDocument(write)
            try sqlite.replaceDocument(write)
        }
        return (url, postgres, sqlite, folder)
    }

    /// 150 short notes of ten other words (each note's own word too when `numbered`), as ingest
    /// writes them: a library grown past what corpora/ alone holds.
    private static func noteWrites(numbered: Bool) throws -> [LibraryStore.DocumentWrite] {
        let notes = try TemporaryFolder()
        let words = ["harbour", "lantern", "granite", "meadow", "violin", "saddle", "quarry", "walnut", "orchard", "beacon"]
        for n in 0..<150 {
            let text = (0..<12).map { words[($0 * 7 + n * 3 + $0 * n) % words.count] }.joined(separator: " ") + (numbered ? " note\(n)" : "")
            try "# Note \(n)\n\n\(text).\n".write(to: notes.file("note-\(n).md"), atomically: false, encoding: .utf8)
        }
        return try writes(of: notes.url)
    }

    func testCorporaGiveTheSameTopHitsOnSQLiteAndPostgreSQL() throws {
        let server = try PostgresServer.shared()
        let postgres = try PostgresLibrary(url: try server.freshDatabase(for: Self.self))
        let folder = try TemporaryFolder()
        let sqlite = try LibraryStore(path: folder.file("library.db").path)
        let writes = try Self.corporaWrites()
        XCTAssertGreaterThanOrEqual(writes.count, 10, "corpora/ has notes, PDFs and transcripts")
        let backends: [any LibraryBackend] = [sqlite, postgres]
        for backend in backends {
            for write in writes { try backend.replaceDocument(write) }
            // A document stored again replaces its passages, never doubles them.
            try backend.replaceDocument(writes[0])
        }
        let passages = writes.map(\.passages.count).reduce(0, +)
        XCTAssertEqual(try postgres.connection.query("select count(*) from passages").scalar, String(passages))
        XCTAssertEqual(try postgres.connection.query("select passages from keyword_totals").scalar, String(passages))
        // The same keyword postings (FTS5's tokens, each term's passages and row sizes), a
        // replaced document's counted once.
        let sqliteTerms = try sqlite.read { db in
            try Row.fetchAll(db, sql: "SELECT term, passages FROM keyword_terms").map { "\($0[0] as String) \($0[1] as Int)" }
        }
        let postgresTerms = try postgres.connection.query("select term, passages from keyword_terms").rows.map { "\($0[0]!) \($0[1]!)" }
        XCTAssertGreaterThan(sqliteTerms.count, 500)
        XCTAssertEqual(Set(postgresTerms), Set(sqliteTerms))
        XCTAssertEqual(postgresTerms.count, sqliteTerms.count)
        let sqliteTokens = try sqlite.read { db in
            try Int.fetchOne(db, sql: "SELECT value FROM library_totals WHERE name = ?", arguments: [KeywordPostings.totalTokensName])
        }
        XCTAssertEqual(try postgres.connection.query("select postings_tokens from keyword_totals").scalar, sqliteTokens.map(String.init))
        XCTAssertEqual(try postgres.connection.query("select sum(tokens) from keyword_sizes").scalar, sqliteTokens.map(String.init))

        let embedder = HashingEmbedder()
        let queries = ["chain rule derivative", "photosynthesis light reactions", "glycolysis oxygen",
                       "printing press", "membrane transport proteins", "limits continuity",
                       // Phrases (consecutive, in one column) and exclusions, as FTS5 reads them.
                       "\"chain rule\" derivative", "\"electron transport\"", "\"calvin cycle\" -oxygen", "cell -\"cell membrane\""]
        for text in queries {
            let query = SearchQuery(parsing: text)
            // Keywords: the same passages in the same order, with the same BM25 (FTS5's): for a
            // query of words the very same double (one scorer over the same postings), for a
            // phrase of several words computed in SQL.
            let keywordHits = try backends.map { backend in
                let hits = try backend.keywordMatches(query, limit: 5)
                let places = try backend.passageLocators(hits.map(\.id))
                return hits.map { (place: places[$0.id]!, score: $0.score) }
            }
            XCTAssertFalse(keywordHits[0].isEmpty, "\(text): SQLite finds it")
            XCTAssertEqual(keywordHits[1].map(\.place), keywordHits[0].map(\.place), "\(text): keyword hits differ")
            for (pg, lite) in zip(keywordHits[1], keywordHits[0]) {
                if query.phrases.allSatisfy({ $0.count == 1 }) {
                    XCTAssertEqual(pg.score, lite.score, "\(text): BM25 of \(lite.place)")
                } else {
                    XCTAssertEqual(pg.score, lite.score, accuracy: 1e-6 * max(1, abs(lite.score)), "\(text): BM25 of \(lite.place)")
                }
            }
            // Vectors: HNSW candidates re-ranked in float32 give the exact scan's top hits and cosines.
            let vector = try embedder.embed(text)
            let nearest = try backends.map { backend in
                let hits = try backend.nearestPassages(to: vector, k: 5, embedder: embedder.info)
                let places = try backend.passageLocators(hits.map(\.id))
                return hits.map { (place: places[$0.id]!, score: $0.score) }
            }
            XCTAssertEqual(nearest[1].count, 5, "\(text)")
            XCTAssertEqual(nearest[1].map(\.place), nearest[0].map(\.place), "\(text): nearest passages differ")
            for (pg, lite) in zip(nearest[1], nearest[0]) {
                XCTAssertEqual(pg.score, lite.score, accuracy: 1e-5, "\(text): cosine of \(lite.place)")
            }
        }
    }

    /// A library written before the keyword postings (migration `v13-pg-keyword-postings`) is
    /// searched as it is when only read, in SQL; the first open that may write builds its
    /// postings from its passages, after which its keyword hits and scores are those of a
    /// library that had them all along.
    func testALibraryFromBeforeThePostingsGetsThemWhenOpened() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_upgrade")
        let writes = try Self.corporaWrites()
        let written = try PostgresLibrary(url: url)
        for write in writes { try written.replaceDocument(write) }
        let queries = ["chain rule derivative", "membrane transport proteins", "the cell", "glycolysis -oxygen"].map { SearchQuery(parsing: $0) }
        let expected = try queries.map { try written.keywordMatches($0, limit: 8) }
        let terms = try written.connection.query("select term, passages from keyword_terms order by term collate \"C\"").rows
        // As a library of the Lectern before the postings left it.
        try written.connection.transaction {
            try written.connection.query("drop table keyword_postings, keyword_terms, keyword_sizes")
            try written.connection.query("alter table keyword_totals drop column postings_tokens")
            try written.connection.query("delete from lectern_migrations where identifier = 'v13-pg-keyword-postings'")
        }
        let read = try PostgresLibrary(url: url, access: .read)
        for (query, hits) in zip(queries, expected) {
            let found = try read.keywordMatches(query, limit: 8)
            XCTAssertEqual(found.map(\.id), hits.map(\.id), "read as it is: \(query)")
            for (old, new) in zip(found, hits) { XCTAssertEqual(old.score, new.score, accuracy: 1e-6 * max(1, abs(new.score))) }
        }
        XCTAssertEqual(try read.connection.query("select to_regclass('keyword_postings') is null").scalar, "t", "reading writes nothing")
        let upgraded = try PostgresLibrary(url: url)
        // Every migration applied (v13 last here: this library had the later ones already).
        XCTAssertEqual(Set(try PostgresSchema.applied(upgraded.connection)), Set(PostgresSchema.migrations.map(\.name)))
        XCTAssertEqual(try upgraded.connection.query("select term, passages from keyword_terms order by term collate \"C\"").rows, terms)
        for (query, hits) in zip(queries, expected) {
            let found = try upgraded.keywordMatches(query, limit: 8)
            XCTAssertEqual(found.map(\.id), hits.map(\.id), "\(query)")
            XCTAssertEqual(found.map(\.score), hits.map(\.score), "\(query)")
        }
    }

    func testPostgresRefusesASecondEmbedderInOneLine() throws {
        let library = try PostgresLibrary(url: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_embedder"))
        var write = try XCTUnwrap(Self.corporaWrites().first { $0.uri.hasSuffix("chain-rule.md") })
        try library.replaceDocument(write)
        write.embedder = EmbedderInfo(name: "other", model: "other-model", dimension: 384, version: 1)
        XCTAssertThrowsError(try library.replaceDocument(write)) { error in
            XCTAssertTrue("\(error)".contains("it cannot take vectors from other"), "\(error)")
        }
    }

    /// `reembed` on both backends: vectors of the new embedder written beside the old ones (a
    /// switch before every passage has one is refused), then the switch, after which the
    /// nearest passages and their cosines are the same on both.
    func testReembedSwitchesBothBackendsToTheSameNeighbours() throws {
        let postgres = try PostgresLibrary(url: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_reembed"))
        let folder = try TemporaryFolder()
        let sqlite = try LibraryStore(path: folder.file("library.db").path)
        let writes = Array(try Self.corporaWrites().prefix(4))
        let passages = writes.map(\.passages.count).reduce(0, +)
        let target = HashingEmbedder(dimension: 128)
        let backends: [any LibraryBackend] = [sqlite, postgres]
        for backend in backends {
            for write in writes { try backend.replaceDocument(write) }
            // Part-way: the library keeps its embedder and refuses to switch.
            let first = try backend.passagesMissingVectors(target.info, limit: 10)
            XCTAssertEqual(first.count, 10)
            try backend.addVectors(ids: first.map(\.id), vectors: try target.embed(first.map(\.text)), embedder: target.info)
            XCTAssertEqual(try backend.passageIdsWithVectors(target.info).count, 10)
            XCTAssertThrowsError(try backend.switchEmbedder(to: target.info)) { error in
                XCTAssertTrue("\(error)".contains("\(passages - 10) passages still lack vectors"), "\(error)")
            }
            XCTAssertEqual(try backend.recordedEmbedder(), writes[0].embedder)
            let result = try Reembedding(library: Library(backend: backend), target: target, batchSize: 50).run(recorder: nil) { _ in }
            XCTAssertTrue(result.switched)
            XCTAssertEqual(result.embedded, passages - 10, "the vectors written before are kept")
            XCTAssertEqual(try backend.recordedEmbedder(), target.info)
        }
        for text in ["chain rule derivative", "photosynthesis light reactions"] {
            let vector = try target.embed(text)
            let nearest = try backends.map { backend in
                let hits = try backend.nearestPassages(to: vector, k: 5, embedder: target.info)
                let places = try backend.passageLocators(hits.map(\.id))
                return hits.map { (place: places[$0.id]!, score: $0.score) }
            }
            XCTAssertEqual(nearest[1].count, 5, text)
            XCTAssertEqual(nearest[1].map(\.place), nearest[0].map(\.place), "\(text): nearest passages differ")
            for (pg, lite) in zip(nearest[1], nearest[0]) { XCTAssertEqual(pg.score, lite.score, accuracy: 1e-5, text) }
        }
        // The next ingest with the old embedder is refused on both.
        for backend in backends {
            XCTAssertThrowsError(try backend.replaceDocument(writes[0])) { error in
                XCTAssertTrue("\(error)".contains("cannot take vectors from"), "\(error)")
            }
        }
    }

    func testMigrationsApplyOnceWhenSeveralProcessesOpenANewLibraryAtOnce() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_migrate")
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { _ = try PostgresLibrary(url: url) } catch { failures.withLock { $0.append("\(error)") } }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let library = try PostgresLibrary(url: url)
        XCTAssertEqual(try PostgresSchema.applied(library.connection), PostgresSchema.migrations.map(\.name))
        XCTAssertEqual(try library.connection.query("select count(*) from keyword_totals").scalar, "1")
    }

    /// A library an earlier Lectern made (its HNSW index with pgvector's defaults) gets the index
    /// as `embeddingIndex` now makes it when it is next opened, and finds the same passages.
    func testAnEarlierLibrarysHNSWIndexIsBuiltAgainWithTodaysSettings() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_index")
        let write = try XCTUnwrap(Self.corporaWrites().first { $0.uri.hasSuffix("chain-rule.md") })
        let embedder = HashingEmbedder()
        let vector = try embedder.embed("derivative of a composite function")
        let before = try PostgresLibrary(url: url)
        try before.replaceDocument(write)
        let found = try before.nearestPassages(to: vector, k: 3, embedder: embedder.info)
        let definition = "select indexdef from pg_indexes where indexname = 'passages_embedding'"
        XCTAssertTrue(try before.connection.query(definition).scalar?.contains("ef_construction='128'") == true)
        try before.connection.query("drop index passages_embedding")
        try before.connection.query("""
            create index passages_embedding on passages using hnsw ((embedding::halfvec(384)) halfvec_cosine_ops)
            where vector_dims(embedding) = 384
            """)
        try before.connection.query("delete from lectern_migrations where identifier = 'v14-pg-hnsw-ef-construction'")
        let after = try PostgresLibrary(url: url)
        let rebuilt = try XCTUnwrap(after.connection.query(definition).scalar)
        XCTAssertTrue(rebuilt.contains("ef_construction='128'") && rebuilt.contains("vector_dims(embedding) = 384"), rebuilt)
        XCTAssertEqual(try after.nearestPassages(to: vector, k: 3, embedder: embedder.info).map(\.id), found.map(\.id))
    }

    /// A keyword search reads every row of its words' postings, which documents written one at
    /// a time leave scattered over the table, a page a row. An earlier library is put in term
    /// order when it is next opened to write, with the same keyword hits and scores after.
    func testTheKeywordPostingsArePutInTermOrder() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_term_order")
        let before = try PostgresLibrary(url: url)
        for write in try Self.corporaWrites() { try before.replaceDocument(write) }
        let query = SearchQuery(parsing: "photosynthesis light reactions chain rule printing press")
        let hits = try before.keywordMatches(query, limit: 10)
        XCTAssertGreaterThan(try before.connection.postingsOutOfOrder(), 0, "each document written puts its terms after the last one's")
        try before.connection.query("delete from lectern_migrations where identifier = 'v16-pg-keyword-postings-in-term-order'")
        let after = try PostgresLibrary(url: url)
        XCTAssertEqual(try after.connection.postingsOutOfOrder(), 0)
        let again = try after.keywordMatches(query, limit: 10)
        XCTAssertEqual(again.map(\.id), hits.map(\.id))
        XCTAssertEqual(again.map(\.score), hits.map(\.score))
    }

    /// A library fed after its postings were put in order: once the rows written since have
    /// grown the table by a quarter, the run's finishing stages put it back in term order
    /// (`orderKeywordPostings`); before that, and again right after, they leave it as it is.
    func testAGrownLibrarysKeywordPostingsArePutBackInTermOrder() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_reorder")
        let library = try PostgresLibrary(url: url)
        for write in try Self.corporaWrites() { try library.replaceDocument(write) }
        XCTAssertFalse(try library.orderKeywordPostings(), "the first call records the postings' size")
        XCTAssertFalse(try library.orderKeywordPostings(), "nothing written since")
        for write in try Self.noteWrites(numbered: true) { try library.replaceDocument(write) }
        XCTAssertGreaterThan(try library.connection.postingsOutOfOrder(), 0)
        let query = SearchQuery(parsing: "granite meadow photosynthesis")
        let hits = try library.keywordMatches(query, limit: 10)
        XCTAssertTrue(try library.orderKeywordPostings(), "grown by more than a quarter")
        XCTAssertEqual(try library.connection.postingsOutOfOrder(), 0)
        XCTAssertEqual(try library.keywordMatches(query, limit: 10).map(\.id), hits.map(\.id))
        XCTAssertFalse(try library.orderKeywordPostings(), "in order, nothing written since")
        let folder = try TemporaryFolder()
        XCTAssertFalse(try LibraryStore(path: folder.file("library.db").path).orderKeywordPostings(), "a library file's postings are in order")
    }

    /// Round trips to the server (~0.1 ms each on one machine, a network's latency between two):
    /// opening a library that has every migration is two statements (it was five a migration),
    /// a keyword search two or three, a search by meaning four (its HNSW settings and its query
    /// in one transaction), whatever the query.
    func testOpeningALibraryAndSearchingItTakeAFewStatements() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_statements")
        let write = try XCTUnwrap(Self.corporaWrites().first { $0.uri.hasSuffix("chain-rule.md") })
        try PostgresLibrary(url: url).replaceDocument(write)
        let library = try PostgresLibrary(url: url)
        XCTAssertEqual(library.connection.statements, 2, "opening a library that is up to date")
        for text in ["chain rule derivative", "\"chain rule\" -balloon", "derivative of a composite function"] {
            var before = library.connection.statements
            let hits = try library.keywordMatches(SearchQuery(parsing: text), limit: 5)
            XCTAssertFalse(hits.isEmpty, text)
            // The items counted, then ranked; ranked again when leaving a common word out did not settle it.
            XCTAssertLessThanOrEqual(library.connection.statements - before, 3, "keyword search for \(text)")
            before = library.connection.statements
            let embedder = HashingEmbedder()
            let nearest = try library.nearestPassages(to: try embedder.embed(text), k: 3, embedder: embedder.info, documents: nil,
                                                      passages: nil, allowedBy: SearchQuery(parsing: text), scan: VectorScan { _, _ in [] })
            XCTAssertFalse(nearest.isEmpty, text)
            XCTAssertEqual(library.connection.statements - before, 4, "search by meaning for \(text)")
        }
    }

    /// A hybrid search on PostgreSQL ranks the query's words in a second session while its own
    /// session asks the HNSW index, so the two halves overlap: the same hits and scores as the
    /// SQLite library's hybrid search, the keyword statements never on the first session, and
    /// one second session however many searches run (a server's connections are counted).
    func testAHybridSearchRanksWordsInASecondSessionOpenedOnce() throws {
        let libraries = try Self.corporaOnBothBackends("_side")
        let (url, postgres, sqlite) = (libraries.url, libraries.postgres, libraries.sqlite)
        let embedder = HashingEmbedder()
        let onPostgres = Searcher(library: Library(backend: postgres), embedder: embedder)
        let onSQLite = Searcher(store: sqlite, embedder: embedder)
        let watcher = try PostgresConnection(url: url)
        func sessions() throws -> Int {
            Int(try watcher.query("select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()").scalar ?? "") ?? -1
        }
        XCTAssertEqual(try sessions(), 1, "the library's own session before any search")
        func statements(_ text: String, _ mode: SearchMode) throws -> (own: Int, side: Int) {
            let side = try XCTUnwrap(postgres.concurrentReader()?.open() as? PostgresLibrary)
            let before = (postgres.connection.statements, side.connection.statements)
            var timings = SearchTimings()
            var notes: [String] = []
            _ = try onPostgres.rank(text, k: 8, mode: mode, filter: SearchFilter(), timings: &timings, notes: &notes)
            return (postgres.connection.statements - before.0, side.connection.statements - before.1)
        }
        for text in ["chain rule derivative", "photosynthesis light reactions", "printing press", "\"calvin cycle\" -oxygen"] {
            let hits = try onPostgres.search(text, k: 8, mode: .hybrid)
            // The library's own session asks what a search by meaning asks; the words are ranked in the other.
            let (hybrid, semantic) = (try statements(text, .hybrid), try statements(text, .semantic))
            XCTAssertEqual(hybrid.own, semantic.own, "\(text): statements on the library's own session")
            XCTAssertGreaterThanOrEqual(hybrid.side, 2, "\(text): the words' counts and postings, in the second session")
            XCTAssertEqual(semantic.side, 0, "\(text): a search by meaning alone asks only the index")
            let expected = try onSQLite.search(text, k: 8, mode: .hybrid)
            XCTAssertFalse(expected.isEmpty, text)
            XCTAssertEqual(hits.map(\.uri), expected.map(\.uri), "\(text): hybrid hits differ")
            XCTAssertEqual(hits.map(\.location), expected.map(\.location), "\(text): hybrid hits differ")
            for (pg, lite) in zip(hits, expected) {
                XCTAssertEqual(pg.score, lite.score, accuracy: 1e-5, "\(text): score of \(lite.location)")
                XCTAssertEqual(pg.bm25 ?? -1, lite.bm25 ?? -1, accuracy: 1e-9, "\(text): BM25 of \(lite.location)")
            }
            XCTAssertEqual(try sessions(), 2, "\(text): the library's session and the one its words are ranked in")
        }
        // A keyword search stays on the library's own session.
        let keyword = try statements("glycolysis oxygen", .keyword)
        XCTAssertGreaterThanOrEqual(keyword.own, 2, "a keyword search asks the library's own session")
        XCTAssertEqual(keyword.side, 0)
    }

    /// A hybrid search as a user whom the server allows one connection: the second session
    /// cannot be opened, and the words are ranked in the library's own session after the index,
    /// with the same hits as a library file's.
    func testAHybridSearchOnOneAllowedConnectionRanksTheWordsInItsOwnSession() throws {
        let server = try PostgresServer.shared()
        let libraries = try Self.corporaOnBothBackends("_one_connection")
        let (url, owner, sqlite) = (libraries.url, libraries.postgres, libraries.sqlite)
        try owner.connection.query("drop role if exists lectern_one_session")
        try owner.connection.query("create role lectern_one_session login password 'one-session' connection limit 1")
        try owner.connection.query("grant select on all tables in schema public to lectern_one_session")
        let limited = url.replacingOccurrences(of: "lectern:\(server.password)@", with: "lectern_one_session:one-session@")
        XCTAssertNotEqual(limited, url)
        let library = try PostgresLibrary(url: limited, access: .read)
        XCTAssertThrowsError(try PostgresConnection(url: limited), "the server allows this user one connection")
        let embedder = HashingEmbedder()
        for text in ["chain rule derivative", "photosynthesis light reactions"] {
            let hits = try Searcher(library: Library(backend: library), embedder: embedder).search(text, k: 5, mode: .hybrid)
            let expected = try Searcher(store: sqlite, embedder: embedder).search(text, k: 5, mode: .hybrid)
            XCTAssertFalse(expected.isEmpty, text)
            XCTAssertEqual(hits.map(\.location), expected.map(\.location), text)
            for (pg, lite) in zip(hits, expected) { XCTAssertEqual(pg.score, lite.score, accuracy: 1e-5, "\(text): \(lite.location)") }
        }
    }

    /// A passage the HNSW index does not return (here: its half-precision copy, which the index
    /// holds, made another passage's) still has its exact cosine in a hybrid search on
    /// PostgreSQL when it holds the query's words: those passages are scored by their exact
    /// vectors beside the index's candidates, so the fusion is the one a library file makes.
    func testAPassageTheIndexMissesHasItsExactCosineInAHybridSearch() throws {
        // corpora/ and 150 short notes of other words, so that the index's 100 candidates are not all.
        let libraries = try Self.corporaOnBothBackends("_missed", more: Self.noteWrites(numbered: false))
        let (postgres, sqlite) = (libraries.postgres, libraries.sqlite)
        let embedder = HashingEmbedder()
        let text = "photosynthesis light reactions"
        // Rankings 10 deep: the index's best 100 are re-ranked, fewer than the library's passages.
        var onFile = Searcher(store: sqlite, embedder: embedder)
        onFile.candidates = 10
        let expected = try onFile.search(text, k: 5, mode: .semantic)
        let best = try XCTUnwrap(expected.first)
        var onPostgres = Searcher(library: Library(backend: postgres), embedder: embedder)
        onPostgres.candidates = 10
        XCTAssertGreaterThan(Int(try postgres.connection.query("select count(*) from passages").scalar ?? "") ?? 0, 150)
        XCTAssertEqual(try onPostgres.search(text, k: 5, mode: .semantic).first?.location, best.location)
        // The index now places the best passage where the one least like the query is.
        let vector = PostgresLibrary.vectorLiteral(try embedder.embed(text))
        let target = try XCTUnwrap(postgres.connection.query("select id from passages order by exact <=> $1::vector limit 1", [vector]).scalar)
        try postgres.connection.query("""
            update passages set embedding = (select embedding from passages order by exact <=> $1::vector desc limit 1) where id = $2
            """, [vector, target])
        let index = try postgres.nearestPassages(to: try embedder.embed(text), k: 10, embedder: embedder.info, documents: nil, passages: nil,
                                                 allowedBy: SearchQuery(parsing: text), scan: VectorScan { _, _ in [] })
        XCTAssertFalse(index.map(\.id).contains(Int64(target)!), "the index no longer returns it")
        let hits = try onPostgres.search(text, k: 5, mode: .hybrid)
        let file = try onFile.search(text, k: 5, mode: .hybrid)
        XCTAssertEqual(hits.map(\.location), file.map(\.location), "the library file's hits")
        let found = try XCTUnwrap(hits.first { $0.passageId == Int64(target)! }, "the passage the index misses is a hit")
        XCTAssertEqual(found.cosine ?? 0, file.first { $0.location == found.location }?.cosine ?? 1, accuracy: 1e-5, "its exact cosine")
    }

    /// A query of words is ranked from the keyword postings, every word however common, in two
    /// statements (the counts, the postings) at any depth, with SQLite's very scores. One with a
    /// quoted phrase of several words, which the postings cannot rank, is ranked in SQL, where a
    /// word every passage holds adds next to nothing to a score (FTS5 floors its idf): the
    /// passages holding the query's other words are ranked alone when they fill the top (two
    /// statements: the counts, one ranking), and the whole match when they do not (three);
    /// either way the hits and their BM25 are SQLite's.
    func testACommonWordIsLeftOutOfTheMatchOnlyWhereItCannotChangeTheTop() throws {
        let sections = (0..<40).map { index in
            let rare = index < 9 ? Array(repeating: "zephyr", count: index % 3 + 1).joined(separator: " ") + " " : ""
            let tides = Array(repeating: "tide", count: index % 4 + 1).joined(separator: " ")
            return "# Part \(index)\n\nThe \(rare)\(tides) of part \(index) turns over stones number \(index * 7).\n"
        }
        let data = Data(sections.joined(separator: "\n").utf8)
        let embedder = HashingEmbedder()
        let input = SourceInput(uri: "file:///generated/tides.md", path: "/generated/tides.md", data: data)
        let (extractor, document) = try DocumentReader().extract(input, display: "tides.md")
        let passages = Chunker(settings: ChunkSettings(), tokenCounter: embedder.tokenCounter).chunk(document.blocks)
        XCTAssertEqual(passages.count, 40, "a passage a section")
        let hash = ContentHash.sha256(data)
        let write = LibraryStore.DocumentWrite(
            sourceURI: input.uri, sourceKind: .file, uri: input.uri, path: input.path, extractor: extractor.name,
            extractorVersion: extractor.version, contentHash: hash, skipKey: SkipKey(passages: hash, embedder: embedder.info.key),
            document: document, passages: passages, vectors: try embedder.embed(passages.map(\.text)), embedder: embedder.info)
        let postgres = try PostgresLibrary(url: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_common"))
        let folder = try TemporaryFolder()
        let sqlite = try LibraryStore(path: folder.file("library.db").path)
        try postgres.replaceDocument(write)
        try sqlite.replaceDocument(write)
        for (text, limit, statements) in [("zephyr tides", 5, 2), ("zephyr tides", 20, 2),
                                          ("\"turns over\" zephyr tides", 5, 2), ("\"turns over\" zephyr tides", 20, 3)] {
            let query = SearchQuery(parsing: text)
            let before = postgres.connection.statements
            let found = try postgres.keywordMatches(query, limit: limit)
            XCTAssertEqual(postgres.connection.statements - before, statements, "\(text), top \(limit)")
            let expected = try sqlite.keywordMatches(query, limit: limit)
            XCTAssertEqual(found.count, limit)
            let places = try postgres.passageLocators(found.map(\.id)), expectedPlaces = try sqlite.passageLocators(expected.map(\.id))
            XCTAssertEqual(found.map { places[$0.id]! }, expected.map { expectedPlaces[$0.id]! }, "\(text), top \(limit)")
            for (pg, lite) in zip(found, expected) {
                if query.phrases.isEmpty {
                    XCTAssertEqual(pg.score, lite.score, "\(text): the same scorer, the same double")
                } else {
                    XCTAssertEqual(pg.score, lite.score, accuracy: 1e-6 * max(1, abs(lite.score)), text)
                }
            }
        }
    }

    /// A transaction inside another is a savepoint on both backends (GRDB's `inSavepoint` in
    /// SQLite): an inner one that commits still goes when the outer one fails, and an inner one
    /// that fails, its error caught by the outer body, takes only its own writes with it.
    func testNestedTransactionsNestOnBothBackends() throws {
        struct Stop: Error {}
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_nested")
        let postgres = try PostgresLibrary(url: url)
        let folder = try TemporaryFolder()
        let sqlite = try LibraryStore(path: folder.file("library.db").path)
        let insert = "insert into settings (key, value) values ($1, 'written')"
        func pgKeys() throws -> [String] {
            try postgres.connection.query("select key from settings where key like 'nested.%' order by key").rows.compactMap { $0[0] }
        }
        func sqliteKeys() throws -> [String] {
            try sqlite.read { db in try String.fetchAll(db, sql: "SELECT key FROM settings WHERE key LIKE 'nested.%' ORDER BY key") }
        }

        // The inner transaction commits, then the outer body fails: nothing is written.
        XCTAssertThrowsError(try postgres.transaction {
            try postgres.connection.query(insert, ["nested.outer"])
            try postgres.transaction { try postgres.connection.query(insert, ["nested.inner"]) }
            throw Stop()
        })
        XCTAssertThrowsError(try sqlite.write { db in
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('nested.outer', 'written')")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('nested.inner', 'written')")
                return .commit
            }
            throw Stop()
        })
        XCTAssertEqual(try pgKeys(), [], "the outer transaction's failure takes the inner one's writes")
        XCTAssertEqual(try sqliteKeys(), [])

        // An inner transaction fails on a statement (a key already there) and the outer body
        // catches it and goes on, through a second inner one that commits: the outer and second
        // inner writes stand, the failed one's do not.
        try postgres.transaction {
            try postgres.connection.query(insert, ["nested.a"])
            XCTAssertThrowsError(try postgres.transaction {
                try postgres.connection.query(insert, ["nested.c"])
                try postgres.connection.query(insert, ["nested.a"])
            })
            try postgres.transaction { try postgres.connection.query(insert, ["nested.b"]) }
            try postgres.connection.query(insert, ["nested.d"])
        }
        try sqlite.write { db in
            let insert = "INSERT INTO settings (key, value) VALUES (?, 'written')"
            try db.execute(sql: insert, arguments: ["nested.a"])
            XCTAssertThrowsError(try db.inSavepoint {
                try db.execute(sql: insert, arguments: ["nested.c"])
                try db.execute(sql: insert, arguments: ["nested.a"])
                return .commit
            })
            try db.inSavepoint {
                try db.execute(sql: insert, arguments: ["nested.b"])
                return .commit
            }
            try db.execute(sql: insert, arguments: ["nested.d"])
        }
        XCTAssertEqual(try sqliteKeys(), ["nested.a", "nested.b", "nested.d"])
        XCTAssertEqual(try pgKeys(), try sqliteKeys(), "PostgreSQL nests as SQLite does")
        // The session is out of every transaction: a statement outside one commits alone.
        try postgres.connection.query(insert, ["nested.e"])
        XCTAssertEqual(try PostgresConnection(url: url).query("select count(*) from settings where key = 'nested.e'").scalar, "1")
    }

    /// A search by meaning filtered to one document still returns k hits, the document's best,
    /// when the HNSW index ranks hundreds of other passages first: the query's ef_search (100
    /// here) holds none of the allowed ones, and pgvector's iterative scan goes on past the rows
    /// the filter rejects (without it the search found nothing).
    func testAFilteredSearchByMeaningStillReturnsKHitsWhereTheIndexRanksOthersFirst() throws {
        let embedder = HashingEmbedder()
        func write(_ name: String, _ sections: [String]) throws -> LibraryStore.DocumentWrite {
            let data = Data(sections.enumerated().map { "# Part \($0.offset)\n\n\($0.element)\n" }.joined(separator: "\n").utf8)
            let input = SourceInput(uri: "file:///generated/\(name)", path: "/generated/\(name)", data: data)
            let (extractor, document) = try DocumentReader().extract(input, display: name)
            let passages = Chunker(settings: ChunkSettings(), tokenCounter: embedder.tokenCounter).chunk(document.blocks)
            XCTAssertEqual(passages.count, sections.count, "\(name): a passage a section")
            let hash = ContentHash.sha256(data)
            return LibraryStore.DocumentWrite(
                sourceURI: input.uri, sourceKind: .file, uri: input.uri, path: input.path, extractor: extractor.name,
                extractorVersion: extractor.version, contentHash: hash, skipKey: SkipKey(passages: hash, embedder: embedder.info.key),
                document: document, passages: passages, vectors: try embedder.embed(passages.map(\.text)), embedder: embedder.info)
        }
        let tides = try write("tides.md", (0..<600).map { "The moon pulls the ocean tides, high tide number \($0) on the shore." })
        let volcanoes = try write("volcanoes.md", (0..<150).map { index in
            "Lava from volcano \(index) " + (index % 3 == 0 ? "meets the ocean tides." : "cools into basalt rock.")
        })
        let library = try PostgresLibrary(url: try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_filtered"))
        try library.replaceDocument(tides)
        let allowed = try library.replaceDocument(volcanoes)
        // The statistics autovacuum keeps on a library in use: without them the planner guesses
        // one document's passages a handful and reads them by `passages_document`, not the index.
        try library.connection.query("analyze passages")
        let vector = try embedder.embed("the moon and the ocean tides")
        let unfiltered = try library.nearestPassages(to: vector, k: 10, embedder: embedder.info)
        XCTAssertEqual(Set(try library.passageLocators(unfiltered.map(\.id)).values.map(\.documentURI)), [tides.uri],
                       "unfiltered, the tides' passages come first")
        let hits = try library.nearestPassages(to: vector, k: 10, embedder: embedder.info, documents: [allowed], passages: nil,
                                               allowedBy: SearchQuery(parsing: ""), scan: VectorScan { _, _ in [] })
        XCTAssertEqual(hits.count, 10, "k hits from the one document allowed")
        XCTAssertEqual(Set(try library.passageLocators(hits.map(\.id)).values.map(\.documentURI)), [volcanoes.uri])
        // The document's best ten by their exact cosine, the ones that meet the tides first.
        let expected = volcanoes.vectors.map { zip($0, vector).map { Double($0 * $1) }.reduce(0, +) }.sorted(by: >).prefix(10)
        for (hit, cosine) in zip(hits, expected) { XCTAssertEqual(Double(hit.score), cosine, accuracy: 1e-5) }
    }

    func testWriterLockIsOneAtATimeAcrossSessionsAndNamesItsHolder() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_lock")
        let first = try PostgresLibrary(url: url), second = try PostgresLibrary(url: url)
        try first.withWriterLock(wait: false) {
            XCTAssertThrowsError(try second.withWriterLock(wait: false) {}) { error in
                let held = error as? RunLock.Held
                XCTAssertNotNil(held, "\(error)")
                XCTAssertEqual(held?.holder?.pid, getpid(), "the holder is named")
            }
        }
        // Released: the other session takes it.
        XCTAssertEqual(try second.withWriterLock(wait: false) { 42 }, 42)
        // A session that ends (a killed worker) releases its lock with it.
        var dying: PostgresLibrary? = try PostgresLibrary(url: url)
        try dying!.connection.query("select pg_advisory_lock($1)", [String(PostgresSchema.writerLock)])
        XCTAssertThrowsError(try first.withWriterLock(wait: false) {})
        dying = nil
        XCTAssertEqual(try first.withWriterLock(wait: true) { "taken" }, "taken")
    }
    /// A PostgreSQL URL given as the library (flag, environment, config file) is read as one,
    /// never as a relative path (`./postgres:/…`, "no library there"): the commands not moved
    /// onto the seam yet refuse it in one line naming the command and the server without its
    /// password; the moved ones say in one line that the server cannot be reached.
    func testCommandsRefuseAPostgresLibraryInOneLineWithoutThePassword() throws {
        let folder = try TemporaryFolder()
        // Port 1 on this machine: nothing listens, so a command that connects fails at once.
        let url = "postgres://lectern:s3cret-pw@127.0.0.1:1/library"
        let shown = "postgres://lectern@127.0.0.1:1/library: "
        let refusal = "does not work on a library on PostgreSQL yet (ingest, search, show, sources, stats, rm, prune, reembed, "
            + "summarize, ask, curriculum, cards, context, run, runs, logs, worker do): give a library file (--db FILE)"
        try folder.write("config-home/lectern/config.toml", "database = \"\(url)\"\n")
        let runs = [
            (try runLectern(["backup", "copy.db"], in: folder.url, environment: ["LECTERN_DB": url]), shown + "`lectern backup` " + refusal),
            (try runLectern(["runs"], in: folder.url, environment: ["LECTERN_DB": url]), shown + "cannot connect: "),
            (try runLectern(["curriculum", "list", "--db", url], in: folder.url), shown + "cannot connect: "),
            (try runLectern(["cards", "stats"], in: folder.url, environment: ["LECTERN_DB": ""]), shown + "cannot connect: "),
            (try runLectern(["stats"], in: folder.url, environment: ["LECTERN_DB": url]), shown + "cannot connect: "),
        ]
        for (result, expected) in runs {
            XCTAssertNotEqual(result.status, 0)
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), result.stderr)
            XCTAssertFalse(result.stderr.contains("s3cret-pw") || result.stdout.contains("s3cret-pw"), "the password leaked")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("postgres:").path), "no folder made from the URL")
    }
    /// Four sessions writing at once (the workers of a queue): every document stored exactly
    /// once, the one they all write included, and BM25's totals agree with the passages.
    func testConcurrentWritersLoseAndDoubleNothing() throws {
        let url = try PostgresServer.shared().freshDatabase(for: Self.self, suffix: "_writers")
        let writes = try Self.corporaWrites()
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let library = try PostgresLibrary(url: url)
                try library.replaceDocument(writes[0])
                for (index, write) in writes.enumerated() where index % 4 == worker { try library.replaceDocument(write) }
                try library.replaceDocument(writes[0])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let library = try PostgresLibrary(url: url)
        XCTAssertEqual(try library.connection.query("select count(*) from documents").scalar, String(writes.count))
        let passages = String(writes.map(\.passages.count).reduce(0, +))
        XCTAssertEqual(try library.connection.query("select count(*) from passages").scalar, passages)
        XCTAssertEqual(try library.connection.query("select passages from keyword_totals").scalar, passages)
        XCTAssertEqual(try library.connection.query("select count(distinct (document_id, ordinal)) from passages").scalar, passages)
    }
}

extension PostgresConnection {
    /// Rows of the keyword postings that sit after a row of a later term in the table's
    /// physical order: 0 when the postings are in term order, as a keyword search reads them.
    func postingsOutOfOrder() throws -> Int {
        Int(try query("""
            select count(*) from (select term, lag(term) over (order by ctid) as previous from keyword_postings) rows
            where previous > term
            """).scalar ?? "") ?? -1
    }
}
