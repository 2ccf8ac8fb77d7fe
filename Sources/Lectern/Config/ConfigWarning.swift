import Foundation

/// A key no row of `ConfigKey.all` knows, in a file where such keys are warned about rather
/// than refused: most likely a typing mistake, so it names the nearest known key.
public struct ConfigWarning: Sendable, Equatable, CustomStringConvertible {
    /// The file (or layer) that holds the key.
    public var file: String
    var key: String
    var suggestion: String?

    init(file: String, key: String) {
        self.file = file
        self.key = key
        self.suggestion = ConfigKey.nearest(to: key)
    }

    /// `unknown key chunk.max_token (did you mean chunk.max_tokens?)`
    public var message: String { "unknown key \(key)" + (suggestion.map { " (did you mean \($0)?)" } ?? "") }
    public var description: String { "\(file): \(message)" }
}
