import CDigest
import Foundation

/// SHA-256 in hex: content hashes, skip keys and short ids. The digests are Lectern's own C
/// (Sources/CDigest): a cryptography library cost a fresh build hundreds of C files for two
/// hash functions.
enum ContentHash {
    static func sha256(_ data: Data) -> String {
        hex(sha256Bytes(data))
    }

    static func sha256(_ text: String) -> String {
        sha256(Data(text.utf8))
    }

    /// The 32 bytes of SHA-256.
    static func sha256Bytes(_ data: Data) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in lectern_sha256(raw.baseAddress, raw.count, &out) }
        return out
    }

    /// The 20 bytes of SHA-1: only where a format defines a checksum with it (Anki's `csum`).
    static func sha1Bytes(_ data: Data) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        data.withUnsafeBytes { raw in lectern_sha1(raw.baseAddress, raw.count, &out) }
        return out
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 8-hex-digit id users type (`lectern show 3fa1c2d0`).
    static func shortId(_ uri: String) -> String {
        String(sha256(uri).prefix(8))
    }
}
