import Foundation
import XCTest
@testable import Lectern

/// A card from a lecture transcript cites the moment in the lecture that answers it: the time
/// in its Source, and the video link at that second (`?t=` on YouTube) in `cards list`, the
/// Markdown export and the Anki note's Source field.
final class CardTimeLinkTests: XCTestCase {
    let hashing = ["LECTERN_EMBEDDER": "hashing"]

    /// An OCW course JSON of one page and one lecture video with a timed transcript.
    static let course = #"""
        {"title": "Tiny Mechanics", "uid": "c1", "short_url": "tiny-mechanics", "url": "/courses/tiny-mechanics",
         "course_pages": [{"uid": "p1", "parent_uid": "c1", "order_index": "1", "title": "Week 5: Momentum", "type": "CourseSection",
                           "url": "/courses/tiny-mechanics/week-5", "text": "<p>This week is about momentum and how forces change it over time.</p>"}],
         "course_embedded_media": {"vid1": {"title": "15.1 Momentum and Impulse", "parent_uid": "p1", "order_index": "1",
             "technical_location": "/courses/tiny-mechanics/week-5/15.1", "about_this_resource_text": "",
             "embedded_media": [{"id": "Video-YouTube-Stream", "media_location": "abcDEF12345"}],
             "transcript": "<p><span m='1000'>Today we look at momentum in detail, and at forces that act on bodies over time.</span> <span m='5000'>Momentum is a quantity every moving body has, and it is conserved when no external force acts.</span></p><p><span m='61000'>And the accelerations and the forces are related by Newton's second law, F equals m a.</span> <span m='66000'>The momentum, for a point like mass, is defined as the mass times the velocity.</span> <span m='70000'>We will use these two relations in every problem of this week, so learn them well, and write them down.</span></p>"}}}
        """#

    func testATranscriptCardLinksToItsMomentInTheLecture() throws {
        let folder = try TemporaryFolder()
        try folder.write("tiny-mechanics_parsed.json", Self.course)
        XCTAssertEqual(try runLectern(["ingest", "tiny-mechanics_parsed.json"], in: folder.url, environment: hashing).status, 0)
        let built = try runLectern(["curriculum", "build", "mechanics", "tiny-mechanics_parsed.json"], in: folder.url, environment: hashing)
        XCTAssertEqual(built.status, 0, built.stderr)
        let generated = try runLectern(["cards", "generate", "mechanics"], in: folder.url, environment: hashing)
        XCTAssertEqual(generated.status, 0, generated.stderr)

        let listed = try runLectern(["cards", "list", "--curriculum", "mechanics", "--json"], in: folder.url, environment: hashing)
        let cards = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], listed.stdout)
        let newton = try XCTUnwrap(cards.first { ($0["front"] as? String)?.hasPrefix("Newton's second law") == true }, listed.stdout)
        let time = try XCTUnwrap(newton["time"] as? Double)
        let link = try XCTUnwrap(newton["link"] as? String, "\(newton)")
        XCTAssertEqual(link, "https://youtu.be/abcDEF12345?t=\(Int(time))")
        XCTAssertTrue((newton["source"] as? String)?.contains(TimeFormat.clock(time)) == true, "\(newton)")

        let text = try runLectern(["cards", "list", "--curriculum", "mechanics"], in: folder.url, environment: hashing)
        XCTAssertTrue(text.stdout.contains("Newton's second law: F = ? → F = m a"), text.stdout)
        XCTAssertTrue(text.stdout.contains(link), text.stdout)

        XCTAssertEqual(try runLectern(["cards", "export", "mechanics", "--format", "md", "-o", "deck.md"], in: folder.url, environment: hashing).status, 0)
        let markdown = try String(contentsOf: folder.url.appendingPathComponent("deck.md"), encoding: .utf8)
        XCTAssertTrue(markdown.contains("[▶ \(TimeFormat.clock(time))](\(link))"), markdown)
        XCTAssertEqual(try runLectern(["cards", "export", "mechanics", "--format", "tsv", "-o", "deck.tsv"], in: folder.url, environment: hashing).status, 0)
        let tsv = try String(contentsOf: folder.url.appendingPathComponent("deck.tsv"), encoding: .utf8)
        XCTAssertTrue(tsv.contains("<a href=\"\"\(link)\"\">▶ \(TimeFormat.clock(time))</a>"), tsv)
    }

    /// The package's Source field carries the same link, as HTML Anki shows on the back.
    func testTheAnkiNoteLinksToTheMoment() {
        var card = Flashcard(
            guid: "g", curriculumStableId: "c", topicStableId: "t", noteType: .basic, front: "Newton's second law: \\(F\\) = ?",
            back: "\\(F = m a\\)", origin: .formula,
            source: CardSource(passageId: 1, documentId: 1, documentTitle: "Lecture 5", uri: "", pageStart: nil, pageLabel: nil,
                               timeStart: 61, licence: nil, licenceURL: nil, link: "https://youtu.be/abcDEF12345?t=61"),
            tags: [], grounding: 1, modifiedAt: Date())
        XCTAssertEqual(card.source.attributionHTML, "Lecture 5, 00:01:01 <a href=\"https://youtu.be/abcDEF12345?t=61\">▶ 00:01:01</a>")
        card.source.link = nil
        XCTAssertEqual(card.source.attributionHTML, "Lecture 5, 00:01:01")
    }
}
