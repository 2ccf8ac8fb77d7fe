import Foundation

/// Writes course pages and videos one after another under the course's page tree.
struct OCWPageWriter {
    let courseTitle: String
    private(set) var blocks: [Block]
    private var path: [String] = []

    /// Starts with the course's title block.
    init(courseTitle: String) {
        self.courseTitle = courseTitle
        blocks = [Block(kind: .title, text: courseTitle, level: 0)]
    }

    /// The course as one document; `empty` is the reason when no page had any text.
    func document(metadata: [String: String], warnings: [ExtractionWarning], display: String, empty: String) throws -> ExtractedDocument {
        guard blocks.contains(where: { $0.kind != .heading && $0.kind != .title }) else {
            throw LecternError(.empty, display, empty)
        }
        return ExtractedDocument(type: "ocw", title: courseTitle, blocks: blocks, metadata: metadata, warnings: warnings)
    }

    mutating func heading(_ title: String, depth: Int, url: String? = nil) {
        path = Array(path.prefix(depth - 1)) + [title]
        var attributes: [String: String] = [:]
        if let url { attributes["url"] = url }
        blocks.append(Block(kind: .heading, text: title, level: depth, sectionPath: path, attributes: attributes))
    }

    /// One page: its heading, then its HTML as blocks below it. Previous/next navigation and
    /// the bare embed ids of videos (shown as videos by OCW) are left out.
    mutating func page(title: String, depth: Int, html: String, name: String, url: String? = nil, hiddenKeys: Set<String> = []) throws {
        heading(title, depth: depth, url: url)
        guard !html.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let document = try MarkupDocument.html(Data(html.utf8), name: name)
        guard let root = document.root else { return }
        write(root, depth: depth, hiddenKeys: hiddenKeys)
    }

    /// A page already parsed (a downloaded course's page), under a heading of its own.
    mutating func section(_ root: MarkupNode, title: String, depth: Int) {
        heading(title, depth: depth)
        write(root, depth: depth, hiddenKeys: [], headingShift: -depth)
        // A page of a downloaded course may carry its transcript inline.
        if root.first(where: { $0.name == "span" && $0.attribute("m") != nil }) != nil {
            blocks += TimedTranscript.cues(root, sectionPath: path)
        }
    }

    /// `headingShift`: course JSON pages start at h2, downloaded pages at h1; either way the
    /// page's own headings sit one level under the page.
    private mutating func write(_ root: MarkupNode, depth: Int, hiddenKeys: Set<String>, headingShift: Int? = nil) {
        var writer = HTMLBlockWriter()
        writer.basePath = path
        writer.headingShift = headingShift ?? 1 - depth
        writer.replacement = HTMLExtractor.mathReplacement
        writer.skip = { node in
            let name = node.name
            if MainContent.boilerplateTags.contains(name) { return true }
            if node.classes.contains(where: { $0.hasPrefix("sc_nav") || $0 == "visually-hidden" || $0 == "sr-only" }) { return true }
            // Timed transcript spans become cue blocks, not paragraphs.
            if name == "span", node.attribute("m") != nil { return true }
            if !hiddenKeys.isEmpty, name == "p" {
                let text = TextCleanup.collapseWhitespace(node.text)
                if hiddenKeys.contains(text) { return true }
            }
            return false
        }
        writer.write(root)
        blocks += writer.blocks
    }

    /// A lecture video: its title as a heading, what the course says about it, and its
    /// transcript as timed cues.
    mutating func video(_ media: OCWExtractor.Entry, depth: Int, name: String) throws {
        guard !media.transcript.isEmpty || !media.html.isEmpty else { return }
        // A page that only shows one video is usually named after it: no second heading then.
        let title = media.title.isEmpty ? "Video" : media.title
        if path.count >= depth - 1, path.prefix(depth - 1).last == title {
            path = Array(path.prefix(depth - 1))
        } else {
            heading(title, depth: depth, url: media.url.isEmpty ? nil : media.url)
        }
        if !media.html.isEmpty, let document = try? MarkupDocument.html(Data(media.html.utf8), name: name), let root = document.root {
            write(root, depth: depth, hiddenKeys: [])
        }
        var cues = try TimedTranscript.cues(html: media.transcript, name: name, sectionPath: path)
        for index in cues.indices {
            if !media.url.isEmpty { cues[index].attributes["url"] = media.url }
            if !media.video.isEmpty { cues[index].attributes["video"] = media.video }
        }
        blocks += cues
    }
}
