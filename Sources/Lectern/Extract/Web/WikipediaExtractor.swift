import Foundation

/// A Wikipedia article, as a saved desktop page or as REST/Parsoid HTML: the article body only,
/// with its h2–h6 section tree. Infoboxes, navboxes, reference lists, edit links, hatnotes, the
/// table of contents and maintenance boxes are left out; maths reads as its TeX alt text;
/// figure captions (`figcaption`, the desktop page's `div.thumbcaption`) are caption blocks.
/// Title, canonical URL and revision go into metadata.
struct WikipediaExtractor: Extractor {
    let name = "wikipedia"
    /// 2: desktop thumbnail captions are caption blocks, no longer paragraphs.
    let version = 4  // 3: headings keep their anchor (links to a hit's section); 4: a page without a <title> is named by its lead's bold title, headings lose their "[edit]"

    init() {}

    /// Sections that hold apparatus rather than article text.
    static let droppedSections: Set<String> = [
        "notes", "references", "footnotes", "citations", "sources", "bibliography", "further reading",
        "external links", "notes and references", "works cited", "general references", "explanatory notes",
        "references and notes", "notes and citations",
    ]

    static let skippedClasses: Set<String> = [
        "infobox", "navbox", "vertical-navbox", "navbox-inner", "sidebar", "reflist", "references", "mw-references-wrap",
        "reference", "mw-editsection", "hatnote", "dablink", "rellink", "toc", "toclimit-2", "toclimit-3", "metadata",
        "ambox", "mbox-small", "tmbox", "ombox", "noprint", "navbar", "mw-empty-elt", "catlinks", "printfooter",
        "portal", "portalbox", "shortdescription", "mw-jump-link", "magnify", "mwe-math-mathml-a11y",
        "mw-cite-backlink", "sistersitebox", "side-box", "mw-authority-control", "authority-control", "geo-nondefault",
        "mw-indicators", "wot_shield", "shield_container", "shield-container", "navigation-not-searchable",
        "mw-kartographer-maplink", "stub", "asbox", "coordinates", "plainlinks-print",
    ]

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, HTMLExtractor.looksLikeHTML(input.data) || input.contentType?.contains("html") == true else { return 0 }
        return Self.isWikipedia(input.data) ? 90 : 0
    }

    /// MediaWiki's own markers: the parser output wrapper, page config, or Parsoid's metadata.
    static func isWikipedia(_ data: Data) -> Bool {
        let markers = ["mw-parser-output", "\"wgPageName\"", "wgArticleId", "mw:pageNamespace", "mw:html:version",
                       "wikipedia.org/wiki/Special:Redirect/revision/", "id=\"mw-content-text\""]
        return markers.contains { data.range(of: Data($0.utf8)) != nil }
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let document = try MarkupDocument.html(input.data, name: input.displayName, contentType: input.contentType,
                                                  encoding: input.options.encoding)
        guard let html = document.root else { throw LecternError(.corrupt, input.displayName, "not readable as HTML") }
        let body = html.first { $0.name == "body" } ?? html
        // Desktop: the wiki text sits in #mw-content-text (.mw-parser-output inside it).
        // Parsoid: <body> itself is the article, its sections wrapped in <section>.
        let content = body.first { $0.id == "mw-content-text" }
            .map { node in node.first { $0.hasClass("mw-parser-output") } ?? node }
            ?? body
        var writer = HTMLBlockWriter()
        writer.skip = Self.skip
        writer.replacement = Self.replacement
        writer.droppedSections = Self.droppedSections
        writer.headingShift = 1  // h2 is a top-level section of the article
        writer.write(content)

        var metadata = Self.metadata(html, data: input.data)
        if input.uri.hasPrefix("http") { metadata["url"] = input.uri }
        let title = metadata["title"] ?? Self.leadTitle(content) ?? TextCleanup.titleFromPath(input.displayName)
        guard writer.blocks.contains(where: { $0.kind != .heading }) else {
            throw LecternError(.empty, input.displayName, "no article text found in this Wikipedia page")
        }
        var blocks = [Block(kind: .title, text: title, level: 0)]
        blocks += writer.blocks
        return ExtractedDocument(type: "wikipedia", title: title, blocks: blocks, metadata: metadata)
    }

    /// A page saved without its head (a reader view's "expected.html") still names its subject:
    /// Wikipedia sets the title in bold near the start of the lead ("<b>Mozilla</b> is a …",
    /// "In mathematics, a <b>Hermitian matrix</b> …", "This <b>list of films …</b>"). Looked for
    /// in the first paragraphs outside tables (an infobox's "Anthems:" is no title).
    static func leadTitle(_ content: MarkupNode) -> String? {
        var looked = 0
        for paragraph in content.all(where: { $0.name == "p" }) where !paragraph.isInside({ $0.name == "table" }) {
            let text = TextCleanup.collapseWhitespace(paragraph.text)
            guard text.contains(where: \.isLetter), !skip(paragraph) else { continue }
            looked += 1
            if looked > 3 { return nil }
            guard let bold = paragraph.first(where: { $0.name == "b" }) else { continue }
            let name = TextCleanup.collapseWhitespace(bold.text)
            guard name.count >= 2, !name.hasSuffix(":"), name.first?.isLetter == true,
                  name.split(separator: " ").count <= 12,
                  let at = text.range(of: name), text.distance(from: text.startIndex, to: at.lowerBound) <= 40 else { continue }
            return name.prefix(1).uppercased() + name.dropFirst()
        }
        return nil
    }

    static func skip(_ node: MarkupNode) -> Bool {
        let name = node.name
        if ["script", "style", "noscript", "link", "meta", "form", "input", "button", "nav", "template"].contains(name) { return true }
        if node.id == "toc" || node.id == "coordinates" || node.id == "siteSub" || node.id == "contentSub" || node.id == "jump-to-nav" { return true }
        if node.classes.contains(where: { skippedClasses.contains(String($0)) }) { return true }
        if name == "table", node.classes.contains(where: { $0.hasPrefix("infobox") || $0.hasPrefix("navbox") || $0 == "vertical-navbox" || $0 == "sidebar" }) { return true }
        if node.attribute("role") == "navigation" || node.attribute("role") == "note" { return true }
        if let type = node.attribute("typeof"), type.contains("mw:Extension/references") { return true }
        if name == "sup", let type = node.attribute("typeof"), type.contains("mw:Extension/ref") { return true }
        if let style = node.attribute("style")?.replacingOccurrences(of: " ", with: ""), style.contains("display:none") {
            return true
        }
        return false
    }

    /// Maths (`.mwe-math-element`, `<math>`, the fallback image) reads as its TeX alt text.
    static func replacement(_ node: MarkupNode) -> String? {
        if node.hasClass("mwe-math-element") {
            if let math = node.first(where: { $0.name == "math" }), let alt = math.attribute("alttext"), !alt.isEmpty { return alt }
            if let image = node.first(where: { $0.name == "img" }), let alt = image.attribute("alt"), !alt.isEmpty { return alt }
            return nil
        }
        return HTMLExtractor.mathReplacement(node)
    }

    /// Title, canonical URL, page id and revision from the desktop config or Parsoid's head.
    static func metadata(_ html: MarkupNode, data: Data) -> [String: String] {
        var metadata = HTMLExtractor.pageMetadata(html.document)
        if let title = metadata["title"] {
            metadata["title"] = title.replacingOccurrences(of: " - Wikipedia", with: "")
                .replacingOccurrences(of: " — Wikipedia", with: "")
        }
        if let heading = html.first(where: { $0.id == "firstHeading" }) {
            let text = TextCleanup.collapseWhitespace(heading.text)
            if !text.isEmpty { metadata["title"] = text }
        }
        let head = String(decoding: data.prefix(400_000), as: UTF8.self)
        if let revision = firstMatch(#""wgRevisionId":\s*(\d+)"#, in: head) { metadata["revision"] = revision }
        if let page = firstMatch(#""wgPageName":\s*"([^"]+)""#, in: head) {
            metadata["page"] = page
            if metadata["canonical_url"] == nil { metadata["canonical_url"] = "https://en.wikipedia.org/wiki/" + page }
        }
        if let article = firstMatch(#""wgArticleId":\s*(\d+)"#, in: head) { metadata["page_id"] = article }
        // Parsoid: <html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/123">,
        // <link rel="dc:isVersionOf" href="//en.wikipedia.org/wiki/Title">.
        if let about = html.attribute("about"), let revision = about.split(separator: "/").last, Int(revision) != nil {
            metadata["revision"] = String(revision)
        }
        if let version = html.first(where: { $0.name == "link" && $0.attribute("rel") == "dc:isVersionOf" })?.attribute("href") {
            metadata["canonical_url"] = version.hasPrefix("//") ? "https:" + version : version
        }
        if let pageID = html.first(where: { $0.name == "meta" && $0.attribute("property") == "mw:pageId" })?.attribute("content") {
            metadata["page_id"] = pageID
        }
        // When the page was last edited: Parsoid's dc:modified, or the desktop footer's line.
        if let modified = html.first(where: { $0.name == "meta" && $0.attribute("property") == "dc:modified" })?.attribute("content") {
            metadata["modified"] = modified
        } else if let footer = html.first(where: { $0.id == "footer-info-lastmod" }),
                  let edited = firstMatch(#"last edited on (.+?)\.?$"#, in: TextCleanup.collapseWhitespace(footer.text)) {
            metadata["modified"] = edited.replacingOccurrences(of: " (UTC)", with: "")
        }
        if let saved = firstMatch(#"saved from url=\(\d+\)(\S+)"#, in: String(decoding: data.prefix(512), as: UTF8.self)),
           metadata["canonical_url"] == nil {
            metadata["canonical_url"] = saved
        }
        return metadata
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}
