import Foundation
import GRDB

/// Vectors live in large contiguous blocks (ids and float32 rows as two blobs), not one row
/// per passage, so a search reads a whole library's vectors in a few reads.
enum VectorBlocks {
    static let capacity = 2048

    static func blob<T>(_ values: [T]) -> Data {
        values.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    static func array<T>(_ data: Data, of: T.Type) -> [T] {
        let count = data.count / MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = data.copyBytes(to: buffer)
            initialized = count
        }
    }

    /// Appends vectors to the newest block of this embedder that has room, then to new blocks.
    static func append(_ db: Database, ids: [Int64], vectors: [[Float]], embedder: EmbedderInfo) throws {
        guard !ids.isEmpty else { return }
        for vector in vectors where vector.count != embedder.dimension {
            throw LecternError(.embedderMismatch, embedder.name, "made a vector of \(vector.count) dimensions, expected \(embedder.dimension)")
        }
        var next = 0
        if let open = try Row.fetchOne(db, sql: """
            SELECT id, count, passage_ids, vectors FROM vector_blocks
            WHERE embedder = ? AND count < ? ORDER BY id DESC LIMIT 1
            """, arguments: [embedder.key, capacity]) {
            let room = capacity - (open["count"] as Int)
            let take = min(room, ids.count)
            var blockIds = array(open["passage_ids"] as Data, of: Int64.self)
            var flat = array(open["vectors"] as Data, of: Float.self)
            blockIds += ids[0..<take]
            for vector in vectors[0..<take] { flat += vector }
            try db.execute(sql: "UPDATE vector_blocks SET count = ?, passage_ids = ?, vectors = ? WHERE id = ?",
                           arguments: [blockIds.count, blob(blockIds), blob(flat), open["id"] as Int64])
            next = take
        }
        while next < ids.count {
            let end = min(next + capacity, ids.count)
            var flat: [Float] = []
            flat.reserveCapacity((end - next) * embedder.dimension)
            for vector in vectors[next..<end] { flat += vector }
            try db.execute(sql: "INSERT INTO vector_blocks(embedder, dimension, count, passage_ids, vectors) VALUES (?, ?, ?, ?, ?)",
                           arguments: [embedder.key, embedder.dimension, end - next, blob(Array(ids[next..<end])), blob(flat)])
            next = end
        }
    }

    /// Removes the vectors of these passages from every block (of every embedder).
    static func remove(_ db: Database, passageIds: Set<Int64>) throws {
        guard !passageIds.isEmpty else { return }
        for row in try Row.fetchAll(db, sql: "SELECT id, dimension, passage_ids FROM vector_blocks") {
            let ids = array(row["passage_ids"] as Data, of: Int64.self)
            guard ids.contains(where: passageIds.contains) else { continue }
            let blockId: Int64 = row["id"]
            let dimension: Int = row["dimension"]
            let data = try Data.fetchOne(db, sql: "SELECT vectors FROM vector_blocks WHERE id = ?", arguments: [blockId]) ?? Data()
            let flat = array(data, of: Float.self)
            var keptIds: [Int64] = []
            var kept: [Float] = []
            for (slot, id) in ids.enumerated() where !passageIds.contains(id) {
                keptIds.append(id)
                kept += flat[(slot * dimension)..<((slot + 1) * dimension)]
            }
            if keptIds.isEmpty {
                try db.execute(sql: "DELETE FROM vector_blocks WHERE id = ?", arguments: [blockId])
            } else {
                try db.execute(sql: "UPDATE vector_blocks SET count = ?, passage_ids = ?, vectors = ? WHERE id = ?",
                               arguments: [keptIds.count, blob(keptIds), blob(kept), blockId])
            }
        }
    }
}

/// All vectors of one embedder, in memory, for exact k-nearest-neighbour search.
struct VectorIndex: Sendable {
    let dimension: Int
    private(set) var ids: [Int64] = []
    private(set) var vectors: [Float] = []

    var count: Int { ids.count }

    init(dimension: Int) {
        self.dimension = dimension
    }

    mutating func add(ids blockIds: [Int64], vectors flat: [Float]) {
        ids += blockIds
        vectors += flat
    }

