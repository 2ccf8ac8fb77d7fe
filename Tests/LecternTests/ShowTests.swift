import XCTest
@testable import Lectern

/// `show` as a table of contents, links to where a hit is in its source, page labels in hits and
/// `ingest --title`, on the shared corpus: the OpenStax book, the German GeoTopo notes (front
/// matter numbered i–iii), a Wikipedia page and an OCW course with lecture videos. One library
/// for the class (ingesting is the slow part). `show p<N> --context`, `search --group` and the
/// pager rule are ShowOnCorporaTests', on corpora/, so they run in every clone.
final class ShowTests: XCTestCase {
    nonisolated(unsafe) static var library: TemporaryFolder?
    nonisolated(unsafe) static var ingest: CommandResult?

    static func corpusLibrary() throws -> TemporaryFolder {
        let corpus = try TestPaths.sharedCorpus()
        try TestPaths.requireLecternBinary()
        if let library { return library }
        let folder = try TemporaryFolder()
        let inputs = ["openstax/introduction-philosophy", "pdf/pypdf-GeoTopo-komprimiert.pdf", "wikipedia/wikipedia-3/source.html",
                      "ocw/8-01sc-classical-mechanics-fall-2016_parsed.json"].map { corpus.appendingPathComponent($0).path }
        ingest = try runLectern(["ingest"] + inputs, in: folder.url)
        library = folder
        return folder
    }

    func lectern(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        let folder = try Self.corpusLibrary()
        XCTAssertEqual(Self.ingest?.status, 0, Self.ingest?.stderr ?? "")
        return try runLectern(arguments, in: folder.url, environment: environment)
    }

    func shortId(_ uriSuffix: String) throws -> String {
        let listed = try lectern("sources", "--json")
        let sources = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let source = try XCTUnwrap(sources.first { ($0["uri"] as? String)?.hasSuffix(uriSuffix) == true }, listed.stdout)
        return try XCTUnwrap((source["documentIds"] as? [String])?.first)
    }

    func hits(_ query: String, _ extra: String...) throws -> [SearchHit] {
        let output = try runLectern(["search", query, "--json"] + extra, in: try Self.corpusLibrary().url)
        XCTAssertEqual(output.status, 0, output.stderr)
        return try JSONDecoder().decode([SearchHit].self, from: Data(output.stdout.utf8))
    }

    /// Lines in this order (each found after the one before), else a failure naming the first missing.
    func assertInOrder(_ text: String, _ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        var rest = text[...]
        for expected in lines {
            guard let found = rest.range(of: expected) else {
                XCTFail("'\(expected)' missing or out of order in:\n\(text.prefix(3000))", file: file, line: line)
                return
            }
            // A line's closing newline may open the next expected line.
            rest = rest[(expected.hasSuffix("\n") ? rest.index(before: found.upperBound) : found.upperBound)...]
        }
    }

