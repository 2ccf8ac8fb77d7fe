import Foundation

/// An error a user can act on: what it concerns (a file, URL, setting) and why, in one line.
public struct LecternError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Code: String, Codable, Sendable {
        case notFound = "not_found"
        case unreadable
        case unsupported
        /// Content of a known format in a shape no reader knows (JSON that is no transcript
        /// nor course): an error when named, passed over when found in a folder.
        case unknownShape = "unknown_shape"
        case empty
        case encrypted
        case corrupt
        case tooLarge = "too_large"
        case network
        case http
        case configuration
        case database
        case modelMissing = "model_missing"
        case embedderMismatch = "embedder_mismatch"
        case invalidInput = "invalid_input"
        /// The model could not be asked: refused (a wrong key, 429 after the retries), failed or
        /// answered with something other than its API's JSON. The network's own failures are
        /// `network` (refused, timed out).
        case languageModel = "language_model"
        /// The model answered, but not as asked: JSON that does not follow its schema after one
        /// repair, or an answer cut off before its JSON closed. The one failure that is about
        /// that answer alone, so a caller may reject the answer (a card) and go on.
        case modelAnswer = "model_answer"
        case interrupted
        /// A system library (poppler-glib, libcurl, libxml2) is not installed.
        case missingLibrary = "missing_library"
        /// The library file cannot be written (a full disk, a file-size limit, an I/O error).
        case writeFailed = "write_failed"
        /// A curriculum older than its sources (one ingested again with new content, or
        /// removed): what is made from it would lose the topics that cite the old passages.
        case stale
        /// An output file (an export, a deck) cannot be written: a failure of that output
        /// alone, not of the library (the other outputs are still written).
        case outputFailed = "output_failed"
    }

    public var code: Code
    /// What the error is about: a path, URL, setting name. Nil when it is about the run.
    public var subject: String?
    public var reason: String
    /// The 1-based line of `subject` the error is about (a malformed timing line in a
    /// subtitle file), so the message reads `lecture.srt:42: …` and an editor can jump there.
    public var line: Int?

    public init(_ code: Code, _ subject: String?, _ reason: String, line: Int? = nil) {
        self.code = code
        self.subject = subject
        self.reason = reason
        self.line = line
    }

    /// `subject` with the line when known: `lecture.srt:42`.
    var place: String? {
        guard let subject else { return nil }
        return line.map { "\(subject):\($0)" } ?? subject
    }

    /// `reason` prefixed with the line when there is no subject to attach it to.
    var located: String {
        line.map { "line \($0): \(reason)" } ?? reason
    }

    public var description: String {
        if let place { return "\(place): \(reason)" }
        return located
    }
}

extension LecternError: LocalizedError {
    public var errorDescription: String? { description }
}
