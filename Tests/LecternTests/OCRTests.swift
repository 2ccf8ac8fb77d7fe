import XCTest
@testable import Lectern

/// Scanned PDFs read with the real Tesseract (libtesseract5, `make setup`): scans made here from
/// corpora/'s PDFs (pdftoppm to JPEG, wrapped in an image-only PDF) are searchable, their
/// passages cite their pages, their headings become a curriculum's topics, and the blocks say
/// they were read by OCR; a scan stored before OCR (or with it off) is read again by the next
/// ingest, and nothing else is.
final class OCRTests: XCTestCase {
    /// genetics-primer.pdf (2 pages: a title, numbered headings, paragraphs) scanned at 300 dpi,
    /// made once for the class.
    nonisolated(unsafe) static var scans: (folder: TemporaryFolder, genetics: URL, calculus: URL)?

    static func scanned() throws -> (folder: TemporaryFolder, genetics: URL, calculus: URL) {
        if let scans { return scans }
        try requireTesseract()
        let folder = try TemporaryFolder()
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora/pdf")
        let genetics = try ScanPDF.make(from: corpora.appendingPathComponent("genetics-primer.pdf"), dpi: 300, into: folder, name: "genetics-scan")
        let calculus = try ScanPDF.make(from: corpora.appendingPathComponent("calculus-handout.pdf"), dpi: 150, into: folder, name: "calculus-scan")
        scans = (folder, genetics, calculus)
        return (folder, genetics, calculus)
    }

    /// Fails with what to install when Tesseract or its English model is missing: the tests
    /// are about the real engine.
    static func requireTesseract() throws {
        do {
            try SystemLibrary.tesseract.load()
        } catch {
            XCTFail("\(error)")
            throw error
        }
        XCTAssertTrue(Tesseract.installedLanguages?.contains("eng") == true, "tesseract-ocr-eng is not installed: run `make setup`")
    }

    func ingest(_ paths: [String], into store: LibraryStore, ocr: OCRSettings = OCRSettings()) -> (IngestSummary, [PipelineEvent]) {
        let events = EventLog()
        let summary = Ingestor(store: store, embedder: HashingEmbedder(), options: ExtractOptions(ocr: ocr))
            .ingest(paths, recorder: nil) { events.append($0) }
        return (summary, events.events)
    }

