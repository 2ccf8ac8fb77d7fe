import XCTest
@testable import Lectern

/// A slide deck's frames are not lessons one by one (a table of cities, a figure's caption, a
/// list of font styles were graded "teaches nothing", seed 2718): a deck's section is its topic,
/// its frames in order, with "Questions?" and reference frames left out and a closing section of
/// a few words dropped. A book's sections (pages long) stay topics. Generated outline: instant.
final class SlideDeckTopicsTests: XCTestCase {
    func testADecksSectionsAreItsTopics() throws {
        let folder = try TemporaryFolder()
        try folder.write("talk.md", "# Metropolis\n\nA talk about a beamer theme.\n")
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("talk.md").path], recorder: nil) { _ in }.stored, 1)
        let document = try XCTUnwrap(try store.allDocuments().first)
        let frames: [([String], String)] = [
            (["Introduction", "Metropolis"], "The metropolis theme is a Beamer theme with minimal visual noise. Enable the theme by loading it in the preamble."),
            (["Introduction", "Sections"], "Sections group slides of the same topic, for which the theme provides a progress indicator at the top of each frame of the talk."),
            (["Elements", "Typography"], "The theme provides sensible defaults to emphasize text, accent parts or show bold results."),
            (["Elements", "Font feature test"], "Regular Italic SmallCaps Bold Monospace"),
            (["Elements", "Figures"], "Figure 1: Rotated square from texample.net."),
            (["Elements", "Tables"], "Table 1: Largest cities in the world. City Population Mexico City 20,116,842 Shanghai 19,210,000"),
            (["Elements", "Blocks"], "Three different block environments are pre-defined and may be styled with an optional background color."),
            (["Conclusion", "Summary"], "Get the source of this theme from github.com/matze/mtheme."),
            (["Conclusion", "Questions?"], ""),
            (["Conclusion", "References I"], "P. Erdős. A selection of problems and results in combinatorics. Cambridge Univ. Press, 1995."),
        ]
        let passages = frames.enumerated().map { index, frame in
            Passage(id: Int64(index + 1), documentId: 1, ordinal: index, text: frame.1, kind: .text, sectionPath: frame.0,
                    pageStart: index + 3, pageEnd: index + 3, tokenCount: WordTokenizer.words(frame.1).count)
        }
        let units = CurriculumOutline.units(document: document, passages: passages, vectors: [:], alone: true)
        let titles = units.flatMap { $0.topics.map(\.title) }
        XCTAssertEqual(units.count, 1, "\(titles)")
        XCTAssertEqual(titles, ["Introduction: \(document.title)", "Elements"])
        let elements = try XCTUnwrap(units.first?.topics.last)
        XCTAssertEqual(elements.passages.map(\.sectionPath.last), ["Typography", "Font feature test", "Figures", "Tables", "Blocks"], "the frames, in order")
        XCTAssertFalse(units.flatMap { $0.topics.flatMap(\.passages) }.contains { $0.text.contains("Erdős") || $0.text.contains("mtheme") })

        // The same outline with pages of prose (a book's sections): each section stays a topic.
        let book = passages.map { passage -> Passage in
            var long = passage
            long.text = String(repeating: passage.text.isEmpty ? "Questions for review follow. " : passage.text + " ", count: 12)
            long.pageEnd = (passage.pageStart ?? 0) + 2
            return long
        }
        let bookTitles = CurriculumOutline.units(document: document, passages: book, vectors: [:], alone: true).flatMap { $0.topics.map(\.title) }
        XCTAssertTrue(bookTitles.contains("Tables") && bookTitles.contains("Figures"), "\(bookTitles)")
    }

    func testADecksSectionOfDemonstrationFramesIsNoTopic() throws {
        let folder = try TemporaryFolder()
        try folder.write("talk.md", "# Metropolis\n\nA talk about a beamer theme.\n")
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("talk.md").path], recorder: nil) { _ in }.stored, 1)
        let document = try XCTUnwrap(try store.allDocuments().first)
        // Seed 5813's "Elements": eleven frames showing what the theme draws, two saying anything.
        let frames: [([String], String)] = [
            (["Introduction", "Metropolis"], "The metropolis theme is a Beamer theme with minimal visual noise. Enable the theme by loading it in the preamble."),
            (["Introduction", "Sections"], "Sections group slides of the same topic, for which the theme provides a progress indicator at the top of each frame of the talk."),
            (["Titleformats", "Small caps"], "This frame uses the smallcaps titleformat. Be aware that not every font supports small caps, so check your font first."),
            (["Titleformats", "All caps"], "This frame uses the allcaps titleformat. It suffers from the same deficiencies as the small caps, so read the documentation."),
            (["Elements", "Typography"], "The theme provides sensible defaults to emphasize text, accent parts or show bold results."),
            (["Elements", "Font feature test"], "Regular Italic SmallCaps Bold Bold Italic Bold SmallCaps Monospace Monospace Italic Monospace Bold"),
            (["Elements", "Lists"], "Items\n• Milk\n• Eggs\n• Potatos\n\nEnumerations\n1. First,\n2. Second and\n3. Last.\n\nDescriptions PowerPoint Meeh."),
            (["Elements", "Blocks"], "Three different block environments are pre-defined and may be styled with an optional background color."),
            (["Elements", "Blocks"], "Default | Default\nBlock content. | Block content.\nAlert | Alert\nBlock content. | Block content."),
            (["Elements", "Tables"], "Table 1: Largest cities in the world. City Population Mexico City 20,116,842 Shanghai 19,210,000 Peking 15,796,450"),
            (["Elements", "Math"], "e = lim n→∞ (1 + 1/n)ⁿ"),
            (["Elements", "Line plots"], "1 0.5 0 −0.5 −1 −4 −2 0 2 4"),
            (["Elements", "Quotes"], "Veni, Vidi, Vici"),
        ]
        let passages = frames.enumerated().map { index, frame in
            Passage(id: Int64(index + 1), documentId: 1, ordinal: index, text: frame.1, kind: .text, sectionPath: frame.0,
                    pageStart: index + 3, pageEnd: index + 3, tokenCount: WordTokenizer.words(frame.1).count)
        }
        let titles = CurriculumOutline.units(document: document, passages: passages, vectors: [:], alone: true).flatMap { $0.topics.map(\.title) }
        XCTAssertEqual(titles, ["Introduction: \(document.title)", "Titleformats"], "the demonstration frames make no lesson")
    }

    /// The mtheme deck's blocks are titled "Potential Problems", which its extraction glues onto
    /// the block's first sentence; a summary reads the sentence without it.
    func testADecksSummaryHasNoBlockTitleGluedOntoItsSentences() throws {
        let slides = try SharedCorpusLibrary.load().curriculum("slides", sources: [try TestPaths.sharedCorpus("pdf/mtheme-demo-slides.pdf").path])
        let formats = try XCTUnwrap(slides.units.flatMap(\.topics).first { $0.title == "Titleformats" })
        XCTAssertTrue(formats.summary.contains("Be aware, that not every font supports small caps."), formats.summary)
        XCTAssertFalse(formats.summary.lowercased().contains("potential problems"), formats.summary)
    }
}
