import Foundation
import GRDB

/// The rows of an Anki collection in its legacy layout (schema 11, `collection.anki2`): what
/// `.apkg` packages carry and every Anki since 2.1 imports. The JSON columns are made by the
/// caller (`AnkiPackageWriter`); this type only knows the tables.
struct AnkiCollectionContent: Sendable {
    struct Note: Sendable {
        var id: Int64
        var guid: String
        var noteTypeId: Int64
        var modified: Int64
        var tags: String
        var fields: String
        var sortField: String
        var checksum: Int64
    }

    struct Card: Sendable {
        var id: Int64
        var noteId: Int64
        var deckId: Int64
        var ordinal: Int
        var modified: Int64
        var due: Int
    }

    var created: Int64
    var modified: Int64
    var conf: String
    var models: String
    var decks: String
    var deckConf: String
    var notes: [Note]
    var cards: [Card]
}

enum AnkiCollectionFile {
    /// Writes `content` as a new SQLite file at `path` (which must not exist).
    static func write(_ content: AnkiCollectionContent, to path: String) throws {
        let queue = try DatabaseQueue(path: path, configuration: GRDB.Configuration())
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.inTransaction {
                try db.execute(sql: schema)
                try db.execute(sql: "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')",
                               arguments: [content.created, content.modified * 1000, content.modified * 1000,
                                           content.conf, content.models, content.decks, content.deckConf])
                let note = try db.makeStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')")
                for n in content.notes {
                    try note.execute(arguments: [n.id, n.guid, n.noteTypeId, n.modified, n.tags, n.fields, n.sortField, n.checksum])
                }
                let card = try db.makeStatement(sql: "INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')")
                for c in content.cards {
                    try card.execute(arguments: [c.id, c.noteId, c.deckId, c.ordinal, c.modified, c.due])
                }
                return .commit
            }
        }
        try queue.close()
    }

    private static let schema = """
        CREATE TABLE col (
            id integer primary key, crt integer not null, mod integer not null, scm integer not null,
            ver integer not null, dty integer not null, usn integer not null, ls integer not null,
            conf text not null, models text not null, decks text not null, dconf text not null, tags text not null);
        CREATE TABLE notes (
            id integer primary key, guid text not null, mid integer not null, mod integer not null,
            usn integer not null, tags text not null, flds text not null, sfld integer not null,
            csum integer not null, flags integer not null, data text not null);
        CREATE TABLE cards (
            id integer primary key, nid integer not null, did integer not null, ord integer not null,
            mod integer not null, usn integer not null, type integer not null, queue integer not null,
            due integer not null, ivl integer not null, factor integer not null, reps integer not null,
            lapses integer not null, left integer not null, odue integer not null, odid integer not null,
            flags integer not null, data text not null);
        CREATE TABLE revlog (
            id integer primary key, cid integer not null, usn integer not null, ease integer not null,
            ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null,
            type integer not null);
        CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
        CREATE INDEX ix_notes_usn ON notes (usn);
        CREATE INDEX ix_cards_usn ON cards (usn);
        CREATE INDEX ix_revlog_usn ON revlog (usn);
        CREATE INDEX ix_cards_nid ON cards (nid);
        CREATE INDEX ix_cards_sched ON cards (did, queue, due);
        CREATE INDEX ix_revlog_cid ON revlog (cid);
        CREATE INDEX ix_notes_csum ON notes (csum);
        """
}
