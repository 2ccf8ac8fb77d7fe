import Foundation

/// An MIT OpenCourseWare course, one source, in either form it is published in:
/// - the parsed course JSON (`course_pages[].text` holds each page's HTML,
///   `course_embedded_media[*].transcript` the lecture transcripts as timed HTML);
/// - a course folder as downloaded (`index.html` plus `pages/*/index.html`, and
///   `resources/*/index.html` for lecture videos).
/// Blocks: the course description, then every page (syllabus, calendar, lecture notes, weekly
/// units …) in the course's order under its page path, with each lecture video's transcript as
/// timed cue blocks under the page that shows it.
struct OCWExtractor: Extractor {
    let name = "ocw"
    let version = 2  // 2: a lecture's cues keep its video's address (hits link to their second)

    /// The parsed JSON of a big course is a few MB; refuse absurd ones.
    static let maxJSONBytes = 256 << 20

    init() {}

    func confidence(for input: SourceInput) -> Int {
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

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        if input.isDirectory {
            guard let root = input.path else { throw LecternError(.notFound, input.displayName, "no folder") }
            return try extractFolder(root, display: input.displayName)
        }
        return try extractJSON(input.data, display: input.displayName)
    }

    // MARK: - Parsed course JSON

    /// A page or a lecture video of the course JSON, and where it sits in the course's tree.
    struct Entry {
        /// A page's uid; a video's key (the embed id the page showing it names).
        var id: String
        var parent: String
        var order: Int
        var title: String
        var url: String
        /// A page's text; for a video, what the course says about it.
        var html: String
        /// A page's type (`DownloadSection` pages are left out); "" for a video.
        var type = ""
        /// A video's transcript, as timed HTML; "" for a page.
        var transcript = ""
        /// A video's address on YouTube, where a time can be given (`?t=`); "" when unknown.
        var video = ""

        /// `id`, `url` and `html` are in fields that differ between pages and videos.
        init(_ item: [String: Any], id: String, url: String, html: String) {
            self.id = id
            parent = Self.string(item, "parent_uid")
            order = Int(Self.string(item, "order_index")) ?? 0
            title = TextCleanup.collapseWhitespace(Self.string(item, "title"))
            self.url = url
            self.html = html
        }

        /// A field as text (a number written out); "" when absent.
        static func string(_ dictionary: [String: Any], _ key: String) -> String {
            if let value = dictionary[key] as? String { return value }
            if let value = dictionary[key] as? NSNumber { return value.stringValue }
            return ""
        }
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
        let string = Entry.string
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
            var entry = Entry(page, id: string(page, "uid"), url: string(page, "url"), html: string(page, "text"))
            entry.type = string(page, "type")
            return entry
        }
        var media: [Entry] = []
        for (key, item) in course["course_embedded_media"] as? [String: [String: Any]] ?? [:] {
            var entry = Entry(item, id: key, url: string(item, "technical_location"), html: string(item, "about_this_resource_text"))
            entry.transcript = string(item, "transcript")
            let streams = item["embedded_media"] as? [[String: Any]] ?? []
            if let youtube = streams.first(where: { string($0, "id") == "Video-YouTube-Stream" }).map({ string($0, "media_location") }),
               !youtube.isEmpty, youtube.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                entry.video = "https://youtu.be/" + youtube
            }
            media.append(entry)
        }
        media.sort { ($0.order, $0.id) < ($1.order, $1.id) }

        var writer = OCWPageWriter(courseTitle: title)
        let description = string(course, "description")
        if !description.isEmpty {
            try writer.page(title: "Course Description", depth: 1, html: description, name: display)
        }

        // Page tree by parent, in the course's order; a video belongs to the page whose text
        // names its embed id, else to its parent page.
        let uids = Set(pages.map(\.id))
        var children: [String: [Entry]] = [:]
        for page in pages {
            let parent = uids.contains(page.parent) && page.parent != page.id ? page.parent : courseUID
            children[parent, default: []].append(page)
        }
        var mediaByPage: [String: [Entry]] = [:]
        var placed = Set<String>()
        for item in media {
            if let page = pages.first(where: { $0.html.contains(item.id) }) {
                mediaByPage[page.id, default: []].append(item)
                placed.insert(item.id)
            } else if uids.contains(item.parent) {
                mediaByPage[item.parent, default: []].append(item)
                placed.insert(item.id)
            }
        }
        var warnings: [ExtractionWarning] = []
        var visited = Set<String>()
        func visit(_ parent: String, depth: Int) {
            for page in (children[parent] ?? []).sorted(by: { ($0.order, $0.title) < ($1.order, $1.title) }) {
                guard visited.insert(page.id).inserted else { continue }
                if page.type == "DownloadSection" { continue }
                let mediaHere = mediaByPage[page.id] ?? []
                do {
                    try writer.page(title: page.title.isEmpty ? "Untitled" : page.title, depth: depth, html: page.html, name: display,
                                    url: page.url.isEmpty ? nil : (page.url.hasPrefix("http") ? page.url : base + page.url),
                                    hiddenKeys: Set(mediaHere.map(\.id)))
                    for item in mediaHere { try writer.video(item, depth: depth + 1, name: display) }
                } catch {
                    warnings.append(ExtractionWarning("page \"\(page.title)\" left out: \(error)"))
                }
                visit(page.id, depth: depth + 1)
            }
        }
        visit(courseUID, depth: 1)
        let unplaced = media.filter { !placed.contains($0.id) && !$0.transcript.isEmpty }
        if !unplaced.isEmpty {
            writer.heading("Lecture Videos", depth: 1)
            for item in unplaced { try? writer.video(item, depth: 2, name: display) }
        }
        metadata["pages"] = String(pages.count)
        metadata["transcripts"] = String(media.filter { !$0.transcript.isEmpty }.count)
        return try writer.document(metadata: metadata, warnings: warnings, display: display, empty: "no text in this OCW course")
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
        return try writer.document(metadata: metadata, warnings: warnings, display: display, empty: "no text in this OCW course folder")
    }
}
