import CSQLite
import CVectorScan
import Foundation
import GRDB

/// What a set of vectors belongs to. Each set keeps its float32 blocks in a table of its own
/// (ids in `idColumn`); the compact blocks of every set share `compact_vector_blocks`.
enum VectorSet: String, Sendable {
    case passages
    /// Curriculum topics (their table is made by the curriculum's migration).
    case topics

    var blockTable: String { self == .passages ? "vector_blocks" : "topic_vector_blocks" }
    var idColumn: String { self == .passages ? "passage_ids" : "topic_ids" }
}

/// Vectors live in contiguous blocks (ids and float32 rows as two blobs), not one row per
/// passage. Beside each block, a compact block holds the same rows as int8 codes with one
/// scale per vector: a search scans those (a quarter of the bytes) and re-ranks its best
/// candidates with the float32 rows, read one by one from their block.
enum VectorBlocks {
    /// Rows per block: small enough that reading one row of a block (re-ranking) and rewriting
    /// the open block (each ingest) stay cheap, large enough that a scan reads few rows.
    static let capacity = 256

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

    /// Appends vectors to the newest block of this embedder that has room, then to new blocks,
    /// with their compact blocks.
    static func append(_ db: Database, ids: [Int64], vectors: [[Float]], embedder: EmbedderInfo, set: VectorSet = .passages) throws {
        guard !ids.isEmpty else { return }
        for vector in vectors where vector.count != embedder.dimension {
            throw LecternError(.embedderMismatch, embedder.name, "made a vector of \(vector.count) dimensions, expected \(embedder.dimension)")
        }
        var next = 0
        if let open = try Row.fetchOne(db, sql: """
            SELECT id, count, \(set.idColumn) AS ids, vectors FROM \(set.blockTable)
            WHERE embedder = ? AND count < ? ORDER BY id DESC LIMIT 1
            """, arguments: [embedder.key, capacity]) {
            let room = capacity - (open["count"] as Int)
            let take = min(room, ids.count)
            let blockId: Int64 = open["id"]
            var blockIds = array(open["ids"] as Data, of: Int64.self)
            var flat = array(open["vectors"] as Data, of: Float.self)
            blockIds += ids[0..<take]
            for vector in vectors[0..<take] { flat += vector }
            try db.execute(sql: "UPDATE \(set.blockTable) SET count = ?, \(set.idColumn) = ?, vectors = ? WHERE id = ?",
                           arguments: [blockIds.count, blob(blockIds), blob(flat), blockId])
            try writeCompact(db, set: set, block: blockId, embedder: embedder, ids: blockIds, flat: flat)
            next = take
        }
        while next < ids.count {
            let end = min(next + capacity, ids.count)
            var flat: [Float] = []
            flat.reserveCapacity((end - next) * embedder.dimension)
            for vector in vectors[next..<end] { flat += vector }
            let blockIds = Array(ids[next..<end])
            try db.execute(sql: "INSERT INTO \(set.blockTable)(embedder, dimension, count, \(set.idColumn), vectors) VALUES (?, ?, ?, ?, ?)",
                           arguments: [embedder.key, embedder.dimension, end - next, blob(blockIds), blob(flat)])
            try writeCompact(db, set: set, block: db.lastInsertedRowID, embedder: embedder, ids: blockIds, flat: flat)
            next = end
        }
    }

