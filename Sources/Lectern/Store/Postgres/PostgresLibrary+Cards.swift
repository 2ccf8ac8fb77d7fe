import Foundation

/// Flashcards in a PostgreSQL library, as the SQLite library keeps them (`LibraryStore+Cards`):
/// by curriculum name, numbered in generation order, a generate's report beside them.
extension PostgresLibrary {
    static let cardColumns = [
        "curriculum", "guid", "curriculum_stable_id", "topic_stable_id", "note_type", "origin", "front", "back", "passage_id",
        "document_id", "page_start", "page_label", "time_start", "source", "tags", "grounding", "ordinal", "run_id",
        "modified_at", "quality",
    ]

    /// The cards' columns with the JSON ones as JSON, as `CardRecord` decodes them.
    static let cardSelection = """
        id, curriculum, guid, curriculum_stable_id, topic_stable_id, note_type, origin, front, back, passage_id, document_id,
        page_start, page_label, time_start, source::json as source, tags::json as tags, grounding, ordinal, run_id, modified_at,
        quality::json as quality
        """

    func replaceCards(_ cards: [CardRecord], curriculum name: String, topics: Set<String>?, report: CardReportRecord?) throws {
        try transaction {
            if let topics {
                try connection.query("delete from cards where curriculum = $1 and topic_stable_id = any($2::text[])",
                                     [name, Self.textArray(Array(topics))])
            } else {
                try connection.query("delete from cards where curriculum = $1", [name])
            }
            let numbered = cards.enumerated().map { ordinal, card in
                var card = card
                (card.id, card.curriculum, card.ordinal) = (nil, name, ordinal)
                return card
            }
            // A few thousand a statement; a GUID already stored (twice in one batch) is left out, as SQLite's OR IGNORE.
            for start in stride(from: 0, to: numbered.count, by: 2_000) {
                let list = Self.cardColumns.joined(separator: ", ")
                try connection.query("""
                    insert into cards (\(list)) select \(list) from json_populate_recordset(null::cards, $1::json)
                    on conflict (curriculum, guid) do nothing
                    """, ["[" + numbered[start..<min(start + 2_000, numbered.count)].map { Self.object($0) }.joined(separator: ",") + "]"])
            }
            if let report {
                try connection.query("""
                    insert into card_reports (run_id, curriculum, report, created_at) values ($1, $2, $3, $4)
                    on conflict (run_id) do update set curriculum = excluded.curriculum, report = excluded.report,
                        created_at = excluded.created_at
                    """, [String(report.runId), report.curriculum, report.report, report.createdAt])
            }
        }
    }

    func cardRecords(curriculum name: String?, topics: [String]) throws -> [CardRecord] {
        let (filter, parameters) = Self.cardFilter(curriculum: name, topics: topics, guids: [])
        let sql = "select \(Self.cardSelection) from cards where true\(filter) order by curriculum collate \"C\", ordinal"
        return try session { try connection.records(CardRecord.self, sql, parameters) }
    }

    func removeCards(curriculum name: String?, topics: [String], guids: [String]) throws -> Int {
        let (filter, parameters) = Self.cardFilter(curriculum: name, topics: topics, guids: guids)
        return try session { try connection.query("delete from cards where true\(filter)", parameters).affected }
    }

    /// The conditions that pick cards (`and …` clauses after `where true`) and their parameters,
    /// shared by reading and removing them.
    private static func cardFilter(curriculum name: String?, topics: [String], guids: [String]) -> (String, [String?]) {
        var sql = ""
        var parameters: [String?] = []
        if let name {
            parameters.append(name)
            sql += " and curriculum = $\(parameters.count)"
        }
        if !topics.isEmpty {
            parameters.append(textArray(topics))
            sql += " and topic_stable_id = any($\(parameters.count)::text[])"
        }
        if !guids.isEmpty {
            parameters.append(textArray(guids))
            sql += " and guid = any($\(parameters.count)::text[])"
        }
        return (sql, parameters)
    }

    func latestCardReportRecords(curriculum name: String?) throws -> [CardReportRecord] {
        var sql = "select * from card_reports r where run_id = (select max(run_id) from card_reports where curriculum = r.curriculum)"
        var parameters: [String?] = []
        if let name {
            parameters.append(name)
            sql += " and curriculum = $1"
        }
        return try session { try connection.records(CardReportRecord.self, sql, parameters) }
    }
}
