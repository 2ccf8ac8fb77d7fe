import Foundation
import Lectern

/// How `show` prints a table of contents and a hit's passage in context, and how `search`
/// prints a hit's handle and link.
enum PassageRendering {
    /// Titles wider than this do not push the page column further right.
    static let outlineColumn = 64

    /// Every heading, indented by depth, its page (as the book numbers it) or its time span in
    /// one column to the right.
    static func printOutline(_ outline: [OutlineEntry], _ terminal: Terminal) {
        terminal.out(terminal.bold("Contents"))
        let lines = outline.map { (String(repeating: "  ", count: $0.depth) + $0.title, $0.locator) }
        let width = min(outlineColumn, lines.filter { $0.1 != nil }.map(\.0.count).max() ?? 0)
        for (title, locator) in lines {
            guard let locator else {
                terminal.out("\(title)")
                continue
            }
            let padding = String(repeating: " ", count: max(0, width - title.count))
            terminal.out("\(title)\(padding)  \(terminal.dim(locator))")
        }
    }

    /// A recording without headings (a subtitle file): when each passage starts, its first words
    /// and its `p<N>`.
    static func printTimeline(_ passages: [Passage], _ terminal: Terminal) {
        terminal.out(terminal.bold("Contents"))
        for passage in passages {
            let words = passage.text.split(whereSeparator: \.isWhitespace).prefix(10).joined(separator: " ")
            let time = passage.timeStart.map(TimeFormat.clock) ?? "        "
            terminal.out("\(terminal.dim(time))  \(words)…  \(terminal.dim("p\(passage.id)"))")
        }
    }

    /// A passage with its neighbours: the hit marked `▶`, each with its `p<N>` and place.
    static func print(_ view: PassageContext, _ terminal: Terminal) {
        terminal.out("\(terminal.bold(view.title))  \(terminal.dim("document \(view.documentShortId)"))")
        if let link = view.link { terminal.out(terminal.dim(link)) }
        terminal.out("")
        for passage in view.passages {
            let head: TerminalText = "\(passage.isHit ? "▶" : " ") p\(passage.id)  \(passage.location)"
            terminal.out(passage.isHit ? terminal.bold(head) : terminal.dim(head))
            terminal.outLines(passage.text, indent: "  ")
            terminal.out("")
        }
    }

    /// A metadata value as a person reads it: a recording's duration in seconds as `hh:mm:ss`.
    static func metadataValue(_ key: String, _ value: String) -> String {
        if key == "duration", let seconds = Double(value) { return TimeFormat.clock(seconds) }
        return value
    }

    /// The line under a hit: where it opens outside Lectern, if anywhere.
    static func link(_ hit: SearchHit, _ terminal: Terminal) -> TerminalText? {
        hit.link.map { terminal.dim($0) }
    }
}
