import CSQLite
import Foundation
import GRDB

/// Lectern's own keyword postings, beside FTS5's index, so that a keyword query is ranked by
/// BM25 at a tenth of a microsecond a match instead of FTS5's 1.1–1.7 µs (`bm25()` steps the
/// SQL machine, decodes positions and looks up the row size for every match): a query holding a
/// word that 300,000 of a million passages hold took half a second.
///
/// For each term and document, one row: the document's passages that hold the term, each with
/// how often the term occurs in its text and in its section header (FTS5's two columns); for each
/// document, each passage's size in tokens; for each term, how many passages hold it. The tokens
/// are FTS5's (`IndexTokenizer`), the rows change in the same transaction as the passages, and the
/// score is computed with FTS5's own arithmetic in FTS5's order: the same hits and the very same
/// scores (`KeywordPostingsTests` compares them with `bm25()`).
enum KeywordPostings {
    /// FTS5's BM25 constants.
    static let k1 = 1.2
    static let b = 0.75

    /// The `library_totals` row holding the tokens of every passage's text and section: FTS5's
    /// total row size, from which its average row size is taken. Its presence says the library
    /// has the postings (migration `v13-kwi-keyword-postings`).
    static let totalTokensName = "keyword_tokens"

    // MARK: Writing

    /// A passage as the index reads it: FTS5's two columns.
    struct Passage {
        var id: Int64
        var text: String
        var section: String?
    }

    /// A document's postings as the tables hold them, whichever backend keeps them.
    struct DocumentPostings {
        /// Each term the document holds, with how many of its passages hold it and their
        /// postings (`data`: each passage's id as the gap from the previous one, its count in
        /// the text shifted left with the low bit set when the section holds it too, then the
        /// section's count), terms in byte order.
        var terms: [(term: String, passages: Int, data: Data)]
        /// Each passage's size in tokens (`RowSizes`).
        var sizes: Data
        /// The sum of the sizes.
        var tokens: Int
    }

