import Foundation

/// PDF through poppler-glib: typed blocks in reading order with page provenance, the outline
/// as the section tree, repeating headers and footers set aside; pages without a usable text
/// layer (scans) are read with OCR (`OCRSettings`), or named in a warning.
struct PDFExtractor: Extractor {
    let name = "pdf"
    /// 2: line-end hyphen rules, run-in section numbers, lone marks and dot leaders dropped (libraries re-read their PDFs).
    /// 3: tables as rows, contents pages and figure labels out of passages, page labels, outline
    /// entries only where their text is, overlay slides folded, file names never the title.
    /// 4: a slide's block title ("Potential Problems") is a line of its own; a page without a
    /// title is named by its running head, not its file name.
    let version = 4

    init() {}

    /// The metadata entry of a document read with OCR: which pages, by what, how sure.
    static let ocrMetadataKey = "ocr"

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
        let pages = read.pages, scanned = read.scanned
        var lines = read.lines
        var warnings: [ExtractionWarning] = read.oversized.map { page, bytes in
            ExtractionWarning("page \(page) holds \(OutputBounds.size(bytes)) of text, over the \(OutputBounds.size(PDFFile.maxTextBytes)) a page may hold (a content stream made to inflate?): its text is left out")
        }
        // Pages without a usable text layer are read with OCR (`--ocr`); the rest of the
        // document is read as it always was.
        let ocrSettings = input.options.ocr
        let wanted: [Int]
        switch ocrSettings.mode {
        case .auto: wanted = Array(Set(scanned + read.unusable)).sorted()
        case .always: wanted = Array(1...file.pageCount)
        case .never: wanted = []
        }
        let chosen = Array(wanted.prefix(ocrSettings.maxPages))
        var ocr: PDFPageOCR.Result?
        var ocrFailure: OCRUnavailable?
        if !chosen.isEmpty {
            do {
                ocr = try ParallelWork.stoppable(stop, subject: display) {
                    try PDFPageOCR(settings: ocrSettings).read(try PDFFile(path: path, password: password), pages: chosen, imageOnly: Set(scanned),
                                                               reopen: { try PDFFile(path: path, password: password) }, stop: stop, display: display)
                }
            } catch let error as OCRUnavailable {
                // No Tesseract or no language pack: the document is stored as before, its
                // warning says why, and the run says once what to install.
                ocrFailure = error
            }
        }
        if let ocr, !ocr.pages.isEmpty {
            let read = Set(ocr.lines.filter { !$0.value.isEmpty }.keys)
            lines.removeAll { read.contains($0.page) }
            for (page, pageLines) in ocr.lines where !pageLines.isEmpty { lines += pageLines }
            // Pages in order, each page's lines in the order its reader gave them.
            lines = lines.enumerated().sorted { ($0.element.page, $0.offset) < ($1.element.page, $1.offset) }.map(\.element)
        }
        let ocrRead = Set(ocr?.pages ?? [])
        if lines.isEmpty, scanned.isEmpty {
            throw LecternError(.empty, nil, "no text in any of its \(file.pageCount) pages")
        }
        let layout = PDFLayout(pages: pages, lines: lines, outline: file.outline()).run()
        // A scan is not an error of the file: the pages are named; a document with no text at
        // all then has no passages, which ingest reports as its one failure line.
        let unread = scanned.filter { !ocrRead.contains($0) }
        if !unread.isEmpty {
            let list = Self.pageList(unread)
            let pagesWord = unread.count == 1 ? "page" : "pages"
            let itIs = unread.count == 1 ? "it is" : "they are"
            let why: String
            if let ocrFailure {
                why = ocrFailure.reason
            } else if ocrSettings.mode == .never {
                why = "OCR is off (--ocr never)"
            } else if unread.contains(where: { !chosen.contains($0) }) {
                why = "over the \(ocrSettings.maxPages) pages a document is read with OCR at most (--ocr-pages)"
            } else {
                why = "OCR found no text"
            }
            warnings.append(ExtractionWarning("no text layer on \(pagesWord) \(list) (scanned?): \(itIs) not searchable; \(why)", advice: ocrFailure?.advice))
        }
        let garbled = read.unusable.filter { !ocrRead.contains($0) }
        if !garbled.isEmpty, ocrSettings.mode != .never {
            warnings.append(ExtractionWarning("the text layer of \(garbled.count == 1 ? "page" : "pages") \(Self.pageList(garbled)) is mostly unmapped characters, kept as it is: \(ocrFailure?.reason ?? "OCR could not read it")", advice: ocrFailure?.advice))
        }
        var metadata: [String: String] = ["pages": String(file.pageCount)]
        if let author = file.author { metadata["author"] = author }
        if let subject = file.subject { metadata["subject"] = subject }
        if let creator = file.creator { metadata["creator"] = creator }
        if !layout.furniture.isEmpty { metadata["page_furniture"] = layout.furniture.prefix(20).joined(separator: " | ") }
        if layout.isSlides { metadata["slides"] = "true" }
        if let ocr, !ocr.pages.isEmpty {
            metadata[Self.ocrMetadataKey] = "\(ocr.pages.count == 1 ? "page" : "pages") \(Self.pageList(ocr.pages)) read by Tesseract \(Tesseract.version) (\(ocrSettings.languageList), \(Self.dpiList(ocr.dpis)) dpi), mean word confidence \(String(format: "%.1f", ocr.meanConfidence))"
        }
        let titleBlock = layout.blocks.first { $0.kind == .title }?.text
        let title = Self.usableTitle(file.title) ?? titleBlock ?? layout.largestFirstPageText ?? Self.runningTitle(layout.blocks) ?? ""
        return ExtractedDocument(type: "pdf", title: title, blocks: layout.blocks, metadata: metadata, warnings: warnings)
    }

    /// `300`, or `150–300` when pages were read at several resolutions.
    static func dpiList(_ dpis: Set<Int>) -> String {
        guard let low = dpis.min(), let high = dpis.max() else { return "" }
        return low == high ? "\(low)" : "\(low)–\(high)"
    }

    /// What the pages hold, in page order.
    struct PageRun: Sendable {
        var pages: [PDFLayout.PageInfo] = []
        var lines: [PDFLine] = []
        var scanned: [Int] = []
        /// Pages whose text layer is mostly unmapped characters (`PDFFile.unusable`).
        var unusable: [Int] = []
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
            all.unusable += part.unusable
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
            if page.unusableText { run.unusable.append(index + 1) }
            run.lines += page.lines
        }
        return run
    }

    /// Extensions of the files a PDF is made from, which office tools leave as its title.
    static let documentExtensions: Set<String> = [
        "doc", "docx", "odt", "rtf", "txt", "md", "tex", "dvi", "ps", "pdf", "ppt", "pptx", "pps", "ppsx", "odp", "key",
        "xls", "xlsx", "ods", "odg", "pages", "numbers", "html", "htm", "indd", "qxp", "pub", "wpd", "svg",
    ]

    /// A page cut from a paper (no info title, no title on the page) still names the paper in its
    /// running head ("Optimized Table Tokenization for Table Structure Recognition"): the first
    /// page's header of four words or more in words, not the authors' "… et al.".
    static func runningTitle(_ blocks: [Block]) -> String? {
        blocks.first { block in
            guard block.kind == .pageHeader, block.page ?? 1 == 1 else { return false }
            let words = block.text.split(separator: " ").filter { $0.contains(where: \.isLetter) }
            return words.count >= 4 && !block.text.contains("et al")
        }?.text
    }

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
