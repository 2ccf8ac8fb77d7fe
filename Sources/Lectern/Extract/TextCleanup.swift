import Foundation

/// Small text helpers every reader shares.
enum TextCleanup {
    /// Runs of whitespace (including newlines and no-break spaces) become one space; trimmed.
    static func collapseWhitespace(_ text: String) -> String {
        // Works on Unicode scalars (Character properties are several times slower and every
        // reader calls this on every line).
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var started = false
        for scalar in text.unicodeScalars {
            if isWhitespace(scalar) {
                pendingSpace = started
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                started = true
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whitespace and the no-break space, with an ASCII fast path.
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.value == 0xA0 || scalar.properties.isWhitespace
    }

    /// "notes/cell-biology.md" → "cell-biology".
    static func titleFromPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { return String(name[..<dot]) }
        return name
    }

    /// A title made from the start of a paragraph: its first sentence or first 80 characters.
    static func firstLineTitle(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count <= 80 { return trimmed }
        let cut = trimmed.prefix(80)
        if let space = cut.lastIndex(of: " ") { return String(cut[..<space]) + "…" }
        return String(cut) + "…"
    }
}
