import Foundation

/// The encodings text files come in that Lectern reads: UTF-8 (and UTF-16 with a byte-order
/// mark, always recognised), and Windows-1252, the Latin-1 superset that old French, German
/// and Spanish notes and subtitles are written in.
public enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"

    /// `utf-8`, `utf8`; `windows-1252`, `cp1252`, `latin-1`, `latin1`, `iso-8859-1` (which
    /// browsers, too, read as Windows-1252), in any case.
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": self = .utf8
        case "windows-1252", "cp1252", "cp-1252", "latin-1", "latin1", "iso-8859-1", "iso8859-1": self = .windows1252
        default: return nil
        }
    }
}

/// Turns bytes into text the way every text reader needs: byte-order marks, UTF-16, text in
/// Windows-1252 recognised (not UTF-8, no NULs, printable in 1252), or the encoding a user
/// names; the invalid UTF-8 that remains is replaced (and counted, so the reader can warn).
enum TextDecoding {
    struct Decoded: Sendable {
        var text: String
        /// How many invalid byte sequences became U+FFFD.
        var replacements: Int
        /// The encoding read, and whether it was recognised rather than named by the user.
        var encoding: TextEncoding = .utf8
        var recognised = false

        /// What a reader tells the user about the decoding: bytes replaced, or a guess made.
        var warning: ExtractionWarning? {
            if replacements > 0 {
                return ExtractionWarning("invalid UTF-8: \(replacements) byte sequence(s) replaced with U+FFFD")
            }
            if recognised, encoding == .windows1252 {
                return ExtractionWarning("invalid UTF-8: read as Windows-1252 (pass --encoding to name another)")
            }
            return nil
        }
    }

    /// `encoding` is what the user named; nil recognises it.
    static func decode(_ data: Data, encoding: TextEncoding? = nil) -> Decoded {
        let bytes = [UInt8](data)
        if encoding == .windows1252 {
            return Decoded(text: windows1252(bytes[...]), replacements: 0, encoding: .windows1252)
        }
        if encoding == nil, bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let utf16: String.Encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            if let text = String(data: data.dropFirst(2), encoding: utf16) {
                return Decoded(text: text, replacements: 0)
            }
        }
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = bytes.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) {
            return Decoded(text: text, replacements: 0)
        }
        if encoding == nil, looksWindows1252(body) {
            return Decoded(text: windows1252(body), replacements: 0, encoding: .windows1252, recognised: true)
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

    /// The encoding `decode` reads `data` in when the user names none (UTF-16 aside).
    static func recognise(_ data: Data) -> TextEncoding {
        looksWindows1252([UInt8](data)[...]) ? .windows1252 : .utf8
    }

    /// Bytes that are not UTF-8 but read as Windows-1252 text: no NUL, hardly any control
    /// bytes or bytes 1252 leaves undefined, and fewer well-formed UTF-8 sequences than broken
    /// ones (a UTF-8 file with a stray byte stays UTF-8, with that byte replaced).
    static func looksWindows1252(_ bytes: ArraySlice<UInt8>) -> Bool {
        var unprintable = 0
        var high = 0
        for byte in bytes {
            if byte == 0 { return false }
            if byte >= 0x80 { high += 1 }
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C) || byte == 0x7F
                || byte == 0x81 || byte == 0x8D || byte == 0x8F || byte == 0x90 || byte == 0x9D {
                unprintable += 1
            }
        }
        guard high > 0, unprintable * 100 <= bytes.count else { return false }
        let (wellFormed, broken) = utf8Sequences(bytes)
        return broken > 0 && wellFormed < broken
    }

    /// How many multi-byte UTF-8 sequences in `bytes` are well formed, and how many bytes of
    /// 0x80 and above are not part of one.
    static func utf8Sequences(_ bytes: ArraySlice<UInt8>) -> (wellFormed: Int, broken: Int) {
        var wellFormed = 0
        var broken = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            guard lead >= 0x80 else {
                index += 1
                continue
            }
            let length = (0xC2...0xDF).contains(lead) ? 2 : (0xE0...0xEF).contains(lead) ? 3 : (0xF0...0xF4).contains(lead) ? 4 : 0
            if length > 0, index + length <= bytes.endIndex,
               bytes[(index + 1)..<(index + length)].allSatisfy({ (0x80...0xBF).contains($0) }) {
                wellFormed += 1
                index += length
            } else {
                broken += 1
                index += 1
            }
        }
        return (wellFormed, broken)
    }

    /// Windows-1252's characters for bytes 0x80–0x9F; the rest of the code page is Latin-1.
    /// The five bytes it leaves undefined read as the C1 controls, as browsers read them.
    static let windows1252High: [Unicode.Scalar] = [
        "\u{20AC}", "\u{81}", "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", "\u{8D}", "\u{017D}", "\u{8F}",
        "\u{90}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", "\u{9D}", "\u{017E}", "\u{0178}",
    ]

    static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            scalars.append((0x80...0x9F).contains(byte) ? windows1252High[Int(byte) - 0x80] : Unicode.Scalar(byte))
        }
        return String(scalars)
    }

    /// True when the bytes are not text: a NUL byte, or many control bytes, in the first 8 KiB.
    static func looksBinary(_ data: Data) -> Bool {
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
        // Not UTF-8, not Windows-1252 text, and mostly undecodable: random or compressed bytes.
        if String(validating: head, as: UTF8.self) == nil {
            if looksWindows1252([UInt8](head)[...]) { return false }
            let decoded = String(decoding: head, as: UTF8.self)
            let bad = decoded.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : 0) }
            // A cut multi-byte sequence at the 8 KiB edge is not a sign of binary.
            return bad > 3 && bad * 20 > head.count
        }
        return false
    }

    /// Decodes and turns CRLF and CR line ends into LF.
    static func decodeLines(_ data: Data, encoding: TextEncoding? = nil) -> Decoded {
        var decoded = decode(data, encoding: encoding)
        if decoded.text.contains("\r") {
            decoded.text = decoded.text.replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\r", with: "\n")
        }
        return decoded
    }
}
