import Foundation
import GRDB

/// The one SQLite file (WAL) that holds a study library. The only type that knows SQL.
public final class LibraryStore: Sendable {
    /// The library file, absolute.
    let path: String
    /// How messages name it (`lectern.db`, relative to where the user stands).
    let display: String
    let access: LibraryAccess
    let writer: DatabaseQueue
    /// This store made the file (there was none at `path`): a first ingest that stores nothing
    /// removes it again (`discardIfUnused`).
    let createdFile: Bool
    /// A library holding at least this many passage vectors keeps their int8 codes in a sidecar
    /// file (`VectorSidecar`, `search.sidecar_vectors`); 0: never.
    let vectorSidecarMinimum: Int

    /// Opens the library at `path` (absolute) for `access`. A file that is not a library is
    /// refused and left as it was; see `LibraryAccess` for what each access may do.
    /// `vectorSidecar`: the vectors from which a semantic search keeps a sidecar (0: never).
    public init(path: String, display: String? = nil, access: LibraryAccess = .create,
                vectorSidecar: Int = Configuration.defaultVectorSidecarMinimum) throws {
        self.path = path
        self.display = display ?? path
        self.access = access
        vectorSidecarMinimum = vectorSidecar
        createdFile = !FileManager.default.fileExists(atPath: path)
        writer = try Self.open(path: path, display: display ?? path, access: access)
    }

    /// `mustExist`: `.write`, else `.create`.
    convenience init(path: String, mustExist: Bool) throws {
        try self.init(path: path, access: mustExist ? .write : .create)
    }

    /// The library's files, which no export may overwrite.
    public var protectedPaths: ProtectedPaths { ProtectedPaths(library: path) }

    static func now() -> String {
        ISO8601DateFormatter().string(from: Date())
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String?) -> T? {
        guard let json else { return nil }
        return try? JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// Runs `body` as one write transaction, turning SQLite errors into one-line messages.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard access != .read else { throw Self.readOnly(display) }
        do {
            return try writer.write(body)
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_READONLY { throw Self.readOnly(display) }
            throw writeFailure(error) ?? LecternError(.database, display, error.message ?? "\(error)")
        } catch let error as DecodingError {
            throw unreadable(error)
        } catch let error as RowDecodingError {
            throw unreadable(error)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw LecternError(.database, display, error.message ?? "\(error)")
        } catch let error as DecodingError {
            throw unreadable(error)
        } catch let error as RowDecodingError {
            throw unreadable(error)
        }
    }