    /// The `k` passages most similar to `query` (cosine = dot product of unit vectors),
    /// among `allowed` when given.
    func nearest(to query: [Float], k: Int, allowed: Set<Int64>? = nil) -> [(id: Int64, score: Float)] {
        guard query.count == dimension, k > 0 else { return [] }
        var best: [(id: Int64, score: Float)] = []
        best.reserveCapacity(k + 1)
        vectors.withUnsafeBufferPointer { all in
            query.withUnsafeBufferPointer { q in
                for (slot, id) in ids.enumerated() {
                    if let allowed, !allowed.contains(id) { continue }
                    let base = slot * dimension
                    var dot: Float = 0
                    for j in 0..<dimension { dot += all[base + j] * q[j] }
                    if best.count < k || dot > best[best.count - 1].score {
                        let position = best.firstIndex { $0.score < dot } ?? best.count
                        best.insert((id, dot), at: position)
                        if best.count > k { best.removeLast() }
                    }
                }
            }
        }
        return best
    }
}

extension LibraryStore {
    /// Loads every vector of `embedder` (one read per block).
    func vectorIndex(for embedder: EmbedderInfo) throws -> VectorIndex {
        try read { db in
            var index = VectorIndex(dimension: embedder.dimension)
            let rows = try Row.fetchCursor(db, sql: "SELECT passage_ids, vectors FROM vector_blocks WHERE embedder = ? ORDER BY id", arguments: [embedder.key])
            while let row = try rows.next() {
                index.add(ids: VectorBlocks.array(row["passage_ids"] as Data, of: Int64.self),
                          vectors: VectorBlocks.array(row["vectors"] as Data, of: Float.self))
            }
            return index
        }
    }

    /// Ids of passages that have a vector from `embedder`.
    func passageIdsWithVectors(_ embedder: EmbedderInfo) throws -> Set<Int64> {
        try read { db in
            var ids = Set<Int64>()
            for data in try Data.fetchAll(db, sql: "SELECT passage_ids FROM vector_blocks WHERE embedder = ?", arguments: [embedder.key]) {
                ids.formUnion(VectorBlocks.array(data, of: Int64.self))
            }
            return ids
        }
    }

    /// Up to `limit` passages (id, text) without a vector from `embedder`, for `reembed`.
    func passagesMissingVectors(_ embedder: EmbedderInfo, limit: Int) throws -> [(id: Int64, text: String)] {
        let have = try passageIdsWithVectors(embedder)
        return try read { db in
            var result: [(Int64, String)] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT p.id, p.text, p.section_path, d.title FROM passages p JOIN documents d ON d.id = p.document_id ORDER BY p.id
                """)
            while let row = try rows.next(), result.count < limit {
                let id: Int64 = row["id"]
                // The text as the ingest embedded it: with its contextual header.
                if !have.contains(id) {
                    let sectionPath = Self.decode([String].self, row["section_path"]) ?? []
                    result.append((id, ContextualHeader.embedded(row["text"], title: row["title"], sectionPath: sectionPath)))
                }
            }
            return result
        }
    }

    /// Stores vectors of `embedder` for existing passages (one transaction per call), as
    /// `reembed` goes; the library keeps using its recorded embedder until `switchEmbedder`.
    func addVectors(ids: [Int64], vectors: [[Float]], embedder: EmbedderInfo) throws {
        try write { db in
            // Passages deleted meanwhile get no vector.
            let existing = try SQLRequest<Int64>("SELECT id FROM passages WHERE id IN \(Self.idSet(ids))").fetchSet(db)
            var keptIds: [Int64] = []
            var kept: [[Float]] = []
            for (id, vector) in zip(ids, vectors) where existing.contains(id) {
                keptIds.append(id)
                kept.append(vector)
            }
            try VectorBlocks.append(db, ids: keptIds, vectors: kept, embedder: embedder)
        }
    }

    /// Makes `embedder` the library's embedder and drops every other embedder's vectors, in
    /// one transaction. Fails if any passage still lacks a vector from it.
    func switchEmbedder(to embedder: EmbedderInfo) throws {
        let have = try passageIdsWithVectors(embedder)
        try write { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passages") ?? 0
            let covered = try Int64.fetchAll(db, sql: "SELECT id FROM passages").filter(have.contains).count
            guard covered == total else {
                throw LecternError(.embedderMismatch, embedder.name, "\(total - covered) passages still lack vectors; run reembed again")
            }
            try db.execute(sql: "DELETE FROM vector_blocks WHERE embedder <> ?", arguments: [embedder.key])
            // Every document's skip key now names the new embedder (its passage part, with
            // the tokenizer that cut the passages, is kept: another tokenizer still re-chunks).
            try db.execute(sql: "UPDATE documents SET embedder_key = ?", arguments: [embedder.key])
            try Self.setSetting(db, "embedder", Self.json(embedder))
            try Self.setSetting(db, "reembed_target", nil)
        }
    }
}
