import XCTest
@testable import Lectern

/// The "done when", as a user runs it: the whole OpenStax book, the four Wikipedia
/// pages and the three OCW courses ingest with their hierarchy and are searchable with
/// provenance (book › chapter › section, page § section, course › page @ time).
final class WebCLITests: XCTestCase {
    func testWebCorpusIngestsAndIsSearchableWithProvenance() throws {
        let corpus = try TestPaths.sharedCorpus()
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        func lectern(_ arguments: String...) throws -> CommandResult { try runLectern(arguments, in: folder.url) }
        let wikipedia = ["wikipedia", "wikipedia-2", "wikipedia-3", "wikipedia-4"].map { corpus.appendingPathComponent("wikipedia/\($0)/source.html").path }
        let book = corpus.appendingPathComponent("openstax/introduction-philosophy").path
        let courses = corpus.appendingPathComponent("ocw").path

        var result = try runLectern(["ingest", book] + wikipedia + [courses, "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try JSONDecoder().decode(IngestSummary.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(summary.stored, 8, "one book, four pages, three courses")
        XCTAssertEqual(summary.failed, 0)

        result = try lectern("sources", "--json")
        let sources = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let types = sources.compactMap { $0["types"] as? String }.sorted()
        XCTAssertEqual(types, ["ocw", "ocw", "ocw", "openstax", "wikipedia", "wikipedia", "wikipedia", "wikipedia"], result.stdout)

        func top(_ query: String, _ extra: String...) throws -> SearchHit {
            let output = try runLectern(["search", query, "--json", "-k", "3"] + extra, in: folder.url)
            XCTAssertEqual(output.status, 0, output.stderr)
            return try XCTUnwrap(JSONDecoder().decode([SearchHit].self, from: Data(output.stdout.utf8)).first, "no hit for \(query)")
        }
        // Book › chapter › section.
        let book1 = try top("Followers of Thales, known as the Milesians, underlying causes of natural change")
        XCTAssertEqual(book1.title, "Introduction to Philosophy 2e")
        XCTAssertEqual(Array(book1.sectionPath.prefix(2)), ["1 Introduction to Philosophy", "1.1 What Is Philosophy?"])
        XCTAssertTrue(book1.location.contains("§ 1 Introduction to Philosophy › 1.1 What Is Philosophy?"), book1.location)

        // A Wikipedia page with its section.
        let page = try top("all eigenvalues of a Hermitian matrix are real")
        XCTAssertEqual(page.title, "Hermitian matrix")
        XCTAssertEqual(page.type, "wikipedia")
        XCTAssertTrue(page.location.hasSuffix("wikipedia-3/source.html § Properties"), page.location)

        // A lecture transcript: course › page, at the time the words are said.
        let lecture = try top("calculate the angular momentum about an axis of rotation of a symmetric object like a ring")
        XCTAssertEqual(lecture.title, "Classical Mechanics")
        XCTAssertEqual(lecture.kind, .transcript)
        XCTAssertEqual(lecture.sectionPath, ["Week 11: Angular Momentum", "33.2 Angular Momentum of a Symmetric Object"])
        XCTAssertNotNil(lecture.timeStart)
        XCTAssertTrue(lecture.location.contains(" @ 00:0"), lecture.location)

        // A course page (syllabus) with its heading.
        let syllabus = try top("Single Variable Calculus corequisite", "--mode", "keyword", "--type", "ocw")
        XCTAssertEqual(syllabus.title, "Classical Mechanics")
        XCTAssertEqual(syllabus.sectionPath.first, "Syllabus")

        // Re-running is cheap: everything unchanged.
        result = try runLectern(["ingest", book] + wikipedia + [courses], in: folder.url)
        XCTAssertTrue(result.stdout.hasPrefix("0 stored (0 passages), 8 unchanged"), result.stdout)
    }
}
