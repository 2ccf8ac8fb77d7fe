import XCTest
@testable import Lectern

/// Stages hand each other typed values: a transcript sentence's cue times and paragraph start
/// are fields of its block, a warning has its line and its message, a passage's kind is an
/// enum. `lectern extract --json` shows them as such, for scripts.
final class TypedBlocksTests: XCTestCase {
    /// One sentence said over two cues (the second starting at 00:00:04), then a bad cue.
    let lecture = """
        WEBVTT

        00:00:01.000 --> 00:00:04.000
        Enzymes lower the activation

        00:00:04.000 --> 00:00:06.000
        energy of the reactions they speed up.

        00:00:0x.000 --> 00:00:09.000
        This cue has a bent time.

        00:00:20.000 --> 00:00:22.000
        After a long pause, catalase breaks down peroxide.

        """

    func testTranscriptTimesAndParagraphsAreFieldsOfTheBlock() throws {
        let document = try WebVTTExtractor().extract(SourceInput(uri: "file:///l.vtt", path: "/l.vtt", data: Data(lecture.utf8)))
        XCTAssertEqual(document.blocks.map(\.text), ["Enzymes lower the activation energy of the reactions they speed up.",
                                                     "After a long pause, catalase breaks down peroxide."])
        let first = document.blocks[0]
        XCTAssertEqual(first.timeline, [TimePoint(offset: 0, seconds: 1), TimePoint(offset: 29, seconds: 4)])
        XCTAssertEqual(first.text.dropFirst(29).prefix(6), "energy", "the second cue's words begin at its offset")
        XCTAssertEqual(document.blocks.map(\.startsParagraph), [true, true], "a pause over 2.5 s opens a paragraph")
        XCTAssertEqual(first.attributes, [:], "no timeline or paragraph strings for the chunker to parse back")
        XCTAssertEqual(document.warnings, [ExtractionWarning("malformed timing line '00:00:0x.000 --> 00:00:09.000' (cue skipped)", line: 9)])

        // The chunker reads the fields: the passage knows when "energy" is said.
        let passage = try XCTUnwrap(Chunker().chunk(document.blocks).first)
        XCTAssertEqual(passage.kind, .transcript)
        let energy = try XCTUnwrap(passage.text.range(of: "energy"))
        XCTAssertEqual(passage.time(atOffset: passage.text.distance(from: passage.text.startIndex, to: energy.lowerBound)), 4)
    }

    func testExtractJSONShowsTypedTimesParagraphsAndWarnings() throws {
        let folder = try TemporaryFolder()
        try folder.write("lecture.vtt", lecture)
        let result = try runLectern(["extract", "lecture.vtt", "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "lectern: warning: lecture.vtt:9: malformed timing line '00:00:0x.000 --> 00:00:09.000' (cue skipped)\n")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let blocks = try XCTUnwrap(json["blocks"] as? [[String: Any]])
        XCTAssertEqual(blocks[0]["timeline"] as? [[Double]], [[0, 1], [29, 4]])
        XCTAssertEqual(blocks[0]["startsParagraph"] as? Bool, true)
        XCTAssertEqual(blocks[0]["attributes"] as? [String: String], [:])
        let warnings = try XCTUnwrap(json["warnings"] as? [[String: Any]])
        XCTAssertEqual(warnings.first?["line"] as? Int, 9)
        XCTAssertEqual(warnings.first?["message"] as? String, "malformed timing line '00:00:0x.000 --> 00:00:09.000' (cue skipped)")
        // And it reads back as the same document.
        let decoded = try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(decoded.blocks[0].timeline, [TimePoint(offset: 0, seconds: 1), TimePoint(offset: 29, seconds: 4)])
        XCTAssertEqual(decoded.warnings.first?.line, 9)
    }
}
