import Foundation
import GRDB
import XCTest
@testable import Lectern

/// The parts of docs/architecture.md that describe code are made from it: the table of tables
/// from the migrations (each applied in turn to an empty database, so a table's row names the
/// migration that created it and its columns as they are now), and the folder table from
/// `LayeringTests.rows`. A stale section fails here with the command that rewrites it.
final class GeneratedDocsTests: XCTestCase {
    static let document = TestPaths.packageRoot.appendingPathComponent("docs/architecture.md")
    static let regenerate = "make docs"

    /// What each table holds: the one part of the table of tables written by hand. A table a
    /// migration adds needs a line here (the test says which).
    static let tableDescriptions: [String: String] = [
        "settings": "key/value: the library mark and identity, the recorded embedder, a reembed in progress, the vectors' generation",
        "sources": "one row per thing a user ingested (a file, a folder's file, a URL, a spec), with its kind",
        "documents": "one row per document read from a source: short id, URI, path, type, title, content hash, the skip key, metadata and extraction warnings (JSON), labels",
        "blocks": "the reader's typed blocks in order (kind, text, heading level, section path, page, time span, speaker, attributes)",
        "passages": "the chunker's passages: text, section path, page and page label or time span, character offsets, token count, timeline",
        "passages_fts": "the FTS5 index of passages (section path and text; kept by triggers)",
        "keyword_postings": "Lectern's own keyword postings: for each FTS5 token and document, the passages holding it with its count in their text and section header (varints); keyword queries are ranked from them with FTS5's BM25 (`KeywordPostings`); a PostgreSQL library keeps the same rows, ranked by the same code (`v13-pg-keyword-postings`)",
        "keyword_terms": "how many passages hold each FTS5 token: BM25's idf",
        "keyword_sizes": "each passage's size in tokens (text and section), by document: BM25's row size",
        "vector_blocks": "the passages' float32 vectors, \(VectorBlocks.capacity) to a blob, with the embedder that made them",
        "compact_vector_blocks": "the same vectors (passages' and topics') as int8 codes with a scale per vector: what a search scans before re-ranking its best candidates in float32",
        "runs": "every command that did work: command, arguments (secrets as `***`), counts and milliseconds per stage, status, pid and process start",
        "run_failures": "each failed input or warning of a run, with its stage, reason and severity",
        "run_outputs": "each file a run wrote or found up to date: path, format, SHA-256 of its content, the build key and cards basis it was made from",
        "card_bases": "per curriculum, the build key its stored cards were generated from (a deck is stale when the curriculum was rebuilt since)",
        "fetch_cache": "web sources' validators (ETag, Last-Modified) and content hashes for conditional GETs",
        "embedding_cache": "vectors made by an ingest that has not stored its document yet, by embedder identity and text hash",
        "llm_cache": "language-model answers by request hash (a re-run costs nothing)",
        "llm_calls": "each model call of a run: provider, model, tokens, cost, cached or not, what it was about, the prompt, the answer, why the model stopped and how long it took (`lectern logs`)",
        "summaries": "document and section summaries with their key points, the provider and model that wrote them and the hash of the text they summarise",
        "curricula": "one row per curriculum: name, stable id, title, the model it was built with, its build key and the course's own description",
        "curriculum_sources": "the documents a curriculum was built from, in order",
        "curriculum_units": "a curriculum's units in order",
        "topics": "a unit's topics: stable id, title, summary, study time and where their content came from",
        "topic_objectives": "a topic's learning objectives, each marked where the build made it because the unit lent the topic none (made again by every build)",
        "topic_key_terms": "a topic's key terms with their definitions and basis",
        "topic_passages": "a topic's passages, by id, in reading order",
        "topic_links": "prerequisite and related-topic links between topics, each with its reason (a term, or the text's reference back)",
        "topics_fts": "the FTS5 index of topics (kept by triggers), so topics are searchable",
        "topic_vector_blocks": "the topics' float32 vectors, \(VectorBlocks.capacity) to a blob",
        "cards": "flashcards: stable id (the Anki GUID), topic, note type, front and back, the passage they cite, origin and quality",
        "card_reports": "what each card generation made, turned away and why",
        "library_totals": "the passages, blocks and tokens `stats` prints, kept by triggers as rows are written and removed",
        Schema.migrationTable: "the names of the migrations applied",
    ]

