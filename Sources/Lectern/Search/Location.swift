import Foundation

/// How a passage's place in its source reads to a person.
public enum Location {
    /// `notes/cells.md § Mitochondria`, `paper.pdf p.12`, `lecture.srt @ 00:12:34`,
    /// `https://en.wikipedia.org/wiki/X § History`.
    /// `time` names the moment within a transcript passage (where the query's words are said).
    public static func describe(_ passage: Passage, at time: Double? = nil) -> String {
        var parts = [passage.documentName]
        if let start = time ?? passage.timeStart {
            parts[0] += " @ " + TimeFormat.clock(start)
        } else if let page = passage.pageStart {
            parts[0] += " p." + pages(page, passage.pageEnd, label: passage.pageLabel)
        }
        if !passage.sectionPath.isEmpty {
            parts.append("§ " + passage.sectionPath.joined(separator: " › "))
        }
        return parts.joined(separator: " ")
    }

    /// `12–13`, or as the book numbers its pages: `iii`, `5–6` for physical pages 17–18. A
    /// span that starts on a label that is not a number names its first page only.
    static func pages(_ start: Int, _ end: Int?, label: String?) -> String {
        let span = (end ?? start) - start
        guard let label, label != String(start) else { return span > 0 ? "\(start)–\(start + span)" : "\(start)" }
        guard span > 0 else { return label }
        return Int(label).map { "\(label)–\($0 + span)" } ?? label
    }
}
