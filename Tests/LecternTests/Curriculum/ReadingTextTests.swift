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

    /// A page cut from a paper, with no title in its info dictionary nor on the page, is titled by
    /// its running head, not its file name "docling-2305.03393v1-pg9"; a PDF whose title is on its
    /// first page keeps it.
    func testAPageOfAPaperIsTitledByItsRunningHead() throws {
        XCTAssertEqual(try read("pdf/docling-2305.03393v1-pg9.pdf").title, "Optimized Table Tokenization for Table Structure Recognition")
        XCTAssertEqual(try read("pdf/pypdf-multicolumn.pdf").title, "Two-Column Document with Lorem Ipsum")
    }

    /// The mtheme deck's "Potential Problems" blocks: the block's title is a line of its own, so
    /// the "Titleformats" summary reads "Be aware, that not every font supports small caps." and
    /// not "Potential Problems Be aware, that …".
    func testASlidesBlockTitleIsNoPartOfTheSentenceUnderIt() throws {
        let deck = try read("pdf/mtheme-demo-slides.pdf")
        let texts = deck.blocks.map(\.text)
        XCTAssertEqual(texts.filter { $0.lowercased() == "potential problems" }.count, 3, "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("Be aware, that not every font supports small caps.") }, "\(texts)")
        XCTAssertFalse(texts.contains { $0.lowercased().hasPrefix("potential problems ") }, "\(texts)")
        // Body text that opens on a short line stays one paragraph.
        XCTAssertTrue(texts.contains("This frame uses the smallcaps titleformat."), "\(texts)")

        let source = try TestPaths.sharedCorpus("pdf/mtheme-demo-slides.pdf").path
        let course = try SharedCorpusLibrary.load().curriculum("slides", sources: [source])
        let summaries = course.topics.map(\.summary)
        XCTAssertTrue(summaries.contains { $0.contains("Be aware, that not every font supports small caps.") }, "\(summaries)")
        XCTAssertFalse(summaries.contains { $0.lowercased().contains("potential problems") }, "\(summaries)")
    }

    /// GeoTopo's "Die Nebenwinkel von ∠PQR sind die von QP+ und QR− bzw. QP− und QR+ gebildeten
    /// Winkel." is one sentence, not two with "QP − und QR+ gebildeten Winkel." alone; over the
    /// whole notes no sentence before a paragraph's last ends on "bzw.", "z.B.", "vgl.", "d.h.",
    /// "sog." or "Def.".
    func testGermanAbbreviationsEndNoSentence() throws {
        let notes = try read("pdf/pypdf-GeoTopo-komprimiert.pdf")
        let angles = try XCTUnwrap(notes.blocks.first { $0.text.contains("Die Nebenwinkel von") })
        let sentences = SentenceSplitter.split(angles.text).map(\.text)
        XCTAssertTrue(sentences.contains { $0.hasPrefix("Die Nebenwinkel von") && $0.hasSuffix("gebildeten Winkel.") }, "\(sentences)")
        XCTAssertFalse(sentences.contains { $0.hasPrefix("QP") }, "\(sentences)")
        let beforeCapital = try NSRegularExpression(pattern: #"\b(bzw|z\.B|vgl|sog|Def)\. [A-ZÄÖÜ]"#)
        var abbreviated = 0
        for block in notes.blocks {
            let sentences = SentenceSplitter.split(block.text).map(\.text)
            // A block's last sentence ends where its text does ("… die obere Halbebene bzw." at a page's end).
            for sentence in sentences.dropLast() {
                let last = sentence.split(separator: " ").last.map(String.init) ?? ""
                XCTAssertFalse(["bzw.", "z.B.", "vgl.", "d.h.", "sog.", "Def.", "u.a."].contains(last), sentence)
            }
            for sentence in sentences {
                abbreviated += beforeCapital.numberOfMatches(in: sentence, range: NSRange(sentence.startIndex..., in: sentence))
            }
        }
        XCTAssertGreaterThanOrEqual(abbreviated, 15, "the notes use them before capitals (bzw. V, vgl. A, z.B. S), inside sentences")
    }

    /// OCW 8.01SC's week overviews list their lessons ("9.2 Uniform Circular Motion - Direction of
    /// the Acceleration", "PS.7.1 Worked Example - …", "Lesson 21: …") before the week's
    /// introduction; the summary is the introduction's sentences, not the list glued into one.
    func testAWeeksListOfLessonsIsNoPartOfItsSummary() throws {
        let source = try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path
        let course = try SharedCorpusLibrary.load().curriculum("mechanics", sources: [source])
        let overviews = course.topics.filter { $0.title.hasPrefix("Week ") && $0.title.hasSuffix(" Introduction") }
        XCTAssertEqual(overviews.count, 12, "\(overviews.map(\.title))")
        for overview in overviews {
            let summary = overview.summary
            XCTAssertFalse(summary.isEmpty, overview.title)
            XCTAssertFalse(summary.contains("Worked Example") || summary.contains("Lesson ")
                           || summary.range(of: #"\b(\d+|PS|DD)\.\d+(\.\d+)? [A-Z]"#, options: .regularExpression) != nil,
                           "\(overview.title): \(summary)")
            XCTAssertTrue(summary.first?.isUppercase == true, "\(overview.title): \(summary)")
        }
        let circular = try XCTUnwrap(overviews.first { $0.title.hasPrefix("Week 3 ") })
        XCTAssertTrue(circular.summary.contains("circular motion"), circular.summary)
    }
}