    /// The postings of a document's passages (ids ascending), made by `tokenizer`.
    static func postings(of passages: [Passage], tokenizer: IndexTokenizer) throws -> DocumentPostings? {
        guard !passages.isEmpty else { return nil }
        // term → (passage id, occurrences in the text, occurrences in the section), by passage
        var postings: [String: [(id: Int64, text: Int, section: Int)]] = [:]
        var sizes: [(id: Int64, tokens: Int)] = []
        sizes.reserveCapacity(passages.count)
        var counts: [String: (text: Int, section: Int)] = [:]
        var total = 0
        for passage in passages {
            counts.removeAll(keepingCapacity: true)
            var tokens = 0
            try tokenizer.tokenize(passage.text) { bytes, counted in
                counts[String(decoding: bytes, as: UTF8.self), default: (0, 0)].text += 1
                if counted { tokens += 1 }
            }
            if let section = passage.section {
                try tokenizer.tokenize(section) { bytes, counted in
                    counts[String(decoding: bytes, as: UTF8.self), default: (0, 0)].section += 1
                    if counted { tokens += 1 }
                }
            }
            for (term, count) in counts {
                postings[term, default: []].append((passage.id, count.text, count.section))
            }
            sizes.append((passage.id, tokens))
            total += tokens
        }
        var writer = VarintWriter()
        var terms: [(term: String, passages: Int, data: Data)] = []
        terms.reserveCapacity(postings.count)
        // In byte order: PostgreSQL writers take the terms' row locks in one order, so two of
        // them never wait for each other in a circle.
        for (term, list) in postings.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            writer.reset()
            var previous: Int64 = 0
            for posting in list {
                writer.append(UInt64(posting.id - previous))
                previous = posting.id
                writer.append(UInt64(posting.text) << 1 | (posting.section > 0 ? 1 : 0))
                if posting.section > 0 { writer.append(UInt64(posting.section)) }
            }
            terms.append((term, list.count, writer.data))
        }
        return DocumentPostings(terms: terms, sizes: RowSizes.encode(sizes), tokens: total)
    }

    /// Adds the postings of a document's passages (ids ascending), in the caller's transaction.
    static func add(_ db: Database, documentId: Int64, passages: [Passage], tokenizer: IndexTokenizer) throws {
        guard let postings = try postings(of: passages, tokenizer: tokenizer) else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO keyword_postings(term, document_id, passages, data) VALUES (?, ?, ?, ?)")
        let count = try db.cachedStatement(sql: """
            INSERT INTO keyword_terms(term, passages) VALUES (?, ?)
            ON CONFLICT(term) DO UPDATE SET passages = passages + excluded.passages
            """)
        for (term, passages, data) in postings.terms {
            try insert.execute(arguments: [term, documentId, passages, data])
            try count.execute(arguments: [term, passages])
        }
        try db.execute(sql: "INSERT INTO keyword_sizes(document_id, tokens, data) VALUES (?, ?, ?)",
                       arguments: [documentId, postings.tokens, postings.sizes])
        try db.execute(sql: "UPDATE library_totals SET value = value + ? WHERE name = ?", arguments: [postings.tokens, totalTokensName])
    }

    /// Removes the postings of documents, in the caller's transaction, before their passages
    /// go: the terms a document's rows are under are found by tokenizing its passages again, as
    /// FTS5 finds what to delete from its own index, so no second index by document is kept
    /// (128 MB at a million passages).
    static func remove(_ db: Database, documentIds: [Int64]) throws {
        guard !documentIds.isEmpty else { return }
        let tokenizer = try IndexTokenizer(db)
        let passages = try db.cachedStatement(sql: "SELECT text, section FROM passages WHERE document_id = ?")
        let delete = try db.cachedStatement(sql: "DELETE FROM keyword_postings WHERE term = ? AND document_id = ? RETURNING passages")
        let uncount = try db.cachedStatement(sql: "UPDATE keyword_terms SET passages = passages - ? WHERE term = ?")
        let drop = try db.cachedStatement(sql: "DELETE FROM keyword_terms WHERE term = ? AND passages <= 0")
        for document in documentIds {
            var terms = Set<String>()
            let rows = try Row.fetchCursor(passages, arguments: [document])
            while let row = try rows.next() {
                for column in [row[0] as String?, row[1] as String?] {
                    guard let column else { continue }
                    try tokenizer.tokenize(column) { bytes, _ in terms.insert(String(decoding: bytes, as: UTF8.self)) }
                }
            }
            for term in terms {
                guard let held = try Int.fetchOne(delete, arguments: [term, document]) else { continue }
                try uncount.execute(arguments: [held, term])
                try drop.execute(arguments: [term])
            }
        }
        let documents = LibraryStore.idSet(documentIds)
        try db.execute(literal: """
            UPDATE library_totals SET value = value - (SELECT COALESCE(SUM(tokens), 0) FROM keyword_sizes WHERE document_id IN \(documents))
            WHERE name = \(totalTokensName)
            """)
        try db.execute(literal: "DELETE FROM keyword_sizes WHERE document_id IN \(documents)")
    }

    /// Builds the postings of every document a library holds (the migration that brings them).
    static func addAll(_ db: Database) throws {
        let tokenizer = try IndexTokenizer(db)
        let documents = try Int64.fetchAll(db, sql: "SELECT DISTINCT document_id FROM passages ORDER BY document_id")
        let passages = try db.makeStatement(sql: "SELECT id, text, section FROM passages WHERE document_id = ? ORDER BY id")
        for document in documents {
            let rows = try Row.fetchAll(passages, arguments: [document])
            try add(db, documentId: document, passages: rows.map { Passage(id: $0[0], text: $0[1], section: $0[2]) }, tokenizer: tokenizer)
        }
    }

    /// Calls `body` with each passage id of one term's postings in a document (`data`).
    static func passageIds(_ data: UnsafeRawBufferPointer, _ body: (Int64) -> Void) {
        var reader = VarintReader(data)
        var id: Int64 = 0
        while !reader.atEnd {
            id += Int64(reader.next())
            if reader.next() & 1 == 1 { _ = reader.next() }
            body(id)
        }
    }

    // MARK: Ranking

    /// The passages holding any of `items` (each one FTS5 token: a query word, or a quoted
    /// phrase of one word) with every one of `required` (indices into `items`), of `documents`
    /// when given, among `passages` when given and outside `excluded`: the best `limit` by FTS5's
    /// BM25 with these column weights, best first, equal scores by id. Nil when the library has
    /// no postings (a library opened without its migrations). The same code ranks a SQLite
    /// library and a PostgreSQL one; only `reader` differs.
    static func ranked(_ reader: some KeywordPostingsReader, items: [String], required: Set<Int>, limit: Int, documents: Set<Int64>?,
                       passages: Set<Int64>?, excluded: Set<Int64>, weights: LibraryStore.KeywordWeights) throws
        -> [(id: Int64, score: Double)]? {
        let distinct = Array(Set(items)).sorted()
        guard let statistics = try reader.statistics(of: distinct) else { return nil }
        let rows = statistics.passages
        guard rows > 0, limit > 0, !items.isEmpty else { return [] }
        // FTS5's figures, computed as fts5_aux.c computes them.
        let averageSize = Double(statistics.tokens) / Double(rows)
        // Items by distinct term, and each term's bit in a passage's mask of the terms it holds.
        let termOfItem = items.map { distinct.firstIndex(of: $0)! }
        var idf: [Double] = []
        for item in items.indices {
            let hits = statistics.holding[termOfItem[item]]
            var value = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
            if value <= 0 { value = 1e-6 }
            idf.append(value)
        }
        let requiredMask = required.reduce(UInt64(0)) { $0 | (1 << UInt64(termOfItem[$1])) }
        let weighted = WeightedCounts(weights)
        var best = TopScores(limit: limit)
        var ids = [Int64](repeating: 0, count: 4096)
        var freqs = [Double](repeating: 0, count: 4096)
        var starts = [Int](repeating: 0, count: distinct.count)
        var ends = [Int](repeating: 0, count: distinct.count)
        var current = [Double](repeating: 0, count: distinct.count)
        try reader.eachDocument(terms: distinct, documents: documents) { _, postings, sizes in
            // The document's postings of each term, one after another in `ids` and `freqs`.
            let needed = postings.reduce(0) { $0 + $1.passages }
            if ids.count < needed {
                ids = [Int64](repeating: 0, count: needed * 2)
                freqs = [Double](repeating: 0, count: needed * 2)
            }
            var filled = 0
            ids.withUnsafeMutableBufferPointer { ids in
                freqs.withUnsafeMutableBufferPointer { freqs in
                    for term in distinct.indices {
                        starts[term] = filled
                        var reader = VarintReader(postings[term].data)
                        var id: Int64 = 0
                        while !reader.atEnd && filled < needed {
                            id += Int64(reader.next())
                            let packed = reader.next()
                            let inSection = packed & 1 == 1 ? reader.next() : 0
                            ids[filled] = id
                            freqs[filled] = weighted.frequency(text: packed >> 1, section: inSection)
                            filled += 1
                        }
                        ends[term] = filled
                    }
                }
            }
            guard let sizes else { return }
            let rowSizes = try RowSizes(sizes)
            try ids.withUnsafeBufferPointer { ids in
                try freqs.withUnsafeBufferPointer { freqs in
                    var cursor = starts
                    while true {
                        var id = Int64.max
                        for term in distinct.indices where cursor[term] < ends[term] && ids[cursor[term]] < id {
                            id = ids[cursor[term]]
                        }
                        guard id != .max else { break }
                        var mask: UInt64 = 0
                        for term in distinct.indices {
                            if cursor[term] < ends[term] && ids[cursor[term]] == id {
                                current[term] = freqs[cursor[term]]
                                cursor[term] += 1
                                mask |= 1 << UInt64(term)
                            } else {
                                current[term] = 0
                            }
                        }
                        guard mask & requiredMask == requiredMask else { continue }
                        if let passages, !passages.contains(id) { continue }
                        if !excluded.isEmpty && excluded.contains(id) { continue }
                        // FTS5's sum over the query's items in order; an item the passage does
                        // not hold adds exactly 0 there.
                        let size = Double(try rowSizes.size(of: id))
                        let norm = k1 * (1 - b + b * size / averageSize)
                        var score = 0.0
                        for item in items.indices {
                            let freq = current[termOfItem[item]]
                            if freq > 0 { score += idf[item] * ((freq * (k1 + 1.0)) / (freq + norm)) }
                        }
                        best.offer(id: id, score: score)
                    }
                }
            }
        }
        return best.sorted()
    }
}

