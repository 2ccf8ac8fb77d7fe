import CSQLite
import Foundation
import GRDB

/// The keyword index's own tokenizer (`tokenize='porter unicode61 remove_diacritics 2'`),
/// FTS5's code opened through its C API on a connection: the keyword postings hold exactly the
/// tokens FTS5 holds because FTS5 makes them, not a copy of its folding and stemming.
final class IndexTokenizer {
    /// The passages index's tokenizer and its arguments, as `Schema` declares them.
    static let arguments = ["porter", "unicode61", "remove_diacritics", "2"]

    private var tokenizer = lectern_fts5_tokenizer()
    /// The connection of its own that `inMemory` opened, closed after the tokenizer.
    private var ownConnection: OpaquePointer?

    init(_ db: Database) throws {
        try open(db.sqliteConnection)
    }

    /// FTS5's tokenizer on an in-memory SQLite connection of its own: a PostgreSQL library's
    /// keyword postings hold the tokens a SQLite library's hold, made by the same code.
    static func inMemory() throws -> IndexTokenizer {
        var connection: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let connection else {
            sqlite3_close(connection)
            throw LecternError(.database, "keyword index", "SQLite could not open a connection for its FTS5 tokenizer (code \(rc))")
        }
        return try IndexTokenizer(owning: connection)
    }

    private init(owning connection: OpaquePointer) throws {
        ownConnection = connection
        try open(connection)
    }

    private func open(_ connection: OpaquePointer?) throws {
        let strings = Self.arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) }
        let rc = pointers.withUnsafeMutableBufferPointer {
            lectern_fts5_tokenizer_open(connection, $0.baseAddress, Int32($0.count), &tokenizer)
        }
        guard rc == SQLITE_OK, tokenizer.instance != nil else {
            throw LecternError(.database, "keyword index", "SQLite's FTS5 porter tokenizer could not be opened (code \(rc))")
        }
    }

    deinit {
        lectern_fts5_tokenizer_close(&tokenizer)
        if let ownConnection { sqlite3_close(ownConnection) }
    }

    /// Calls `body` with each token of `text` (its bytes, valid during the call) and whether it
    /// counts in the row's size (FTS5 counts every token but a colocated synonym).
    func tokenize(_ text: String, query: Bool = false, _ body: (UnsafeRawBufferPointer, Bool) -> Void) throws {
        guard !text.isEmpty else { return }
        typealias Sink = (UnsafeRawBufferPointer, Bool) -> Void
        let flags = query ? FTS5_TOKENIZE_QUERY : FTS5_TOKENIZE_DOCUMENT
        let rc: Int32 = withoutActuallyEscaping(body) { escapable in
            var sink: Sink = escapable
            var text = text
            return text.withUTF8 { utf8 in
                withUnsafeMutablePointer(to: &sink) { sinkPointer in
                    utf8.withMemoryRebound(to: CChar.self) { chars in
                        lectern_fts5_tokenize(&tokenizer, flags, chars.baseAddress, Int32(chars.count), sinkPointer) { context, tokenFlags, token, length, _, _ in
                            guard let context, let token, length >= 0 else { return SQLITE_OK }
                            let sink = context.assumingMemoryBound(to: Sink.self).pointee
                            sink(UnsafeRawBufferPointer(start: token, count: Int(length)), tokenFlags & FTS5_TOKEN_COLOCATED == 0)
                            return SQLITE_OK
                        }
                    }
                }
            }
        }
        guard rc == SQLITE_OK else {
            throw LecternError(.database, "keyword index", "SQLite's FTS5 tokenizer failed (code \(rc))")
        }
    }

    /// The tokens of a query word or phrase, as FTS5 reads a quoted phrase of it.
    func queryTokens(_ text: String) throws -> [String] {
        var tokens: [String] = []
        try tokenize(text, query: true) { bytes, _ in tokens.append(String(decoding: bytes, as: UTF8.self)) }
        return tokens
    }
}
