import Foundation

/// An MIT OpenCourseWare course, one source, in either form it is published in:
/// - the parsed course JSON (`course_pages[].text` holds each page's HTML,
///   `course_embedded_media[*].transcript` the lecture transcripts as timed HTML);
/// - a course folder as downloaded (`index.html` plus `pages/*/index.html`, and
///   `resources/*/index.html` for lecture videos).
/// Blocks: the course description, then every page (syllabus, calendar, lecture notes, weekly
/// units …) in the course's order under its page path, with each lecture video's transcript as
/// timed cue blocks under the page that shows it.
public struct OCWExtractor: Extractor {
    public let name = "ocw"
    public let version = 1

    /// The parsed JSON of a big course is a few MB; refuse absurd ones.
    static let maxJSONBytes = 256 << 20

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        if input.isDirectory {
            guard let root = input.path else { return 0 }
            return Self.isCourseFolder(root) ? 90 : 0
        }
        guard let first = input.data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }), first == UInt8(ascii: "{") else { return 0 }
        let markers = ["\"course_pages\"", "\"short_url\""]
        return markers.allSatisfy({ input.data.range(of: Data($0.utf8)) != nil }) ? 95 : 0
    }

    /// A downloaded course: a home page and a `pages/` folder of page folders with index.html.
    static func isCourseFolder(_ root: String) -> Bool {
        let manager = FileManager.default
        guard manager.fileExists(atPath: root + "/index.html") else { return false }
        guard let pages = try? manager.contentsOfDirectory(atPath: root + "/pages") else { return false }
        return pages.contains { manager.fileExists(atPath: root + "/pages/\($0)/index.html") }
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        if input.isDirectory {
            guard let root = input.path else { throw LecternError(.notFound, input.displayName, "no folder") }
            return try extractFolder(root, display: input.displayName)
        }
        return try extractJSON(input.data, display: input.displayName)
    }

    // MARK: - Parsed course JSON

    struct Page {
        var uid: String
        var parent: String
        var order: Int
        var title: String
        var type: String
        var url: String
        var html: String
    }

    struct Media {
        var key: String
        var parent: String
        var order: Int
        var title: String
        var about: String
        var transcript: String
        var url: String
    }

    func extractJSON(_ data: Data, display: String) throws -> ExtractedDocument {
        if data.count > Self.maxJSONBytes {
            throw LecternError(.tooLarge, display, "course JSON is \(data.count >> 20) MiB, over the \(Self.maxJSONBytes >> 20) MiB limit")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LecternError(.corrupt, display, "not valid JSON: \(error.localizedDescription)")
        }
        guard let course = object as? [String: Any], let rawPages = course["course_pages"] as? [[String: Any]] else {
            throw LecternError(.unsupported, display, "not an OCW course JSON (no course_pages list)")
        }
        func string(_ dictionary: [String: Any], _ key: String) -> String {
            if let value = dictionary[key] as? String { return value }
            if let value = dictionary[key] as? NSNumber { return value.stringValue }
            return ""
        }
        let courseUID = string(course, "uid")
        let title = TextCleanup.collapseWhitespace(string(course, "title"))
        let base = "https://ocw.mit.edu"
        var metadata: [String: String] = [:]
        metadata["course_id"] = string(course, "short_url")
        metadata["course_number"] = string(course, "sort_as")
        metadata["level"] = string(course, "course_level")
        metadata["language"] = string(course, "language")
        let term = [string(course, "from_semester"), string(course, "from_year")].filter { !$0.isEmpty && $0 != "-1" }.joined(separator: " ")
        metadata["term"] = term
        let path = string(course, "url")
        if !path.isEmpty { metadata["url"] = path.hasPrefix("http") ? path : base + path }
        if let instructors = course["instructors"] as? [[String: Any]] {
            let names = instructors.map { [string($0, "salutation"), string($0, "first_name"), string($0, "last_name")].filter { !$0.isEmpty }.joined(separator: " ") }
            metadata["instructors"] = names.filter { !$0.isEmpty }.joined(separator: "; ")
        }
        if let tags = course["tags"] as? [[String: Any]] {
            metadata["tags"] = tags.map { string($0, "name") }.filter { !$0.isEmpty }.joined(separator: "; ")
        }
        metadata = metadata.filter { !$0.value.isEmpty }

        let pages = rawPages.map { page in
            Page(uid: string(page, "uid"), parent: string(page, "parent_uid"), order: Int(string(page, "order_index")) ?? 0,
                 title: TextCleanup.collapseWhitespace(string(page, "title")), type: string(page, "type"),
                 url: string(page, "url"), html: string(page, "text"))
        }
        var media: [Media] = []
        if let embedded = course["course_embedded_media"] as? [String: [String: Any]] {
            for (key, item) in embedded {
                media.append(Media(key: key, parent: string(item, "parent_uid"), order: Int(string(item, "order_index")) ?? 0,
                                   title: TextCleanup.collapseWhitespace(string(item, "title")),
                                   about: string(item, "about_this_resource_text"), transcript: string(item, "transcript"),
                                   url: string(item, "technical_location")))
            }
        }
        media.sort { ($0.order, $0.key) < ($1.order, $1.key) }

        var writer = OCWPageWriter(courseTitle: title)
        writer.append(Block(kind: .title, text: title, level: 0))
        let description = string(course, "description")
        if !description.isEmpty {
            try writer.page(title: "Course Description", depth: 1, html: description, name: display)
        }

        // Page tree by parent, in the course's order; a video belongs to the page whose text
        // names its embed id, else to its parent page.
        let uids = Set(pages.map(\.uid))
        var children: [String: [Page]] = [:]
        for page in pages {
            let parent = uids.contains(page.parent) && page.parent != page.uid ? page.parent : courseUID
            children[parent, default: []].append(page)
        }
        var mediaByPage: [String: [Media]] = [:]
        var placed = Set<String>()
        for item in media {
            if let page = pages.first(where: { $0.html.contains(item.key) }) {
                mediaByPage[page.uid, default: []].append(item)
                placed.insert(item.key)
            } else if uids.contains(item.parent) {
                mediaByPage[item.parent, default: []].append(item)
                placed.insert(item.key)
            }
        }
        var warnings: [ExtractionWarning] = []
        var visited = Set<String>()
        func visit(_ parent: String, depth: Int) {
            for page in (children[parent] ?? []).sorted(by: { ($0.order, $0.title) < ($1.order, $1.title) }) {
                guard visited.insert(page.uid).inserted else { continue }
                if page.type == "DownloadSection" { continue }
                let mediaHere = mediaByPage[page.uid] ?? []
                do {
                    try writer.page(title: page.title.isEmpty ? "Untitled" : page.title, depth: depth, html: page.html, name: display,
                                    url: page.url.isEmpty ? nil : (page.url.hasPrefix("http") ? page.url : base + page.url),
                                    hiddenKeys: Set(mediaHere.map(\.key)))
                    for item in mediaHere { try writer.video(item, depth: depth + 1, name: display) }
                } catch {
                    warnings.append(ExtractionWarning("page \"\(page.title)\" left out: \(error)"))
                }
                visit(page.uid, depth: depth + 1)
            }
        }
        visit(courseUID, depth: 1)
        let unplaced = media.filter { !placed.contains($0.key) && !$0.transcript.isEmpty }
        if !unplaced.isEmpty {
            writer.heading("Lecture Videos", depth: 1)
            for item in unplaced { try? writer.video(item, depth: 2, name: display) }
        }
        metadata["pages"] = String(pages.count)
        metadata["transcripts"] = String(media.filter { !$0.transcript.isEmpty }.count)
        guard writer.blocks.contains(where: { $0.kind != .heading && $0.kind != .title }) else {
            throw LecternError(.empty, display, "no text in this OCW course")
        }
        return ExtractedDocument(type: "ocw", title: title, blocks: writer.blocks, metadata: metadata, warnings: warnings)
    }

    // MARK: - Downloaded course folder

    func extractFolder(_ root: String, display: String) throws -> ExtractedDocument {
        let manager = FileManager.default
        func read(_ path: String) throws -> MarkupDocument {
            guard let data = manager.contents(atPath: path) else { throw LecternError(.unreadable, path, "cannot read") }
            return try MarkupDocument.html(data, name: path)
        }
        let home = try read(root + "/index.html")
        var metadata = HTMLExtractor.pageMetadata(home)
        // "Course Home | Information and Entropy | MIT OpenCourseWare" → "Information and Entropy".
        let parts = (metadata.removeValue(forKey: "title") ?? "").components(separatedBy: " | ")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0 != "MIT OpenCourseWare" && $0 != "Free Online Course Materials" && $0 != "Course Home" }
        let title = parts.first ?? TextCleanup.titleFromPath(root)
        var writer = OCWPageWriter(courseTitle: title)
        writer.append(Block(kind: .title, text: title, level: 0))
        if let main = MainContent.root(of: home) {
            writer.section(main, title: "Course Home", depth: 1)
        }
        var warnings: [ExtractionWarning] = []
        // Syllabus and calendar first, as OCW's own navigation lists them; then the rest by name.
        let preferred = ["syllabus", "calendar", "readings", "lecture-notes", "assignments", "exams"]
        for folder in ["pages", "resources"] {
            guard let names = try? manager.contentsOfDirectory(atPath: root + "/" + folder) else { continue }
            let ordered = names.filter { manager.fileExists(atPath: "\(root)/\(folder)/\($0)/index.html") }
                .sorted { (preferred.firstIndex(of: $0) ?? 99, $0) < (preferred.firstIndex(of: $1) ?? 99, $1) }
            for name in ordered {
                do {
                    let page = try read("\(root)/\(folder)/\(name)/index.html")
                    var pageTitle = HTMLExtractor.pageMetadata(page)["title"] ?? name
                    if let bar = pageTitle.range(of: " | ") { pageTitle = String(pageTitle[..<bar.lowerBound]) }
                    guard let main = MainContent.root(of: page) else { continue }
                    writer.section(main, title: pageTitle, depth: 1)
                } catch {
                    warnings.append(ExtractionWarning("\(folder)/\(name) left out: \(error)"))
                }
            }
        }
        metadata["format"] = "folder"
        guard writer.blocks.contains(where: { $0.kind != .heading && $0.kind != .title }) else {
            throw LecternError(.empty, display, "no text in this OCW course folder")
        }
        return ExtractedDocument(type: "ocw", title: title, blocks: writer.blocks, metadata: metadata, warnings: warnings)
    }
}

/// Writes course pages and videos one after another under the course's page tree.
struct OCWPageWriter {
    let courseTitle: String
    private(set) var blocks: [Block] = []
    private var path: [String] = []

    init(courseTitle: String) { self.courseTitle = courseTitle }

    mutating func append(_ block: Block) { blocks.append(block) }

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
    mutating func video(_ media: OCWExtractor.Media, depth: Int, name: String) throws {
        guard !media.transcript.isEmpty || !media.about.isEmpty else { return }
        // A page that only shows one video is usually named after it: no second heading then.
        let title = media.title.isEmpty ? "Video" : media.title
        if path.count >= depth - 1, path.prefix(depth - 1).last == title {
            path = Array(path.prefix(depth - 1))
        } else {
            heading(title, depth: depth, url: media.url.isEmpty ? nil : media.url)
        }
        if !media.about.isEmpty, let document = try? MarkupDocument.html(Data(media.about.utf8), name: name), let root = document.root {
            write(root, depth: depth, hiddenKeys: [])
        }
        var cues = try TimedTranscript.cues(html: media.transcript, name: name, sectionPath: path)
        for index in cues.indices where !media.url.isEmpty { cues[index].attributes["url"] = media.url }
        blocks += cues
    }
}