/// What ranking reads of a library's keyword postings, wherever they are kept: SQLite's tables
/// (`SQLitePostingsReader`) or PostgreSQL's (`PostgresPostingsReader`). `KeywordPostings.ranked`
/// is the one scorer of both.
protocol KeywordPostingsReader {
    /// FTS5's N (the passages), the passages' total size in tokens, and how many passages hold
    /// each of `terms`; nil when the library has no postings.
    func statistics(of terms: [String]) throws -> (passages: Int64, tokens: Int64, holding: [Int64])?

    /// Calls `body` for each document holding any of `terms` (only those of `documents` when
    /// given), in ascending id order, with each term's postings there (by the index in `terms`:
    /// no passages and no bytes for a term it lacks) and its passages' row sizes (nil when it
    /// has none). The bytes are valid during the call.
    func eachDocument(terms: [String], documents: Set<Int64>?,
                      _ body: (_ document: Int64, _ postings: [TermPostings], _ sizes: UnsafeRawBufferPointer?) throws -> Void) throws
}

/// One term's postings in one document: how many passages, and their encoded list.
struct TermPostings {
    var passages: Int
    var data: UnsafeRawBufferPointer

    /// A term the document does not hold.
    static var none: TermPostings { TermPostings(passages: 0, data: UnsafeRawBufferPointer(start: nil, count: 0)) }
}

