import Foundation

/// PDF through poppler-glib: typed blocks in reading order with page provenance, the outline
/// as the section tree, repeating headers and footers set aside, and a warning naming the
/// pages that have no text layer (scans).
public struct PDFExtractor: Extractor {
    public let name = "pdf"
    public let version = 1

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory else { return 0 }
        // The header may follow a little junk; readers look in the first 1,024 bytes.
        let head = input.data.prefix(1024)
        return head.range(of: Data("%PDF-".utf8)) != nil ? 100 : 0
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        // Poppler reads files; bytes from elsewhere (a download) go through a private temp file.
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let path: String
        if let local = input.path, !input.isDirectory, FileManager.default.fileExists(atPath: local) {
            path = local
        } else {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(UUID().uuidString).pdf")
            try input.data.write(to: url, options: .atomic)
            temporary = url
            path = url.path
        }
        let file = try PDFFile(path: path, password: input.options.password)
        guard file.pageCount > 0 else { throw LecternError(.corrupt, nil, "not a readable PDF (damaged or truncated): no pages") }
        var pages: [PDFLayout.PageInfo] = []
        var lines: [PDFLine] = []
        var scanned: [Int] = []
        for index in 0..<file.pageCount {
            let page = file.page(index)
            pages.append(PDFLayout.PageInfo(width: page.width, height: page.height))
            if page.lines.isEmpty, page.hasImages { scanned.append(index + 1) }
            lines += page.lines
        }
        if lines.isEmpty, scanned.isEmpty {
            throw LecternError(.empty, nil, "no text in any of its \(file.pageCount) pages")
        }
        let layout = PDFLayout(pages: pages, lines: lines, outline: file.outline()).run()
        var warnings: [String] = []
        if !scanned.isEmpty {
            let list = Self.pageList(scanned)
            if scanned.count == file.pageCount {
                throw LecternError(.empty, nil, "no text layer on any page (a scan?): OCR is not built in, so there is nothing to search")
            }
            warnings.append("no text layer on \(scanned.count == 1 ? "page" : "pages") \(list) (scanned?): \(scanned.count == 1 ? "it is" : "they are") not searchable; OCR is not built in")
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

    /// Info-dictionary titles that name nothing ("untitled", "Microsoft Word - notes.docx") are ignored.
    static func usableTitle(_ title: String?) -> String? {
        guard var title = title?.trimmingCharacters(in: .whitespaces), !title.isEmpty else { return nil }
        for prefix in ["Microsoft Word - ", "Microsoft PowerPoint - "] where title.hasPrefix(prefix) {
            title = String(title.dropFirst(prefix.count))
        }
        let lower = title.lowercased()
        if ["untitled", "untitled document", "title", "document", "slide 1", "no title"].contains(lower) { return nil }
        for suffix in [".doc", ".docx", ".pdf", ".odt", ".ppt", ".pptx", ".tex", ".dvi"] where lower.hasSuffix(suffix) { return nil }
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
