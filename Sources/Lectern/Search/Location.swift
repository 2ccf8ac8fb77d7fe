import Foundation

/// How a passage's place in its source reads to a person.
public enum Location {
    /// `notes/cells.md § Mitochondria`, `paper.pdf p.12`, `lecture.srt @ 00:12:34`,
    /// `https://en.wikipedia.org/wiki/X § History`.
    /// `time` names the moment within a transcript passage (where the query's words are said).
    public static func describe(_ passage: StoredPassage, at time: Double? = nil) -> String {
        let name: String
        if let path = passage.documentPath {
            name = DisplayPath.of(path)
        } else {
            name = passage.documentURI
        }
        var parts = [name]
        if let start = time ?? passage.timeStart {
            parts[0] += " @ " + TimeFormat.clock(start)
        } else if let page = passage.pageStart {
            parts[0] += " p.\(page)" + (passage.pageEnd.map { $0 != page ? "–\($0)" : "" } ?? "")
        }
        if !passage.sectionPath.isEmpty {
            parts.append("§ " + passage.sectionPath.joined(separator: " › "))
        }
        return parts.joined(separator: " ")
    }
}
