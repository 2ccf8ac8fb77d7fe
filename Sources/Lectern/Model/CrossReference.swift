/// An author's pointer from one part of a document to another: an OpenStax module's
/// `<link document="m00025">the chapter on logic and reasoning</link>`. The reader keeps them on
/// the block that holds them (attribute `references`); a curriculum turns those that point back
/// into "builds on" links whose reason is the reference.
struct CrossReference: Sendable, Equatable {
    /// What the reference points to, in the source's own terms (a module id).
    var target: String
    /// The words of the text that carry it ("the chapter on logic and reasoning").
    var text: String

    /// The block attribute that holds a block's references.
    static let attribute = "references"

    /// One reference a line, target and words separated by a tab (block attributes are strings;
    /// the reader collapses whitespace in the words, so neither separator can occur in them).
    static func encode(_ references: [CrossReference]) -> String {
        references.map { $0.target + "\t" + $0.text }.joined(separator: "\n")
    }

    static func decode(_ value: String) -> [CrossReference] {
        value.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return CrossReference(target: String(parts[0]), text: String(parts[1]))
        }
    }
}