    /// Every chapter title of the book (a chapter has no passage of its own), its sections under
    /// it, and the sections' own headings, in book order.
    func testShowPrintsTheOpenStaxBooksTableOfContents() throws {
        let shown = try lectern("show", try shortId("openstax/introduction-philosophy"))
        XCTAssertEqual(shown.status, 0, shown.stderr)
        assertInOrder(shown.stdout, [
            "Contents\n",
            "\n1 Introduction to Philosophy\n", "\n  Introduction\n", "\n  1.1 What Is Philosophy?\n",
            "\n    Learning Objectives\n",
            "\n2 Critical Thinking, Research, Reading, and Writing\n",
            "\n5 Logic and Reasoning\n",
            "\n11 Political Philosophy\n", "\n12 Contemporary Philosophies and Social Theories\n",
        ])
        let chapters = shown.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertEqual(chapters.count, 12, "the book's 12 chapters: \(chapters)")
        // JSON: the same outline, with depths.
        let json = try lectern("show", try shortId("openstax/introduction-philosophy"), "--json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let outline = try XCTUnwrap(object["outline"] as? [[String: Any]])
        XCTAssertEqual(outline.first?["title"] as? String, "Preface")
        let chapter = try XCTUnwrap(outline.first { $0["title"] as? String == "1 Introduction to Philosophy" })
        XCTAssertEqual(chapter["depth"] as? Int, 0)
        XCTAssertEqual(outline.first { $0["title"] as? String == "1.1 What Is Philosophy?" }?["depth"] as? Int, 1)
    }

    /// GeoTopo's outline with the pages as the notes number them (body page 1 is the PDF's page 4).
    func testShowPrintsTheGermanLectureNotesTableOfContentsWithTheirPageNumbers() throws {
        let shown = try lectern("show", try shortId("pypdf-GeoTopo-komprimiert.pdf"))
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        func entry(_ title: String) -> String? { lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(title + " ") } }
        assertInOrder(shown.stdout, ["Contents\n", "1 Topologische Grundbegriffe", "1.1 Topologische Räume", "1.2 Metrische Räume",
                                     "2 Mannigfaltigkeiten und Simplizialkomplexe", "4.2.1 Flächeninhalt", "5 Krümmung",
                                     "Stichwortverzeichnis"])
        XCTAssertTrue(entry("1 Topologische Grundbegriffe")?.hasSuffix("p.3") == true, "\(entry("1 Topologische Grundbegriffe") ?? "missing")")
        XCTAssertTrue(entry("1.2 Metrische Räume")?.hasSuffix("p.7") == true, "\(entry("1.2 Metrische Räume") ?? "missing")")
        // Sections nest under their chapter, subsections deeper.
        XCTAssertTrue(entry("1.1 Topologische Räume")?.hasPrefix("  1.1") == true)
        XCTAssertTrue(entry("4.2.1 Flächeninhalt")?.hasPrefix("    4.2.1") == true)
    }

    /// A hit on the front matter (page 3, printed "iii") says p.iii; JSON keeps the physical page
    /// next to the label; the link opens the PDF at the physical page.
    func testHitsPrintThePageLabelAndLinkToThePDFPage() throws {
        let query = "Abbildung 0.1 Beispiele für verschiedene Formen Würfel Pyramide"
        // Outside XCTUnwrap, so that a clone without ../shared skips rather than fails.
        let found = try hits(query, "--mode", "keyword", "-k", "10")
        let hit = try XCTUnwrap(found.first { $0.text.contains("Abbildung 0.1: Beispiele") })
        XCTAssertEqual(hit.pageStart, 3)
        XCTAssertEqual(hit.pageLabel, "iii")
        XCTAssertTrue(hit.location.contains("pypdf-GeoTopo-komprimiert.pdf p.iii"), hit.location)
        let pdf = try TestPaths.sharedCorpus("pdf/pypdf-GeoTopo-komprimiert.pdf")
        XCTAssertEqual(hit.link, URL(fileURLWithPath: try XCTUnwrap(hit.path)).absoluteString + "#page=3")
        XCTAssertEqual(URL(string: try XCTUnwrap(hit.link))?.standardizedFileURL.path, pdf.standardizedFileURL.path)
        let text = try lectern("search", query, "--mode", "keyword", "-k", "10")
        XCTAssertTrue(text.stdout.contains("p.iii"), text.stdout)
        XCTAssertTrue(text.stdout.contains("#page=3"), text.stdout)
        // A body page: the notes' own number, the physical page in JSON.
        let body = try XCTUnwrap(hits("Definition 1 Ein topologischer Raum ist ein Paar", "--mode", "keyword", "-k", "20")
            .first { $0.text.hasPrefix("Definition 1 Ein topologischer Raum ist ein Paar") })
        XCTAssertEqual(body.pageStart, 6)
        XCTAssertEqual(body.pageLabel, "3")
        XCTAssertTrue(body.location.contains(" p.3"), body.location)
    }