    /// Removes the vectors of these ids from every block (of every embedder) of `set`.
    static func remove(_ db: Database, ids removed: Set<Int64>, set: VectorSet = .passages) throws {
        guard !removed.isEmpty else { return }
        for row in try Row.fetchAll(db, sql: "SELECT id, embedder, dimension, \(set.idColumn) AS ids FROM \(set.blockTable)") {
            let ids = array(row["ids"] as Data, of: Int64.self)
            guard ids.contains(where: removed.contains) else { continue }
            let blockId: Int64 = row["id"]
            let dimension: Int = row["dimension"]
            let data = try Data.fetchOne(db, sql: "SELECT vectors FROM \(set.blockTable) WHERE id = ?", arguments: [blockId]) ?? Data()
            let flat = array(data, of: Float.self)
            var keptIds: [Int64] = []
            var kept: [Float] = []
            for (slot, id) in ids.enumerated() where !removed.contains(id) {
                keptIds.append(id)
                kept += flat[(slot * dimension)..<((slot + 1) * dimension)]
            }
            if keptIds.isEmpty {
                try db.execute(sql: "DELETE FROM \(set.blockTable) WHERE id = ?", arguments: [blockId])
                try db.execute(sql: "DELETE FROM compact_vector_blocks WHERE vector_set = ? AND block_id = ?", arguments: [set.rawValue, blockId])
            } else {
                try db.execute(sql: "UPDATE \(set.blockTable) SET count = ?, \(set.idColumn) = ?, vectors = ? WHERE id = ?",
                               arguments: [keptIds.count, blob(keptIds), blob(kept), blockId])
                try writeCompact(db, set: set, block: blockId, embedder: row["embedder"], dimension: dimension, ids: keptIds, flat: kept)
            }
        }
    }

    /// Drops the vectors of `set` from every embedder but `embedder`.
    static func keepOnly(_ db: Database, embedder: EmbedderInfo, set: VectorSet = .passages) throws {
        try db.execute(sql: "DELETE FROM \(set.blockTable) WHERE embedder <> ?", arguments: [embedder.key])
        try db.execute(sql: "DELETE FROM compact_vector_blocks WHERE vector_set = ? AND embedder <> ?", arguments: [set.rawValue, embedder.key])
    }

    /// Writes (or rewrites) the compact block of float32 block `block`.
    static func writeCompact(_ db: Database, set: VectorSet, block: Int64, embedder: EmbedderInfo, ids: [Int64], flat: [Float]) throws {
        try writeCompact(db, set: set, block: block, embedder: embedder.key, dimension: embedder.dimension, ids: ids, flat: flat)
    }

    static func writeCompact(_ db: Database, set: VectorSet, block: Int64, embedder: String, dimension: Int, ids: [Int64], flat: [Float]) throws {
        let (scales, codes) = quantize(flat, dimension: dimension)
        try db.execute(sql: """
            INSERT INTO compact_vector_blocks(vector_set, block_id, embedder, dimension, count, ids, scales, codes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(vector_set, block_id) DO UPDATE SET embedder = excluded.embedder, dimension = excluded.dimension,
                count = excluded.count, ids = excluded.ids, scales = excluded.scales, codes = excluded.codes
            """, arguments: [set.rawValue, block, embedder, dimension, ids.count, blob(ids), blob(scales), blob(codes)])
    }

    /// int8 codes of each `dimension`-long row of `flat`, with the row's scale (its largest
    /// magnitude / 127): within half a step of the float value in every dimension.
    static func quantize(_ flat: [Float], dimension: Int) -> (scales: [Float], codes: [Int8]) {
        guard dimension > 0 else { return ([], []) }
        let rows = flat.count / dimension
        var codes = [Int8](repeating: 0, count: rows * dimension)
        var scales = [Float](repeating: 0, count: rows)
        flat.withUnsafeBufferPointer { values in
            codes.withUnsafeMutableBufferPointer { codes in
                for row in 0..<rows {
                    scales[row] = lectern_quantize_int8(values.baseAddress! + row * dimension, dimension, codes.baseAddress! + row * dimension)
                }
            }
        }
        return (scales, codes)
    }

