import Foundation
import GRDB

extension LibraryStore {
    /// Replaces the cards of `topics` (every topic when nil) of curriculum `name` with `cards`
    /// (numbered in their order), and keeps `report`, in ONE transaction: a failed generate
    /// leaves the cards as they were. A card whose GUID is already stored is left out.
    func replaceCards(_ cards: [CardRecord], curriculum name: String, topics: Set<String>?, report: CardReportRecord?) throws {
        try write { db in
            if let topics {
                try db.execute(literal: "DELETE FROM cards WHERE curriculum = \(name) AND topic_stable_id IN \(Array(topics))")
            } else {
                try db.execute(sql: "DELETE FROM cards WHERE curriculum = ?", arguments: [name])
            }
            for (ordinal, var card) in cards.enumerated() {
                card.id = nil
                card.curriculum = name
                card.ordinal = ordinal
                try card.insert(db, onConflict: .ignore)
            }
            if let report {
                try report.insert(db, onConflict: .replace)
            }
        }
    }

    /// Stored cards in generation order, of curriculum `name` (every one when nil), narrowed to
    /// `topics` (stable ids: `TopicReferences` reads what a user typed) when given.
    func cardRecords(curriculum name: String? = nil, topics: [String] = []) throws -> [CardRecord] {
        try read { db in
            var sql: SQL = "SELECT * FROM cards WHERE 1"
            if let name { sql += " AND curriculum = \(name)" }
            if !topics.isEmpty {
                sql += " AND topic_stable_id IN \(topics)"
            }
            sql += " ORDER BY curriculum, ordinal"
            return try CardRecord.fetchAll(db, SQLRequest(literal: sql))
        }
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
    func latestCardReportRecords(curriculum name: String? = nil) throws -> [CardReportRecord] {
        try read { db in
            var sql: SQL = "SELECT * FROM card_reports r WHERE run_id = (SELECT MAX(run_id) FROM card_reports WHERE curriculum = r.curriculum)"
            if let name { sql += " AND curriculum = \(name)" }
            return try CardReportRecord.fetchAll(db, SQLRequest(literal: sql))
        }
    }
}
