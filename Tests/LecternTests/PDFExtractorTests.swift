import XCTest
@testable import Lectern

/// PDFs through poppler-glib, on the shared real PDFs and on the project's own.
final class PDFExtractorTests: XCTestCase {
    func extract(_ url: URL, password: String? = nil, ocr: OCRSettings = OCRSettings()) throws -> ExtractedDocument {
        let input = SourceInput(uri: url.absoluteString, path: url.path, data: try Data(contentsOf: url),
                                options: ExtractOptions(password: password, ocr: ocr))
        let reader = try ReaderRegistry.standard.reader(for: input)
        XCTAssertEqual(reader.name, "pdf")
        return try reader.extract(input)
    }

    func shared(_ name: String) throws -> URL { try TestPaths.sharedCorpus("pdf/" + name) }
    func own(_ name: String) -> URL { TestPaths.corpora.appendingPathComponent("pdf/" + name) }
    /// The generated test PDFs (Tests/Support/make_sample_pdfs.py --fixtures): encrypted ones and an image-only page.
    static func fixture(_ name: String) -> URL { TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/pdf/" + name) }

    /// The outline as poppler-utils' pdftohtml prints it: an independent reading of the bookmarks.
    func outlineByPdftohtml(_ url: URL) throws -> [(title: String, page: Int)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftohtml")
        guard FileManager.default.isExecutableFile(atPath: process.executableURL!.path) else { throw XCTSkip("pdftohtml (poppler-utils) is not installed") }
        process.arguments = ["-xml", "-i", "-stdout", "-q", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let xml = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let regex = try NSRegularExpression(pattern: #"<item page="(\d+)">([^<]*)</item>"#)
        return regex.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).map { match in
            let title = String(xml[Range(match.range(at: 2), in: xml)!]).replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            return (title, Int(xml[Range(match.range(at: 1), in: xml)!])!)
        }
    }

    /// The page text as poppler-utils' pdftotext prints it: an independent reading of the words.
    func pdftotext(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        guard FileManager.default.isExecutableFile(atPath: process.executableURL!.path) else { throw XCTSkip("pdftotext (poppler-utils) is not installed") }
        process.arguments = ["-q", url.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Words as a reader counts them: runs of letters and digits, lowercased.
    func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    func testSectionTitlesMatchTheOutline() throws {
        for name in ["pypdf-pdflatex-outline.pdf", "docling-llncsdoc.pdf"] {
            let url = try shared(name)
            let expected = try outlineByPdftohtml(url)
            XCTAssertGreaterThan(expected.count, 8, name)
            let headings = try extract(url).blocks.filter { $0.kind == .heading }
            XCTAssertEqual(headings.map(\.text), expected.map(\.title), name)
            XCTAssertEqual(headings.map { $0.page ?? 0 }, expected.map(\.page), name)
        }
        // Nesting: 2.1 sits under 2 in the section path of its text.
        let llncs = try extract(try shared("docling-llncsdoc.pdf"))
        let general = try XCTUnwrap(llncs.blocks.first { $0.text.hasPrefix("The llncs class is an extension") })
        XCTAssertEqual(general.sectionPath.suffix(2), ["2 Working with the llncs Document Class", "2.1 General Information"])
        // A 117-page book with a 35-entry outline.
        let book = try extract(try shared("pypdf-GeoTopo-komprimiert.pdf"))
        XCTAssertEqual(book.blocks.filter { $0.kind == .heading }.map(\.text), try outlineByPdftohtml(try shared("pypdf-GeoTopo-komprimiert.pdf")).map(\.title))
        XCTAssertEqual(book.metadata["pages"], "117")
        // Page numbers count along with the pages (printed = index - 3); a number that ends a
        // contents page is text, not a page number.
        let pageFurniture = book.blocks.filter { $0.kind == .pageHeader || $0.kind == .pageFooter }
        let numbers = pageFurniture.compactMap { block in Int(block.text).map { ($0, block.page ?? 0) } }
        XCTAssertGreaterThan(numbers.count, 90)
        XCTAssertTrue(numbers.allSatisfy { $0.0 == $0.1 - 3 }, "\(numbers.filter { $0.0 != $0.1 - 3 })")
        XCTAssertFalse(pageFurniture.contains { $0.page == 4 })
    }

    func testRunInHeadingsKeepTheWordsAfterThem() throws {
        // The outline points at run-in headings, a bold term that starts its paragraph
        // ("Osmosis. Water crosses …"): each term becomes a heading and the words after it stay,
        // as the paragraph under it; "Endocytosis" starts a paragraph of 38 words.
        let url = own("membrane-transport-guide.pdf")
        let folder = try TemporaryFolder()
        let result = try runLectern(["extract", "--json", url.path], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8))
        let headings = document.blocks.filter { $0.kind == .heading }
        XCTAssertEqual(headings.map(\.text), ["1 Passive transport", "Diffusion", "Osmosis", "2 Active transport", "Pumps", "Endocytosis"])
        XCTAssertEqual(headings.map(\.level), [1, 2, 2, 1, 2, 2])
        let osmosis = try XCTUnwrap(document.blocks.first { $0.text.hasPrefix("Water crosses") }, "\(document.blocks.map(\.text))")
        XCTAssertEqual(osmosis.kind, .paragraph)
        XCTAssertEqual(osmosis.text, "Water crosses a selectively permeable membrane toward the side holding more dissolved solute.")
        XCTAssertEqual(osmosis.sectionPath, ["1 Passive transport", "Osmosis"])
        let endocytosis = try XCTUnwrap(document.blocks.first { $0.text.hasPrefix("Large particles enter") })
        XCTAssertEqual(endocytosis.sectionPath, ["2 Active transport", "Endocytosis"])
        XCTAssertTrue(endocytosis.text.hasSuffix("take up droplets of fluid the same way."), endocytosis.text)
        // Every word on the page as pdftotext reads it, each once: none lost, none doubled.
        XCTAssertEqual(words(document.blocks.map(\.text).joined(separator: " ")).sorted(), words(try pdftotext(url)).sorted())
    }

    func testHeadingLevelsFromFontSizesWithoutAnOutline() throws {
        // No outline: 16 pt headings are level 1, the 13 pt ones under them level 2, and the
        // section tree follows them across the page break.
        let document = try extract(own("genetics-primer.pdf"))
        let headings = document.blocks.filter { $0.kind == .heading }
        XCTAssertEqual(headings.map(\.text), ["1 Genes", "1.1 The double helix", "1.2 Mutations", "2 Inheritance", "2.1 Dominant and recessive alleles"])
        XCTAssertEqual(headings.map(\.level), [1, 2, 2, 1, 2])
        func section(of start: String) throws -> [String] {
            try XCTUnwrap(document.blocks.first { $0.text.hasPrefix(start) }, start).sectionPath
        }
        XCTAssertEqual(try section(of: "A gene is a stretch of DNA"), ["1 Genes"])
        XCTAssertEqual(try section(of: "A mutation is a change"), ["1 Genes", "1.2 Mutations"])
        XCTAssertEqual(try section(of: "Each parent passes on"), ["2 Inheritance"], "a level-1 heading closes the level-2 section before it")
        XCTAssertEqual(try section(of: "A dominant allele"), ["2 Inheritance", "2.1 Dominant and recessive alleles"])
        // What `lectern extract` shows.
        let folder = try TemporaryFolder()
        let shown = try runLectern(["extract", own("genetics-primer.pdf").path], in: folder.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("p.1 heading/1  1 Genes\np.1 paragraph  A gene is a stretch of DNA"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("p.2 heading/2  2.1 Dominant and recessive alleles"), shown.stdout)
    }

    func testTitleFallsBackToTheLargestTextOnPageOne() throws {
        // The info dictionary says "Untitled": the title is the 22 pt line at the top of page 1.
        let genetics = own("genetics-primer.pdf")
        XCTAssertEqual(try PDFFile(path: genetics.path, password: nil).title, "Untitled")
        XCTAssertEqual(try extract(genetics).title, "Genetics Primer: Genes and Inheritance")
    }

    func testRealPDFsWithPlaceholderTitlesAreTitledByTheLargestTextOnPageOne() throws {
        // Real PDFs whose info title is a placeholder ("untitled") or empty.
        // pdftohtml puts the same text in page 1's largest font (23 pt and 22 pt).
        for (name, title) in [("docling-bookmark_sample.pdf", "PART I - DEFINITIONS"),
                              ("docling-llncsdoc.pdf", "Instructions for Using Springer’s llncs Class for Computer Science Proceedings Papers")] {
            let url = try shared(name)
            XCTAssertNil(PDFExtractor.usableTitle(try PDFFile(path: url.path, password: nil).title), name)
            XCTAssertEqual(try extract(url).title, title, name)
        }
    }

    func testTwoColumnsAreReadColumnByColumn() throws {
        let document = try extract(try shared("pypdf-multicolumn.pdf"))
        let text = document.blocks.filter { $0.page == 1 && !$0.kind.isFurniture }.map(\.text).joined(separator: "\n")
        // Left column top to bottom, then the right column; the paragraph that runs from the foot
        // of the left column to the top of the right one is one paragraph.
        let order = ["This is a sample document with two columns", "Lorem ipsum dolor sit amet, consectetuer adipiscing elit. Ut purus",
                     "Nam dui ligula, fringilla a", "Nulla malesuada porttitor diam", "Quisque ullamcorper placerat ipsum", "Fusce mauris."]
        let positions = order.map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(positions.contains(nil), "\(positions)")
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted())
        let continued = try XCTUnwrap(document.blocks.first { $0.text.hasPrefix("Nulla malesuada porttitor diam") })
        XCTAssertTrue(continued.text.contains("Donec nonummy pellentesque ante. Phasellus adipiscing semper elit."), continued.text)
        XCTAssertTrue(text.contains("adipiscing vitae"), "words hyphenated at line ends are re-joined")
        XCTAssertFalse(text.contains("adip- iscing") || text.contains("adip-iscing"))
        XCTAssertEqual(document.blocks.filter { $0.kind == .pageFooter }.map(\.text), ["1", "2", "3"])
    }

    func testPaperPageKeepsRunInSectionNumbersAndDropsLoneMarks() throws {
        let paper = try extract(try shared("docling-2305.03393v1-pg9.pdf"))
        let texts = paper.blocks.map(\.text)
        XCTAssertTrue(texts.contains { $0.hasPrefix("5.1 Hyper Parameter Optimization We have chosen the PubTabNet data set") }, "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("5.2 Quantitative Results We picked") })
        XCTAssertFalse(texts.contains("5.1") || texts.contains("5.2"), "a section number never stands alone")
        XCTAssertTrue(paper.blocks.contains { $0.kind == .caption && $0.text.hasPrefix("Table 1. HPO performed in OTSL and HTML") })
        let slides = try extract(try shared("mtheme-demo-slides.pdf"))
        XCTAssertFalse(slides.blocks.contains { $0.text == "." }, "a decoration's dot is not a paragraph")
    }

    /// The generated RC4 files always; the shared corpus's real ones (a LaTeX paper, a LibreOffice
    /// document) where it is present.
    func testEncryptedPDFsNeedTheirPasswords() throws {
        var locked = [(Self.fixture("locked-handout.pdf"), "handout-pass", "Derivatives"), (Self.fixture("locked-primer.pdf"), "primer-pass", "double helix")]
        for (name, password, word) in [("docling-2206.01062_pg3.pdf", "1234", "DocLayNet"), ("pypdf-libreoffice-writer-password.pdf", "openpassword", "Lorem ipsum")] {
            if let url = try? shared(name) { locked.append((url, password, word)) }
        }
        for (url, password, word) in locked {
            let name = url.lastPathComponent
            XCTAssertThrowsError(try extract(url)) { error in
                XCTAssertEqual(error as? LecternError, LecternError(.encrypted, nil, "encrypted: pass --password"))
            }
            XCTAssertThrowsError(try extract(url, password: "not-it")) { error in
                XCTAssertEqual((error as? LecternError)?.code, .encrypted)
            }
            let document = try extract(url, password: password)
            XCTAssertTrue(document.blocks.contains { $0.text.contains(word) }, name)
        }
        // Through the CLI: one line, exit 1, the files after it in the batch go on.
        let folder = try TemporaryFolder()
        let handout = Self.fixture("locked-handout.pdf")
        let result = try runLectern(["ingest", handout.path, own("cell-biology-notes.pdf").path, own("genetics-primer.pdf").path],
                                    in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: \(handout.path): encrypted: pass --password\n")
        XCTAssertTrue(result.stdout.hasPrefix("2 stored"), result.stdout)
        let opened = try runLectern(["ingest", "--password", "handout-pass", handout.path], in: folder.url)
        XCTAssertEqual(opened.status, 0, opened.stderr)
        XCTAssertTrue(opened.stdout.hasPrefix("1 stored"), opened.stdout)
        let found = try runLectern(["search", "fundamental theorem of calculus", "--mode", "keyword", "-k", "1"], in: folder.url)
        XCTAssertTrue(found.stdout.contains("locked-handout.pdf"), found.stdout)
    }

    func testPagesWithoutATextLayerAreReported() throws {
        // A one-page scan with OCR off: the warning names the page; there is nothing to search.
        let scan = try shared("docling-ocr_test.pdf")
        let off = "no text layer on page 1 (scanned?): it is not searchable; OCR is off (--ocr never)"
        let scanDocument = try extract(scan, ocr: OCRSettings(mode: .never))
        XCTAssertEqual(scanDocument.warnings, [ExtractionWarning(off)])
        XCTAssertTrue(scanDocument.blocks.isEmpty)
        let scanFolder = try TemporaryFolder()
        let scanned = try runLectern(["ingest", "--ocr", "never", scan.path], in: scanFolder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        // A warning, as extract gives it: the scan is stored without passages (ScriptableBatchTests).
        XCTAssertEqual(scanned.status, 0)
        XCTAssertEqual(scanned.stderr, "lectern: warning: \(scan.path): \(off)\n")
        let shown = try runLectern(["extract", "--ocr", "never", scan.path], in: scanFolder.url)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stderr, "lectern: warning: \(scan.path): \(off)\n")
        // A scanned page inside a document with text: read with OCR, the rest from its text
        // layer; with OCR off, a warning naming the page.
        let folder = try TemporaryFolder()
        let mixed = folder.file("mixed.pdf")
        let unite = Process()
        unite.executableURL = URL(fileURLWithPath: "/usr/bin/pdfunite")
        guard FileManager.default.isExecutableFile(atPath: unite.executableURL!.path) else { throw XCTSkip("pdfunite is not installed") }
        unite.arguments = [own("calculus-handout.pdf").path, scan.path, own("calculus-handout.pdf").path, mixed.path]
        try unite.run()
        unite.waitUntilExit()
        let read = try extract(mixed)
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(Set(read.blocks.compactMap(\.page)), [1, 2, 3])
        XCTAssertEqual(Set(read.blocks.filter { $0.ocrConfidence != nil }.compactMap(\.page)), [2], "only the scanned page is read by OCR")
        let document = try extract(mixed, ocr: OCRSettings(mode: .never))
        XCTAssertEqual(document.warnings, ["no text layer on page 2 (scanned?): it is not searchable; OCR is off (--ocr never)"])
        XCTAssertEqual(Set(document.blocks.compactMap(\.page)), [1, 3])
        let result = try runLectern(["ingest", "--ocr", "never", "mixed.pdf"], in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "lectern: warning: mixed.pdf: no text layer on page 2 (scanned?): it is not searchable; OCR is off (--ocr never)\n")
    }

    func testEverySlideGivesAPassageTitledBySlide() throws {
        let url = try shared("mtheme-demo-slides.pdf")
        let document = try extract(url)
        XCTAssertEqual(document.metadata["slides"], "true")
        let passages = Chunker().chunk(document.blocks)
        let pages = Int(document.metadata["pages"] ?? "0") ?? 0
        XCTAssertEqual(pages, 31)
        // Every slide but the contents slide (2) and the steps of an overlay frame (15–17, built up
        // to 18) has a passage.
        for page in 1...pages where ![2, 15, 16, 17].contains(page) {
            let onPage = passages.filter { $0.pageStart == page }
            XCTAssertFalse(onPage.isEmpty, "slide \(page) has no passage")
            XCTAssertTrue(onPage.allSatisfy { $0.pageEnd == page }, "passages never cross slides")
        }
        let titleformats = try XCTUnwrap(passages.first { $0.text.contains("metropolis supports 4 different titleformats") })
        XCTAssertEqual(titleformats.sectionPath, ["Titleformats", "Metropolis titleformats"], "outline section, then the slide title")
    }

    func testDamagedFilesGiveOneClearLineAndNoPopplerNoise() throws {
        let folder = try TemporaryFolder()
        let original = try Data(contentsOf: own("cell-biology-notes.pdf"))
        try folder.write("truncated.pdf", original.prefix(original.count / 3))
        try folder.write("garbage.pdf", Data("%PDF-1.7\n1 0 obj << /Type /Catalog >> nonsense".utf8))
        try folder.write("good.pdf", try Data(contentsOf: own("calculus-handout.pdf")))
        let result = try runLectern(["ingest", "truncated.pdf", "garbage.pdf", "good.pdf"], in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stderr)
        XCTAssertTrue(lines[0].hasPrefix("lectern: truncated.pdf: "), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("lectern: garbage.pdf: not a readable PDF"), lines[1])
        XCTAssertFalse(result.stderr.contains("Syntax Error"), "poppler's own messages stay out of stderr")
        XCTAssertTrue(result.stdout.hasPrefix("1 stored"), result.stdout)
    }

    func testTheProjectsOwnNotes() throws {
        let document = try extract(own("cell-biology-notes.pdf"))
        XCTAssertEqual(document.title, "Cell Biology: Lecture Notes")
        XCTAssertEqual(document.metadata["author"], "Amina Okafor")
        XCTAssertEqual(document.metadata["pages"], "3")
        let body = document.blocks.filter { !$0.kind.isFurniture }
        XCTAssertEqual(body.filter { $0.kind == .heading }.map(\.text),
                       ["1 The Cell Membrane", "1.1 Transport across the membrane", "2 Mitochondria", "2.1 Oxidative phosphorylation", "3 The Nucleus"])
        XCTAssertEqual(body.filter { $0.kind == .heading }.map(\.level), [1, 2, 1, 2, 1])
        let text = body.map(\.text).joined(separator: " ")
        XCTAssertTrue(text.contains("a bilayer of phospholipids whose hydrophilic heads"), "line-end hyphen re-joined")
        XCTAssertTrue(text.contains("hydrophobic tails"))
        XCTAssertTrue(text.contains("on its own; self-assembling structures"), "a real compound keeps its hyphen")
        XCTAssertEqual(body.filter { $0.kind == .listItem }.count, 3)
        XCTAssertEqual(body.filter { $0.kind == .caption }.map { $0.page }, [2])
        XCTAssertEqual(document.blocks.filter { $0.kind == .pageHeader }.count, 3)
        XCTAssertEqual(document.blocks.filter { $0.kind == .pageFooter }.map(\.text), ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"])
        // Furniture never reaches passages.
        let passages = Chunker().chunk(document.blocks)
        XCTAssertFalse(passages.contains { $0.text.contains("BIO 101") || $0.text.contains("Page 2 of 3") })
        XCTAssertTrue(passages.allSatisfy { $0.pageStart == $0.pageEnd })
    }

    func testSearchShowsFileAndPage() throws {
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("pdf").path], in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let result = try runLectern(["search", "endosymbiotic theory bacteria", "-k", "1"], in: folder.url)
        XCTAssertTrue(result.stdout.contains("cell-biology-notes.pdf p.2 § 2 Mitochondria"), result.stdout)
        let json = try runLectern(["search", "fundamental theorem of calculus", "-k", "1", "--json"], in: folder.url)
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(json.stdout.utf8)).first)
        XCTAssertEqual(hit.pageStart, 1)
        XCTAssertEqual(hit.sectionPath.last, "Integrals")
        XCTAssertEqual(hit.type, "pdf")
    }

    func testBytesWithoutAFileAreReadThroughAPrivateTemporaryCopy() throws {
        // A download has bytes and no path: poppler reads a temporary copy, removed afterwards.
        let data = try Data(contentsOf: own("cell-biology-notes.pdf"))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("lectern-") && $0.hasSuffix(".pdf") })
        let input = SourceInput(uri: "https://example.org/notes.pdf", path: nil, data: data)
        let document = try PDFExtractor().extract(input)
        XCTAssertEqual(document.title, "Cell Biology: Lecture Notes")
        XCTAssertEqual(document.blocks.map(\.text), try extract(own("cell-biology-notes.pdf")).blocks.map(\.text))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("lectern-") && $0.hasSuffix(".pdf") })
        XCTAssertEqual(after, before, "the temporary copy is removed")
    }

    func testEncryptedBytesWithoutAFileGiveTheSameClearErrorAsAFile() throws {
        let locked = SourceInput(uri: "https://example.org/locked.pdf", path: nil, data: try Data(contentsOf: Self.fixture("locked-primer.pdf")))
        XCTAssertThrowsError(try PDFExtractor().extract(locked)) { error in
            XCTAssertEqual(error as? LecternError, LecternError(.encrypted, nil, "encrypted: pass --password"))
        }
    }

    func testTwoWorkersReadALongPDFAsOneWould() throws {
        // 117 pages: over the threshold where two poppler documents read half the pages each.
        let url = try shared("pypdf-GeoTopo-komprimiert.pdf")
        let file = try PDFFile(path: url.path, password: nil)
        XCTAssertGreaterThanOrEqual(file.pageCount, PDFExtractor.parallelFrom)
        let together = try PDFExtractor.readPages(file, path: url.path, password: nil)
        let alone = try PDFExtractor.read(file, 0..<file.pageCount)
        XCTAssertEqual(together.lines.map(\.text), alone.lines.map(\.text))
        XCTAssertEqual(together.lines.map(\.page), alone.lines.map(\.page))
        XCTAssertEqual(together.lines.map(\.fontSize), alone.lines.map(\.fontSize))
        XCTAssertEqual(together.pages.count, 117)
        XCTAssertEqual(together.lines.first?.page, 1)
        XCTAssertEqual(together.lines.last?.page, 117)
    }

    func testHyphensAtLineEnds() {
        func line(_ text: String) -> PDFLine {
            PDFLine(text: text, page: 1, x1: 0, y1: 0, x2: 100, y2: 10, fontSize: 10, bold: false, blockBreakBefore: false)
        }
        let lexicon: Set<String> = ["information", "data-driven"]
        XCTAssertEqual(PDFLayout.join([line("the infor-"), line("mation age")], lexicon: lexicon), "the information age")
        XCTAssertEqual(PDFLayout.join([line("a trans-"), line("porter protein")], lexicon: lexicon), "a transporter protein",
                       "an unknown word broken at a line end is a typesetter's break")
        XCTAssertEqual(PDFLayout.join([line("a data-"), line("driven model")], lexicon: lexicon), "a data-driven model",
                       "the document writes the compound with its hyphen")
        XCTAssertEqual(PDFLayout.join([line("a well-"), line("known result")], lexicon: lexicon), "a well-known result")
        XCTAssertEqual(PDFLayout.join([line("the self-"), line("ish gene")], lexicon: lexicon), "the selfish gene", "a suffix continues the word")
        XCTAssertEqual(PDFLayout.join([line("the Anglo-"), line("Saxon kings")], lexicon: lexicon), "the Anglo-Saxon kings")
        XCTAssertEqual(PDFLayout.join([line("during COVID-"), line("19 times")], lexicon: lexicon), "during COVID-19 times")
        XCTAssertEqual(PDFLayout.join([line("pages 3 -"), line("5 of it")], lexicon: lexicon), "pages 3 - 5 of it")
    }

    func testExtractPrintsBlocksWithoutALibrary() throws {
        let folder = try TemporaryFolder()
        let result = try runLectern(["extract", "--json", own("cell-biology-notes.pdf").path], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(document.type, "pdf")
        XCTAssertEqual(document.title, "Cell Biology: Lecture Notes")
        XCTAssertEqual(document.blocks, try extract(own("cell-biology-notes.pdf")).blocks, "the CLI shows what the reader gives ingest")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("config-home") }, [],
                       "extract creates no library")
        let text = try runLectern(["extract", own("calculus-handout.pdf").path], in: folder.url)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("p.1 heading"), text.stdout)
    }

    func testExtractOfAnEncryptedPDFIsOneLineWithoutItsPasswordAndTheTextWithIt() throws {
        let folder = try TemporaryFolder()
        let encrypted = Self.fixture("locked-primer.pdf")
        let refused = try runLectern(["extract", encrypted.path], in: folder.url)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "lectern: \(encrypted.path): encrypted: pass --password\n")
        let wrong = try runLectern(["extract", "--password", "nope", encrypted.path], in: folder.url)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(wrong.stderr, "lectern: \(encrypted.path): encrypted, and the password given does not open it\n")
        XCTAssertFalse(wrong.stderr.contains("nope"), "the password is never echoed")
        let opened = try runLectern(["extract", "--password", "primer-pass", encrypted.path], in: folder.url)
        XCTAssertEqual(opened.status, 0, opened.stderr)
        XCTAssertTrue(opened.stdout.contains("Adenine pairs with thymine"), opened.stdout)
    }

    func testTextCleanup() {
        XCTAssertEqual(PDFText.normalize("e\u{FB03}cient \u{FB01}eld \u{FB02}ow co\u{00AD}operate"), "efficient field flow cooperate")
        XCTAssertEqual(PDFText.normalize("Cafe\u{0301}"), "Café")
        XCTAssertEqual(PDFExtractor.pageList([1, 2, 3, 7, 9, 10]), "1–3, 7, 9–10")
        XCTAssertEqual(PDFText.dropLeaders("1.1 Topologische Räume . . . . . . . . . 2"), "1.1 Topologische Räume 2")
        XCTAssertEqual(PDFText.dropLeaders("Cells.......... 12"), "Cells 12")
        XCTAssertEqual(PDFText.dropLeaders("Wait... what? 1.2.3 e.g. i.e."), "Wait... what? 1.2.3 e.g. i.e.", "prose dots stay")
        XCTAssertEqual(PDFText.dropLeaders("Ende. . . . . "), "Ende")
        XCTAssertTrue(PDFLayout.isPageNumber("- 12 -"))
        XCTAssertTrue(PDFLayout.isPageNumber("Page 3 of 10"))
        XCTAssertFalse(PDFLayout.isPageNumber("12 apples"))
    }

    /// GeoTopo's page 18 breaks off mid-sentence ("… kann man I in endlich viele Intervalle") and
    /// page 19 goes on ("der Länge δ unterteilen …") under a running title set on the page number's
    /// line. The sentence is finished on page 18, the running title is a page header, and what
    /// follows the sentence stays on page 19.
    func testASentenceCutByAPageBreakIsWholeOnItsFirstPage() throws {
        let document = try extract(try shared("pypdf-GeoTopo-komprimiert.pdf"))
        let body = document.blocks.filter { $0.kind != .pageHeader && $0.kind != .pageFooter }
        let whole = try XCTUnwrap(body.first { $0.text.contains("in endlich viele Intervalle") })
        XCTAssertEqual(whole.page, 18)
        XCTAssertTrue(whole.text.hasSuffix("in endlich viele Intervalle der Länge δ unterteilen und alle Ui in die endliche Überdeckung aufnehmen, die Teilintervalle enthalten."), whole.text)
        XCTAssertFalse(body.contains { $0.text.hasPrefix("der Länge δ unterteilen") }, "the fragment is not kept twice")
        let headers = document.blocks.filter { $0.page == 19 && $0.kind == .pageHeader }.map(\.text)
        XCTAssertEqual(Set(headers), ["16", "1.5. KOMPAKTHEIT"])
        let next = try XCTUnwrap(body.first { $0.page == 19 })
        XCTAssertTrue(next.text.hasPrefix("Angenommen, es gibt kein solches δ."), next.text)
        XCTAssertFalse(body.contains { $0.kind == .heading && $0.text == "1.5. KOMPAKTHEIT" && $0.page == 19 },
                       "a running title is not a heading")
    }
}