    /// Links: an OCW lecture's video at the second the words are said; a Wikipedia page at its
    /// section's anchor; an OpenStax section at its page on openstax.org.
    func testHitsLinkToWhereTheyAreInTheirSource() throws {
        // Outside XCTUnwrap, so that a clone without ../shared skips rather than fails.
        let lectureHits = try hits("calculate the angular momentum about an axis of rotation of a symmetric object like a ring", "-k", "1")
        let lecture = try XCTUnwrap(lectureHits.first)
        XCTAssertEqual(lecture.kind, .transcript)
        let link = try XCTUnwrap(lecture.link)
        XCTAssertTrue(link.hasPrefix("https://youtu.be/rd9d0WBFzt8?t="), link)
        let second = try XCTUnwrap(Int(link.split(separator: "=").last ?? ""))
        XCTAssertEqual(second, Int(try XCTUnwrap(lecture.time ?? lecture.timeStart)), link)

        let page = try XCTUnwrap(hits("all eigenvalues of a Hermitian matrix are real", "-k", "1").first)
        XCTAssertTrue(page.location.hasSuffix("§ Properties"), page.location)
        XCTAssertEqual(page.link, "https://en.wikipedia.org/wiki/Hermitian_matrix#Properties")

        let book = try XCTUnwrap(hits("Followers of Thales, known as the Milesians, underlying causes of natural change", "-k", "5")
            .first { $0.sectionPath.last == "Beginnings of Natural Philosophy" })
        let bookLink = try XCTUnwrap(book.link)
        XCTAssertTrue(bookLink.hasPrefix("https://openstax.org/books/introduction-philosophy-2e/pages/1-1-what-is-philosophy#sect-"), bookLink)
        // The text output: the link on its own line under the hit.
        let text = try lectern("search", "all eigenvalues of a Hermitian matrix are real", "-k", "1")
        XCTAssertTrue(text.stdout.contains("\n   https://en.wikipedia.org/wiki/Hermitian_matrix#Properties\n"), text.stdout)
    }

    /// `ingest --title` names a document; given again for an unchanged file, it still renames it.
    func testIngestTitleSetsTheDocumentsTitle() throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("week1.md", "# Cells\n\nMitochondria make ATP for the cell.\n")
        var result = try runLectern(["ingest", notes.path, "--title", "Biology, week 1"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try runLectern(["search", "mitochondria", "--json"], in: folder.url)
        XCTAssertEqual(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).first?.title, "Biology, week 1")
        result = try runLectern(["ingest", notes.path, "--title", "Cell biology"], in: folder.url)
        XCTAssertTrue(result.stdout.contains("1 unchanged"), result.stdout)
        result = try runLectern(["show", notes.path], in: folder.url)
        XCTAssertTrue(result.stdout.hasPrefix("Cell biology\n"), result.stdout)
        result = try runLectern(["ingest", notes.path, notes.path, "--title", "Two"], in: folder.url)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--title"), result.stderr)
    }
}

extension ShowTests {
    /// A lecture's video heading carries its time span; a week's page of several lectures none
    /// (their times each start at zero); a subtitle file without headings lists its passages by
    /// time; a duration reads as hh:mm:ss.
    func testShowPrintsTimesOfRecordings() throws {
        let shown = try lectern("show", try shortId("8-01sc-classical-mechanics-fall-2016_parsed.json"))
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        let video = try XCTUnwrap(lines.first { $0.hasPrefix("  0.1 Vectors vs. Scalars ") }, shown.stdout)
        XCTAssertNotNil(video.range(of: #"00:00:0\d–00:00:5\d$"#, options: .regularExpression), video)
        let week = try XCTUnwrap(lines.first { $0.hasPrefix("Week 1: Kinematics") })
        XCTAssertEqual(week, "Week 1: Kinematics", "several lectures: no time span")

        let folder = try TemporaryFolder()
        let srt = try TestPaths.sharedCorpus("transcripts/hf-course-01_the-pipeline-function.srt")
        XCTAssertEqual(try runLectern(["ingest", srt.path], in: folder.url).status, 0)
        let subtitles = try runLectern(["show", srt.path], in: folder.url)
        XCTAssertTrue(subtitles.stdout.contains("\nduration: 00:04:28\n"), subtitles.stdout)
        assertInOrder(subtitles.stdout, ["Contents\n", "00:00:05  The pipeline function.", "00:01:08  "])
    }
}
