import XCTest
@testable import Lectern

/// Titles and text that read right in a curriculum: a page is titled by its subject, not its
/// file name; a slide's block title, a German abbreviation and a week's list of lessons are no
/// part of the sentence after them. On the shared corpus's real pages, slides, notes and course.
final class ReadingTextTests: XCTestCase {
    func read(_ path: String) throws -> ExtractedDocument {
        let url = try TestPaths.sharedCorpus(path)
        let input = SourceInput(uri: url.absoluteString, path: url.path, data: try Data(contentsOf: url), options: ExtractOptions())
        return try ReaderRegistry.standard.reader(for: input).extract(input)
    }

    /// The four saved Wikipedia pages of the shared corpus, each as the page and as a reader
    /// view's "expected.html" (no <title>, no first heading): every unit is named after its
    /// article, never "expected", and no heading keeps its "[edit]" link, nor is "[edit]" alone
    /// (Mozilla's "Community", whose headline lost its text, is named by its edit link).
    func testASavedPageIsTitledByItsSubjectNotItsFileName() throws {
        let pages = try TestPaths.sharedCorpus("wikipedia").path
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([pages], recorder: nil) { _ in }.stored, 8)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "wiki", sources: [pages], recorder: nil) { _ in }
        let course = try XCTUnwrap(try store.curriculum(named: "wiki"))
        XCTAssertEqual(Set(course.units.map(\.title)), ["New Zealand", "Hermitian matrix", "List of films featuring time loops", "Mozilla"])
        XCTAssertEqual(course.units.count, 8)
        let titles = course.topics.map(\.title)
        for title in titles {
            XCTAssertFalse(title.contains("[edit]") || ["expected", "source"].contains(title), "\(title): \(titles)")
        }
        for unit in course.units where unit.title == "Mozilla" {
            XCTAssertTrue(unit.topics.map(\.title).contains("Community"), "\(unit.topics.map(\.title))")
        }
        XCTAssertEqual(try read("wikipedia/wikipedia-4/expected.html").title, "List of films featuring time loops", "\"This list of films …\"")
    }
}
