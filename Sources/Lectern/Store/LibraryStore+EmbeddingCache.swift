import Foundation
import GRDB

/// The embedding cache: vectors of a document not yet stored, kept so that an interrupted
/// ingest does not embed them again. Keyed by the embedder's identity (`EmbedderInfo.key`: name,
/// model, version and dimension) and the SHA-256 of the exact text embedded, so another
/// embedder (after `reembed`) never reads them.
extension LibraryStore {
    /// The cached vectors of these texts (by `ContentHash.sha256` of the text), for `embedder`.
    func cachedVectors(embedder: EmbedderInfo, textHashes: [String]) throws -> [String: [Float]] {
        guard !textHashes.isEmpty else { return [:] }
        return try read { db in
            var found: [String: [Float]] = [:]
            // SQLite bounds the variables of one statement; 500 a query stays well below.
            for start in stride(from: 0, to: textHashes.count, by: 500) {
                let hashes = textHashes[start..<min(start + 500, textHashes.count)]
                let rows = try SQLRequest<Row>("""
                    SELECT text_hash, vector FROM embedding_cache WHERE embedder = \(embedder.key) AND text_hash IN \(hashes)
                    """).fetchAll(db)
                for row in rows {
                    let vector = VectorBlocks.array(row["vector"] as Data, of: Float.self)
                    // A vector of another length is not this embedder's: embed the text again.
                    if vector.count == embedder.dimension { found[row["text_hash"]] = vector }
                }
            }
            return found
        }
    }

    /// Keeps one batch of vectors in its own short transaction: it survives a signal or a crash
    /// before the document's own transaction.
    func cacheVectors(embedder: EmbedderInfo, textHashes: [String], vectors: [[Float]]) throws {
        precondition(textHashes.count == vectors.count, "one vector per text")
        guard !vectors.isEmpty else { return }
        try write { db in
            let now = Self.now()
            let statement = try db.makeStatement(sql: """
                INSERT INTO embedding_cache(embedder, text_hash, vector, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(embedder, text_hash) DO UPDATE SET vector = excluded.vector, created_at = excluded.created_at
                """)
            for (hash, vector) in zip(textHashes, vectors) {
                try statement.execute(arguments: [embedder.key, hash, VectorBlocks.blob(vector), now])
            }
        }
    }

    /// Removes the cached vectors of these texts inside the caller's transaction (the one that
    /// stores the document they were made for: from then on its passages hold them).
    static func uncacheVectors(_ db: Database, embedder: EmbedderInfo, textHashes: [String]) throws {
        for start in stride(from: 0, to: textHashes.count, by: 500) {
            let hashes = textHashes[start..<min(start + 500, textHashes.count)]
            try db.execute(literal: "DELETE FROM embedding_cache WHERE embedder = \(embedder.key) AND text_hash IN \(hashes)")
        }
    }

    /// Empties the cache (`lectern prune`): what is left there belongs to ingests that were
    /// stopped and not run again. Returns how many vectors went.
    @discardableResult
    func clearEmbeddingCache() throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM embedding_cache")
            return db.changesCount
        }
    }

    /// Vectors in the cache, for any embedder.
    func cachedVectorCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM embedding_cache") ?? 0 }
    }
}
