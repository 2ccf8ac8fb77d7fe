import Foundation

/// Small text helpers every reader shares.
public enum TextCleanup {
    /// Runs of whitespace (including newlines and no-break spaces) become one space; trimmed.
    public static func collapseWhitespace(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character == "\u{00A0}" {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }

    /// "notes/cell-biology.md" → "cell-biology".
    public static func titleFromPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { return String(name[..<dot]) }
        return name
    }

    /// A title made from the start of a paragraph: its first sentence or first 80 characters.
    public static func firstLineTitle(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count <= 80 { return trimmed }
        let cut = trimmed.prefix(80)
        if let space = cut.lastIndex(of: " ") { return String(cut[..<space]) + "…" }
        return String(cut) + "…"
    }
}
