import Foundation

/// An error a user can act on: what it concerns (a file, URL, setting) and why, in one line.
public struct LecternError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Code: String, Codable, Sendable {
        case notFound = "not_found"
        case unreadable
        case unsupported
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
        case languageModel = "language_model"
        case interrupted
    }

    public var code: Code
    /// What the error is about: a path, URL, setting name. Nil when it is about the run.
    public var subject: String?
    public var reason: String

    public init(_ code: Code, _ subject: String?, _ reason: String) {
        self.code = code
        self.subject = subject
        self.reason = reason
    }

    public var description: String {
        if let subject { return "\(subject): \(reason)" }
        return reason
    }
}

extension LecternError: LocalizedError {
    public var errorDescription: String? { description }
}