    /// Builds the compact blocks of every float32 block of `set` (the migration that brought them).
    static func buildCompact(_ db: Database, set: VectorSet) throws {
        guard try db.tableExists(set.blockTable) else { return }
        let rows = try Row.fetchCursor(db, sql: "SELECT id, embedder, dimension, \(set.idColumn) AS ids, vectors FROM \(set.blockTable)")
        while let row = try rows.next() {
            try writeCompact(db, set: set, block: row["id"], embedder: row["embedder"], dimension: row["dimension"],
                             ids: array(row["ids"] as Data, of: Int64.self), flat: array(row["vectors"] as Data, of: Float.self))
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
    /// among `allowed` when given: the exact scan, one float at a time.
    func nearest(to query: [Float], k: Int, allowed: IdBitmap? = nil) -> [(id: Int64, score: Float)] {
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
            var missing: [Int64] = []
            let ids = try Int64.fetchCursor(db, sql: "SELECT id FROM passages ORDER BY id")
            while missing.count < limit, let id = try ids.next() {
                if !have.contains(id) { missing.append(id) }
            }
            guard !missing.isEmpty else { return [] }
            // The text as the ingest embedded it: with its contextual header.
            return try SQLRequest<PassageTextRecord>("""
                SELECT p.id, p.text, p.section_path, d.title FROM passages p JOIN documents d ON d.id = p.document_id
                WHERE p.id IN \(Self.idSet(missing)) ORDER BY p.id
                """).fetchAll(db).map { (id: $0.id, text: ContextualHeader.embedded($0.text, title: $0.title, sectionPath: $0.sectionPath)) }
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
            try VectorBlocks.keepOnly(db, embedder: embedder)
            // Every document's skip key now names the new embedder (its passage part, with
            // the tokenizer that cut the passages, is kept: another tokenizer still re-chunks).
            try db.execute(sql: "UPDATE documents SET embedder_key = ?", arguments: [embedder.key])
            try Self.setSetting(db, "embedder", Self.json(embedder))
            try Self.setSetting(db, "reembed_target", nil)
        }
    }
}

extension LibraryStore {
    /// The library's identity and its passages' vector generation (drawn anew by every write to
    /// their blocks: `v12-vmap-vector-generation`): what a kept or mapped copy of the vectors
    /// is checked against.
    func vectorKey() throws -> VectorSidecar.Key {
        try read { db in try Self.vectorKey(db) }
    }

