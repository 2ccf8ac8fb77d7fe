import Foundation

/// A passage's place in its document, as words: the document's title and the section path,
/// `Introduction to Philosophy › Logic › Fallacies`. Indexed and embedded with the passage
/// ("contextual passage headers"): a passage that says "this fallacy" is found by the subject
/// its headings name. The passage's stored, displayed text stays as it was.
enum ContextualHeader {
    /// Part of every document's skip key: a library indexed or embedded without headers (or with
    /// other ones) is read again by the next ingest.
    static let version = 1

    /// The title, then the section path, without a heading that only repeats the one before it
    /// (a note's first heading is often its title).
    static func header(title: String, sectionPath: [String]) -> String {
        var parts: [String] = []
        for part in [title] + sectionPath {
            let trimmed = part.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, trimmed.lowercased() != parts.last?.lowercased() { parts.append(trimmed) }
        }
        return parts.joined(separator: " › ")
    }

    /// What the embedder sees of a passage: its header on a line of its own, then its text.
    static func embedded(_ text: String, title: String, sectionPath: [String]) -> String {
        let header = header(title: title, sectionPath: sectionPath)
        return header.isEmpty ? text : header + "\n" + text
    }
}
