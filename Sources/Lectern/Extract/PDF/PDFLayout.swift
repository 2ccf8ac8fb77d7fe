import Foundation

/// Turns the lines of every page into typed blocks: furniture (repeating headers, footers,
/// page numbers) set aside, lines grouped into whole paragraphs, headings ranked by font size
/// and weight, list items and captions recognised, words hyphenated across lines re-joined, and
/// the section tree taken from the outline when the file has one.
struct PDFLayout {
    struct PageInfo {
        var width: Double
        var height: Double
        /// The page's own name where it differs from its number (`iii`, a slide's frame number).
        var label: String? = nil
    }

    var pages: [PageInfo]
    var lines: [PDFLine]
    var outline: [PDFOutlineEntry]

    /// A paragraph being built, with the geometry classification needs.
    struct Paragraph {
        var lines: [PDFLine]
        var kind: BlockKind = .paragraph
        var level: Int?
        var text = ""
        var page: Int { lines[0].page }
        var y1: Double { lines[0].y1 }
        var fontSize: Double { lines.map(\.fontSize).max() ?? 0 }
        var bold: Bool { lines.allSatisfy(\.bold) }
        var wordCount: Int { text.split(separator: " ").count }
    }

    struct Result {
        var blocks: [Block]
        var furniture: [String]
        var isSlides: Bool
        var largestFirstPageText: String?
    }

    func run() -> Result {
        let furniture = separateFurniture()
        let bodySize = Self.bodyFontSize(furniture.body)
        let lexicon = Self.lexicon(furniture.body)
        let isSlides = pages.count >= 2 && pages.allSatisfy { $0.width > $0.height * 1.15 }
        var paragraphs = self.paragraphs(furniture.body, bodySize: bodySize, lexicon: lexicon, slides: isSlides)
        let openAtStart = structure(&paragraphs, bodySize: bodySize, slides: isSlides)
        let blocks = self.blocks(paragraphs, furniture: furniture.blocks, openAtStart: openAtStart)
        let firstPage = paragraphs.filter { $0.page == 1 && !$0.kind.isFurniture && $0.kind != .table }
        // The largest text on page 1, when it is larger than the body text.
        let largest = firstPage.filter { $0.fontSize > bodySize + 0.6 }.max { $0.fontSize < $1.fontSize }
        return Result(blocks: blocks, furniture: furniture.texts, isSlides: isSlides,
                      largestFirstPageText: largest.map { TextCleanup.firstLineTitle($0.text) })
    }

    /// The body's paragraphs in reading order, their text joined and their breaks across lines,
    /// pages and section numbers mended.
    func paragraphs(_ bodyLines: [PDFLine], bodySize: Double, lexicon: Set<String>, slides isSlides: Bool) -> [Paragraph] {
        var paragraphs = readingOrder(pageParagraphs(bodyLines, bodySize: bodySize, slides: isSlides))
        for index in paragraphs.indices where paragraphs[index].kind == .paragraph {
            paragraphs[index].text = Self.join(paragraphs[index].lines, lexicon: lexicon)
        }
        paragraphs.removeAll { $0.text.isEmpty }
        joinContinuations(&paragraphs, lexicon: lexicon)
        finishSentencesAcrossPages(&paragraphs, lexicon: lexicon)
        mergeSectionNumbers(&paragraphs)
        // Nothing to read: a lone mark (a decoration's dot, a bullet no text stands beside).
        paragraphs.removeAll { $0.text.count <= 2 && !$0.text.contains { $0.isLetter || $0.isNumber } }
        return paragraphs
    }

    /// Kinds and heading levels (from the outline when the file has one, else from the type), and
    /// the slides' titles and overlays; returns the outline's sections open where the text starts.
    func structure(_ paragraphs: inout [Paragraph], bodySize: Double, slides isSlides: Bool) -> [PDFOutlineEntry] {
        classify(&paragraphs, bodySize: bodySize)
        markFigureLabels(&paragraphs)
        if isSlides { markSlideTitles(&paragraphs, bodySize: bodySize) }
        var openAtStart: [PDFOutlineEntry] = []
        var outlineDepth = 0
        if !outline.isEmpty, let used = applyOutline(&paragraphs, keepDetected: isSlides) {
            openAtStart = used
            outlineDepth = outline.map(\.level).max() ?? 0
        }
        rankHeadings(&paragraphs, below: outlineDepth)
        if isSlides {
            foldOverlays(&paragraphs)
            giveBarePagesText(&paragraphs)
        }
        return openAtStart
    }

    /// The blocks: section paths, and furniture blocks placed at the start of their pages.
    func blocks(_ paragraphs: [Paragraph], furniture furnitureBlocks: [Int: [Block]], openAtStart: [PDFOutlineEntry]) -> [Block] {
        var blocks: [Block] = []
        var tracker = SectionTracker()
        // A page cut from a longer work starts inside a section its outline names.
        for entry in openAtStart { tracker.open(level: entry.level, title: entry.title) }
        var pageDone = Set<Int>()
        for paragraph in paragraphs {
            if pageDone.insert(paragraph.page).inserted, let extra = furnitureBlocks[paragraph.page] {
                blocks += extra.map { var b = $0; b.sectionPath = tracker.path; b.pageLabel = pages[paragraph.page - 1].label; return b }
            }
            // The title names the document; the outline (or the headings) is its section tree.
            if paragraph.kind == .heading {
                tracker.open(level: paragraph.level ?? 1, title: paragraph.text)
            }
            var attributes: [String: String] = [:]
            attributes["font_size"] = String(format: "%.1f", paragraph.fontSize)
            if paragraph.bold { attributes["bold"] = "true" }
            Self.markOCR(paragraph.lines, in: &attributes)
            blocks.append(Block(kind: paragraph.kind, text: paragraph.text, level: paragraph.level,
                                sectionPath: tracker.path, page: paragraph.page, attributes: attributes,
                                pageLabel: pages[paragraph.page - 1].label))
        }
        return blocks
    }

    /// A block read by OCR says so, with Tesseract's mean word confidence over its lines.
    static func markOCR(_ lines: [PDFLine], in attributes: inout [String: String]) {
        let read = lines.compactMap(\.ocrConfidence)
        guard !read.isEmpty else { return }
        attributes["ocr"] = "tesseract"
        attributes["ocr_confidence"] = String(format: "%.1f", read.reduce(0, +) / Double(read.count))
    }
}