    static func vectorKey(_ db: Database) throws -> VectorSidecar.Key {
        let settings = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
            SELECT key, value FROM settings WHERE key IN ('library_id', 'vector_generation')
            """).map { ($0[0] as String, $0[1] as String) })
        return VectorSidecar.Key(library: settings["library_id"] ?? "", generation: settings["vector_generation"] ?? "")
    }

    /// The compact vectors of `set` from `embedder`, read with SQLite's incremental blob I/O
    /// straight into the scan's buffers (no copy in between). Nil when some float32 block
    /// lacks its compact block (the caller then scans the float32 rows).
    func compactVectors(_ set: VectorSet = .passages, embedder: EmbedderInfo) throws -> CompactVectors? {
        try mapVectors()
        return try read { db in
            guard let blocks = try compactBlocks(db, set: set, embedder: embedder) else { return nil }
            let vectors = CompactVectors(dimension: embedder.dimension, count: blocks.reduce(0) { $0 + $1.count })
            var reader = BlobReader(db, table: "compact_vector_blocks", display: display)
            defer { reader.close() }
            var row = 0
            for block in blocks {
                try Self.readBlock(block, into: vectors, at: row, reader: &reader)
                row += block.count
            }
            vectors.blockStarts.append(row)
            return vectors
        }
    }

    /// What a streamed scan found: the best rows (passage or topic id, float32 place, approximate
    /// cosine), best first, and what it read to find them.
    struct StreamedScan {
        var candidates: [(id: Int64, place: (block: Int64, slot: Int), score: Float)]
        /// Rows scanned: every vector of the set.
        var rows: Int
        /// Rows the one buffer it refilled held at most.
        var bufferRows: Int
        /// Whether it wrote the library's sidecar with the codes it read (`VectorSidecar`).
        var wroteSidecar = false
    }

    /// The compact scan's `keep` best rows of `set` for `query`, read a chunk of blocks at a time
    /// through SQLite's incremental blob I/O into one buffer of `chunkRows` rows that is scanned
    /// and refilled: a process that searches once holds no copy of the library's vectors (their
    /// pages stay in the file's page cache, shared by every process). A library that should have
    /// a sidecar (`sidecarWriter`) gets one written from the same reads. Nil when some float32
    /// block lacks its compact block.
    func streamedCandidates(_ set: VectorSet = .passages, embedder: EmbedderInfo, query: [Float], keep: Int, allowed: IdBitmap?,
                            chunkRows: Int = 32_768) throws -> StreamedScan? {
        try mapVectors()
        var writer: VectorSidecarWriter?
        let scan: StreamedScan? = try read { db in
            guard let blocks = try compactBlocks(db, set: set, embedder: embedder) else { return nil }
            writer = try sidecarWriter(db, set: set, embedder: embedder, blocks: blocks)
            // (score, row in the whole set, id, place): ordered as `CompactVectors.candidates` orders.
            var best: [(score: Float, row: Int, id: Int64, place: (block: Int64, slot: Int))] = []
            let scanned = try forEachChunk(db, blocks: blocks, dimension: embedder.dimension, chunkRows: chunkRows) { chunk, first in
                writer?.write(section: 0, rowsFrom: first, chunk)
                for found in chunk.candidates(for: query, keep: keep, allowed: allowed) {
                    best.append((score: found.score, row: first + found.row, id: chunk.ids[found.row], place: chunk.place(of: found.row)))
                }
                best = Array(best.sorted { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }.prefix(keep))
            }
            return StreamedScan(candidates: best.map { (id: $0.id, place: $0.place, score: $0.score) }, rows: scanned.rows, bufferRows: scanned.bufferRows)
        }
        guard var scan else {
            writer?.abandon()
            return nil
        }
        scan.wroteSidecar = writer?.commit() ?? false
        return scan
    }

    /// Reads `blocks` in order a chunk at a time into one buffer of at least `chunkRows` rows,
    /// handing each chunk and its first row in the whole set to `body`.
    private func forEachChunk(_ db: Database, blocks: [(id: Int64, block: Int64, count: Int)], dimension: Int, chunkRows: Int,
                              _ body: (CompactVectors, Int) throws -> Void) throws -> (rows: Int, bufferRows: Int) {
        let total = blocks.reduce(0) { $0 + $1.count }
        let chunk = CompactVectors(dimension: dimension, count: min(total, max(chunkRows, blocks.map(\.count).max() ?? 0)))
        var reader = BlobReader(db, table: "compact_vector_blocks", display: display)
        defer { reader.close() }
        var next = 0
        var first = 0
        while next < blocks.count {
            chunk.blockIds = []
            chunk.blockStarts = []
            var row = 0
            while next < blocks.count, row + blocks[next].count <= chunk.capacity {
                try Self.readBlock(blocks[next], into: chunk, at: row, reader: &reader)
                row += blocks[next].count
                next += 1
            }
            chunk.blockStarts.append(row)
            chunk.count = row
            try body(chunk, first)
            first += row
        }
        return (total, chunk.capacity)
    }

    // MARK: The sidecar

    /// The passages' vectors of `embedder` read in place from the library's sidecar, when it is
    /// there, whole, and says `key` (this library, its vectors as they are now); else nil.
    func mappedVectors(_ set: VectorSet = .passages, embedder: EmbedderInfo, key: VectorSidecar.Key) -> CompactVectors? {
        guard !key.library.isEmpty, !key.generation.isEmpty else { return nil }
        return VectorSidecarMapping.open(VectorSidecar.path(library: path), key: key)?.vectors(set, embedder: embedder)
    }

    /// Whether this process may write files beside the library: the library file and its
    /// folder are writable (a library on a read-only share keeps the SQLite scan).
    var mayWriteBesideLibrary: Bool {
        let folder = (path as NSString).deletingLastPathComponent
        return Self.canWrite(path) && Self.canWrite(folder.isEmpty ? "." : folder)
    }

    /// A writer of the sidecar for these blocks (their block table written), when the library
    /// should have one: passages' vectors, at least `vectorSidecarMinimum` of them, no reembed
    /// under way (its batches change the vectors every few seconds), a folder that can be
    /// written and no other process writing it now. Nil otherwise.
    private func sidecarWriter(_ db: Database, set: VectorSet, embedder: EmbedderInfo,
                               blocks: [(id: Int64, block: Int64, count: Int)]) throws -> VectorSidecarWriter? {
        let total = blocks.reduce(0) { $0 + $1.count }
        guard set == .passages, vectorSidecarMinimum > 0, total >= vectorSidecarMinimum, mayWriteBesideLibrary else { return nil }
        let key = try Self.vectorKey(db)
        guard !key.library.isEmpty, !key.generation.isEmpty, try Self.setting(db, "reembed_target") == nil else { return nil }
        let header = VectorSidecar.layout(key: key, sections: [(set, embedder.key, embedder.dimension, total, blocks.count)])
        guard let writer = VectorSidecarWriter(library: path, header: header) else { return nil }
        var starts: [Int] = []
        var row = 0
        for block in blocks {
            starts.append(row)
            row += block.count
        }
        writer.writeBlocks(section: 0, blockIds: blocks.map(\.block), blockStarts: starts)
        return writer
    }

    /// Brings the library's sidecar up to date after this process wrote to the library (what
    /// a writing command does before it exits, `lectern ingest`, `rm`, `reembed`, `run`…): a
    /// stale sidecar is written again from the library, or removed when the library no longer
    /// holds enough vectors to keep one. A library without a sidecar gets none here (its first
    /// semantic search writes it): a library nobody searches by meaning keeps one file.
    /// Best-effort and silent: a search never depends on it.
    public func refreshVectorSidecar() {
        let sidecar = VectorSidecar.path(library: path)
        guard access != .read, FileManager.default.fileExists(atPath: sidecar),
              let embedder = try? recordedEmbedder(), let key = try? vectorKey(),
              mappedVectors(embedder: embedder, key: key) == nil else { return }
        if (try? writeVectorSidecar(embedder: embedder)) != true { try? FileManager.default.removeItem(atPath: sidecar) }
    }

    /// Writes the sidecar of the passages' vectors of `embedder` from the library; false when
    /// the library should have none (`sidecarWriter`) or the write failed.
    @discardableResult
    func writeVectorSidecar(embedder: EmbedderInfo) throws -> Bool {
        try mapVectors()
        var writer: VectorSidecarWriter?
        try read { db in
            guard let blocks = try compactBlocks(db, set: .passages, embedder: embedder),
                  let made = try sidecarWriter(db, set: .passages, embedder: embedder, blocks: blocks) else { return }
            writer = made
            _ = try forEachChunk(db, blocks: blocks, dimension: embedder.dimension, chunkRows: 32_768) { chunk, first in
                made.write(section: 0, rowsFrom: first, chunk)
            }
        }
        return writer?.commit() ?? false
    }

    /// The compact blocks of `set` from `embedder` in order (row id, float32 block id, rows),
    /// or nil when they do not hold every float32 row.
    private func compactBlocks(_ db: Database, set: VectorSet, embedder: EmbedderInfo) throws -> [(id: Int64, block: Int64, count: Int)]? {
        let blocks = try Row.fetchAll(db, sql: """
            SELECT id, block_id, count FROM compact_vector_blocks
            WHERE vector_set = ? AND embedder = ? AND dimension = ? ORDER BY block_id
            """, arguments: [set.rawValue, embedder.key, embedder.dimension]).map { (id: $0[0] as Int64, block: $0[1] as Int64, count: $0[2] as Int) }
        let total = blocks.reduce(0) { $0 + $1.count }
        let floatTotal = try db.tableExists(set.blockTable)
            ? try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM \(set.blockTable) WHERE embedder = ?", arguments: [embedder.key]) ?? 0
            : 0
        return total == floatTotal ? blocks : nil
    }

    /// One compact block's ids, scales and codes into `vectors` from row `row` on.
    private static func readBlock(_ block: (id: Int64, block: Int64, count: Int), into vectors: CompactVectors, at row: Int,
                             reader: inout BlobReader) throws {
        vectors.blockIds.append(block.block)
        vectors.blockStarts.append(row)
        try reader.read(block.id, column: "ids", into: UnsafeMutableRawPointer(vectors.ids.baseAddress! + row), bytes: block.count * 8)
        try reader.read(block.id, column: "scales", into: UnsafeMutableRawPointer(vectors.scales.baseAddress! + row), bytes: block.count * 4)
        try reader.read(block.id, column: "codes", into: UnsafeMutableRawPointer(vectors.codes.baseAddress! + row * vectors.dimension),
                        bytes: block.count * vectors.dimension)
    }

    /// Mapped pages are copied once, into the scan's buffers; without it SQLite copies each
    /// page into its cache first.
    private func mapVectors() throws {
        try writer.inDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 68719476736") }
    }

    /// Exact cosine (dot product of unit vectors) of `query` with the float32 rows at these
    /// (block, slot) places of `set`, each row read alone from its block.
    func exactScores(_ set: VectorSet = .passages, places: [(block: Int64, slot: Int)], query: [Float]) throws -> [Float] {
        // Reaching a row walks its block's chain of overflow pages (7,248 page reads for 200
        // rows at a million passages): mapped, the half of them SQLite maps costs no copy.
        try mapVectors()
        let dimension = query.count
        var scores = [Float](repeating: -.infinity, count: places.count)
        let order = places.indices.sorted { (places[$0].block, places[$0].slot) < (places[$1].block, places[$1].slot) }
        try read { db in
            var reader = BlobReader(db, table: set.blockTable, display: display)
            defer { reader.close() }
            var row = [Float](repeating: 0, count: dimension)
            try query.withUnsafeBufferPointer { q in
                try row.withUnsafeMutableBufferPointer { row in
                    for index in order {
                        let place = places[index]
                        try reader.read(place.block, column: "vectors", into: UnsafeMutableRawPointer(row.baseAddress!),
                                        bytes: dimension * 4, offset: place.slot * dimension * 4)
                        scores[index] = lectern_dot_f32(row.baseAddress!, q.baseAddress!, dimension)
                    }
                }
            }
        }
        return scores
    }
}

/// Reads byte ranges of blobs of one table through SQLite's incremental blob I/O, one handle
/// per column, moved from row to row (`sqlite3_blob_reopen`) rather than opened anew.
struct BlobReader {
    let connection: OpaquePointer?
    let table: String
    let display: String
    private var handles: [String: (handle: OpaquePointer, row: Int64)] = [:]

    init(_ db: Database, table: String, display: String) {
        connection = db.sqliteConnection
        self.table = table
        self.display = display
    }

    mutating func read(_ row: Int64, column: String, into target: UnsafeMutableRawPointer, bytes: Int, offset: Int = 0) throws {
        guard bytes > 0 else { return }
        var handle: OpaquePointer
        if let open = handles[column] {
            handle = open.handle
            if open.row != row {
                try check(sqlite3_blob_reopen(handle, row))
                handles[column] = (handle, row)
            }
        } else {
            var opened: OpaquePointer?
            try check(sqlite3_blob_open(connection, "main", table, column, row, 0, &opened))
            guard let opened else { throw failure("no blob handle") }
            handle = opened
            handles[column] = (handle, row)
        }
        guard offset + bytes <= Int(sqlite3_blob_bytes(handle)) else {
            throw failure("row \(row) of \(table) holds \(sqlite3_blob_bytes(handle)) bytes of \(column), fewer than its count says")
        }
        try check(sqlite3_blob_read(handle, target, Int32(bytes), Int32(offset)))
    }

    mutating func close() {
        for (_, open) in handles { sqlite3_blob_close(open.handle) }
        handles = [:]
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw failure(String(cString: sqlite3_errmsg(connection))) }
    }

    private func failure(_ why: String) -> LecternError {
        LecternError(.database, display, "cannot read the vectors: \(why)")
    }
}
