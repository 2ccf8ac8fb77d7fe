import Foundation

/// A study library in a PostgreSQL database with pgvector: documents, blocks and passages as
/// the SQLite library holds them, with the SQLite library's keyword postings
/// (`PostgresKeywordPostings`) and, for phrases of several words, keywords in a tsvector with a
/// GIN index ranked by BM25 (`PostgresKeywords`); vectors as `halfvec` under an HNSW index for
/// cosine with their float32 copies to re-rank by. Opening migrates the schema (`PostgresSchema`).
// Safe: its one libpq session is used by one thread at a time, every operation holding `turn`
// (recursive: an operation calls others inside its transaction).
final class PostgresLibrary: LibraryBackend, @unchecked Sendable {
    let connection: PostgresConnection
    private let turn = NSRecursiveLock()
    /// While `lectern migrate` fills an empty library: the HNSW index is built once at the end
    /// (`finishCopy`), not a row at a time as each document is written.
    var embeddingIndexDeferred = false
    var display: String { connection.endpoint.description }
    /// What this library was opened with (its password too, when the URL holds it: never shown).
    private let url: String
    /// The second session a hybrid search ranks its words in (`concurrentReader`), once opened.
    private let reader = Locked<PostgresLibrary?>(nil)
    /// FTS5's tokenizer, which makes the keyword postings' terms (`PostgresKeywordPostings`),
    /// opened on first use, under `turn` as the session is.
    private var openedTokenizer: IndexTokenizer?
    var tokenizer: IndexTokenizer {
        get throws {
            if let openedTokenizer { return openedTokenizer }
            let opened = try IndexTokenizer.inMemory()
            openedTokenizer = opened
            return opened
        }
    }

    /// Connects to `url` (`postgres://user@host:port/dbname`) and brings its schema up to date;
    /// with `.read`, writes nothing: a database that holds no library yet is one line, and an
    /// older library's schema is read as it is (a command that writes upgrades it).
    init(url: String, access: LibraryAccess = .create) throws {
        connection = try PostgresConnection(url: url)
        self.url = url
        if access == .read {
            guard try connection.query("select to_regclass('lectern_migrations') is not null").scalar == "t" else {
                throw LibraryStore.noLibrary(connection.endpoint.description)
            }
            return
        }
        do {
            try PostgresSchema.migrate(connection)
        } catch let error as PostgresError where error.sqlState == "0A000" || error.message.contains("\"vector\"") {
            throw PostgresError(kind: .query, endpoint: error.endpoint,
                                message: "cannot use pgvector (\(error.message)): install the pgvector extension on the server", sqlState: error.sqlState)
        }
    }

    /// A session of its own for a hybrid search's keyword half (the postings read and ranked
    /// while this session's HNSW search runs): read-only, opened by the first hybrid search;
    /// and the exact cosines of passages by id, read in this session.
    func concurrentReader() -> ConcurrentReader? {
        ConcurrentReader(open: { [url, reader] in
            try reader.withLock { opened in
                if let opened { return opened }
                let library = try PostgresLibrary(url: url, access: .read)
                opened = library
                return library
            }
        }, cosines: { [self] ids, vector, embedder in
            guard !ids.isEmpty, vector.count == embedder.dimension else { return [] }
            return try session {
                try connection.query("""
                    select id, 1 - (exact <=> $1::vector) from passages where id = any($2::bigint[]) and vector_dims(embedding) = $3
                    """, [Self.vectorLiteral(vector), Self.bigintArray(ids), String(embedder.dimension)])
                    .rows.map { (id: Int64($0[0]!)!, score: Float($0[1]!)!) }
            }
        })
    }

    /// `body` with the session to itself.
    @discardableResult
    func session<T>(_ body: () throws -> T) rethrows -> T {
        turn.lock()
        defer { turn.unlock() }
        return try body()
    }

