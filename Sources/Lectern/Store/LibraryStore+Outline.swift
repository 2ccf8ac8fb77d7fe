import Foundation
import GRDB

extension LibraryStore {
    /// The passage with row id `id` and up to `context` passages either side of it in the same
    /// document, in reading order; empty when no passage has that id.
    func passageWithNeighbours(id: Int64, context: Int) throws -> [Passage] {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT document_id, ordinal FROM passages WHERE id = ?", arguments: [id]) else {
                return []
            }
            let document: Int64 = row["document_id"], ordinal: Int = row["ordinal"]
            return try PassageRecord.fetchAll(db, sql: """
                SELECT \(Passage.selection) FROM passages p JOIN documents d ON d.id = p.document_id
                WHERE p.document_id = ? AND p.ordinal BETWEEN ? AND ? ORDER BY p.ordinal
                """, arguments: [document, ordinal - context, ordinal + context]).map(Passage.init)
        }
    }

    /// The reader facts (an anchor `id`, a page `url`) of the headings of `sectionPath` and of
    /// each section above it, by section path (the first such heading in reading order): what a
    /// link to a passage's section is made of. Reads those headings alone, however many the
    /// document has.
    func sectionFacts(documentId: Int64, sectionPath: [String]) throws -> [[String]: [String: String]] {
        guard !sectionPath.isEmpty else { return [:] }
        let prefixes = (1...sectionPath.count).map { Self.json(Array(sectionPath.prefix($0))) }
        return try read { db in
            // Sorted here, not by ORDER BY ordinal, which would make SQLite walk the document's
            // every block in order (blocks_document) rather than look up these few paths.
            let rows = try Row.fetchAll(db, SQLRequest<Row>("""
                SELECT section_path, attributes, ordinal FROM blocks
                WHERE document_id = \(documentId) AND kind = 'heading' AND attributes IS NOT NULL AND section_path IN \(prefixes)
                """)).sorted { ($0["ordinal"] as Int) < ($1["ordinal"] as Int) }
            var facts: [[String]: [String: String]] = [:]
            for row in rows {
                let path = Self.decode([String].self, row["section_path"]) ?? []
                guard facts[path] == nil else { continue }
                facts[path] = Self.decode([String: String].self, row["attributes"]) ?? [:]
            }
            return facts
        }
    }

    /// The reader facts of the first timed block in this section (a lecture's video address).
    func cueAttributes(documentId: Int64, sectionPath: [String]) throws -> [String: String] {
        try read { db in
            Self.decode([String: String].self, try String.fetchOne(db, sql: """
                SELECT attributes FROM blocks
                WHERE document_id = ? AND kind = 'cue' AND section_path = ? AND attributes IS NOT NULL
                ORDER BY ordinal LIMIT 1
                """, arguments: [documentId, Self.json(sectionPath)])) ?? [:]
        }
    }

    /// A document's metadata (its web address, for links), by row id.
    func metadata(documentId: Int64) throws -> [String: String] {
        try read { db in
            Self.decode([String: String].self, try String.fetchOne(db, sql: "SELECT metadata FROM documents WHERE id = ?", arguments: [documentId])) ?? [:]
        }
    }

    /// Names a stored document as its user wants it named (`ingest --title`).
    func setTitle(documentId: Int64, _ title: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE documents SET title = ? WHERE id = ?", arguments: [title, documentId])
        }
    }
}
