import XCTest
@testable import Lectern

/// What a talk's outline holds besides lessons: a title slide with an outline entry of its own
/// (the talk's name, author and date) and a bibliography continued over several slides
/// ("References I", "References II") are neither units nor topics. The outline of a beamer
/// talk (chapters of frames, as a PDF's outline gives them), generated; a stored document.
final class OutlineMatterTests: XCTestCase {
    func testATitleSlideAndContinuedReferencesAreNotTopics() throws {
        let folder = try TemporaryFolder()
        try folder.write("talk.md", "# Metropolis\n\nA talk about a beamer theme and how its slides look.\n")
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("talk.md").path], recorder: nil) { _ in }.stored, 1)
        let document = try XCTUnwrap(try store.allDocuments().first)
        let prose = { (subject: String) in
            "The \(subject) is what this part of the talk explains. A theme groups slides by section and shows progress; "
                + "the \(subject) decides how titles, lists and blocks look on every slide of the talk."
        }
        let frames: [([String], String)] = [
            (["A modern beamer theme"], "Jane Doe. December 4, 2015."),
            (["Introduction", "The theme"], prose("theme")), (["Introduction", "Sections"], prose("section layout")),
            (["Elements", "Typography"], prose("typography")), (["Elements", "Lists"], prose("list style")),
            (["Conclusion", "Summary"], prose("summary slide")), (["Conclusion", "Outlook"], prose("next version")),
            (["Conclusion", "References I"], "P. Erdős. A selection of problems and results in combinatorics. Cambridge Univ. Press, 1995."),
            (["Conclusion", "References II"], "H. Simpson. Proof of the Riemann Hypothesis. Preprint, 2003."),
        ]
        let passages = frames.enumerated().map { index, frame in
            Passage(id: Int64(index + 1), documentId: 1, ordinal: index, text: frame.1, kind: .text, sectionPath: frame.0,
                    tokenCount: WordTokenizer.words(frame.1).count)
        }
        let units = CurriculumOutline.units(document: document, passages: passages, vectors: [:], alone: true)
        let titles = units.map(\.title) + units.flatMap { $0.topics.map(\.title) }
        XCTAssertEqual(units.map(\.title), ["Introduction", "Elements", "Conclusion"], "\(titles)")
        // The "Summary" frame says again, word for word but "summary", what "Outlook" says: no lesson (NonLesson).
        XCTAssertEqual(units.last?.topics.map(\.title), ["Outlook"], "\(titles)")
        XCTAssertFalse(units.flatMap { $0.topics.flatMap(\.passages) }.contains { $0.text.contains("Erdős") || $0.text.contains("Jane Doe") })
        XCTAssertEqual(CurriculumOutline.normalised("References II"), "references")
        XCTAssertEqual(CurriculumOutline.normalised("Bibliography (cont.)"), "bibliography")
        XCTAssertEqual(CurriculumOutline.normalised("Chapter 3"), "3", "a lone number stays")
    }
}
