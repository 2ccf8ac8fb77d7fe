import Foundation

/// What an ingest keeps beside the documents in a PostgreSQL library, as the SQLite library
/// does: the embedding cache and web sources' validators (the run record: `PostgresLibrary+Runs`).
extension PostgresLibrary {
    // MARK: The embedding cache

    func cachedVectors(embedder: EmbedderInfo, textHashes: [String]) throws -> [String: [Float]] {
        guard !textHashes.isEmpty else { return [:] }
        return try session {
            var found: [String: [Float]] = [:]
            let rows = try connection.query("select text_hash, vector from embedding_cache where embedder = $1 and text_hash = any($2::text[])",
                                            [embedder.key, Self.textArray(textHashes)])
            for row in rows.rows {
                let vector = Self.floats(row[1] ?? "")
                // A vector of another length is not this embedder's: embed the text again.
                if vector.count == embedder.dimension, let hash = row[0] { found[hash] = vector }
            }
            return found
        }
    }

    /// One batch of vectors in its own short transaction: it survives a signal or a crash
    /// before the document's own transaction.
    func cacheVectors(embedder: EmbedderInfo, textHashes: [String], vectors: [[Float]]) throws {
        precondition(textHashes.count == vectors.count, "one vector per text")
        guard !vectors.isEmpty else { return }
        try transaction {
            try connection.query("""
                insert into embedding_cache (embedder, text_hash, vector, created_at)
                select $1, h, v::real[], $4 from unnest($2::text[], $3::text[]) as t(h, v)
                on conflict (embedder, text_hash) do update set vector = excluded.vector, created_at = excluded.created_at
                """, [embedder.key, Self.textArray(textHashes), Self.textArray(vectors.map(Self.realArray)), LibraryStore.now()])
        }
    }

    /// Inside the transaction that stores the document the vectors were made for.
    func uncacheVectors(embedder: EmbedderInfo, textHashes: [String]) throws {
        guard !textHashes.isEmpty else { return }
        try connection.query("delete from embedding_cache where embedder = $1 and text_hash = any($2::text[])",
                             [embedder.key, Self.textArray(textHashes)])
    }

    @discardableResult
    func clearEmbeddingCache() throws -> Int {
        try session { try connection.query("delete from embedding_cache").affected }
    }

    func cachedVectorCount() throws -> Int {
        try session { Int(try connection.query("select count(*) from embedding_cache").scalar ?? "0") ?? 0 }
    }

    // MARK: Web sources' validators

    func fetchCache(url: String) throws -> FetchCacheEntry? {
        try session { try connection.records(FetchCacheEntry.self, "select * from fetch_cache where url = $1", [url]).first }
    }

    func recordFetch(_ entry: FetchCacheEntry) throws {
        try session {
            _ = try connection.query("""
                insert into fetch_cache (url, etag, last_modified, content_type, content_hash, fetched_at) values ($1, $2, $3, $4, $5, $6)
                on conflict (url) do update set etag = excluded.etag, last_modified = excluded.last_modified,
                    content_type = excluded.content_type, content_hash = excluded.content_hash, fetched_at = excluded.fetched_at
                """, [entry.url, entry.etag, entry.lastModified, entry.contentType, entry.contentHash, entry.fetchedAt])
        }
    }

    // MARK: Arrays as text

    /// `{"a","b"}`: a text[] literal, every element quoted.
    static func textArray(_ values: [String]) -> String {
        "{" + values.map { value in
            // Replaced only where needed: a document's postings name thousands of terms.
            guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else { return "\"" + value + "\"" }
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }

    /// `{0.1,-0.2}`: a real[] literal; each float's shortest exact decimal.
    static func realArray(_ vector: [Float]) -> String {
        "{" + vector.map { $0.description }.joined(separator: ",") + "}"
    }

    /// A real[] (or vector) as PostgreSQL writes it back.
    static func floats(_ text: String) -> [Float] {
        text.dropFirst().dropLast().split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func bigintArray<S: Sequence>(_ ids: S) -> String where S.Element == Int64 {
        "{" + ids.map(String.init).joined(separator: ",") + "}"
    }
}
