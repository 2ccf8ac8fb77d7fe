import Foundation

/// Turns one CNXML module (OpenStax's source format) into typed blocks: sections become
/// headings, learning objectives become `objective` blocks, exercises `exercise` blocks, the
/// glossary `glossary` blocks (term and meaning) and emphasised terms `keyTerm` blocks.
/// Inline emphasis, terms and links read as plain text; a link to another module of the book
/// (`<link document="m00025">the chapter on logic</link>`, the author's cross-reference) is also
/// kept on its block as `references` (`CrossReference`), so a curriculum can say which
/// earlier lesson the text points back to.
struct CNXMLBlockWriter {
    /// The section path above the module (book chapter, module title).
    let basePath: [String]
    /// The heading level of the module's own sections (the module title is one above).
    let baseLevel: Int
    let moduleID: String

    private(set) var blocks: [Block] = []
    /// Open sections (level, title); a section closes when its element ends.
    private var stack: [(level: Int, title: String)] = []
    /// Emphasised terms with the sentence that introduces them.
    private var keyTerms: [(term: String, sentence: String)] = []
    /// Cross-references met in the inline text read since the last block was written.
    private var references: [CrossReference] = []

    init(basePath: [String], baseLevel: Int, moduleID: String) {
        self.basePath = basePath
        self.baseLevel = baseLevel
        self.moduleID = moduleID
    }

    var path: [String] { basePath + stack.map(\.title) }

    /// Names for sections whose `<title/>` is empty, from their class.
    static let sectionNames: [String: String] = [
        "learning-objectives": "Learning Objectives", "summary": "Summary", "review-questions": "Review Questions",
        "further-reading": "Further Reading", "references": "References", "key-terms": "Key Terms",
        "key-concepts": "Key Concepts", "critical-thinking": "Critical Thinking", "section-exercises": "Exercises",
        "problems": "Problems", "practice": "Practice",
    ]

    mutating func write(document: MarkupNode) {
        if let content = document.child("content") {
            walkSection(content, depth: 0, role: nil)
        }
        let glossary = document.child("glossary")
        // A key term the glossary defines is kept there, with its meaning; the others keep the
        // sentence that introduces them.
        var seen = Set((glossary?.children("definition") ?? []).map { TextCleanup.collapseWhitespace($0.child("term")?.text ?? "").lowercased() })
        let introduced = keyTerms.filter { seen.insert($0.term.lowercased()).inserted }
        if !introduced.isEmpty {
            open("Key Terms", depth: 1)
            for (term, sentence) in introduced {
                emit(.keyTerm, sentence.isEmpty ? term : "\(term): \(sentence)", attributes: ["term": term, "context": sentence])
            }
        }
        if let glossary {
            open("Glossary", depth: 1)
            for definition in glossary.children("definition") {
                let term = inline(definition.child("term"))
                let meaning = definition.children("meaning").map { inline($0) }.filter { !$0.isEmpty }.joined(separator: " ")
                guard !term.isEmpty else { continue }
                emit(.glossary, meaning.isEmpty ? term : "\(term): \(meaning)", attributes: ["term": term, "meaning": meaning])
            }
        }
    }

    /// `id`: the section's id, the anchor of a link to it on the book's web page.
    private mutating func open(_ title: String, depth: Int, id: String? = nil) {
        let level = baseLevel + depth - 1
        while let last = stack.last, last.level >= level { stack.removeLast() }
        stack.append((level, title))
        references = []  // a link in a heading is no reference of the text
        var attributes = ["module": moduleID]
        if let id { attributes["id"] = id }
        blocks.append(Block(kind: .heading, text: title, level: level, sectionPath: path, attributes: attributes))
    }

    private mutating func emit(_ kind: BlockKind, _ text: String, level: Int? = nil, attributes: [String: String] = [:]) {
        let text = TextCleanup.collapseWhitespace(text)
        guard !text.isEmpty else { return }
        var attributes = attributes
        attributes["module"] = moduleID
        if let references = takeReferences() { attributes[CrossReference.attribute] = references }
        blocks.append(Block(kind: kind, text: text, level: level, sectionPath: path, attributes: attributes))
    }

    /// The cross-references gathered since the last block, encoded for its attributes (nil: none).
    private mutating func takeReferences() -> String? {
        defer { references = [] }
        return references.isEmpty ? nil : CrossReference.encode(references)
    }

