import XCTest
@testable import Lectern

/// PDF structure that is true to the page (issue 15, item 3): outline entries used only where
/// their text is on the page, page labels, contents pages, page numbers of every kind, overlay
/// slides, titles, tables as rows and figure labels, on the shared real PDFs.
final class PDFStructureTests: XCTestCase {
    func shared(_ name: String) throws -> URL { try TestPaths.sharedCorpus("pdf/" + name) }

    func extract(_ url: URL, password: String? = nil) throws -> ExtractedDocument {
        let input = SourceInput(uri: url.absoluteString, path: url.path, data: try Data(contentsOf: url),
                                options: ExtractOptions(password: password))
        return try PDFExtractor().extract(input)
    }

    func body(_ document: ExtractedDocument) -> [Block] { document.blocks.filter { !$0.kind.isFurniture } }

    /// The EU table of pypdf-multicolumn (page 3) is set in five columns, which poppler reads one
    /// after another ("Austria Belgium Czech Republic …" then "8.9 11.5 10.7 …"). It comes out as
    /// rows, and a keyword question about one country's value finds that country's row.
    func testATableComesOutAsRowsAndAQuestionAboutACellFindsItsRow() throws {
        let url = try shared("pypdf-multicolumn.pdf")
        let rows = try extract(url).blocks.filter { $0.kind == .table }.map(\.text)
        XCTAssertEqual(rows, [
            "Country | Population (millions) | Area (km2 ) | Capital | Official Language",
            "Austria | 8.9 | 83,879 | Vienna | German",
            "Belgium | 11.5 | 30,689 | Brussels | Dutch, French, German",
            "Czech Republic | 10.7 | 78,866 | Prague | Czech",
            "Denmark | 5.8 | 42,951 | Copenhagen | Danish",
            "Finland | 5.5 | 338,424 | Helsinki | Finnish, Swedish",
        ])
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", url.path], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let search = try runLectern(["search", "What is the population of Belgium?", "--mode", "keyword", "-k", "1", "--json"], in: folder.url)
        XCTAssertEqual(search.status, 0, search.stderr)
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(search.stdout.utf8)).first, search.stdout)
        XCTAssertTrue(hit.text.contains("Belgium | 11.5 | 30,689 | Brussels | Dutch, French, German"), hit.text)
        XCTAssertEqual(hit.kind, .table)
        XCTAssertEqual(hit.pageStart, 3)
        // The paper page's results table: each configuration's scores on one line.
        let paper = try extract(try shared("docling-2305.03393v1-pg9.pdf")).blocks.filter { $0.kind == .table }.map(\.text)
        XCTAssertTrue(paper.contains("6 6 | OTSL | 0.965 0.934 | 0.955 0.88 | 2.73"), "\(paper)")
        // Lists set side by side on a slide are not a table.
        let slides = try extract(try shared("docling-odf_presentation_01.odp.pdf"))
        XCTAssertFalse(slides.blocks.contains { $0.kind == .table }, "\(slides.blocks.filter { $0.kind == .table }.map(\.text))")
    }

    /// docling-2206.01062_pg3 is page 3 of the DocLayNet paper, cut out with the whole paper's
    /// outline (Abstract, 1 Introduction … 6 Conclusion, References), all pointing at this page.
    /// Only "4 Annotation Campaign" is on it; the text before it goes on from section 3.
    func testACutOutPaperPageIsFiledUnderItsRealSection() throws {
        let page = try extract(try shared("docling-2206.01062_pg3.pdf"), password: "1234")
        XCTAssertEqual(page.blocks.filter { $0.kind == .heading }.map(\.text), ["4 Annotation Campaign"])
        func section(_ start: String) throws -> [String] {
            try XCTUnwrap(page.blocks.first { $0.text.hasPrefix(start) }, start).sectionPath
        }
        XCTAssertEqual(try section("The pages in DocLayNet can be grouped into six distinct categories"), ["3 The DocLayNet Dataset"])
        XCTAssertEqual(try section("We did not control the document selection"), ["3 The DocLayNet Dataset"])
        XCTAssertEqual(try section("The annotation campaign was carried out in four phases"), ["4 Annotation Campaign"])
        XCTAssertFalse(page.blocks.contains { $0.sectionPath.contains("Abstract") || $0.sectionPath.contains("References") })
        // "Table 1 shows …" is a sentence of the text, not the table's caption.
        let tableSentence = try XCTUnwrap(page.blocks.first { $0.text.hasPrefix("Table 1 shows the overall frequency") })
        XCTAssertEqual(tableSentence.kind, .paragraph)
        // The paper page pg9's one outline entry is the paper's title, on the page only as its
        // running head: no section.
        let pg9 = try extract(try shared("docling-2305.03393v1-pg9.pdf"))
        XCTAssertFalse(pg9.blocks.contains { $0.kind == .heading }, "\(pg9.blocks.filter { $0.kind == .heading }.map(\.text))")
        XCTAssertTrue(pg9.blocks.allSatisfy { $0.sectionPath.isEmpty })
    }

    /// GeoTopo numbers its front matter i–iii and its body from 1 on page 4 (its /PageLabels);
    /// each block keeps the physical page and the page's own label; the roman page number is page
    /// furniture; passages carry the label; `extract --json` shows both.
    func testPageLabelsArePrintedNumbersAndThePhysicalPageIsKept() throws {
        let url = try shared("pypdf-GeoTopo-komprimiert.pdf")
        let book = try extract(url)
        let roman = try XCTUnwrap(book.blocks.first { $0.page == 3 && $0.text == "iii" })
        XCTAssertTrue(roman.kind == .pageHeader || roman.kind == .pageFooter, "\(roman.kind)")
        XCTAssertTrue(book.blocks.filter { $0.page == 3 }.allSatisfy { $0.pageLabel == "iii" })
        let definition = try XCTUnwrap(book.blocks.first { $0.text.hasPrefix("Definition 1 Ein topologischer Raum ist ein Paar") })
        XCTAssertEqual(definition.page, 6)
        XCTAssertEqual(definition.pageLabel, "3")
        let passages = Chunker().chunk(book.blocks)
        let passage = try XCTUnwrap(passages.first { $0.text.contains("Ein topologischer Raum ist ein Paar") })
        XCTAssertEqual(passage.pageStart, 6)
        XCTAssertEqual(passage.pageLabel, "3")
        XCTAssertFalse(passages.contains { $0.text == "iii" || $0.text.hasPrefix("iii ") })
        let folder = try TemporaryFolder()
        let shown = try runLectern(["extract", "--json", url.path], in: folder.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains(#""page" : 6,"#) || shown.stdout.contains(#""page":6"#), String(shown.stdout.prefix(400)))
        let json = try JSONDecoder().decode(ExtractedDocument.self, from: Data(shown.stdout.utf8))
        XCTAssertEqual(json.blocks.first { $0.text.hasPrefix("Definition 1 Ein topologischer Raum") }?.pageLabel, "3")
        // A PDF without labels: no label anywhere (the page number says it all).
        let plain = try extract(TestPaths.corpora.appendingPathComponent("pdf/cell-biology-notes.pdf"))
        XCTAssertTrue(plain.blocks.allSatisfy { $0.pageLabel == nil })
    }

    /// Slide numbers are page furniture wherever they stand, also where beamer's frame numbers
    /// fall behind the page count (after an overlay frame, slide 19 is numbered 16).
    func testSlideNumbersArePageFurniture() throws {
        let slides = try extract(try shared("mtheme-demo-slides.pdf"))
        for (page, number) in [(4, "4"), (5, "5"), (9, "9"), (19, "16"), (31, "28")] {
            let block = try XCTUnwrap(slides.blocks.first { $0.page == page && $0.text == number }, "slide \(page)")
            XCTAssertEqual(block.kind, .pageFooter, "slide \(page)")
        }
        XCTAssertEqual(slides.blocks.first { $0.page == 19 }?.pageLabel, "16")
        XCTAssertFalse(Chunker().chunk(slides.blocks).contains { $0.text.hasSuffix("\n\n4") || $0.text == "4" })
    }

    /// GeoTopo's contents fill pages 4–5 ("Inhaltsverzeichnis", then "Stichwortverzeichnis 111"
    /// alone on page 5); pdflatex-outline's fill page 1 under "Contents"; the beamer demo has a
    /// "Table of contents" slide. Their entries are kept as such and stay out of passages.
    func testAContentsPageIsRecognisedAndLeftOutOfPassages() throws {
        let book = try extract(try shared("pypdf-GeoTopo-komprimiert.pdf"))
        let entries = book.blocks.filter { $0.kind == .contentsEntry }
        XCTAssertEqual(Set(entries.compactMap(\.page)), [4, 5])
        XCTAssertTrue(entries.map(\.text).contains("1.1 Topologische Räume 2"), "\(entries.map(\.text))")
        XCTAssertTrue(entries.map(\.text).contains("Stichwortverzeichnis 111"))
        let passages = Chunker().chunk(book.blocks)
        XCTAssertFalse(passages.contains { $0.pageStart == 4 || $0.pageStart == 5 }, "\(passages.filter { $0.pageStart == 4 }.map(\.text))")
        let outlineDocument = try extract(try shared("pypdf-pdflatex-outline.pdf"))
        XCTAssertEqual(outlineDocument.blocks.filter { $0.page == 1 && !$0.kind.isFurniture }.map(\.kind), [])
        XCTAssertEqual(outlineDocument.blocks.filter { $0.kind == .contentsEntry }.map(\.text).prefix(3), ["Contents", "1 Foo 2", "2 Bar 2"])
        XCTAssertFalse(Chunker().chunk(outlineDocument.blocks).contains { $0.pageStart == 1 })
        let slides = try extract(try shared("mtheme-demo-slides.pdf"))
        XCTAssertEqual(slides.blocks.filter { $0.kind == .contentsEntry }.map(\.text),
                       ["Table of contents", "1. Introduction", "2. Titleformats", "3. Elements", "4. Conclusion"])
        // A chapter's heading is still a heading: only the contents page is set aside.
        XCTAssertTrue(book.blocks.contains { $0.kind == .heading && $0.text == "1.1 Topologische Räume" && $0.page == 6 })
    }

    /// "Contents" (the largest text on pdflatex-outline's page 1) and a file name in the info
    /// dictionary ("odf_presentation.odp") are never the document's title.
    func testContentsOrAFileNameIsNeverTheTitle() throws {
        let presentation = try extract(try shared("docling-odf_presentation_01.odp.pdf"))
        XCTAssertEqual(presentation.title, "Test Table Slide")
        let outlineDocument = try extract(try shared("pypdf-pdflatex-outline.pdf"))
        XCTAssertNotEqual(outlineDocument.title, "Contents")
        let folder = try TemporaryFolder()
        let shown = try runLectern(["extract", try shared("pypdf-pdflatex-outline.pdf").path], in: folder.url)
        XCTAssertTrue(shown.stdout.hasPrefix("pypdf-pdflatex-outline  (pdf"), String(shown.stdout.prefix(120)))
        for name in ["odf_presentation.odp", "C:\\slides\\week 3.pptx", "report.ODT", "Inhaltsverzeichnis"] {
            XCTAssertNil(PDFExtractor.usableTitle(name), name)
        }
        XCTAssertEqual(PDFExtractor.usableTitle("Node.js in Action"), "Node.js in Action")
    }

    /// The beamer demo builds its "Animation" frame over pages 15–18 (one more item a page, the
    /// last rewording the first): one passage, from the fullest page, numbered as the frame.
    func testOverlaySlidesGiveOnePassage() throws {
        let slides = try extract(try shared("mtheme-demo-slides.pdf"))
        let passages = Chunker().chunk(slides.blocks)
        let animation = passages.filter { $0.sectionPath.last == "Animation" }
        XCTAssertEqual(animation.count, 1, "\(animation.map(\.text))")
        XCTAssertEqual(animation.first?.text, "• This is really important\n• Now this\n• And now this")
        XCTAssertEqual(animation.first?.pageStart, 18)
        XCTAssertEqual(animation.first?.pageLabel, "15")
        XCTAssertFalse(passages.contains { (15...17).contains($0.pageStart ?? 0) })
        // Frames that only share a section are not overlays: "Titleformats" slides 7–10 stay.
        for page in 7...10 { XCTAssertTrue(passages.contains { $0.pageStart == page }, "slide \(page)") }
    }

    /// The AMT handbook page names the parts of two drawings ("Nut case", "Locking shoulder") in
    /// small type between the text and the captions; the beamer demo's line plot has only axis
    /// numbers. The labels are kept as such and stay out of passages; the captions stay in.
    func testFigureLabelsStayOutOfPassagesAndCaptionsStayIn() throws {
        let handbook = try extract(try shared("docling-amt_handbook_sample.pdf"))
        let labels = handbook.blocks.filter { $0.kind == .figureLabel }.map(\.text)
        for label in ["Nut case", "Untightened nut", "Locking shoulder", "Fiber locknut", "Tightened nut"] {
            XCTAssertTrue(labels.contains(label), "\(label) in \(labels)")
        }
        let passages = Chunker().chunk(handbook.blocks)
        let text = passages.map(\.text).joined(separator: "\n")
        XCTAssertFalse(text.contains("Locking shoulder") || text.contains("Untightened nut"))
        XCTAssertTrue(text.contains("Figure 7-26. Self-locking nuts."))
        XCTAssertTrue(text.contains("Figure 7-27. Stainless steel self-locking nut."))
        XCTAssertTrue(text.contains("The Boots self-locking nut is of one piece"), "the prose stays")
        // A heading-like line of prose ("Elastic Stop Nut") above the figure is no label.
        XCTAssertFalse(labels.contains("Elastic Stop Nut"))
        let slides = try extract(try shared("mtheme-demo-slides.pdf"))
        XCTAssertEqual(slides.blocks.filter { $0.page == 23 && $0.kind == .figureLabel }.count, 9)
        let plot = Chunker().chunk(slides.blocks).filter { $0.pageStart == 23 }
        XCTAssertEqual(plot.map(\.text), ["Line plots"], "the slide keeps a passage: its title")
    }

    func testRowsAndNumbers() {
        XCTAssertEqual(PDFRow.romanValue("iii"), 3)
        XCTAssertEqual(PDFRow.romanValue("XIV"), 14)
        XCTAssertNil(PDFRow.romanValue("Mix"))
        XCTAssertNil(PDFRow.romanValue("12"))
        XCTAssertEqual(PDFRow.wordCount("  Dutch,  French German "), 3)
        XCTAssertTrue(PDFLayout.isCaption("Table 1: EU Countries Information"))
        XCTAssertTrue(PDFLayout.isCaption("Figure 7-26. Self-locking nuts."))
        XCTAssertTrue(PDFLayout.isCaption("Table 1 HPO performed in OTSL"))
        XCTAssertFalse(PDFLayout.isCaption("Table 1 shows the overall frequency"))
        XCTAssertTrue(PDFLayout.isAxisText("−0.5"))
        XCTAssertTrue(PDFLayout.isAxisText("0 2"))
        XCTAssertFalse(PDFLayout.isAxisText("Nut case"))
    }
}
