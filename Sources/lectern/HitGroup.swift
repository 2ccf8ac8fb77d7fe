import Foundation
import Lectern

/// `search --group`: the hits of one document together, documents in the order of their best
/// hit, each hit keeping its overall rank.
struct HitGroup: Encodable {
    var document: String
    var title: String
    var hits: [SearchHit]

    static func groups(_ hits: [SearchHit]) -> [HitGroup] {
        var groups: [HitGroup] = []
        var index: [String: Int] = [:]
        for hit in hits {
            if let position = index[hit.documentShortId] {
                groups[position].hits.append(hit)
            } else {
                index[hit.documentShortId] = groups.count
                groups.append(HitGroup(document: hit.documentShortId, title: hit.title, hits: [hit]))
            }
        }
        return groups
    }

    /// The document's title and id once, then each of its hits: rank, `p<N>`, place, snippet, link.
    static func print(_ groups: [HitGroup], _ terminal: Terminal, snippet: (SearchHit) -> TerminalText) {
        for group in groups {
            let count = group.hits.count == 1 ? "1 hit" : "\(group.hits.count) hits"
            terminal.out("\(terminal.bold(group.title))  \(terminal.dim("\(group.document) · \(count)"))")
            for hit in group.hits {
                terminal.out("  \(hit.rank). \(terminal.dim(hit.passageReference))  \(hit.location)\(hit.speaker.map { terminal.dim("  — \($0)") } ?? "")")
                terminal.out("     \(snippet(hit))")
                if let link = PassageRendering.link(hit, terminal) { terminal.out("     \(link)") }
            }
            terminal.out("")
        }
    }
}