    /// `role` is the class of the enclosing special section (learning objectives, review questions …).
    private mutating func walkSection(_ node: MarkupNode, depth: Int, role: String?) {
        for child in node.elementChildren {
            switch child.name {
            case "section":
                let role = child.attribute("class").map { String($0.split(separator: " ").first ?? "") } ?? role
                var title = inline(child.child("title"))
                if title.isEmpty, let role { title = Self.sectionNames[role] ?? "" }
                if !title.isEmpty { open(title, depth: depth + 1, id: child.id) }
                walkSection(child, depth: title.isEmpty ? depth : depth + 1, role: role)
                if !title.isEmpty {
                    // Close it so that following siblings of the parent are not put inside it.
                    let level = baseLevel + depth
                    while let last = stack.last, last.level >= level { stack.removeLast() }
                }
            case "title", "metadata", "label":
                continue
            case "para":
                block(child, kind: .paragraph, role: role)
            case "list":
                for item in child.children("item") {
                    block(item, kind: role == "learning-objectives" ? .objective : .listItem, role: role, level: 1)
                }
            case "exercise":
                exercise(child)
            case "figure":
                if let caption = child.child("caption") { emit(.caption, inline(caption)) }
            case "table":
                table(child)
            case "quote":
                emit(.quote, inline(child))
            case "note":
                let title = inline(child.child("title"))
                if !title.isEmpty { emit(.paragraph, title, attributes: ["note": child.attribute("class") ?? "note"]) }
                walkSection(child, depth: depth, role: role)
            case "equation":
                emit(.equation, inline(child))
            case "code", "preformat":
                let text = child.text.trimmingCharacters(in: .newlines)
                if !text.isEmpty { blocks.append(Block(kind: .code, text: text, sectionPath: path, attributes: ["module": moduleID])) }
            case "media", "footnote":
                continue
            default:
                walkSection(child, depth: depth, role: role)
            }
        }
    }

    /// A para or list item: its inline text, with any nested lists after it.
    private mutating func block(_ node: MarkupNode, kind: BlockKind, role: String?, level: Int? = nil) {
        emit(kind, inline(node, stopAtLists: true), level: level)
        for list in node.all(where: { $0.name == "list" && $0.pointer != node.pointer }) {
            for item in list.children("item") { emit(kind == .objective ? .objective : .listItem, inline(item, stopAtLists: true), level: 2) }
        }
    }

    private mutating func exercise(_ node: MarkupNode) {
        let problem = node.child("problem").map { inline($0) } ?? ""
        let solution = node.children("solution").map { inline($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        var attributes: [String: String] = [:]
        if let id = node.id { attributes["id"] = id }
        let embed = node.first { $0.name == "link" && $0.hasClass("os-embed") }?.attribute("url")
        if let embed { attributes["embed"] = embed }
        if !solution.isEmpty { attributes["solution"] = solution }
        var text = problem
        if !solution.isEmpty { text += " Answer: " + solution }
        text = TextCleanup.collapseWhitespace(text)
        if text.isEmpty, embed != nil {
            // OpenStax keeps some questions in its exercise bank and the module only links them:
            // the exercise is kept (its link in `embed`) with no text, so it is never a passage.
            attributes["module"] = moduleID
            blocks.append(Block(kind: .exercise, text: "", sectionPath: path, attributes: attributes))
            return
        }
        emit(.exercise, text, attributes: attributes)
    }

    /// CALS tables: rows of entries, joined with " | ", one row a line.
    private mutating func table(_ node: MarkupNode) {
        if let title = node.child("title") { emit(.caption, inline(title)) }
        let rows = node.all { $0.name == "row" }.map { row in
            row.children("entry").map { inline($0) }.joined(separator: " | ")
        }.filter { !$0.trimmingCharacters(in: CharacterSet(charactersIn: " |")).isEmpty }
        if !rows.isEmpty {
            var attributes = ["module": moduleID]
            if let references = takeReferences() { attributes[CrossReference.attribute] = references }
            blocks.append(Block(kind: .table, text: rows.joined(separator: "\n"), sectionPath: path, attributes: attributes))
        }
        if let caption = node.child("caption") { emit(.caption, inline(caption)) }
    }

    /// Plain text of inline content; emphasised terms are remembered as key terms.
    private mutating func inline(_ node: MarkupNode?, stopAtLists: Bool = false) -> String {
        guard let node else { return "" }
        var out = ""
        var terms: [String] = []
        var found: [CrossReference] = []
        func gather(_ node: MarkupNode) {
            for child in node.children {
                if let characters = child.characters {
                    out += characters
                } else if child.isElement {
                    switch child.name {
                    case "list" where stopAtLists, "footnote", "media", "metadata":
                        continue
                    case "newline":
                        out += " "
                    case "link":
                        // Another module of the book: the author's cross-reference (a link inside
                        // this module, to a figure or table, names no document).
                        if let target = child.attribute("document"), !target.isEmpty, target != moduleID {
                            let text = TextCleanup.collapseWhitespace(child.text)
                            if !text.isEmpty { found.append(CrossReference(target: target, text: text)) }
                        }
                        gather(child)
                    case "term":
                        let term = TextCleanup.collapseWhitespace(child.text)
                        if !child.hasClass("no-emphasis"), !term.isEmpty { terms.append(term) }
                        gather(child)
                    case "item", "para", "title", "entry", "problem", "solution", "caption":
                        out += " "
                        gather(child)
                        out += " "
                    default:
                        gather(child)
                    }
                }
            }
        }
        gather(node)
        references += found
        let text = TextCleanup.collapseWhitespace(out)
        if !terms.isEmpty {
            let sentences = SentenceSplitter.split(text).map(\.text)
            for term in terms {
                keyTerms.append((term, sentences.first { $0.contains(term) } ?? ""))
            }
        }
        return text
    }
}
