import Foundation

/// Turns bytes into text the way every text reader needs: byte-order marks, UTF-16, and
/// invalid UTF-8 replaced (and counted, so the reader can warn).
public enum TextDecoding {
    public struct Decoded: Sendable {
        public var text: String
        /// How many invalid byte sequences became U+FFFD.
        public var replacements: Int
    }

    public static func decode(_ data: Data) -> Decoded {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let encoding: String.Encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            if let text = String(data: data.dropFirst(2), encoding: encoding) {
                return Decoded(text: text, replacements: 0)
            }
        }
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = bytes.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) {
            return Decoded(text: text, replacements: 0)
        }
        let text = String(decoding: body, as: UTF8.self)
        // Count only the replacement characters that decoding added, not literal U+FFFD.
        let produced = text.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : 0) }
        var literal = 0
        var index = body.startIndex
        while index + 2 < body.endIndex {
            if body[index] == 0xEF && body[index + 1] == 0xBF && body[index + 2] == 0xBD { literal += 1 }
            index += 1
        }
        return Decoded(text: text, replacements: max(produced - literal, 1))
    }

    /// True when the bytes are not text: a NUL byte, or many control bytes, in the first 8 KiB.
    public static func looksBinary(_ data: Data) -> Bool {
        let head = data.prefix(8192)
        if head.isEmpty { return false }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return false }
        var control = 0
        for byte in head {
            if byte == 0 { return true }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B {
                control += 1
            }
        }
        if control * 10 > head.count { return true }
        // Not UTF-8 and mostly undecodable: random or compressed bytes, not Latin-1 text.
        if String(validating: head, as: UTF8.self) == nil {
            let decoded = String(decoding: head, as: UTF8.self)
            let bad = decoded.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : 0) }
            // A cut multi-byte sequence at the 8 KiB edge is not a sign of binary.
            return bad > 3 && bad * 20 > head.count
        }
        return false
    }

    /// Decodes and turns CRLF and CR line ends into LF.
    public static func decodeLines(_ data: Data) -> Decoded {
        var decoded = decode(data)
        if decoded.text.contains("\r") {
            decoded.text = decoded.text.replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\r", with: "\n")
        }
        return decoded
    }
}
