import Foundation

/// Where a passage can be opened outside Lectern: a lecture's video at the second its words are
/// said, a web page at its section's anchor, a PDF at its page. Nil where the source has no
/// address (a local Markdown file, a subtitle file on its own).
enum PassageLink {
    static func link(for passage: Passage, at time: Double? = nil, store: any LibraryBackend) throws -> String? {
        if passage.documentType == .pdf, let path = passage.documentPath {
            return fileURL(path) + (passage.pageStart.map { "#page=\($0)" } ?? "")
        }
        if let seconds = time ?? passage.timeStart {
            let facts = try store.cueAttributes(documentId: passage.documentId, sectionPath: passage.sectionPath)
            if let video = facts["video"] { return atSecond(video, seconds) }
            if let page = facts["url"] { return page }
        }
        return try webAddress(of: passage, store: store)
    }

    /// The page of the passage's deepest section that has one (an OCW page, an OpenStax
    /// section's page) or the document's own web address, with the anchor of the deepest
    /// section heading below it that has an id.
    static func webAddress(of passage: Passage, store: any LibraryBackend) throws -> String? {
        let headings = try store.sectionFacts(documentId: passage.documentId, sectionPath: passage.sectionPath)
        var base: String?
        var anchor: String?
        for length in stride(from: passage.sectionPath.count, through: 1, by: -1) {
            let prefix = Array(passage.sectionPath.prefix(length))
            guard let facts = headings[prefix] else { continue }
            if anchor == nil, let id = facts["id"], !id.isEmpty { anchor = id }
            if let url = facts["url"], url.hasPrefix("http") {
                base = url
                break
            }
        }
        if base == nil {
            let metadata = try store.metadata(documentId: passage.documentId)
            base = [metadata["canonical_url"], metadata["url"], passage.documentURI].compactMap { $0 }
                .first { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        }
        guard let base else { return nil }
        guard let anchor, let encoded = anchor.addingPercentEncoding(withAllowedCharacters: fragmentCharacters) else { return base }
        return base.split(separator: "#", maxSplits: 1).first.map(String.init)! + "#" + encoded
    }

    /// `file:///abs/path.pdf`, with the path's unusual characters percent-encoded.
    static func fileURL(_ path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    /// A video address at a second: YouTube takes `?t=`, a media file `#t=`.
    static func atSecond(_ video: String, _ seconds: Double) -> String {
        let second = Int(seconds.rounded(.down))
        if video.contains("youtu") { return video + (video.contains("?") ? "&" : "?") + "t=\(second)" }
        return video + "#t=\(second)"
    }

    static let fragmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.remove(charactersIn: "#")
        return allowed
    }()
}
