import Foundation
import Lectern

/// How search hits look on the terminal, for `search` and for `ask` when it has no model to
/// answer with: rank, title and score, `p<N>` and where the passage is, the snippet with the
/// query's words highlighted, and the link.
enum HitRendering {
    static func print(_ hits: [SearchHit], _ terminal: Terminal) {
        for hit in hits {
            let weak = hit.weak ? terminal.dim("  weak") : ""
            terminal.out("\(hit.rank). \(terminal.bold(hit.title))  \(terminal.dim(String(format: "%.4f", hit.score)))\(weak)")
            terminal.out("   \(terminal.dim(hit.passageReference))  \(hit.location)\(hit.speaker.map { terminal.dim("  — \($0)") } ?? "")")
            terminal.out("   \(snippet(hit, terminal))")
            if let link = PassageRendering.link(hit, terminal) { terminal.out("   \(link)") }
            terminal.out("")
        }
    }

    /// The snippet with the query's words highlighted (on a colour terminal); every piece of it
    /// escaped, so a document's control characters never reach the terminal.
    static func snippet(_ hit: SearchHit, _ terminal: Terminal) -> TerminalText {
        guard terminal.colour else { return TerminalText(hit.snippet) }
        let chars = Array(hit.snippet)
        var text: TerminalText = ""
        var next = 0
        for mark in hit.highlights.sorted(by: { $0[0] < $1[0] }) {
            let start = mark[0], end = mark[0] + mark[1]
            guard start >= next, end <= chars.count else { continue }
            text += TerminalText(String(chars[next..<start])) + terminal.highlight(String(chars[start..<end]))
            next = end
        }
        return text + TerminalText(String(chars[next...]))
    }
}
