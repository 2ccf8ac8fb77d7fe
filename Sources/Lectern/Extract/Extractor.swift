import Foundation

/// A reader for one kind of source. Readers are chosen by content: each says how sure it is
/// that it reads an input, and the registry asks them all.
protocol Extractor: Sendable {
    /// A stable name, stored with each document (`markdown`, `text`, `pdf`, `srt` …).
    var name: String { get }
    /// Bumped when the reader's output changes, so re-ingest redoes its documents.
    var version: Int { get }
    /// How sure this reader is that it reads `input` (0 = not at all, 100 = certain, from
    /// magic bytes or structure). Must be cheap: look at the first bytes or the folder layout.
    func confidence(for input: SourceInput) -> Int
    /// Reads the source. Throws `LecternError` with a reason a user can act on.
    func extract(_ input: SourceInput) throws -> ExtractedDocument
    /// The documents one source holds when it holds several (the books of an OpenStax bundle),
    /// each read by `extract` with `input.part` set to it; empty for a source that is one document.
    func parts(of input: SourceInput) -> [String]
}

extension Extractor {
    func parts(of input: SourceInput) -> [String] { [] }
}