    /// Every table, in the order the migrations create them, with the migration that did.
    static func tables() throws -> [(name: String, migration: String, columns: [String])] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            var found: [(String, String)] = [(Schema.migrationTable, "(the migration record)")]
            func names() throws -> [String] {
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
            }
            for migration in Schema.migrations {
                let before = Set(try names())
                try migration.apply(db)
                for name in try names() where !before.contains(name) { found.append((name, migration.identifier)) }
            }
            // FTS5's own tables (`passages_fts_data` …) belong to their index.
            let fts = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'"))
            return try found.filter { name, _ in !fts.contains { name.hasPrefix($0 + "_") } }.map { name, migration in
                let columns = name == Schema.migrationTable ? ["identifier"]
                    : try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name]).map { $0["name"] as String }
                return (name, migration, columns)
            }
        }
    }

    static func tableSection() throws -> String {
        var lines = ["| table | created by | columns | what it holds |", "|---|---|---|---|"]
        for table in try tables() {
            lines.append("| `\(table.name)` | `\(table.migration)` | \(table.columns.joined(separator: ", ")) | \(tableDescriptions[table.name] ?? "?") |")
        }
        return lines.joined(separator: "\n")
    }

    static func folderSection() -> String {
        var lines = ["| folder | what it holds | may use |", "|---|---|---|"]
        for row in LayeringTests.rows {
            let uses = row.mayUse.isEmpty ? "nothing else" : row.mayUse.joined(separator: ", ")
            let exceptions = LayeringTests.knownExceptions[row.folder].map { " (and still \($0.sorted().joined(separator: ", ")), #34)" } ?? ""
            lines.append("| `Sources/Lectern/\(row.folder)` | \(row.holds) | \(uses)\(exceptions) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with the generated section `name` replaced by `content`.
    static func replacing(_ name: String, with content: String, in text: String) throws -> String {
        let begin = "<!-- generated: \(name) (\(regenerate)) -->", end = "<!-- end generated: \(name) -->"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            throw LecternError(.invalidInput, "docs/architecture.md", "has no generated section \(name)")
        }
        return text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: "\n" + content + "\n")
    }

    func testArchitectureDocumentIsCurrent() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        var made = try Self.replacing("tables", with: Self.tableSection(), in: text)
        made = try Self.replacing("folders", with: Self.folderSection(), in: made)
        if ProcessInfo.processInfo.environment["LECTERN_WRITE_DOCS"] == "1", made != text {
            try made.write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        guard text != made else { return }
        let doc = text.components(separatedBy: "\n"), code = made.components(separatedBy: "\n")
        let line = (0..<min(doc.count, code.count)).first { doc[$0] != code[$0] } ?? min(doc.count, code.count)
        XCTFail("docs/architecture.md's generated tables are stale: run `\(Self.regenerate)` to rewrite them (line \(line + 1) "
                + "reads “\(line < doc.count ? doc[line] : "")”, the code makes “\(line < code.count ? code[line] : "")”)")
    }

    func testEveryTableIsDescribed() throws {
        let tables = try Self.tables().map(\.name)
        XCTAssertEqual(tables.filter { Self.tableDescriptions[$0] == nil }, [], "tables without a line in GeneratedDocsTests.tableDescriptions")
        XCTAssertEqual(Set(Self.tableDescriptions.keys).subtracting(tables), [], "descriptions of tables no migration makes")
        XCTAssertTrue(tables.contains("vector_blocks") && tables.contains("cards"))
    }
}
