import Foundation
import GRDB

/// A stored note with the curriculum (by name) it belongs to.
struct StoredCard: Sendable, Equatable {
    var id: Int64
    var curriculum: String
    var card: Flashcard
}

extension LibraryStore {
    /// Replaces the cards of `topics` (every topic when nil) of curriculum `name` with `cards`,
    /// and keeps `report` under `run`, in ONE transaction: a failed generate leaves the cards
    /// as they were.
    func replaceCards(_ cards: [Flashcard], curriculum name: String, topics: Set<String>?,
                      report: CardGenerationReport, run: Int64?) throws {
        try write { db in
            if let topics {
                try db.execute(literal: "DELETE FROM cards WHERE curriculum = \(name) AND topic_stable_id IN \(Array(topics))")
            } else {
                try db.execute(sql: "DELETE FROM cards WHERE curriculum = ?", arguments: [name])
            }
            let insert = try db.makeStatement(sql: """
                INSERT INTO cards(curriculum, guid, curriculum_stable_id, topic_stable_id, note_type, origin, front, back,
                    passage_id, document_id, page_start, page_label, time_start, source, tags, grounding, ordinal, run_id,
                    modified_at, quality)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(curriculum, guid) DO NOTHING
                """)
            for (ordinal, card) in cards.enumerated() {
                try insert.execute(arguments: [
                    name, card.guid, card.curriculumStableId, card.topicStableId, card.noteType.rawValue, card.origin.rawValue,
                    card.front, card.back, card.source.passageId, card.source.documentId, card.source.pageStart,
                    card.source.pageLabel, card.source.timeStart, Self.json(card.source), Self.json(card.tags),
                    card.grounding, ordinal, run, card.modifiedAt.timeIntervalSince1970, card.quality.map(Self.json),
                ])
            }
            if let run {
                try db.execute(sql: "INSERT OR REPLACE INTO card_reports(run_id, curriculum, report, created_at) VALUES (?, ?, ?, ?)",
                               arguments: [run, name, Self.json(report), Self.now()])
            }
        }
    }

    /// Stored cards in generation order, of curriculum `name` (every one when nil), narrowed to
    /// `topics` (stable ids: `TopicReferences` reads what a user typed) when given.
    func cards(curriculum name: String? = nil, topics: [String] = []) throws -> [StoredCard] {
        try read { db in
            var sql: SQL = "SELECT * FROM cards WHERE 1"
            if let name { sql += " AND curriculum = \(name)" }
            if !topics.isEmpty {
                sql += " AND topic_stable_id IN \(topics)"
            }
            sql += " ORDER BY curriculum, ordinal"
            return try Row.fetchAll(db, SQLRequest<Row>(literal: sql)).map(Self.storedCard)
        }
    }

    private static func storedCard(_ row: Row) -> StoredCard {
        let source = decode(CardSource.self, row["source"]) ?? CardSource(
            passageId: row["passage_id"], documentId: row["document_id"], documentTitle: "", uri: "",
            pageStart: row["page_start"], pageLabel: row["page_label"], timeStart: row["time_start"])
        let card = Flashcard(
            guid: row["guid"], curriculumStableId: row["curriculum_stable_id"], topicStableId: row["topic_stable_id"],
            noteType: CardNoteType(rawValue: row["note_type"]) ?? .basic, front: row["front"], back: row["back"],
            origin: CardOrigin(rawValue: row["origin"]) ?? .definition, source: source,
            tags: decode([String].self, row["tags"]) ?? [], grounding: row["grounding"],
            quality: decode(CardQuality.self, row["quality"]),
            modifiedAt: Date(timeIntervalSince1970: row["modified_at"]))
        return StoredCard(id: row["id"], curriculum: row["curriculum"], card: card)
    }

    /// Removes cards by curriculum, topics and/or GUIDs (all given conditions hold); returns how many.
    func removeCards(curriculum name: String?, topics: [String] = [], guids: [String] = []) throws -> Int {
        try write { db in
            var sql: SQL = "DELETE FROM cards WHERE 1"
            if let name { sql += " AND curriculum = \(name)" }
            if !topics.isEmpty { sql += " AND topic_stable_id IN \(topics)" }
            if !guids.isEmpty { sql += " AND guid IN \(guids)" }
            try db.execute(literal: sql)
            return db.changesCount
        }
    }

    /// The newest generate report of each curriculum (of `name` only when given).
    func latestCardReports(curriculum name: String? = nil) throws -> [String: CardGenerationReport] {
        try read { db in
            var sql: SQL = "SELECT curriculum, report FROM card_reports r WHERE run_id = (SELECT MAX(run_id) FROM card_reports WHERE curriculum = r.curriculum)"
            if let name { sql += " AND curriculum = \(name)" }
            var result: [String: CardGenerationReport] = [:]
            for row in try Row.fetchAll(db, SQLRequest<Row>(literal: sql)) {
                result[row["curriculum"]] = Self.decode(CardGenerationReport.self, row["report"])
            }
            return result
        }
    }
}
