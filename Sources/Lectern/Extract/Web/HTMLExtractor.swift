import Foundation

/// Any web page: libxml2's HTML parser (no network, no entities), then the main content
/// (boilerplate left out) as typed blocks with the h1–h6 section tree.
struct HTMLExtractor: Extractor {
    let name = "html"
    let version = 3  // 2: headings keep their anchor (links to a hit's section); 3: og:title names a page without <title>, headings lose "[edit]"

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty else { return 0 }
        if let type = input.contentType?.lowercased(), type.contains("html") { return 60 }
        return Self.looksLikeHTML(input.data) ? 60 : 0
    }

    /// An HTML root: a doctype, `<html`, or a document that opens with common HTML tags.
    static func looksLikeHTML(_ data: Data) -> Bool {
        guard !TextDecoding.looksBinary(data) else { return false }
        let head = String(decoding: data.prefix(2048), as: UTF8.self).lowercased()
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") { return true }
        if trimmed.hasPrefix("<?xml"), head.contains("<html") { return true }
        if trimmed.hasPrefix("<!--"), head.contains("<html") { return true }
        return ["<head", "<body", "<p>", "<div", "<h1", "<h2", "<meta", "<title"].contains { trimmed.hasPrefix($0) }
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let document = try MarkupDocument.html(input.data, name: input.displayName, contentType: input.contentType,
                                                  encoding: input.options.encoding)
        let root = MainContent.root(of: document)
        var writer = HTMLBlockWriter()
        writer.skip = MainContent.isBoilerplate
        writer.replacement = Self.mathReplacement
        if let root { writer.write(root) }
        var metadata = Self.pageMetadata(document)
        if input.uri.hasPrefix("http") { metadata["url"] = input.uri }
        let title = metadata.removeValue(forKey: "title")
            ?? writer.blocks.first { $0.kind == .heading }?.text
            ?? TextCleanup.titleFromPath(input.displayName)
        guard writer.blocks.contains(where: { $0.kind != .heading }) else {
            throw LecternError(.empty, input.displayName, "no text found in the page's main content")
        }
        return ExtractedDocument(type: "html", title: title, blocks: writer.blocks, metadata: metadata)
    }

    /// Maths images and MathML read as their text alternative (TeX or the alt text).
    static func mathReplacement(_ node: MarkupNode) -> String? {
        switch node.name {
        case "math":
            if let alt = node.attribute("alttext"), !alt.isEmpty { return alt }
            return nil
        case "img":
            if let alt = node.attribute("alt"), alt.hasPrefix("{\\displaystyle") || node.classes.contains(where: { $0.contains("math") }) {
                return alt
            }
            return nil
        default:
            return nil
        }
    }

    /// `<title>`, canonical URL, description, language from the page head.
    static func pageMetadata(_ document: MarkupDocument) -> [String: String] {
        var metadata: [String: String] = [:]
        guard let html = document.root else { return metadata }
        if let lang = html.attribute("lang"), !lang.isEmpty { metadata["language"] = lang }
        if let head = html.first(where: { $0.name == "head" }) {
            if let title = head.first(where: { $0.name == "title" }) {
                let text = TextCleanup.collapseWhitespace(title.text)
                if !text.isEmpty { metadata["title"] = text }
            }
            for link in head.all(where: { $0.name == "link" }) where link.attribute("rel")?.lowercased() == "canonical" {
                if let href = link.attribute("href"), !href.isEmpty { metadata["canonical_url"] = href }
            }
            for meta in head.all(where: { $0.name == "meta" }) {
                let key = (meta.attribute("name") ?? meta.attribute("property") ?? "").lowercased()
                if ["description", "og:description"].contains(key), let content = meta.attribute("content"), !content.isEmpty {
                    metadata["description"] = content
                }
                // The site's own title where the page has no <title>.
                if ["og:title", "twitter:title", "title"].contains(key), metadata["title"] == nil,
                   let content = meta.attribute("content").map(TextCleanup.collapseWhitespace), !content.isEmpty {
                    metadata["title"] = content
                }
            }
        }
        return metadata
    }
}
