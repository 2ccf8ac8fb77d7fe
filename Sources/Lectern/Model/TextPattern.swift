import Foundation

/// A regular expression compiled once. `String.range(of:options: .regularExpression)` compiles
/// its pattern on every call, and the summaries' checks run on every sentence of a library.
struct TextPattern: Sendable {
    let regex: NSRegularExpression

    init(_ pattern: String, caseInsensitive: Bool = false) {
        // (A pattern is the program's own text: one that does not compile is a programming error.)
        regex = try! NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        !text.isEmpty && regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
