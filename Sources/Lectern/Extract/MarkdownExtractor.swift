import Foundation

/// CommonMark-style Markdown: ATX and setext headings, paragraphs, list items, block quotes,
/// fenced and indented code, pipe tables, and YAML front matter (its `title` wins).
struct MarkdownExtractor: Extractor {
    let name = "markdown"
    let version = 2  // 2: code spans and fences kept verbatim (Windows-1252 text, refused before, needed no new version)

    init() {}

    func confidence(for input: SourceInput) -> Int {
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

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
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

        /// Where a line opens a block other than a paragraph line.
        enum BlockStart {
            case heading(level: Int, text: String)
            case fence(mark: Character, length: Int)
            case indentedCode
            case quote
            case table
            case listItem(depth: Int, content: String)
        }

        mutating func run() {
            var i = readFrontMatter()
            var paragraph: [Substring] = []
            var paragraphLine = 0
            while i < lines.count {
                let line = lines[i]
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !paragraph.isEmpty, let level = Self.setextLevel(trimmed) {
                    // Setext heading: a paragraph line underlined with === or ---.
                    let text = paragraph.joined(separator: " ")
                    paragraph.removeAll()
                    emit(.heading, text, line: paragraphLine, level: level)
                    i += 1
                } else if Self.isBlank(line) {
                    flushParagraph(&paragraph, paragraphLine)
                    i += 1
                } else if let start = Self.blockStart(line, trimmed: trimmed, inParagraph: !paragraph.isEmpty) {
                    flushParagraph(&paragraph, paragraphLine)
                    i = read(start, from: i)
                } else {
                    if paragraph.isEmpty { paragraphLine = i }
                    paragraph.append(line)
                    i += 1
                }
            }
            flushParagraph(&paragraph, paragraphLine)
        }

        /// Reads a `---` front matter block's `key: value` lines; returns the first line after it.
        mutating func readFrontMatter() -> Int {
            guard lines.first?.trimmingCharacters(in: .whitespaces) == "---",
                  let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" || $0 == "..." }) else {
                return 0
            }
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
            return end + 1
        }

        static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

