import Crypto
import Foundation

/// SHA-256 in hex: content hashes, skip keys and short ids.
enum ContentHash {
    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(_ text: String) -> String {
        sha256(Data(text.utf8))
    }

    /// The 8-hex-digit id users type (`lectern show 3fa1c2d0`).
    static func shortId(_ uri: String) -> String {
        String(sha256(uri).prefix(8))
    }
}
