import Foundation

/// Turns an HTML subtree into typed blocks in reading order: headings open sections (h1–h6),
/// paragraphs, list items (nested lists deeper), block quotes, code, tables and captions.
/// Readers tune it with what to leave out (`skip`), what an element reads as instead of its
/// children (`replacement`, e.g. maths as its alt text) and which sections to drop.
struct HTMLBlockWriter {
    /// Elements left out with everything inside them.
    var skip: (MarkupNode) -> Bool = { _ in false }
    /// Text an element stands for instead of its children, or nil to read its children.
    var replacement: (MarkupNode) -> String? = { _ in nil }
    /// Lower-cased heading texts whose sections are left out (References, External links …).
    var droppedSections: Set<String> = []
    /// Added to every block's section path before the headings found here.
    var basePath: [String] = []
    /// Heading levels below this are shifted so that the shallowest heading met is level 1.
    var headingShift = 0

    private(set) var blocks: [Block] = []
    private var sections = SectionTracker()
    private var run = ""
    private var dropLevel: Int?

    init() {}

    /// How inline text met in a container becomes a block.
    struct Context {
        var kind: BlockKind = .paragraph
        var level: Int?
        var listDepth = 0

        func with(kind: BlockKind) -> Context {
            var changed = self
            changed.kind = kind
            return changed
        }
    }

