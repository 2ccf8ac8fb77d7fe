import Foundation

/// One heading of a document's table of contents: every heading the reader found, in reading
/// order, whether or not a passage of its own starts under it (a chapter title, a section
/// whose text is all in its subsections).
public struct OutlineEntry: Codable, Sendable, Equatable {
    /// Nesting in the table of contents: 0 for a top heading, 1 under it …
    public var depth: Int
    public var title: String
    /// The physical page the section starts on (1-based).
    public var page: Int?
    /// The page's own name (`iii`, `12`) where the book numbers its pages otherwise.
    public var pageLabel: String?
    /// Where the section starts and ends in a recording (seconds).
    public var start: Double?
    public var end: Double?

    /// How the section's place reads to a person: `p.iii`, `p.12`, `00:12:34–00:40:10`.
    public var locator: String? {
        if let start {
            return TimeFormat.clock(start) + (end.map { $0 > start ? "–" + TimeFormat.clock($0) : "" } ?? "")
        }
        if let page { return "p." + (pageLabel ?? String(page)) }
        return nil
    }
}

/// The table of contents of a document, from its stored heading blocks.
enum DocumentOutline {
    /// Each heading with the first page and the time span of the blocks under it (up to the
    /// next heading of its level or above). Depth counts the headings open above it, so a
    /// skipped level (a chapter's h1 then an h3) still nests by one.
    static func entries(_ blocks: [Block]) -> [OutlineEntry] {
        var entries: [OutlineEntry] = []
        var open: [Int] = []  // levels of the headings above the current one
        let headings = blocks.indices.filter { blocks[$0].kind == .heading && !blocks[$0].text.isEmpty }
        for (position, index) in headings.enumerated() {
            let level = blocks[index].level ?? 1
            while let last = open.last, last >= level { open.removeLast() }
            let depth = open.count
            open.append(level)
            let next = headings[(position + 1)...].first { (blocks[$0].level ?? 1) <= level } ?? blocks.endIndex
            var entry = OutlineEntry(depth: depth, title: blocks[index].text)
            var recordings = 0
            var previous: Double?
            for block in blocks[index..<next] {
                if entry.page == nil, let page = block.page {
                    entry.page = page
                    entry.pageLabel = block.pageLabel.flatMap { $0 == String(page) ? nil : $0 }
                }
                if let start = block.start {
                    // Time that starts again names another recording (a week's page of several lectures).
                    if previous.map({ start < $0 - 1 }) ?? true { recordings += 1 }
                    previous = start
                    if entry.start == nil { entry.start = start }
                    entry.end = max(entry.end ?? start, block.end ?? start)
                }
            }
            // A span over several recordings means nothing: such a section gets no time.
            if recordings > 1 { entry.start = nil; entry.end = nil }
            entries.append(entry)
        }
        return entries
    }
}
