import Foundation

/// Plain text: paragraphs separated by blank lines. The reader of last resort for any text.
struct PlainTextExtractor: Extractor {
    let name = "text"
    let version = 1  // UTF-8 text reads as before; Windows-1252 text, refused before, needs no new version

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard !input.isDirectory, !input.data.isEmpty, !TextDecoding.looksBinary(input.data) else { return 0 }
        return 10
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let decoded = TextDecoding.decodeLines(input.data, encoding: input.options.encoding)
        var blocks: [Block] = []
        var paragraph: [Substring] = []
        var paragraphStart = 0
        var offset = 0
        func flush() {
            let text = paragraph.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if !text.isEmpty {
                blocks.append(Block(kind: .paragraph, text: TextCleanup.collapseWhitespace(text), offset: paragraphStart))
            }
            paragraph.removeAll()
        }
        for line in decoded.text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                flush()
            } else {
                if paragraph.isEmpty { paragraphStart = offset }
                paragraph.append(line)
            }
            offset += line.count + 1
        }
        flush()
        let fallback = TextCleanup.titleFromPath(input.displayName)
        let title = blocks.first.map { TextCleanup.firstLineTitle($0.text) } ?? fallback
        return ExtractedDocument(type: "text", title: title.isEmpty ? fallback : title, blocks: blocks,
                                 warnings: decoded.warning.map { [$0] } ?? [])
    }
}