    static let headingLevels: [String: Int] = ["h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6]
    static let containers: Set<String> = [
        "p", "div", "section", "article", "main", "center", "dl", "dt", "dd", "details", "summary", "address",
        "figure", "body", "html", "header", "footer", "nav", "aside", "form", "fieldset", "legend", "hgroup",
        "noscript", "option", "tbody", "thead", "tfoot", "tr", "td", "th", "frameset", "frame", "object",
        "video", "audio", "picture", "caption", "menu",
    ]

    var path: [String] { basePath + sections.path }

    mutating func write(_ node: MarkupNode) {
        walk(node, Context())
        flush(Context())
    }

    private var dropping: Bool { dropLevel != nil }

    private mutating func walk(_ node: MarkupNode, _ context: Context) {
        for child in node.children {
            if let characters = child.characters {
                if !dropping { run += characters }
                continue
            }
            guard child.isElement, !skip(child) else { continue }
            if let text = replacement(child) {
                if !dropping { run += " " + text + " " }
                continue
            }
            let name = child.name
            if let level = Self.headingLevels[name] {
                flush(context)
                heading(child, level: level)
            } else if name == "br" {
                run += " "
            } else if name == "hr" {
                flush(context)
            } else if name == "ul" || name == "ol" {
                var inner = context
                inner.listDepth += 1
                walk(child, apart: context, as: inner)
            } else if name == "li" {
                walk(child, apart: context, as: Context(kind: .listItem, level: max(1, context.listDepth), listDepth: context.listDepth))
            } else if name == "blockquote" {
                walk(child, apart: context, as: context.with(kind: .quote))
            } else if name == "figcaption" || (name == "div" && child.hasClass("thumbcaption")) {
                // MediaWiki's desktop HTML captions its thumbnails with a div, not a figcaption.
                walk(child, apart: context, as: context.with(kind: .caption))
            } else if name == "pre" {
                flush(context)
                let code = child.text.trimmingCharacters(in: .newlines)
                if !dropping, !code.trimmingCharacters(in: .whitespaces).isEmpty {
                    blocks.append(Block(kind: .code, text: code, sectionPath: path))
                }
            } else if name == "table" {
                flush(context)
                table(child)
            } else if Self.containers.contains(name) {
                walk(child, apart: context, as: context)
            } else {
                walk(child, context)  // inline: a, span, b, em, code, sub, abbr, unknown tags …
            }
        }
    }

    /// A block-level element: its text becomes blocks of `inner`, never joined to the text
    /// of `outer` before or after it.
    private mutating func walk(_ node: MarkupNode, apart outer: Context, as inner: Context) {
        flush(outer)
        walk(node, inner)
        flush(inner)
    }

    private mutating func flush(_ context: Context) {
        defer { run = "" }
        guard !dropping else { return }
        let text = TextCleanup.collapseWhitespace(run)
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else { return }
        blocks.append(Block(kind: context.kind, text: text, level: context.kind == .listItem ? context.level : nil, sectionPath: path))
    }

    private mutating func heading(_ node: MarkupNode, level rawLevel: Int) {
        let text = Self.withoutEditLink(inlineText(node), of: node)
        guard !text.isEmpty else { return }
        let level = max(1, rawLevel - headingShift)
        if let drop = dropLevel {
            if level > drop { return }
            dropLevel = nil
        }
        if droppedSections.contains(text.lowercased()) {
            dropLevel = level
            return
        }
        sections.open(level: level, title: text)
        // The id a link to the section ends in (`#History`): on the heading, on MediaWiki's
        // headline span inside it, or on the wrapper a newer MediaWiki puts around it.
        let anchor = node.id ?? node.first { $0.hasClass("mw-headline") && $0.id != nil }?.id
            ?? node.parent.flatMap { $0.hasClass("mw-heading") ? $0.id : nil }
        blocks.append(Block(kind: .heading, text: text, level: level, sectionPath: path, attributes: anchor.map { ["id": $0] } ?? [:]))
    }

    /// A saved MediaWiki page whose classes were stripped keeps each heading's edit link:
    /// "History[edit]", or "[edit]" alone where the headline lost its text; the link's title
    /// ("Edit section: Community") still names the section.
    static func withoutEditLink(_ text: String, of node: MarkupNode) -> String {
        guard text.hasSuffix("]") else { return text }
        var head = Substring(text)
        for suffix in ["[edit]", "[ edit ]", "[edit source]", "[ edit source ]"] where head.hasSuffix(suffix) {
            head = head.dropLast(suffix.count)
            break
        }
        guard head.count < text.count else { return text }
        let title = head.trimmingCharacters(in: .whitespaces)
        if !title.isEmpty { return title }
        let link = node.first { $0.name == "a" && ($0.attribute("title") ?? "").hasPrefix("Edit section: ") }
        return link.flatMap { $0.attribute("title") }.map { String($0.dropFirst("Edit section: ".count)) } ?? ""
    }

    /// Rows of cells joined with " | ", one row a line; the caption becomes a caption block.
    private mutating func table(_ node: MarkupNode) {
        guard !dropping else { return }
        if let caption = node.child("caption") {
            let text = inlineText(caption)
            if !text.isEmpty { blocks.append(Block(kind: .caption, text: text, sectionPath: path)) }
        }
        var rows: [String] = []
        func collectRows(_ parent: MarkupNode) {
            for child in parent.elementChildren where !skip(child) {
                switch child.name {
                case "tr":
                    let cells = child.elementChildren.filter { ($0.name == "td" || $0.name == "th") && !skip($0) }
                        .map { inlineText($0) }
                    if cells.contains(where: { !$0.isEmpty }) { rows.append(cells.joined(separator: " | ")) }
                case "thead", "tbody", "tfoot":
                    collectRows(child)
                default:
                    break
                }
            }
        }
        collectRows(node)
        if !rows.isEmpty { blocks.append(Block(kind: .table, text: rows.joined(separator: "\n"), sectionPath: path)) }
    }

    /// The text of an element as one line, honouring `skip` and `replacement`.
    func inlineText(_ node: MarkupNode) -> String {
        var out = ""
        func gather(_ node: MarkupNode) {
            for child in node.children {
                if let characters = child.characters {
                    out += characters
                } else if child.isElement, !skip(child) {
                    if let text = replacement(child) {
                        out += " " + text + " "
                    } else if child.name == "br" || Self.containers.contains(child.name) || child.name == "li" {
                        out += " "
                        gather(child)
                        out += " "
                    } else {
                        gather(child)
                    }
                }
            }
        }
        gather(node)
        return TextCleanup.collapseWhitespace(out)
    }
}
