/// Text on its way to the terminal. String literals in the code are written as they are;
/// everything interpolated into one (file names, titles, document text, messages) has its
/// control characters made visible, so that an escape sequence in a file name or a PDF cannot
/// clear the screen, recolour the output or forge an error line.
///
///     terminal.err("lectern: \(path): \(reason)")   // path and reason are escaped
struct TerminalText: ExpressibleByStringInterpolation, Sendable {
    /// What is written: trusted literals, escaped values and the terminal's own styles.
    private(set) var safe: String

    /// Untrusted text, escaped.
    init(_ untrusted: String) { safe = Self.visible(untrusted) }

    init(stringLiteral literal: String) { safe = literal }

    init(stringInterpolation: StringInterpolation) { safe = stringInterpolation.safe }

    /// Text the terminal itself made (its own colour codes around escaped text).
    fileprivate init(styled: String) { safe = styled }

    struct StringInterpolation: StringInterpolationProtocol {
        var safe = ""

        init(literalCapacity: Int, interpolationCount: Int) { safe.reserveCapacity(literalCapacity) }

        mutating func appendLiteral(_ literal: String) { safe += literal }

        mutating func appendInterpolation(_ text: TerminalText) { safe += text.safe }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) { safe += TerminalText.visible(value.description) }
    }

    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText { TerminalText(styled: lhs.safe + rhs.safe) }

    static func += (lhs: inout TerminalText, rhs: TerminalText) { lhs.safe += rhs.safe }

    var isEmpty: Bool { safe.isEmpty }

    /// `text` wrapped in an SGR style (`1` bold, `2` dim, `1;33` highlight); the text is escaped.
    static func styled(_ text: TerminalText, _ sgr: String) -> TerminalText {
        TerminalText(styled: "\u{1B}[\(sgr)m" + text.safe + "\u{1B}[0m")
    }

    /// C0 controls (ESC, newline, carriage return, backspace …), DEL, C1 controls and the
    /// bidirectional overrides, as visible escapes: `\x1b`, `\n`, `\u{9b}`, `\u{202e}`. Tabs stay.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x00..<0x20, 0x7F: result += "\\x" + hex(scalar.value, width: 2)
            default: result += "\\u{" + hex(scalar.value, width: 2) + "}"
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return false
        case 0x00..<0x20, 0x7F..<0xA0: return true
        // Bidirectional embeddings, overrides and isolates reorder what follows them on screen.
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
