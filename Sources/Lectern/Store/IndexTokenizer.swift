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

    init(_ db: Database) throws {
        let strings = Self.arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) }
        let rc = pointers.withUnsafeMutableBufferPointer {
            lectern_fts5_tokenizer_open(db.sqliteConnection, $0.baseAddress, Int32($0.count), &tokenizer)
        }
        guard rc == SQLITE_OK, tokenizer.instance != nil else {
            throw LecternError(.database, "keyword index", "SQLite's FTS5 porter tokenizer could not be opened (code \(rc))")
        }
    }

    deinit { lectern_fts5_tokenizer_close(&tokenizer) }

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
