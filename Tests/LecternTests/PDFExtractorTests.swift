import XCTest
@testable import Lectern

/// PDFs through poppler-glib, on the shared real PDFs and on the project's own.
final class PDFExtractorTests: XCTestCase {
    func extract(_ url: URL, password: String? = nil) throws -> ExtractedDocument {
        let input = SourceInput(uri: url.absoluteString, path: url.path, data: try Data(contentsOf: url),
                                options: ExtractOptions(password: password))
        let reader = try ReaderRegistry.standard.reader(for: input)
        XCTAssertEqual(reader.name, "pdf")
        return try reader.extract(input)
    }

    func shared(_ name: String) throws -> URL { try TestPaths.sharedCorpus("pdf/" + name) }
    func own(_ name: String) -> URL { TestPaths.corpora.appendingPathComponent("pdf/" + name) }

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

    func testEncryptedPDFsNeedTheirPasswords() throws {
        for (name, password, word) in [("docling-2206.01062_pg3.pdf", "1234", "DocLayNet"), ("pypdf-libreoffice-writer-password.pdf", "openpassword", "Lorem ipsum")] {
            let url = try shared(name)
            XCTAssertThrowsError(try extract(url)) { error in
                XCTAssertEqual(error as? LecternError, LecternError(.encrypted, nil, "encrypted: pass --password"))
            }
            XCTAssertThrowsError(try extract(url, password: "not-it")) { error in
                XCTAssertEqual((error as? LecternError)?.code, .encrypted)
            }
            let document = try extract(url, password: password)
            XCTAssertTrue(document.blocks.contains { $0.text.contains(word) }, name)
        }
        // Through the CLI: one line, exit 1, the other file of the batch goes on.
        let folder = try TemporaryFolder()
        let result = try runLectern(["ingest", try shared("docling-2206.01062_pg3.pdf").path, own("calculus-handout.pdf").path],
                                    in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: \(try shared("docling-2206.01062_pg3.pdf").path): encrypted: pass --password\n")
        XCTAssertTrue(result.stdout.hasPrefix("1 stored"), result.stdout)
        let opened = try runLectern(["ingest", "--password", "1234", try shared("docling-2206.01062_pg3.pdf").path], in: folder.url)
        XCTAssertEqual(opened.status, 0, opened.stderr)
    }

    func testPagesWithoutATextLayerAreReported() throws {
        let scan = try shared("docling-ocr_test.pdf")
        XCTAssertThrowsError(try extract(scan)) { error in
            XCTAssertTrue("\(error)".contains("no text layer on any page"), "\(error)")
        }
        // A scanned page inside a document with text: a warning naming the page; the rest is read.
        let folder = try TemporaryFolder()
        let mixed = folder.file("mixed.pdf")
        let unite = Process()
        unite.executableURL = URL(fileURLWithPath: "/usr/bin/pdfunite")
        guard FileManager.default.isExecutableFile(atPath: unite.executableURL!.path) else { throw XCTSkip("pdfunite is not installed") }
        unite.arguments = [own("calculus-handout.pdf").path, scan.path, own("calculus-handout.pdf").path, mixed.path]
        try unite.run()
        unite.waitUntilExit()
        let document = try extract(mixed)
        XCTAssertEqual(document.warnings, ["no text layer on page 2 (scanned?): it is not searchable; OCR is not built in"])
        XCTAssertEqual(Set(document.blocks.compactMap(\.page)), [1, 3])
        let result = try runLectern(["ingest", "mixed.pdf"], in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "lectern: warning: mixed.pdf: no text layer on page 2 (scanned?): it is not searchable; OCR is not built in\n")
    }

    func testEverySlideGivesAPassageTitledBySlide() throws {
        let url = try shared("mtheme-demo-slides.pdf")
        let document = try extract(url)
        XCTAssertEqual(document.metadata["slides"], "true")
        let passages = Chunker().chunk(document.blocks)
        let pages = Int(document.metadata["pages"] ?? "0") ?? 0
        XCTAssertEqual(pages, 31)
        for page in 1...pages {
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

    func testTextCleanup() {
        XCTAssertEqual(PDFText.normalize("e\u{FB03}cient \u{FB01}eld \u{FB02}ow co\u{00AD}operate"), "efficient field flow cooperate")
        XCTAssertEqual(PDFText.normalize("Cafe\u{0301}"), "Café")
        XCTAssertEqual(PDFExtractor.pageList([1, 2, 3, 7, 9, 10]), "1–3, 7, 9–10")
        XCTAssertTrue(PDFLayout.isPageNumber("- 12 -"))
        XCTAssertTrue(PDFLayout.isPageNumber("Page 3 of 10"))
        XCTAssertFalse(PDFLayout.isPageNumber("12 apples"))
    }
}
