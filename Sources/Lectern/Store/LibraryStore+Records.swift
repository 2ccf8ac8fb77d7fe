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