    func testAScanIsSearchableItsPassagesCitePagesAndItsHeadingsBecomeTopics() throws {
        let scan = try Self.scanned().genetics
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        let (summary, events) = ingest([scan.path], into: store)
        XCTAssertEqual(summary.stored, 1)
        XCTAssertEqual(events.filter { $0.event == .warning }.map { $0.message ?? "" }, [], "a scan read by OCR has no pages left unread")

        // Searchable, with the page the words are on.
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        let hit = try XCTUnwrap(try searcher.search("carriers of a recessive trait", k: 1, mode: .keyword).first, "the scan's words are not searchable")
        XCTAssertEqual(hit.pageStart, 2, "the recessive-trait sentence is on page 2 of the scan")
        XCTAssertEqual(hit.title, "Genetics Primer: Genes and Inheritance", "the title is the scan's largest first-page text")
        let first = try XCTUnwrap(try searcher.search("double helix adenine thymine", k: 1, mode: .keyword).first)
        XCTAssertEqual(first.pageStart, 1)

        // The blocks: headings by size as on the text PDF, every block marked as OCR with Tesseract's confidence.
        let document = try XCTUnwrap(try store.allDocuments().first)
        let ocrLine = document.metadataDictionary["ocr"] ?? "no ocr line"
        XCTAssertTrue(ocrLine.hasPrefix("pages 1–2 read by Tesseract 5"), ocrLine)
        let blocks = try store.blocks(documentId: document.id)
        XCTAssertFalse(blocks.isEmpty)
        for block in blocks {
            let confidence = try XCTUnwrap(block.ocrConfidence, "\(block.text) is not marked as read by OCR")
            XCTAssertGreaterThan(confidence, 60, block.text)
        }
        let headings = blocks.filter { $0.kind == .heading }.map(\.text)
        XCTAssertTrue(headings.contains("1 Genes") && headings.contains("2 Inheritance"), "headings read: \(headings)")
        XCTAssertTrue(headings.contains("2.1 Dominant and recessive alleles"), "headings read: \(headings)")
        let level = { (text: String) in blocks.first { $0.text == text }?.level }
        XCTAssertLessThan(try XCTUnwrap(level("2 Inheritance")), try XCTUnwrap(level("2.1 Dominant and recessive alleles")),
                          "a chapter heading ranks above a section heading, by size as on the text PDF")

        // A curriculum from the scan: its topics are the scan's sections.
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "genetics", sources: [scan.path], recorder: nil) { _ in }
        let curriculum = try XCTUnwrap(try store.curriculum(named: "genetics"))
        let titles = curriculum.topics.map(\.title)
        XCTAssertTrue(titles.contains("1 Genes") && titles.contains("2 Inheritance"), "topics: \(titles)")
    }

    /// Two pages read at once (`--ocr-jobs 2`, each worker with its own poppler document and
    /// Tesseract engine) give the blocks one at a time gives: the same text, pages, kinds and
    /// confidences, in the same order; `--ocr-jobs 0` is refused with one line.
    func testPagesReadAtOnceGiveWhatOneAtATimeGives() throws {
        let scan = try Self.scanned().genetics
        func blocks(jobs: Int) throws -> [Block] {
            try PDFExtractor().extract(SourceInput(uri: scan.absoluteString, path: scan.path, options: ExtractOptions(ocr: OCRSettings(jobs: jobs)))).blocks
        }
        let one = try blocks(jobs: 1), two = try blocks(jobs: 2)
        XCTAssertEqual(Set(one.compactMap(\.page)), [1, 2], "the scan's two pages are read")
        XCTAssertTrue(one.allSatisfy { $0.ocrConfidence != nil }, "every block is marked as read by OCR")
        XCTAssertEqual(two, one, "two pages at once read as one at a time does")

        let folder = try TemporaryFolder()
        let bad = try runLectern(["extract", scan.path, "--ocr-jobs", "0"], in: folder.url)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--ocr-jobs must be 1 to 64"), bad.stderr)
    }

    func testAScanStoredWithoutOCRIsReadAgainAndNothingElseIs() throws {
        let scan = try Self.scanned().calculus
        let folder = try TemporaryFolder()
        let inputs = folder.file("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scan, to: inputs.appendingPathComponent("calculus-scan.pdf"))
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("corpora/pdf/genetics-primer.pdf"),
                                         to: inputs.appendingPathComponent("genetics-primer.pdf"))
        try folder.write("inputs/cells.md", "# Cells\n\nThe mitochondrion makes ATP for the cell.\n")
        let store = try LibraryStore(path: folder.file("library.db").path)

        // OCR off: the scan is stored without passages, with the warning that says why.
        var (summary, events) = ingest([inputs.path], into: store, ocr: OCRSettings(mode: .never))
        XCTAssertEqual(summary.stored, 3)
        let warning = try XCTUnwrap(events.first { $0.event == .warning }?.message)
        XCTAssertTrue(warning.contains("no text layer on page 1") && warning.contains("OCR is off (--ocr never)"), warning)
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        XCTAssertTrue(try searcher.search("derivative", mode: .keyword).isEmpty)

        // OCR on: the scan alone is read again, and found.
        (summary, _) = ingest([inputs.path], into: store)
        XCTAssertEqual(summary.stored, 1, "only the scan is read again")
        XCTAssertEqual(summary.unchanged, 2)
        let hit = try XCTUnwrap(try searcher.search("derivative", k: 1, mode: .keyword).first, "the 150 dpi scan's words are not searchable")
        XCTAssertEqual(hit.pageStart, 1)
        XCTAssertTrue(hit.uri.hasSuffix("calculus-scan.pdf"), hit.uri)

        // Again with the same settings: nothing read. Other languages: the OCR'd scan alone again.
        (summary, _) = ingest([inputs.path], into: store)
        XCTAssertEqual(summary.stored, 0)
        XCTAssertEqual(summary.unchanged, 3)
        if Tesseract.installedLanguages?.contains("deu") == true {
            (summary, _) = ingest([inputs.path], into: store, ocr: OCRSettings(languages: ["eng", "deu"]))
            XCTAssertEqual(summary.stored, 1, "a document OCR'd under other settings is read again, the others are not")
            XCTAssertEqual(summary.unchanged, 2)
        }
    }

    func testAMissingLanguagePackIsOneLineSayingWhatToInstall() throws {
        let scan = try Self.scanned().calculus
        let input = SourceInput(uri: "file://" + scan.path, path: scan.path, data: try Data(contentsOf: scan),
                                options: ExtractOptions(ocr: OCRSettings(languages: ["eng", "zzz"])))
        let read = try PDFExtractor().extract(input)
        XCTAssertEqual(read.blocks, [])
        XCTAssertEqual(read.warnings.count, 1, "\(read.warnings)")
        let warning = try XCTUnwrap(read.warnings.first)
        XCTAssertTrue(warning.message.contains("no text layer on page 1"), warning.message)
        XCTAssertTrue(warning.message.hasSuffix("OCR language zzz is not installed"), warning.message)
        // What to install is the run's to say, once (see the test below).
        let advice = try XCTUnwrap(warning.advice)
        XCTAssertTrue(advice.hasPrefix("OCR language zzz is not installed (no zzz.traineddata in "), advice)
        XCTAssertTrue(advice.hasSuffix("apt-get install tesseract-ocr-zzz"), advice)
    }

    /// Three scans and a missing language pack: one line says what to install, each scan's
    /// warning names it and why, in `extract` and in `ingest`.
    func testAMissingLanguagePackIsSaidOncePerRun() throws {
        let scan = try Self.scanned().calculus
        let folder = try TemporaryFolder()
        let scans = folder.file("scans")
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(at: scan, to: scans.appendingPathComponent("\(name).pdf"))
        }
        let extract = try runLectern(["extract", scans.path, "--ocr-lang", "eng+zzz"], in: folder.url)
        let ingest = try runLectern(["ingest", scans.path, "--ocr-lang", "eng+zzz", "--db", folder.file("library.db").path, "--embedder", "hashing"], in: folder.url)
        for (command, run) in [("extract", extract), ("ingest", ingest)] {
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.filter { $0.contains("apt-get install tesseract-ocr-zzz") }.count, 1, "\(command) says what to install once:\n\(run.stderr)")
            XCTAssertTrue(lines.first { $0.contains("apt-get install") }?.hasPrefix("lectern: warning: OCR language zzz is not installed (") == true, run.stderr)
            for name in ["a", "b", "c"] {
                XCTAssertTrue(lines.contains { $0.contains("scans/\(name).pdf: no text layer on page 1 (scanned?): it is not searchable; OCR language zzz is not installed") },
                              "\(command) names \(name).pdf:\n\(run.stderr)")
            }
        }
    }

    func testTheCommandLineShowsWhatOCRRead() throws {
        let scan = try Self.scanned().calculus
        let folder = try TemporaryFolder()
        let extract = try runLectern(["extract", scan.path], in: folder.url)
        XCTAssertEqual(extract.status, 0, extract.stderr)
        XCTAssertTrue(extract.stdout.contains("p.1 ocr "), "extract marks the blocks OCR read:\n\(extract.stdout)")
        XCTAssertTrue(extract.stdout.lowercased().contains("derivative"), extract.stdout)

        let off = try runLectern(["extract", scan.path, "--ocr", "never"], in: folder.url)
        XCTAssertTrue(off.stderr.contains("no text layer on page 1 (scanned?): it is not searchable; OCR is off (--ocr never)"), off.stderr)
        let bad = try runLectern(["extract", scan.path, "--ocr-lang", "eng deu"], in: folder.url)
        XCTAssertNotEqual(bad.status, 0, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--ocr-lang eng deu: give Tesseract language codes joined by +"), bad.stderr)

        let db = folder.file("library.db").path
        let ingest = try runLectern(["ingest", scan.path, "--db", db, "--embedder", "hashing"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let show = try runLectern(["show", scan.path, "--db", db], in: folder.url)
        XCTAssertTrue(show.stdout.contains("ocr: page 1 read by Tesseract 5"), show.stdout)
        let doctor = try runLectern(["doctor", "--db", db], in: folder.url)
        XCTAssertTrue(doctor.stdout.contains("tesseract") && doctor.stdout.contains("eng"), doctor.stdout)
    }

    /// `ingest --ocr-pages N` reads at most N pages of a document with OCR: with 1, the 2-page
    /// scan's first page is searchable, its second is not and the warning says why; a negative
    /// number is refused before anything is read.
    func testOCRPagesCapsThePagesOfADocumentReadWithOCR() throws {
        let scan = try Self.scanned().genetics
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", scan.path, "--ocr-pages", "1"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertTrue(ingest.stderr.contains("no text layer on page 2 (scanned?): it is not searchable; "
                                             + "over the 1 pages a document is read with OCR at most (--ocr-pages)"), ingest.stderr)
        let show = try runLectern(["show", scan.path], in: folder.url)
        XCTAssertTrue(show.stdout.contains("ocr: page 1 read by Tesseract 5"), show.stdout)
        let found = try runLectern(["search", "double helix adenine thymine", "--mode", "keyword", "--json"], in: folder.url)
        XCTAssertEqual(found.status, 0, found.stderr)
        let hits = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]], found.stdout)
        XCTAssertEqual(hits.first?["pageStart"] as? Int, 1, "page 1 was read")
        let missed = try runLectern(["search", "carriers of a recessive trait alleles", "--mode", "keyword"], in: folder.url)
        XCTAssertEqual(missed.status, 1, "page 2 was not read, so nothing is found (exit 1, as grep): \(missed.stdout)")

        let negative = try runLectern(["ingest", scan.path, "--ocr-pages=-1", "--db", "other.db"], in: folder.url)
        XCTAssertEqual(negative.status, 2, negative.stderr)
        XCTAssertTrue(negative.stderr.contains("--ocr-pages must be 0 or more"), negative.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("other.db").path), "nothing was read or made")
    }

    /// Tesseract's lines are joined with a space where a paragraph runs on: "and a" at the end
    /// of a line stays two words before the next line's "few" (a word Tesseract itself reads
    /// as "anda" is its own, not the layout's).
    func testOCRLinesOfAParagraphAreJoinedWithASpace() {
        func word(_ text: String, _ x: Int, _ y: Int) -> OCRText.Word {
            OCRText.Word(text: text, x1: x, y1: y, x2: x + 30 * text.count, y2: y + 42, confidence: 95)
        }
        let first = OCRText.Line(words: [word("protein,", 300, 1339), word("and", 560, 1339), word("a", 680, 1339)],
                                 x1: 300, y1: 1339, x2: 710, y2: 1381, startsParagraph: true)
        let second = OCRText.Line(words: [word("few", 300, 1399), word("give", 420, 1399), word("an", 560, 1399)],
                                  x1: 300, y1: 1399, x2: 650, y2: 1441, startsParagraph: false)
        let third = OCRText.Line(words: [word("advantage.", 300, 1459)], x1: 300, y1: 1459, x2: 600, y2: 1501, startsParagraph: false)
        let text = OCRText(lines: [first, second, third], width: 2480, height: 3509)
        let bitmap = PDFPageOCR.Bitmap(width: 2480, height: 3509, dpi: 300, pointsPerPixel: 72.0 / 300)
        // One size for the three lines, as `evenSizes` gives a paragraph of one type.
        let lines = PDFPageOCR.lines(text, page: 1, bitmap: bitmap).map { line in
            var line = line
            line.fontSize = 10
            return line
        }
        let blocks = PDFLayout(pages: [.init(width: 595, height: 842)], lines: lines, outline: []).run().blocks
        XCTAssertEqual(blocks.map(\.text), ["protein, and a few give an advantage."])
    }

    /// The measure of an unusable text layer: mostly private-use, replacement or control
    /// characters; letters of any script are usable.
    func testATextLayerOfUnmappedGlyphsIsUnusableAndKoreanIsNot() {
        XCTAssertTrue(PDFFile.unusable(Array("\u{E001}\u{E002}\u{E003} \u{E004}x".unicodeScalars)))
        XCTAssertTrue(PDFFile.unusable(Array("\u{FFFD}\u{FFFD}\u{1}a".unicodeScalars)))
        XCTAssertFalse(PDFFile.unusable(Array("ICT 기술변화에 따른 미래 보안기술 전망 보고서".unicodeScalars)))
        XCTAssertFalse(PDFFile.unusable(Array("Ligatures \u{E000} here and there".unicodeScalars)))
    }

    /// The shared corpus's scan (docling's OCR test page): read, searchable, cited by page.
    func testDoclingsOCRTestPageIsSearchable() throws {
        let pdf = try TestPaths.sharedCorpus("pdf/docling-ocr_test.pdf")
        try Self.requireTesseract()
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        let (summary, _) = ingest([pdf.path], into: store)
        XCTAssertEqual(summary.stored, 1)
        XCTAssertGreaterThan(summary.passages, 0)
        let hit = try XCTUnwrap(try Searcher(store: store, embedder: HashingEmbedder()).search("document conversion JSON Markdown", k: 1, mode: .keyword).first)
        XCTAssertEqual(hit.pageStart, 1)
        XCTAssertTrue(hit.text.contains("Docling bundles PDF document conversion"), hit.text)
    }
}
