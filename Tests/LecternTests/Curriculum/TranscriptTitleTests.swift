import XCTest
@testable import Lectern

/// Recordings whose files carry no title (SubRip has no title line; a WebVTT file may have none)
/// are named in a curriculum by what their lecture says, never by their file names: the subject
/// the lecturer announces, a title said first, and failing both the key phrases; a title the
/// file does give stands. Generated captions, hashing embedder: a second or two.
final class TranscriptTitleTests: XCTestCase {
    func testARecordingIsTitledByItsStatedSubjectNotItsFileName() throws {
        let folder = try TemporaryFolder()
        try folder.write("course/lecture_03_final.srt", Self.srt([
            "(chalk tapping)",
            "- So today let's talk about the chain rule.",
            "The chain rule tells us how to differentiate a composition of two functions.",
            "If y is a function of u and u is a function of x, the derivative of y with respect to x",
            "is the derivative of y with respect to u times the derivative of u with respect to x.",
            "We apply the chain rule whenever one function sits inside another.",
        ]))
        try folder.write("course/rec-2024-10-02.vtt", Self.vtt(title: nil, [
            "Enzyme kinetics.",
            "Enzyme kinetics measures how fast an enzyme turns its substrate into product.",
            "The rate rises with the substrate concentration until every enzyme is busy.",
            "That ceiling is the maximum rate of the enzyme.",
        ]))
        try folder.write("course/take_7_FINAL.srt", Self.srt([
            "Okay, are we recording?",
            "Good.",
            "Photosynthesis stores the energy of light in sugar.",
            "Chlorophyll absorbs red and blue light in the chloroplast.",
            "The light reactions split water and release oxygen from the chloroplast.",
        ]))
        try folder.write("course/zz-header.vtt", Self.vtt(title: "Biology 101, lecture 7: cellular respiration", [
            "Good morning, everyone.",
            "Cellular respiration releases the energy stored in glucose.",
            "It takes place in the mitochondria of the cell.",
        ]))
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("course").path], recorder: nil) { _ in }.stored, 4)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
            .build(name: "course", sources: [folder.file("course").path], recorder: nil) { _ in }
        let course = try XCTUnwrap(try store.curriculum(named: "course"))

        let units = course.units.map(\.title)
        XCTAssertEqual(units.count, 4, "\(units)")
        XCTAssertEqual(units[0], "The chain rule", "the subject the lecture announces")
        XCTAssertEqual(units[1], "Enzyme kinetics", "the title said first")
        XCTAssertEqual(units[3], "Biology 101, lecture 7: cellular respiration", "the file's own title stands")
        // Nothing announced, nothing said as a title: its key phrases, still no file name.
        XCTAssertFalse(units[2].isEmpty)
        XCTAssertTrue(units[2].lowercased().contains("chloroplast") || units[2].lowercased().contains("light"), units[2])
        let named = units + course.topics.map(\.title) + course.sources.map(\.title)
        for file in ["lecture_03_final", "rec-2024-10-02", "take_7_FINAL", "zz-header"] {
            XCTAssertFalse(named.contains { $0.contains(file) }, "\(file) in \(named)")
        }
        // A recording of one subject is one topic under its unit's title.
        XCTAssertEqual(course.units[0].topics.map(\.title), ["The chain rule"])
        XCTAssertEqual(course.sources.map(\.title).first, "The chain rule")
    }

    func testAnAnnouncedSubjectIsTakenAndAStatementIsNot() {
        XCTAssertEqual(StatedTitle.announced(in: "In this video, we'll study the encoder architecture."), "the encoder architecture")
        XCTAssertEqual(StatedTitle.announced(in: "So let's talk about the carbon footprint of transformers."), "the carbon footprint of transformers")
        XCTAssertEqual(StatedTitle.announced(in: "This lecture is about conservation of momentum."), "conservation of momentum")
        XCTAssertEqual(StatedTitle.announced(in: "Okay, let's review the French Revolution before the exam."), "the French Revolution")
        XCTAssertNil(StatedTitle.announced(in: "Let's look at this."), "a pointer names nothing")
        XCTAssertNil(StatedTitle.announced(in: "The idea of transfer learning is to leverage the knowledge acquired."))
        XCTAssertEqual(StatedTitle.saidAsTitle("What is transfer learning?"), "What is transfer learning?")
        XCTAssertEqual(StatedTitle.saidAsTitle("Welcome to the Hugging Face Course."), "Welcome to the Hugging Face Course")
        XCTAssertNil(StatedTitle.saidAsTitle("Good morning, everyone."))
        XCTAssertNil(StatedTitle.saidAsTitle("It works."))
    }

    static func srt(_ lines: [String]) -> String {
        lines.enumerated().map { index, line in
            "\(index + 1)\n\(clock(index * 4, ",")) --> \(clock(index * 4 + 4, ","))\n\(line)"
        }.joined(separator: "\n\n") + "\n"
    }

    static func vtt(title: String?, _ lines: [String]) -> String {
        "WEBVTT" + (title.map { " - " + $0 } ?? "") + "\n\n" + lines.enumerated().map { index, line in
            "\(clock(index * 4, ".")) --> \(clock(index * 4 + 4, "."))\n\(line)"
        }.joined(separator: "\n\n") + "\n"
    }

    static func clock(_ seconds: Int, _ mark: String) -> String {
        String(format: "00:%02d:%02d", seconds / 60, seconds % 60) + mark + "000"
    }
}
