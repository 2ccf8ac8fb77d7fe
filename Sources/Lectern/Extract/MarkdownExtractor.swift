import Foundation

/// CommonMark-style Markdown: ATX and setext headings, paragraphs, list items, block quotes,
/// fenced and indented code, pipe tables, and YAML front matter (its `title` wins).
public struct MarkdownExtractor: Extractor {
    public let name = "markdown"
    public let version = 1  // UTF-8 text reads as before; Windows-1252 text, refused before, needs no new version

    public init() {}

    public func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, !TextDecoding.looksBinary(input.data) else { return 0 }
        let head = String(decoding: input.data.prefix(16384), as: UTF8.self)
        var score = 0
        for line in head.split(separator: "\n", omittingEmptySubsequences: true).prefix(400) {
            if Self.atxHeading(line) != nil { score += 3 }
            if line.hasPrefix("```") || line.hasPrefix("~~~") { score += 3 }
            if line.hasPrefix("- ") || line.hasPrefix("* ") { score += 1 }
            if line.contains("](") { score += 1 }
            if line.hasPrefix("===") || line.hasPrefix("---") { score += 1 }
        }
        let extensionHint = ["md", "markdown", "mdown", "mkd"].contains(input.fileExtension) ? 20 : 0
        if score >= 3 { return 50 + extensionHint }
        return extensionHint > 0 ? 30 : 0
    }

    public func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var parser = Parser(text: decoded.text)
        parser.run()
        let firstHeading = parser.blocks.first { $0.kind == .heading && $0.level == 1 }?.text
        let title = parser.frontMatter["title"] ?? firstHeading ?? TextCleanup.titleFromPath(input.displayName)
        var metadata = parser.frontMatter
        metadata.removeValue(forKey: "title")
        return ExtractedDocument(type: "markdown", title: title, blocks: parser.blocks, metadata: metadata,
                                 warnings: decoded.warning.map { [$0] } ?? [])
    }

    /// `## Heading ##` → (2, "Heading").
    static func atxHeading<S: StringProtocol>(_ line: S) -> (Int, String)? {
        let trimmed = line.drop { $0 == " " }
        guard line.count - trimmed.count < 4 else { return nil }
        let hashes = trimmed.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = trimmed.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("#") { text.removeLast() }
        return (hashes, text.trimmingCharacters(in: .whitespaces))
    }

    struct Parser {
        let lines: [Substring]
        var lineOffsets: [Int] = []
        var blocks: [Block] = []
        var frontMatter: [String: String] = [:]
        var sections = SectionTracker()

        init(text: String) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var offset = 0
            for line in lines {
                lineOffsets.append(offset)
                offset += line.count + 1
            }
        }

        mutating func emit(_ kind: BlockKind, _ raw: String, line: Int, level: Int? = nil) {
            let text = kind == .code ? raw : TextCleanup.collapseWhitespace(Inline.plain(raw))
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
            if kind == .heading {
                sections.open(level: level ?? 1, title: text)
            }
            blocks.append(Block(kind: kind, text: text, level: level, sectionPath: sections.path, offset: lineOffsets[line]))
        }

        mutating func run() {
            var i = 0
            if lines.first?.trimmingCharacters(in: .whitespaces) == "---" {
                if let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" || $0 == "..." }) {
                    for line in lines[1..<end] {
                        if let colon = line.firstIndex(of: ":") {
                            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                            if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f {
                                value = String(value.dropFirst().dropLast())
                            }
                            if !key.isEmpty && !value.isEmpty { frontMatter[key] = value }
                        }
                    }
                    i = end + 1
                }
            }
            var paragraph: [Substring] = []
            var paragraphLine = 0
            func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

            while i < lines.count {
                let line = lines[i]
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                // Setext heading: a paragraph line underlined with === or ---.
                if !paragraph.isEmpty, !trimmed.isEmpty,
                   trimmed.allSatisfy({ $0 == "=" }) || (trimmed.allSatisfy({ $0 == "-" }) && trimmed.count >= 2) {
                    let text = paragraph.joined(separator: " ")
                    paragraph.removeAll()
                    emit(.heading, text, line: paragraphLine, level: trimmed.first == "=" ? 1 : 2)
                    i += 1
                    continue
                }
                if isBlank(line) {
                    flushParagraph(&paragraph, paragraphLine)
                    i += 1
                    continue
                }
                if let (level, text) = MarkdownExtractor.atxHeading(line) {
                    flushParagraph(&paragraph, paragraphLine)
                    emit(.heading, text, line: i, level: level)
                    i += 1
                    continue
                }
                if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                    flushParagraph(&paragraph, paragraphLine)
                    let fence = String(trimmed.prefix(3))
                    let start = i
                    var body: [Substring] = []
                    i += 1
                    while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).hasPrefix(fence) {
                        body.append(lines[i])
                        i += 1
                    }
                    i += 1
                    emit(.code, body.joined(separator: "\n"), line: start)
                    continue
                }
                if paragraph.isEmpty, line.hasPrefix("    ") || line.hasPrefix("\t") {
                    let start = i
                    var body: [Substring] = []
                    while i < lines.count, lines[i].hasPrefix("    ") || lines[i].hasPrefix("\t") || isBlank(lines[i]) {
                        body.append(lines[i].hasPrefix("\t") ? lines[i].dropFirst() : lines[i].dropFirst(min(4, lines[i].count)))
                        i += 1
                    }
                    emit(.code, body.joined(separator: "\n").trimmingCharacters(in: .newlines), line: start)
                    continue
                }
                if trimmed.hasPrefix(">") {
                    flushParagraph(&paragraph, paragraphLine)
                    let start = i
                    var body: [String] = []
                    while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix(">") {
                        body.append(String(lines[i].trimmingCharacters(in: .whitespaces).dropFirst()))
                        i += 1
                    }
                    emit(.quote, body.joined(separator: " "), line: start)
                    continue
                }
                if trimmed.hasPrefix("|") {
                    flushParagraph(&paragraph, paragraphLine)
                    let start = i
                    var rows: [String] = []
                    while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("|") {
                        let row = lines[i].trimmingCharacters(in: .whitespaces)
                        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                        if !cells.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) {
                            rows.append(cells.map { Inline.plain($0) }.joined(separator: " | "))
                        }
                        i += 1
                    }
                    blocks.append(Block(kind: .table, text: rows.joined(separator: "\n"), sectionPath: sections.path, offset: lineOffsets[start]))
                    continue
                }
                if let (depth, content) = Self.listItem(line) {
                    flushParagraph(&paragraph, paragraphLine)
                    let start = i
                    var body = [content]
                    i += 1
                    // Lazy continuation lines belong to the item.
                    while i < lines.count, !isBlank(lines[i]), Self.listItem(lines[i]) == nil,
                          MarkdownExtractor.atxHeading(lines[i]) == nil,
                          !lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                        body.append(lines[i].trimmingCharacters(in: .whitespaces))
                        i += 1
                    }
                    emit(.listItem, body.joined(separator: " "), line: start, level: depth + 1)
                    continue
                }
                if paragraph.isEmpty { paragraphLine = i }
                paragraph.append(line)
                i += 1
            }
            flushParagraph(&paragraph, paragraphLine)
        }

        mutating func flushParagraph(_ paragraph: inout [Substring], _ line: Int) {
            guard !paragraph.isEmpty else { return }
            let text = paragraph.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            paragraph.removeAll()
            emit(.paragraph, text, line: line)
        }

        /// `  - item` → (1, "item"); `3. item` → (0, "item").
        static func listItem(_ line: Substring) -> (Int, String)? {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            if let first = rest.first, "-*+".contains(first), rest.dropFirst().first == " " {
                let body = rest.dropFirst(2)
                if first != "-" || !body.allSatisfy({ $0 == "-" || $0 == " " }) {
                    return (indent / 2, String(body))
                }
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.count <= 9 {
                let after = rest.dropFirst(digits.count)
                if let mark = after.first, mark == "." || mark == ")", after.dropFirst().first == " " {
                    return (indent / 2, String(after.dropFirst(2)))
                }
            }
            return nil
        }
    }

    /// Inline Markdown to plain text: emphasis, code spans, links, images, HTML tags.
    enum Inline {
        static func plain(_ text: String) -> String {
            var s = text
            // Images and links keep their text: ![alt](src) → alt, [text](url) → text.
            s = replace(s, #"!\[([^\]]*)\]\([^)]*\)"#, "$1")
            s = replace(s, #"\[([^\]]+)\]\([^)]*\)"#, "$1")
            s = replace(s, #"\[([^\]]+)\]\[[^\]]*\]"#, "$1")
            s = replace(s, #"<[A-Za-z/][^>]*>"#, "")
            s = replace(s, #"`([^`]*)`"#, "$1")
            s = replace(s, #"(\*\*|__)(.+?)\1"#, "$2")
            s = replace(s, #"(?<![\w*])[*_]([^*_\s][^*_]*?)[*_](?![\w*])"#, "$1")
            s = replace(s, #"~~(.+?)~~"#, "$1")
            s = s.replacingOccurrences(of: "\\", with: "")
            return s
        }

        private static func replace(_ s: String, _ pattern: String, _ template: String) -> String {
            guard s.contains(where: { "![<`*_~".contains($0) }) else { return s }
            return s.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
    }
}