/// A SQLite library's postings, read in the caller's read transaction: each term's rows in
/// document order, read in step (a merge by document), their blobs decoded where SQLite holds them.
struct SQLitePostingsReader: KeywordPostingsReader {
    let db: Database

    func statistics(of terms: [String]) throws -> (passages: Int64, tokens: Int64, holding: [Int64])? {
        var totals: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, value FROM library_totals WHERE name IN ('passages', ?)",
                                    arguments: [KeywordPostings.totalTokensName]) {
            totals[row[0]] = row[1]
        }
        guard let tokens = totals[KeywordPostings.totalTokensName] else { return nil }
        let holding = try db.cachedStatement(sql: "SELECT passages FROM keyword_terms WHERE term = ?")
        return (totals["passages"] ?? 0, tokens, try terms.map { try Int64.fetchOne(holding, arguments: [$0]) ?? 0 })
    }

    func eachDocument(terms: [String], documents: Set<Int64>?,
                      _ body: (Int64, [TermPostings], UnsafeRawBufferPointer?) throws -> Void) throws {
        let filter = documents.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }
        let sql = "SELECT document_id, passages, data FROM keyword_postings WHERE term = ?1"
            + (filter == nil ? "" : " AND document_id IN (SELECT value FROM json_each(?2))") + " ORDER BY document_id"
        let cursors = try terms.map { term in
            let cursor = try RawStatement(db, sql)
            try cursor.bind(1, term)
            if let filter { try cursor.bind(2, filter) }
            return cursor
        }
        var live = try cursors.map { try $0.step() }
        let sizes = try RawStatement(db, "SELECT data FROM keyword_sizes WHERE document_id = ?1")
        var postings = [TermPostings](repeating: .none, count: terms.count)
        while true {
            var document = Int64.max
            for term in terms.indices where live[term] { document = min(document, cursors[term].int64(0)) }
            guard document != .max else { break }
            for term in terms.indices {
                postings[term] = live[term] && cursors[term].int64(0) == document
                    ? TermPostings(passages: Int(cursors[term].int64(1)), data: cursors[term].blob(2)) : .none
            }
            try sizes.reset()
            try sizes.bind(1, document)
            try body(document, postings, try sizes.step() ? sizes.blob(0) : nil)
            for term in terms.indices where live[term] && cursors[term].int64(0) == document {
                live[term] = try cursors[term].step()
            }
        }
    }
}

/// Each passage's size in tokens for one document: the first id, the count, the width of a size
/// (2 or 4 bytes), then the sizes in id order, little-endian. A document's passages are written
/// in one transaction, one after another, so their ids follow each other; an id between them
/// that is not the document's (which no writer makes) would read as size 0.
struct RowSizes {
    private let raw: UnsafeRawBufferPointer
    private let first: Int64
    private let count: Int
    private let width: Int
    private let start: Int

    init(_ raw: UnsafeRawBufferPointer) throws {
        var reader = VarintReader(raw)
        first = Int64(reader.next())
        count = Int(reader.next())
        width = Int(reader.next())
        start = reader.offset
        self.raw = raw
        guard width == 2 || width == 4, start + count * width <= raw.count else {
            throw LecternError(.corrupt, "keyword index", "a document's row sizes are unreadable; `lectern doctor` checks the library")
        }
    }

