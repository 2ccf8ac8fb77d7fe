import Foundation

/// PDF through poppler-glib: typed blocks in reading order with page provenance, the outline
/// as the section tree, repeating headers and footers set aside, and a warning naming the
/// pages that have no text layer (scans).
struct PDFExtractor: Extractor {
    let name = "pdf"
    /// 2: line-end hyphen rules, run-in section numbers, lone marks and dot leaders dropped (libraries re-read their PDFs).
    /// 3: tables as rows, contents pages and figure labels out of passages, page labels, outline
    /// entries only where their text is, overlay slides folded, file names never the title.
    let version = 3

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory else { return 0 }
        // The header may follow a little junk; readers look in the first 1,024 bytes.
        let head = input.data.prefix(1024)
        return head.range(of: Data("%PDF-".utf8)) != nil ? 100 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        // Poppler reads files; bytes from elsewhere (a download) go through a private temp file.
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let path: String
        if let local = input.path, !input.isDirectory, FileManager.default.fileExists(atPath: local) {
            path = local
        } else {
            // Readable by this user only: the bytes may be a document nobody else should see.
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(UUID().uuidString).pdf")
            guard FileManager.default.createFile(atPath: url.path, contents: input.data, attributes: [.posixPermissions: 0o600]) else {
                throw LecternError(.unreadable, nil, "cannot write a temporary copy for poppler in \(url.deletingLastPathComponent().path)")
            }
            temporary = url
            path = url.path
        }
        let file = try PDFFile(path: path, password: input.options.password)
        guard file.pageCount > 0 else { throw LecternError(.corrupt, nil, "not a readable PDF (damaged or truncated): no pages") }
        // Pages are read on a thread of their own while a stop is watched for: poppler cannot be
        // interrupted inside a page, and a crafted page keeps it busy for minutes.
        let password = input.options.password, stop = input.stop, display = input.displayName
        let read = try ParallelWork.stoppable(stop, subject: display) {
            try Self.readPages(try PDFFile(path: path, password: password), path: path, password: password, stop: stop, display: display)
        }
        let pages = read.pages, lines = read.lines, scanned = read.scanned
        if lines.isEmpty, scanned.isEmpty {
            throw LecternError(.empty, nil, "no text in any of its \(file.pageCount) pages")
        }
        let layout = PDFLayout(pages: pages, lines: lines, outline: file.outline()).run()
        var warnings: [ExtractionWarning] = read.oversized.map { page, bytes in
            ExtractionWarning("page \(page) holds \(OutputBounds.size(bytes)) of text, over the \(OutputBounds.size(PDFFile.maxTextBytes)) a page may hold (a content stream made to inflate?): its text is left out")
        }
        // A scan is not an error of the file: the pages are named; a document with no text at
        // all then has no passages, which ingest reports as its one failure line.
        if !scanned.isEmpty {
            let list = Self.pageList(scanned)
            warnings.append(ExtractionWarning("no text layer on \(scanned.count == 1 ? "page" : "pages") \(list) (scanned?): \(scanned.count == 1 ? "it is" : "they are") not searchable; OCR is not built in"))
        }
        var metadata: [String: String] = ["pages": String(file.pageCount)]
        if let author = file.author { metadata["author"] = author }
        if let subject = file.subject { metadata["subject"] = subject }
        if let creator = file.creator { metadata["creator"] = creator }
        if !layout.furniture.isEmpty { metadata["page_furniture"] = layout.furniture.prefix(20).joined(separator: " | ") }
        if layout.isSlides { metadata["slides"] = "true" }
        let titleBlock = layout.blocks.first { $0.kind == .title }?.text
        let title = Self.usableTitle(file.title) ?? titleBlock ?? layout.largestFirstPageText ?? ""
        return ExtractedDocument(type: "pdf", title: title, blocks: layout.blocks, metadata: metadata, warnings: warnings)
    }

    /// What the pages hold, in page order.
    struct PageRun: Sendable {
        var pages: [PDFLayout.PageInfo] = []
        var lines: [PDFLine] = []
        var scanned: [Int] = []
        /// Pages whose text is over `PDFFile.maxTextBytes`, and its size.
        var oversized: [(page: Int, bytes: Int)] = []
    }

    /// Pages from this many on are read by two workers, each with its own poppler document (a
    /// poppler document must not be shared between threads): a long textbook reads in about
    /// two thirds of the time on two cores.
    static let parallelFrom = 48

    static func readPages(_ file: PDFFile, path: String, password: String?, stop: (any StopCheck)? = nil, display: String? = nil) throws -> PageRun {
        let count = file.pageCount
        let workers = count >= parallelFrom ? min(2, ProcessInfo.processInfo.activeProcessorCount) : 1
        guard workers > 1 else { return try read(file, 0..<count, stop: stop, display: display) }
        let half = count / 2
        let ranges = [0..<half, half..<count]
        let results = ParallelWork.map(ranges.count, workers: ranges.count) { worker in
            try read(try PDFFile(path: path, password: password), ranges[worker], stop: stop, display: display)
        }
        var all = PageRun()
        for slot in results {
            let part = try slot.get()
            all.pages += part.pages
            all.lines += part.lines
            all.scanned += part.scanned
            all.oversized += part.oversized
        }
        return all
    }

    /// The pages of `range`; a stop asked for is seen between two pages.
    static func read(_ file: PDFFile, _ range: Range<Int>, stop: (any StopCheck)? = nil, display: String? = nil) throws -> PageRun {
        var run = PageRun()
        for index in range {
            try stop?.check(display)
            let page = file.page(index)
            if let bytes = page.oversizedText { run.oversized.append((index + 1, bytes)) }
            run.pages.append(PDFLayout.PageInfo(width: page.width, height: page.height, label: page.label))
            if page.lines.isEmpty, page.hasImages { run.scanned.append(index + 1) }
            run.lines += page.lines
        }
        return run
    }

    /// Extensions of the files a PDF is made from, which office tools leave as its title.
    static let documentExtensions: Set<String> = [
        "doc", "docx", "odt", "rtf", "txt", "md", "tex", "dvi", "ps", "pdf", "ppt", "pptx", "pps", "ppsx", "odp", "key",
        "xls", "xlsx", "ods", "odg", "pages", "numbers", "html", "htm", "indd", "qxp", "pub", "wpd", "svg",
    ]

    /// Info-dictionary titles that name nothing ("untitled", "Microsoft Word - notes.docx") are ignored.
    static func usableTitle(_ title: String?) -> String? {
        guard var title = title?.trimmingCharacters(in: .whitespaces), !title.isEmpty else { return nil }
        for prefix in ["Microsoft Word - ", "Microsoft PowerPoint - "] where title.hasPrefix(prefix) {
            title = String(title.dropFirst(prefix.count))
        }
        let lower = title.lowercased()
        if ["untitled", "untitled document", "title", "document", "slide 1", "no title"].contains(lower) { return nil }
        // A file name ("odf_presentation.odp", "C:\\notes\\week 3.docx") names the file, not the document.
        if let dot = lower.lastIndex(of: "."), documentExtensions.contains(String(lower[lower.index(after: dot)...])) { return nil }
        if PDFRow.contentsTitles.contains(PDFLayout.matchKey(title)) { return nil }
        return title
    }

    /// [1, 2, 3, 7] → "1–3, 7".
    static func pageList(_ pages: [Int]) -> String {
        var parts: [String] = []
        var start = pages[0], end = pages[0]
        for page in pages.dropFirst() {
            if page == end + 1 { end = page; continue }
            parts.append(start == end ? "\(start)" : "\(start)–\(end)")
            start = page; end = page
        }
        parts.append(start == end ? "\(start)" : "\(start)–\(end)")
        return parts.joined(separator: ", ")
    }
}