    /// `body` in one transaction, with the session to itself.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try session { try connection.transaction(body) }
    }

    // MARK: Writing

    @discardableResult
    func replaceDocument(_ w: LibraryStore.DocumentWrite) throws -> Int64 {
        precondition(w.passages.count == w.vectors.count, "one vector per passage")
        guard let type = DocumentType(rawValue: w.document.type) else {
            throw LecternError(.unsupported, w.uri, "the reader \(w.extractor) made a document of unknown type '\(w.document.type)'")
        }
        return try transaction {
            // Writers of the same document (two workers, a re-run beside a run) take turns, so
            // neither inserts it beside the other; writers of different documents do not wait.
            try connection.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [w.uri])
            try recordEmbedder(w.embedder)
            let now = LibraryStore.now()
            let (created, updated) = (w.recordedTimes?.created ?? now, w.recordedTimes?.updated ?? now)
            let sourceId = try connection.query("""
                insert into sources (uri, kind, created_at, updated_at) values ($1, $2, $3, $4)
                on conflict (uri) do update set updated_at = excluded.updated_at, kind = excluded.kind
                returning id
                """, [w.sourceURI, w.sourceKind.rawValue, created, w.recordedTimes?.sourceUpdated ?? now]).scalar!
            let fields: [String?] = [
                sourceId, w.path, type.rawValue, w.extractor, String(w.extractorVersion), w.document.title, w.contentHash,
                w.skipKey.passages, w.skipKey.embedder, LibraryStore.json(w.document.metadata),
                LibraryStore.json(w.document.warnings.map(\.description)), String(w.document.blocks.count),
                String(w.passages.count), updated,
            ]
            let documentId: String
            var postings = PostgresKeywordPostings.Change()
            if let existing = try connection.query("select id from documents where uri = $1 for update", [w.uri]).scalar {
                try deleteContent(documentId: existing, postings: &postings)
                try connection.query("""
                    update documents set source_id = $1, path = $2, type = $3, extractor = $4, extractor_version = $5,
                        title = $6, content_hash = $7, passage_key = $8, embedder_key = $9, metadata = $10, warnings = $11,
                        block_count = $12, passage_count = $13, updated_at = $14
                    where id = $15
                    """, fields + [existing])
                documentId = existing
            } else {
                documentId = try connection.query("""
                    insert into documents (source_id, path, type, extractor, extractor_version, title, content_hash,
                        passage_key, embedder_key, metadata, warnings, block_count, passage_count, updated_at, created_at,
                        uri, short_id)
                    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $17, $15, $16)
                    returning id
                    """, fields + [w.uri, ContentHash.shortId(w.uri), created]).scalar!
            }
            try connection.copy(into: "blocks", columns: [
                "document_id", "ordinal", "kind", "text", "level", "section_path", "page", "time_start", "time_end",
                "speaker", "char_offset", "attributes", "page_label",
            ], rows: w.document.blocks.enumerated().map { ordinal, block in
                [documentId, String(ordinal), block.kind.rawValue, block.text, text(block.level), LibraryStore.json(block.sectionPath),
                 text(block.page), text(block.start), text(block.end), block.speaker, text(block.offset),
                 block.attributes.isEmpty ? nil : LibraryStore.json(block.attributes), block.pageLabel]
            })
            var tokens = 0
            try connection.copy(into: "passages", columns: [
                "document_id", "ordinal", "text", "kind", "section_path", "section", "page_start", "page_end", "time_start",
                "time_end", "speaker", "char_start", "char_end", "token_count", "timeline", "page_label", "keywords",
                "keyword_length", "embedding", "exact",
            ], rows: zip(w.passages, w.vectors).map { passage, vector in
                // The keyword index's second column: the passage's contextual header, as in SQLite.
                let section = ContextualHeader.header(title: w.document.title, sectionPath: passage.sectionPath)
                let keywords = PostgresKeywords.vector(text: passage.text, section: section)
                tokens += keywords.length
                let vectorText = Self.vectorLiteral(vector)
                return [documentId, String(passage.ordinal), passage.text, passage.kind.rawValue, LibraryStore.json(passage.sectionPath),
                        section, text(passage.pageStart), text(passage.pageEnd), text(passage.timeStart), text(passage.timeEnd),
                        passage.speaker, text(passage.charStart), text(passage.charEnd), String(passage.tokenCount),
                        passage.timeline.map { LibraryStore.json($0) }, passage.pageLabel, keywords.literal,
                        String(keywords.length), vectorText, vectorText]
            })
            // The keyword postings, by FTS5's tokenizer from the passages as stored (their ids by ordinal).
            var ids: [Int: Int64] = [:]
            for row in try connection.query("select ordinal, id from passages where document_id = $1", [documentId]).rows {
                if let ordinal = row[0].flatMap({ Int($0) }), let id = row[1].flatMap({ Int64($0) }) { ids[ordinal] = id }
            }
            let indexed = w.passages.compactMap { passage in
                ids[passage.ordinal].map {
                    KeywordPostings.Passage(id: $0, text: passage.text,
                                            section: ContextualHeader.header(title: w.document.title, sectionPath: passage.sectionPath))
                }
            }.sorted { $0.id < $1.id }
            try PostgresKeywordPostings.add(connection, documentId: documentId, passages: indexed, tokenizer: tokenizer, change: &postings)
            try connection.query("update keyword_totals set passages = passages + $1, tokens = tokens + $2",
                                 [String(w.passages.count), String(tokens)])
            try PostgresKeywordPostings.apply(connection, postings)
            try uncacheVectors(embedder: w.embedder, textHashes: w.cachedTextHashes)
            return Int64(documentId)!
        }
    }

    /// Records the library's embedder on its first write, with the HNSW index for its
    /// dimension; afterwards refuses another one, as the SQLite library does.
    private func recordEmbedder(_ embedder: EmbedderInfo) throws {
        func check() throws -> Bool {
            guard let recorded = try connection.query("select value from settings where key = 'embedder'").scalar else { return false }
            let info = LibraryStore.decode(EmbedderInfo.self, recorded)
            guard info == embedder else {
                throw LecternError(.embedderMismatch, display, "this library's vectors come from \(info?.name ?? recorded); it cannot take vectors from \(embedder.name) (run `lectern reembed --embedder \(embedder.name)` to switch)")
            }
            return true
        }
        // Recorded: no lock, so writers of different documents do not wait for each other.
        if try check() { return }
        // Two first writers at once: the second waits here, then sees the first's embedder.
        try connection.query("select pg_advisory_xact_lock($1)", [String(PostgresSchema.migrationLock)])
        if try check() { return }
        try connection.query("insert into settings (key, value) values ('embedder', $1)", [LibraryStore.json(embedder)])
        if !embeddingIndexDeferred { try connection.query(Self.embeddingIndex(dimension: embedder.dimension, ifNotExists: true)) }
    }

    /// Removes documents (their passages' keywords leaving BM25's totals) in one transaction,
    /// and the sources whose last documents they were.
    @discardableResult
    func removeDocuments(_ documents: [StoredDocument]) throws -> [String] {
        guard !documents.isEmpty else { return [] }
        return try transaction {
            var postings = PostgresKeywordPostings.Change()
            for document in documents {
                try deleteContent(documentId: String(document.id), postings: &postings)
                try connection.query("delete from documents where id = $1", [String(document.id)])
            }
            try PostgresKeywordPostings.apply(connection, postings)
            try connection.query("delete from sources s where not exists (select 1 from documents d where d.source_id = s.id)")
            return documents.map(\.uri)
        }
    }

    func setTitle(documentId: Int64, _ title: String) throws {
        try session { _ = try connection.query("update documents set title = $1 where id = $2", [title, String(documentId)]) }
    }

    func recordedEmbedder() throws -> EmbedderInfo? {
        try session { LibraryStore.decode(EmbedderInfo.self, try connection.query("select value from settings where key = 'embedder'").scalar) }
    }

    /// The HNSW index of the passages' vectors of one dimension. Partial, on the rows of that
    /// dimension: `reembed`'s switch builds it in the transaction that rewrote every vector, and
    /// an index build also reads the rows that transaction replaced (their old dimension would
    /// fail the cast). A search names the same condition (`nearestPassages`). Built with twice
    /// pgvector's default ef_construction (64): on 43k passages of real text its graph lets the
    /// questions' top 10 be found at 400 candidates (0.992 against 0.964), for 1.6 times the
    /// build and the same size (docs/benchmarks.md); a larger m cost more for no more recall.
    static func embeddingIndex(dimension: Int, ifNotExists: Bool = false) -> String {
        """
        create index \(ifNotExists ? "if not exists " : "")passages_embedding on passages
        using hnsw ((embedding::halfvec(\(dimension))) halfvec_cosine_ops) with (m = 16, ef_construction = 128)
        where vector_dims(embedding) = \(dimension)
        """
    }

    /// Removes a document's blocks and passages (their keywords leave BM25's totals, their
    /// postings go, what that changes of the terms' counts into `postings`).
    private func deleteContent(documentId: String, postings: inout PostgresKeywordPostings.Change) throws {
        try connection.query("""
            update keyword_totals set passages = keyword_totals.passages - gone.rows, tokens = keyword_totals.tokens - gone.length
            from (select count(*) as rows, coalesce(sum(keyword_length), 0) as length from passages where document_id = $1) gone
            """, [documentId])
        try PostgresKeywordPostings.remove(connection, documentId: documentId, change: &postings)
        try connection.query("delete from passages where document_id = $1", [documentId])
        try connection.query("delete from blocks where document_id = $1", [documentId])
    }

    private func text<T: LosslessStringConvertible>(_ value: T?) -> String? { value.map { String($0) } }

    /// `[0.1,-0.2,…]`: pgvector's text form; each float's shortest exact decimal, so the float32
    /// copy is the vector the embedder made, bit for bit.
    static func vectorLiteral(_ vector: [Float]) -> String {
        "[" + vector.map { $0.description }.joined(separator: ",") + "]"
    }
}