    func size(of id: Int64) throws -> Int {
        let slot = Int(id - first)
        guard slot >= 0, slot < count else {
            throw LecternError(.corrupt, "keyword index", "passage \(id) has no row size; `lectern doctor` checks the library")
        }
        return width == 2 ? Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: start + slot * 2, as: UInt16.self)))
            : Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + slot * 4, as: UInt32.self)))
    }

    /// The sizes of `sizes` (ids ascending), over the span from the first id to the last.
    static func encode(_ sizes: [(id: Int64, tokens: Int)]) -> Data {
        guard let first = sizes.first?.id, let last = sizes.last?.id else { return Data() }
        let count = Int(last - first + 1)
        let width = sizes.contains { $0.tokens > Int(UInt16.max) } ? 4 : 2
        var writer = VarintWriter()
        writer.append(UInt64(first))
        writer.append(UInt64(count))
        writer.append(UInt64(width))
        var data = writer.data
        var dense = Data(count: count * width)
        dense.withUnsafeMutableBytes { raw in
            for size in sizes {
                let slot = Int(size.id - first)
                if width == 2 {
                    raw.storeBytes(of: UInt16(size.tokens).littleEndian, toByteOffset: slot * 2, as: UInt16.self)
                } else {
                    raw.storeBytes(of: UInt32(clamping: size.tokens).littleEndian, toByteOffset: slot * 4, as: UInt32.self)
                }
            }
        }
        data.append(dense)
        return data
    }
}

/// The best `limit` of many (id, score) pairs: higher scores first, equal scores by lower id
/// (FTS5's `ORDER BY score DESC, id`), kept in a heap whose root is the worst kept.
struct TopScores {
    let limit: Int
    private var heap: [(id: Int64, score: Double)] = []

    init(limit: Int) {
        self.limit = limit
        heap.reserveCapacity(min(limit, 4096))
    }

    /// Whether `a` ranks below `b`.
    private static func worse(_ a: (id: Int64, score: Double), _ b: (id: Int64, score: Double)) -> Bool {
        a.score != b.score ? a.score < b.score : a.id > b.id
    }

    mutating func offer(id: Int64, score: Double) {
        let entry = (id: id, score: score)
        if heap.count < limit {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.worse(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        } else if let root = heap.first, Self.worse(root, entry) {
            heap[0] = entry
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && Self.worse(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && Self.worse(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    func sorted() -> [(id: Int64, score: Double)] {
        heap.sorted { Self.worse($1, $0) }
    }
}

/// A passage's weighted count of a term, as FTS5's bm25() sums it: the column's weight added
/// once for each occurrence, the text's before the section's (the same additions, so the same
/// double); the usual counts looked up.
struct WeightedCounts {
    private let weights: LibraryStore.KeywordWeights
    private var table: [Double] = []
    private static let texts = 32, sections = 8

    init(_ weights: LibraryStore.KeywordWeights) {
        self.weights = weights
        table.reserveCapacity(Self.texts * Self.sections)
        for text in 0..<Self.texts {
            for section in 0..<Self.sections { table.append(Self.sum(text: UInt64(text), section: UInt64(section), weights)) }
        }
    }

    private static func sum(text: UInt64, section: UInt64, _ weights: LibraryStore.KeywordWeights) -> Double {
        var freq = 0.0
        for _ in 0..<text { freq += weights.text }
        for _ in 0..<section { freq += weights.section }
        return freq
    }

    func frequency(text: UInt64, section: UInt64) -> Double {
        text < Self.texts && section < Self.sections ? table[Int(text) * Self.sections + Int(section)]
            : Self.sum(text: text, section: section, weights)
    }
}

/// One statement run on the connection by SQLite's C API, so that a row's blob is read where
/// SQLite holds it (no copy) while other statements are on their rows.
final class RawStatement {
    private var statement: OpaquePointer?
    private let db: Database

    init(_ db: Database, _ sql: String) throws {
        self.db = db
        let rc = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    deinit { sqlite3_finalize(statement) }

    private func failure(_ rc: Int32) -> LecternError {
        LecternError(.database, "keyword index", String(cString: sqlite3_errmsg(db.sqliteConnection)) + " (code \(rc))")
    }

    func bind(_ index: Int32, _ text: String) throws {
        // SQLITE_TRANSIENT: SQLite copies the text.
        let rc = sqlite3_bind_text(statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        let rc = sqlite3_bind_int64(statement, index, value)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    func reset() throws {
        sqlite3_reset(statement)
    }

    /// Whether a row came.
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw failure(rc)
        }
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    /// The column's bytes, valid until the statement steps, resets or ends.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let start = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}

/// LEB128 varints, 7 bits a byte, low first.
struct VarintWriter {
    private(set) var data = Data()

    mutating func reset() { data.removeAll(keepingCapacity: true) }

    mutating func append(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            data.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        data.append(UInt8(value))
    }
}

struct VarintReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { offset >= bytes.count }

    /// The next value; 0 past the end (a truncated blob reads as zeros, never out of bounds).
    mutating func next() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            if shift > 63 { break }
        }
        return value
    }
}
