import Foundation
import GRDB
import XCTest
@testable import Lectern

/// A keyword query is ranked from Lectern's own postings (`KeywordPostings`) at a tenth of
/// FTS5's cost a match; what a user sees must not change: the same passages, in the same order,
/// with the very same BM25 scores as FTS5's bm25(), after ingests, removals and replacements,
/// and in a library made before the postings existed.
final class KeywordPostingsTests: XCTestCase {
    /// Words with stems in common, capitals, diacritics and digits: what FTS5's porter and
    /// unicode61 tokenizer fold and stem.
    static let vocabulary = ("energy energies energetic entropy enzyme Cell cells membrane protein running runs run ran "
        + "derivative integral limit theorem proof matrix vector café Café naïve Ångström façade résumé 1984 x2 3D "
        + "force momentum Equilibrium reaction catalyst acid base argument premise conclusion fallacy river quokka "
        + "platypus the of and is to a in that it with").split(separator: " ").map(String.init)

    /// `documents` documents of 12–40 passages of 3–60 words each, drawn from the vocabulary
    /// with a Zipf-like skew, in sections whose names hold vocabulary words too.
    func write(_ store: LibraryStore, documents: ClosedRange<Int>, seed: UInt64, tag: String = "") throws {
        var random = TestRandom(seed: seed)
        let embedder = HashingEmbedder()
        for document in documents {
            let count = 12 + Int(random.next() % 29)
            let passages = (0..<count).map { index -> Passage in
                let words = (0..<(3 + Int(random.next() % 58))).map { _ -> String in
                    let skewed = Int(Double(Self.vocabulary.count) * pow(Double(random.next() % 1000) / 1000, 2.5))
                    return Self.vocabulary[min(skewed, Self.vocabulary.count - 1)]
                }
                let section = ["Part \(document)", Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))].capitalized]
                return Passage(ordinal: index, text: words.joined(separator: index % 3 == 0 ? ", " : " ") + ".", kind: .text,
                               sectionPath: section, tokenCount: words.count)
            }
            let uri = "notes-\(document).md"
            try store.replaceDocument(LibraryStore.DocumentWrite(
                sourceURI: uri, sourceKind: .file, uri: uri, path: nil, extractor: "markdown", extractorVersion: 1,
                contentHash: uri + tag, skipKey: SkipKey(passages: uri + tag, embedder: embedder.info.key),
                document: ExtractedDocument(type: "markdown", title: "Notes \(document) \(tag)", blocks: []),
                passages: passages, vectors: try embedder.embed(passages.map(\.text)), embedder: embedder.info))
        }
    }

    /// Queries of one to four words, some with a quoted word, an exclusion, duplicates.
    func queries(_ count: Int, seed: UInt64) -> [String] {
        var random = TestRandom(seed: seed)
        func word() -> String { Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }
        return (0..<count).map { index in
            var parts = (0..<(1 + Int(random.next() % 4))).map { _ in word() }
            if index % 5 == 1 { parts.append("\"\(word())\"") }
            if index % 7 == 2 { parts.append("-\(word())") }
            if index % 11 == 3, let first = parts.first { parts.append(first) }
            return parts.joined(separator: " ")
        }
    }

    /// Every query ranked both ways, with and without a document or passage filter: the same
    /// ids and the same scores, to the last bit.
    func assertRankedAsFTS5(_ store: LibraryStore, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let documents = try store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM documents ORDER BY id") }
        let passages = try store.read { db in try Int64.fetchSet(db, sql: "SELECT id FROM passages WHERE id % 3 = 0") }
        var ranked = 0
        for (index, text) in queries(120, seed: seed).enumerated() {
            let query = SearchQuery(parsing: text)
            let filter: (documents: Set<Int64>?, passages: Set<Int64>?) = switch index % 4 {
            case 1: (Set(documents.prefix(2)), nil)
            case 2: (nil, passages)
            default: (nil, nil)
            }
            let weights = index % 6 == 5 ? LibraryStore.KeywordWeights(text: 1.0, section: 0.3) : LibraryStore.KeywordWeights()
            let limit = index % 3 == 0 ? 1000 : 10
            let fts5 = try store.keywordMatches(query, limit: limit, documents: filter.documents, passages: filter.passages,
                                                weights: weights, evaluation: .fts5)
            guard let postings = try store.postingsMatches(query, limit: limit, documents: filter.documents,
                                                           passages: filter.passages, weights: weights) else {
                XCTFail("the postings could not rank '\(text)'", file: file, line: line)
                continue
            }
            if !fts5.isEmpty { ranked += 1 }
            XCTAssertEqual(postings.map(\.id), fts5.map(\.id), "'\(text)' (query \(index))", file: file, line: line)
            XCTAssertEqual(postings.map(\.score), fts5.map(\.score), "'\(text)' (query \(index))", file: file, line: line)
        }
        XCTAssertGreaterThan(ranked, 80, "most queries find passages", file: file, line: line)
    }

    /// Each term's count of passages holding it, as the postings keep it and as FTS5's own
    /// vocabulary table counts it.
    func assertTermsAsFTS5(_ store: LibraryStore, file: StaticString = #filePath, line: UInt = #line) throws {
        let (ours, theirs, tokens) = try store.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_terms USING fts5vocab(main, passages_fts, 'row')")
            let ours = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT term, passages FROM keyword_terms").map { ($0[0] as String, $0[1] as Int) })
            let theirs = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT term, doc FROM temp.passage_terms").map { ($0[0] as String, $0[1] as Int) })
            let tokens = try Int.fetchOne(db, sql: "SELECT value FROM library_totals WHERE name = 'keyword_tokens'")
            return (ours, theirs, tokens)
        }
        XCTAssertFalse(theirs.isEmpty, file: file, line: line)
        XCTAssertEqual(ours, theirs, file: file, line: line)
        XCTAssertNotNil(tokens, file: file, line: line)
    }

    func testPostingsRankEveryQueryAsFTS5Does() throws {
        let folder = try TemporaryFolder()
        var random = TestRandom.seeded()
        let store = try LibraryStore(path: folder.file("postings.db").path)
        try write(store, documents: 1...7, seed: random.next())
        try assertTermsAsFTS5(store)
        try assertRankedAsFTS5(store, seed: random.next())
        // A search goes through them: the CLI's answer is FTS5's.
        var searcher = Searcher(store: store, embedder: HashingEmbedder())
        let hits = try searcher.search("entropy café", k: 5, mode: .keyword)
        searcher.keywordEvaluation = .fts5
        XCTAssertEqual(hits.map(\.passageId), try searcher.search("entropy café", k: 5, mode: .keyword).map(\.passageId))
        XCTAssertFalse(hits.isEmpty)
    }

    func testPostingsFollowRemovalsAndReplacements() throws {
        let folder = try TemporaryFolder()
        var random = TestRandom.seeded()
        let store = try LibraryStore(path: folder.file("changes.db").path)
        try write(store, documents: 1...6, seed: random.next())
        try store.removeDocuments(try store.allDocuments().filter { ["notes-2.md", "notes-5.md"].contains($0.uri) })
        // Documents 3 and 4 replaced by new text; 8 added.
        try write(store, documents: 3...4, seed: random.next(), tag: "v2")
        try write(store, documents: 8...8, seed: random.next())
        try assertTermsAsFTS5(store)
        try assertRankedAsFTS5(store, seed: random.next())
        // Everything removed: nothing is left behind.
        try store.removeDocuments(try store.allDocuments())
        let left = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM keyword_postings) + (SELECT COUNT(*) FROM keyword_terms) + (SELECT COUNT(*) FROM keyword_sizes) + (SELECT value FROM library_totals WHERE name = 'keyword_tokens')")
        }
        XCTAssertEqual(left, 0)
    }

    func testALibraryFromBeforeThePostingsGetsThemWhenOpened() throws {
        let folder = try TemporaryFolder()
        var random = TestRandom.seeded()
        let path = folder.file("older.db").path
        try write(try LibraryStore(path: path), documents: 1...5, seed: random.next())
        // As the previous Lectern left it: no postings, migration v13 not applied.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                DROP TABLE keyword_postings; DROP TABLE keyword_terms; DROP TABLE keyword_sizes;
                DELETE FROM library_totals WHERE name = 'keyword_tokens';
                DELETE FROM grdb_migrations WHERE identifier = 'v13-kwi-keyword-postings';
                """)
        }
        try queue.close()
        let store = try LibraryStore(path: path, access: .read)
        try assertRankedAsFTS5(store, seed: random.next())
        try assertTermsAsFTS5(try LibraryStore(path: path))
    }
}
