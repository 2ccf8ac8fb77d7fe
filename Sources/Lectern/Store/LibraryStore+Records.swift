import Foundation
import GRDB

// How the SQLite store reads and writes the records (`Store/Records`): GRDB's conformances,
// kept here so that the records themselves stay plain values another backend can use.
// JSON columns are written as the store's other JSON is (sorted keys, slashes unescaped).

private func storeJSONEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

extension CurriculumRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "curricula"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension CurriculumSourceRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "curriculum_sources"
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { storeJSONEncoder() }
}

extension CurriculumUnitRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "curriculum_units"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension TopicRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "topics"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension TopicObjectiveRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "topic_objectives"
}

extension TopicKeyTermRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "topic_key_terms"
}

extension TopicPassageRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "topic_passages"
}

extension TopicLinkRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "topic_links"
}

extension CardRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "cards"
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { storeJSONEncoder() }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension CardReportRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "card_reports"
}

extension RunOutputRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "run_outputs"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension CardBasisRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "card_bases"
}

extension DocumentRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "documents"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension BlockRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "blocks"
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { storeJSONEncoder() }
}

extension PassageRecord: FetchableRecord {}

extension SourceTotalsRecord: FetchableRecord {}

extension SourceTypeRecord: FetchableRecord {}

// `stats` reads these two at every call: read by column, not through `Decodable`, and by SQL
// (`statsSQL`), not the query interface, which looks the table up in the schema first.
extension LibraryTotalRecord: FetchableRecord {
    static let statsSQL = "SELECT name, value FROM library_totals"
    init(row: Row) { self.init(name: row[0], value: row[1]) }
}

extension DocumentTypeCountRecord: FetchableRecord {
    init(row: Row) { self.init(type: row[0], count: row[1]) }
}

extension ModelCacheRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "llm_cache"
}

extension ModelCallRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "llm_calls"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SummaryRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "summaries"
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { storeJSONEncoder() }
}

extension RunEntryRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "runs"
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { storeJSONEncoder() }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension RunFailureRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "run_failures"
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

// `StoredDocument` is read through its record.

extension StoredDocument: FetchableRecord {
    public init(row: Row) throws { self.init(try DocumentRecord(row: row)) }
}
extension PassageTextRecord: FetchableRecord {}