        /// The heading level a line of `===` (1) or `---` (2) gives the paragraph above it.
        static func setextLevel(_ trimmed: String) -> Int? {
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0 == "=" }) || (trimmed.allSatisfy({ $0 == "-" }) && trimmed.count >= 2) else {
                return nil
            }
            return trimmed.first == "=" ? 1 : 2
        }

        /// The block `line` opens, in the order the forms are tried; indented code only where no
        /// paragraph runs on (there, an indented line continues the paragraph).
        static func blockStart(_ line: Substring, trimmed: String, inParagraph: Bool) -> BlockStart? {
            if let (level, text) = MarkdownExtractor.atxHeading(line) { return .heading(level: level, text: text) }
            if let fence = openingFence(trimmed) { return .fence(mark: fence.mark, length: fence.length) }
            if !inParagraph, line.hasPrefix("    ") || line.hasPrefix("\t") { return .indentedCode }
            if trimmed.hasPrefix(">") { return .quote }
            if trimmed.hasPrefix("|") { return .table }
            if let (depth, content) = listItem(line) { return .listItem(depth: depth, content: content) }
            return nil
        }

        /// Reads the block opening at line `start`; returns the first line after it.
        mutating func read(_ block: BlockStart, from start: Int) -> Int {
            switch block {
            case .heading(let level, let text):
                emit(.heading, text, line: start, level: level)
                return start + 1
            case .fence(let mark, let length):
                return readFencedCode(from: start, fence: (mark, length))
            case .indentedCode:
                return readIndentedCode(from: start)
            case .quote:
                return readQuote(from: start)
            case .table:
                return readTable(from: start)
            case .listItem(let depth, let content):
                return readListItem(from: start, depth: depth, content: content)
            }
        }

        mutating func readFencedCode(from start: Int, fence: (mark: Character, length: Int)) -> Int {
            var i = start + 1
            var body: [Substring] = []
            // Only a run of the same mark, at least as long and with nothing after it,
            // closes the block: a shorter fence inside is code like the rest.
            while i < lines.count, !Self.closes(lines[i], fence: fence) {
                body.append(lines[i])
                i += 1
            }
            emit(.code, body.joined(separator: "\n"), line: start)
            return i + 1
        }

        mutating func readIndentedCode(from start: Int) -> Int {
            var i = start
            var body: [Substring] = []
            while i < lines.count, lines[i].hasPrefix("    ") || lines[i].hasPrefix("\t") || Self.isBlank(lines[i]) {
                body.append(lines[i].hasPrefix("\t") ? lines[i].dropFirst() : lines[i].dropFirst(min(4, lines[i].count)))
                i += 1
            }
            emit(.code, body.joined(separator: "\n").trimmingCharacters(in: .newlines), line: start)
            return i
        }

        mutating func readQuote(from start: Int) -> Int {
            var i = start
            var body: [String] = []
            while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix(">") {
                body.append(String(lines[i].trimmingCharacters(in: .whitespaces).dropFirst()))
                i += 1
            }
            emit(.quote, body.joined(separator: " "), line: start)
            return i
        }

        /// A pipe table: one line of text a row, cells joined by ` | `, the rule line left out.
        mutating func readTable(from start: Int) -> Int {
            var i = start
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
            return i
        }

        mutating func readListItem(from start: Int, depth: Int, content: String) -> Int {
            var i = start + 1
            var body = [content]
            // Lazy continuation lines belong to the item.
            while i < lines.count, !Self.isBlank(lines[i]), Self.listItem(lines[i]) == nil,
                  MarkdownExtractor.atxHeading(lines[i]) == nil,
                  !lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[i].trimmingCharacters(in: .whitespaces))
                i += 1
            }
            emit(.listItem, body.joined(separator: " "), line: start, level: depth + 1)
            return i
        }

        mutating func flushParagraph(_ paragraph: inout [Substring], _ line: Int) {
            guard !paragraph.isEmpty else { return }
            let text = paragraph.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            paragraph.removeAll()
            emit(.paragraph, text, line: line)
        }

        /// "```swift" → ("`", 3); "~~~~" → ("~", 4); a backtick fence's info string has no backtick.
        static func openingFence(_ trimmed: String) -> (mark: Character, length: Int)? {
            guard let mark = trimmed.first, mark == "`" || mark == "~" else { return nil }
            let length = trimmed.prefix { $0 == mark }.count
            guard length >= 3 else { return nil }
            if mark == "`", trimmed.dropFirst(length).contains("`") { return nil }
            return (mark, length)
        }

        static func closes(_ line: Substring, fence: (mark: Character, length: Int)) -> Bool {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.count >= fence.length && trimmed.allSatisfy { $0 == fence.mark }
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

    /// Inline Markdown to plain text: emphasis, code spans, links, images, HTML tags. A code
    /// span is text as written, whatever it holds (`<div>`, `**`, `\n`).
    enum Inline {
        static func plain(_ text: String) -> String {
            // Code spans are set aside while the markup around them is read (a link's text may
            // be code), then put back as written.
            var spans: [String] = []
            var masked = ""
            var rest = Substring(text)
            while let (before, code, after) = codeSpan(in: rest) {
                masked += before + placeholder(spans.count)
                spans.append(code)
                rest = after
            }
            masked += rest
            var s = markup(masked)
            for (index, code) in spans.enumerated() {
                s = s.replacingOccurrences(of: placeholder(index), with: code)
            }
            return s
        }

        /// Private-use characters that no markup rule touches.
        private static func placeholder(_ index: Int) -> String { "\u{E000}\(index)\u{E001}" }

        /// The first code span: a run of backticks, its content, and the next run of the same
        /// length (CommonMark); one space on each side of the content is padding.
        static func codeSpan(in text: Substring) -> (Substring, String, Substring)? {
            var search = text.startIndex
            while let open = text[search...].firstIndex(of: "`") {
                let ticks = text[open...].prefix { $0 == "`" }
                var cursor = ticks.endIndex
                while let close = text[cursor...].firstIndex(of: "`") {
                    let run = text[close...].prefix { $0 == "`" }
                    if run.count == ticks.count {
                        var code = String(text[ticks.endIndex..<close])
                        if code.count >= 2, code.first == " ", code.last == " ", code.contains(where: { $0 != " " }) {
                            code = String(code.dropFirst().dropLast())
                        }
                        return (text[..<open], code, text[run.endIndex...])
                    }
                    cursor = run.endIndex
                }
                // No closing run of that length: the backticks are literal text.
                search = ticks.endIndex
            }
            return nil
        }

        /// Markup outside code spans.
        static func markup(_ text: String) -> String {
            var s = text
            // Images and links keep their text: ![alt](src) → alt, [text](url) → text.
            s = replace(s, #"!\[([^\]]*)\]\([^)]*\)"#, "$1")
            s = replace(s, #"\[([^\]]+)\]\([^)]*\)"#, "$1")
            s = replace(s, #"\[([^\]]+)\]\[[^\]]*\]"#, "$1")
            s = replace(s, #"<[A-Za-z/][^>]*>"#, "")
            s = replace(s, #"(\*\*|__)(.+?)\1"#, "$2")
            s = replace(s, #"(?<![\w*])[*_]([^*_\s][^*_]*?)[*_](?![\w*])"#, "$1")
            s = replace(s, #"~~(.+?)~~"#, "$1")
            s = s.replacingOccurrences(of: "\\", with: "")
            return s
        }

        private static func replace(_ s: String, _ pattern: String, _ template: String) -> String {
            // Most prose holds none of the characters a rule starts with: its bytes are looked at
            // (not its characters, which cost a grapheme break each, most of an ingest of notes).
            guard s.utf8.contains(where: { byte in
                switch byte {
                case UInt8(ascii: "!"), UInt8(ascii: "["), UInt8(ascii: "<"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"),
                     UInt8(ascii: "~"): true
                default: false
                }
            }) else { return s }
            return s.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
    }
}