    /// A row whose value this Lectern cannot read into its record (a kind or status a later
    /// version wrote): one line naming the library and the value.
    private func unreadable(_ error: any Error) -> LecternError {
        let reason: String
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            reason = context.debugDescription
        default:
            reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        }
        return LecternError(.database, display, "the library holds a value this Lectern cannot read (written by a later version?): \(reason)")
    }

    // MARK: Settings

    func setting(_ key: String) throws -> String? {
        try read { db in try Self.setting(db, key) }
    }

    static func setting(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key])
    }

    func setSetting(_ key: String, _ value: String?) throws {
        try write { db in try Self.setSetting(db, key, value) }
    }

    static func setSetting(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key])
        }
    }

    /// The embedder this library's vectors were made with; nil for a new library.
    func recordedEmbedder() throws -> EmbedderInfo? {
        Self.decode(EmbedderInfo.self, try setting("embedder"))
    }

    // MARK: Documents

    /// Everything needed to (re)write one document in one transaction.
    struct DocumentWrite: Sendable {
        var sourceURI: String
        var sourceKind: SourceKind
        var uri: String
        var path: String?
        var extractor: String
        var extractorVersion: Int
        var contentHash: String
        var skipKey: SkipKey
        var document: ExtractedDocument
        var passages: [Passage]
        var vectors: [[Float]]
        var embedder: EmbedderInfo
        /// Hashes of texts whose vectors the embedding cache held for this document: removed
        /// from it in the transaction that stores the document.
        var cachedTextHashes: [String] = []
        /// When another library first stored the document, last changed it and last read its
        /// source (`lectern migrate` keeps them); nil for a document read now, as by an ingest.
        var recordedTimes: RecordedTimes?

        struct RecordedTimes: Sendable {
            var created: String
            var updated: String
            var sourceUpdated: String
        }

        init(
            sourceURI: String, sourceKind: SourceKind, uri: String, path: String?, extractor: String,
            extractorVersion: Int, contentHash: String, skipKey: SkipKey, document: ExtractedDocument,
            passages: [Passage], vectors: [[Float]], embedder: EmbedderInfo
        ) {
            self.sourceURI = sourceURI
            self.sourceKind = sourceKind
            self.uri = uri
            self.path = path
            self.extractor = extractor
            self.extractorVersion = extractorVersion
            self.contentHash = contentHash
            self.skipKey = skipKey
            self.document = document
            self.passages = passages
            self.vectors = vectors
            self.embedder = embedder
        }
    }

    func document(uri: String) throws -> StoredDocument? {
        try read { db in try StoredDocument.fetchOne(db, sql: "SELECT * FROM documents WHERE uri = ?", arguments: [uri]) }
    }

    /// Documents a user means by `reference`: a URI, a path (file or folder), a short id
    /// (or its first 4+ characters), or a source URI. `absolutePath` is `reference` read as a
    /// path from where the user stands (the caller knows where that is).
    func documents(matching reference: String, absolutePath: String) throws -> [StoredDocument] {
        try read { db in
            var found = try StoredDocument.fetchAll(db, sql: """
                SELECT d.* FROM documents d JOIN sources s ON s.id = d.source_id
                WHERE d.uri = ?1 OR d.path = ?2 OR s.uri = ?1 OR d.short_id = ?1
                ORDER BY d.uri
                """, arguments: [reference, absolutePath])
            if found.isEmpty && reference.count >= 4 && reference.allSatisfy(\.isHexDigit) {
                found = try StoredDocument.fetchAll(db, sql: "SELECT * FROM documents WHERE short_id LIKE ? ORDER BY uri", arguments: [reference.lowercased() + "%"])
            }
            if found.isEmpty {
                let folder = absolutePath.hasSuffix("/") ? absolutePath : absolutePath + "/"
                found = try StoredDocument.fetchAll(db, sql: "SELECT * FROM documents WHERE substr(path, 1, ?) = ? ORDER BY uri", arguments: [folder.count, folder])
                if found.isEmpty {
                    let prefix = reference.hasSuffix("/") ? reference : reference + "/"
                    found = try StoredDocument.fetchAll(db, sql: "SELECT * FROM documents WHERE substr(uri, 1, ?) = ? ORDER BY uri", arguments: [prefix.count, prefix])
                }
            }
            return found
        }
    }

    /// Documents by a URI, a short id or an absolute path (`documents(matching:absolutePath:)`
    /// for what a user typed, which may be a relative path).
    func documents(matching reference: String) throws -> [StoredDocument] {
        try documents(matching: reference, absolutePath: reference)
    }

    func allDocuments() throws -> [StoredDocument] {
        try read { db in try StoredDocument.fetchAll(db, sql: "SELECT * FROM documents ORDER BY uri") }
    }

    /// Replaces a document's blocks, passages, FTS rows and vectors in ONE transaction.
    /// Returns the document id. Refuses vectors of another embedder than the library's.
    @discardableResult
    func replaceDocument(_ w: DocumentWrite) throws -> Int64 {
        precondition(w.passages.count == w.vectors.count, "one vector per passage")
        guard let type = DocumentType(rawValue: w.document.type) else {
            throw LecternError(.unsupported, w.uri, "the reader \(w.extractor) made a document of unknown type '\(w.document.type)'")
        }
        return try write { db in
            try Self.checkEmbedder(db, w.embedder, library: display)
            let now = Self.now()
            let (created, updated) = (w.recordedTimes?.created ?? now, w.recordedTimes?.updated ?? now)
            try db.execute(sql: """
                INSERT INTO sources(uri, kind, created_at, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(uri) DO UPDATE SET updated_at = excluded.updated_at, kind = excluded.kind
                """, arguments: [w.sourceURI, w.sourceKind.rawValue, created, w.recordedTimes?.sourceUpdated ?? now])
            let sourceId = try Int64.fetchOne(db, sql: "SELECT id FROM sources WHERE uri = ?", arguments: [w.sourceURI])!
            let metadata = Self.json(w.document.metadata)
            let warnings = Self.json(w.document.warnings.map(\.description))
            let documentId: Int64
            if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM documents WHERE uri = ?", arguments: [w.uri]) {
                try Self.deleteContent(db, documentIds: [existing])
                try db.execute(sql: """
                    UPDATE documents SET source_id = ?, path = ?, type = ?, extractor = ?, extractor_version = ?,
                        title = ?, content_hash = ?, passage_key = ?, embedder_key = ?, metadata = ?, warnings = ?,
                        block_count = ?, passage_count = ?, updated_at = ?
                    WHERE id = ?
                    """, arguments: [sourceId, w.path, type.rawValue, w.extractor, w.extractorVersion, w.document.title,
                                     w.contentHash, w.skipKey.passages, w.skipKey.embedder, metadata, warnings,
                                     w.document.blocks.count, w.passages.count, updated, existing])
                documentId = existing
            } else {
                try db.execute(sql: """
                    INSERT INTO documents(source_id, uri, short_id, path, type, extractor, extractor_version, title,
                        content_hash, passage_key, embedder_key, metadata, warnings, block_count, passage_count, created_at,
                        updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [sourceId, w.uri, ContentHash.shortId(w.uri), w.path, type.rawValue, w.extractor,
                                     w.extractorVersion, w.document.title, w.contentHash, w.skipKey.passages,
                                     w.skipKey.embedder, metadata, warnings, w.document.blocks.count, w.passages.count,
                                     created, updated])
                documentId = db.lastInsertedRowID
            }
            let blockStatement = try db.makeStatement(sql: """
                INSERT INTO blocks(document_id, ordinal, kind, text, level, section_path, page, time_start, time_end,
                    speaker, char_offset, attributes, page_label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (ordinal, block) in w.document.blocks.enumerated() {
                try blockStatement.execute(arguments: [
                    documentId, ordinal, block.kind.rawValue, block.text, block.level, Self.json(block.sectionPath),
                    block.page, block.start, block.end, block.speaker, block.offset,
                    block.attributes.isEmpty ? nil : Self.json(block.attributes), block.pageLabel,
                ])
            }
            let passageStatement = try db.makeStatement(sql: """
                INSERT INTO passages(document_id, ordinal, text, kind, section_path, section, page_start, page_end,
                    time_start, time_end, speaker, char_start, char_end, token_count, timeline, page_label)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var ids: [Int64] = []
            ids.reserveCapacity(w.passages.count)
            var indexed: [KeywordPostings.Passage] = []
            indexed.reserveCapacity(w.passages.count)
            for passage in w.passages {
                // The FTS index's second column: the passage's contextual header (title and section path).
                let header = ContextualHeader.header(title: w.document.title, sectionPath: passage.sectionPath)
                try passageStatement.execute(arguments: [
                    documentId, passage.ordinal, passage.text, passage.kind.rawValue, Self.json(passage.sectionPath),
                    header, passage.pageStart, passage.pageEnd, passage.timeStart,
                    passage.timeEnd, passage.speaker, passage.charStart, passage.charEnd, passage.tokenCount,
                    passage.timeline.map { Self.json($0) }, passage.pageLabel,
                ])
                ids.append(db.lastInsertedRowID)
                indexed.append(KeywordPostings.Passage(id: db.lastInsertedRowID, text: passage.text, section: header))
            }
            try KeywordPostings.add(db, documentId: documentId, passages: indexed, tokenizer: IndexTokenizer(db))
            try VectorBlocks.append(db, ids: ids, vectors: w.vectors, embedder: w.embedder)
            try Self.uncacheVectors(db, embedder: w.embedder, textHashes: w.cachedTextHashes)
            return documentId
        }
    }

    static func checkEmbedder(_ db: Database, _ embedder: EmbedderInfo, library: String) throws {
        let recordedJSON = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'")
        if let recorded = decode(EmbedderInfo.self, recordedJSON) {
            guard recorded == embedder else {
                throw LecternError(.embedderMismatch, library, "this library's vectors come from \(recorded.name); it cannot take vectors from \(embedder.name) (run `lectern reembed --embedder \(embedder.name)` to switch)")
            }
        } else {
            try setSetting(db, "embedder", json(embedder))
        }
    }

    /// Deletes passages (with their FTS rows and vectors) and blocks of documents.
    static func deleteContent(_ db: Database, documentIds: [Int64]) throws {
        guard !documentIds.isEmpty else { return }
        let documents = idSet(documentIds)
        let passageIds = try SQLRequest<Int64>("SELECT id FROM passages WHERE document_id IN \(documents)").fetchAll(db)
        try VectorBlocks.remove(db, ids: Set(passageIds))
        try KeywordPostings.remove(db, documentIds: documentIds)
        try db.execute(literal: "DELETE FROM passages WHERE document_id IN \(documents)")
        try db.execute(literal: "DELETE FROM blocks WHERE document_id IN \(documents)")
    }

    /// Removes documents and, when they were its last, their sources. Returns their URIs.
    @discardableResult
    func removeDocuments(_ documents: [StoredDocument]) throws -> [String] {
        guard !documents.isEmpty else { return [] }
        return try write { db in
            let ids = documents.map(\.id)
            try Self.deleteContent(db, documentIds: ids)
            try db.execute(literal: "DELETE FROM documents WHERE id IN \(Self.idSet(ids))")
            try db.execute(sql: "DELETE FROM sources WHERE id NOT IN (SELECT DISTINCT source_id FROM documents)")
            return documents.map(\.uri)
        }
    }

    func blocks(documentId: Int64) throws -> [Block] {
        try read { db in
            try BlockRecord.filter(Column("document_id") == documentId).order(Column("ordinal")).fetchAll(db).map(\.block)
        }
    }

    /// The blocks a curriculum reads an author's cross-references from, in order: those that hold
    /// references (`CrossReference.attribute`) and the headings that name a module, where a
    /// reference points (a document without either gives none, whatever its size).
    func crossReferenceBlocks(documentId: Int64) throws -> [Block] {
        try read { db in
            try BlockRecord.fetchAll(db, sql: """
                SELECT * FROM blocks WHERE document_id = ? AND attributes IS NOT NULL
                AND (json_extract(attributes, '$.references') IS NOT NULL
                     OR (kind = 'heading' AND json_extract(attributes, '$.module') IS NOT NULL))
                ORDER BY ordinal
                """, arguments: [documentId]).map(\.block)
        }
    }

    /// Who speaks at `time` in a transcript: the speaker of the last timed block starting by
    /// then. Nil when the document has no speakers there.
    func speaker(documentId: Int64, at time: Double) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT speaker FROM blocks WHERE document_id = ? AND time_start IS NOT NULL AND time_start <= ?
                ORDER BY time_start DESC, ordinal DESC LIMIT 1
                """, arguments: [documentId, time + 0.0005])
        }
    }

    func passages(documentId: Int64) throws -> [Passage] {
        try read { db in
            try PassageRecord.fetchAll(db, sql: """
                SELECT \(Passage.selection) FROM passages p JOIN documents d ON d.id = p.document_id
                WHERE p.document_id = ? ORDER BY p.ordinal
                """, arguments: [documentId]).map(Passage.init)
        }
    }

    /// Passages by id, in the order of `ids`.
    func passages(ids: [Int64]) throws -> [Passage] {
        guard !ids.isEmpty else { return [] }
        let found = try read { db in
            try SQLRequest<PassageRecord>("""
                SELECT \(sql: Passage.selection) FROM passages p JOIN documents d ON d.id = p.document_id
                WHERE p.id IN \(Self.idSet(ids))
                """).fetchAll(db).map(Passage.init)
        }
        let byId = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
        return ids.compactMap { byId[$0] }
    }

    func sources() throws -> [SourceSummary] {
        try read { db in
            var types: [Int64: [DocumentType]] = [:]
            for pair in try SourceTypeRecord.fetchAll(db, sql: "SELECT DISTINCT source_id, type FROM documents ORDER BY type") {
                types[pair.sourceId, default: []].append(pair.type)
            }
            return try SourceTotalsRecord.fetchAll(db, sql: """
                SELECT s.id, s.uri, s.kind, s.updated_at, COUNT(d.id) AS documents,
                    COALESCE(SUM(d.passage_count), 0) AS passages, MIN(d.title) AS title
                FROM sources s LEFT JOIN documents d ON d.source_id = s.id
                GROUP BY s.id ORDER BY s.uri
                """).map { source in
                SourceSummary(id: source.id, uri: source.uri, kind: source.kind, documents: source.documents,
                              passages: source.passages, types: types[source.id] ?? [], title: source.title,
                              updatedAt: source.updatedAt)
            }
        }
    }

    public func stats() throws -> LibraryStats {
        let size = Self.byteSize(path) ?? 0
        let wal = Self.byteSize(path + "-wal") ?? 0
        return try read { db in
            var byType: [String: Int] = [:]
            for types in try DocumentTypeCountRecord.fetchAll(db, sql: "SELECT type, COUNT(*) AS count FROM documents GROUP BY type") {
                byType[types.type] = types.count
            }
            let embedder = Self.decode(EmbedderInfo.self, try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'"))
            // Kept by triggers (v8-search-library-totals): no passage or block is read.
            let totals = try Dictionary(uniqueKeysWithValues: LibraryTotalRecord.fetchAll(db, sql: LibraryTotalRecord.statsSQL).map { ($0.name, $0.value) })
            return LibraryStats(
                path: path, fileBytes: size + wal,
                sources: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sources") ?? 0,
                documents: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0,
                passages: totals["passages"] ?? 0,
                blocks: totals["blocks"] ?? 0,
                tokens: totals["tokens"] ?? 0,
                vectors: try Int.fetchOne(db, sql: Self.vectorTotalSQL) ?? 0,
                vectorBlocks: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vector_blocks") ?? 0,
                embedder: embedder?.description, documentsByType: byType,
                runs: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs") ?? 0)
        }
    }

    /// How many vectors the library holds: summed from the index `vector_blocks_counts`, never
    /// from the blocks' rows.
    static let vectorTotalSQL = "SELECT COALESCE(SUM(count), 0) FROM vector_blocks"

    /// `PRAGMA integrity_check`: "ok" or the problems SQLite found.
    func integrityCheck() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
}
