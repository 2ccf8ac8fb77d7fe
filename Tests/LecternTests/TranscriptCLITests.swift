import XCTest
@testable import Lectern

/// What a user sees from the `lectern` binary when transcripts go in: messages that name the
/// file and line, the good cues of a damaged file kept, speakers and times in search.
final class TranscriptCLITests: XCTestCase {
    let hashing = ["LECTERN_EMBEDDER": "hashing"]

    func testBadTimingLinesAreNamedLikeACompilerWouldAndGoodCuesAreKept() throws {
        let folder = try TemporaryFolder()
        try folder.write("talks/lecture.srt", "1\n00:01:02 -> 00:01:05\nThe derivative is a limit.\n")
        try folder.write("talks/enzymes.srt", """
            1
            00:00:01,000 --> 00:00:03,000
            Enzymes lower the activation energy.

            2
            00:00:03,000 -> 00:00:05,000
            This cue has a broken arrow.

            4
            00:00:06,000 --> 00:00:08,000
            Catalase breaks down hydrogen peroxide.

            """)
        let result = try runLectern(["ingest", "talks"], in: folder.url, environment: hashing)
        XCTAssertEqual(result.status, 1, "one input failed")
        XCTAssertEqual(result.stderr.split(separator: "\n").sorted(), [
            "lectern: talks/lecture.srt:2: malformed timing line '00:01:02 -> 00:01:05'",
            "lectern: warning: talks/enzymes.srt:6: malformed timing line '00:00:03,000 -> 00:00:05,000' (cue skipped)",
        ])
        XCTAssertTrue(result.stdout.hasPrefix("1 stored (1 passage), 0 unchanged, 1 failed, 1 warning"), result.stdout)

        // The good cues are searchable, at their own times.
        let search = try runLectern(["search", "catalase hydrogen peroxide", "-k", "1", "--json"], in: folder.url)
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(search.stdout.utf8)).first)
        XCTAssertEqual(hit.time, 6)
        XCTAssertFalse(hit.snippet.contains("broken arrow"), hit.snippet)

        // Scripts get the line as a field of the failure event.
        try folder.write("more/lecture.srt", "1\n00:01:02 -> 00:01:05\nThe derivative is a limit.\n")
        let events = try runLectern(["ingest", "more", "--events", "json"], in: folder.url, environment: hashing)
        let failed = try XCTUnwrap(events.stderr.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8))
        }.first { $0.event == .failed })
        XCTAssertEqual(failed.input, "more/lecture.srt")
        XCTAssertEqual(failed.line, 2)
        XCTAssertEqual(failed.message, "malformed timing line '00:01:02 -> 00:01:05'")
    }

    func testSearchShowsTheFileTheMomentAndWhoSpeaks() throws {
        let folder = try TemporaryFolder()
        let transcripts = TestPaths.corpora.appendingPathComponent("transcripts")
        let ingest = try runLectern(["ingest", transcripts.path], in: folder.url, environment: hashing)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let result = try runLectern(["search", "Tennis Court Oath", "-k", "1"], in: folder.url)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertTrue(lines.count >= 2, result.stdout)
        XCTAssertTrue(lines[1].contains("study-group-turns.json @ 00:00:30"), result.stdout)
        XCTAssertTrue(lines[1].contains("Jonas"), result.stdout)

        // In a passage where two people speak, the hit names the one who says the words.
        let question = try runLectern(["search", "does glycolysis need oxygen", "-k", "1"], in: folder.url).stdout
        XCTAssertTrue(question.contains("cell-respiration-lecture.vtt @ 00:00:33  — Student\n"), question)
        let json = try runLectern(["search", "does glycolysis need oxygen", "-k", "1", "--json"], in: folder.url).stdout
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(json.utf8)).first)
        XCTAssertEqual(hit.speaker, "Student")
        XCTAssertEqual(hit.time, 33)

        // `extract` shows the timed sentences of a WebVTT file with their speakers.
        let extract = try runLectern(["extract", transcripts.appendingPathComponent("cell-respiration-lecture.vtt").path, "--json"], in: folder.url)
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(extract.stdout.utf8))
        XCTAssertEqual(document.type, "vtt")
        let said = try XCTUnwrap(document.blocks.first { $0.text == "Does glycolysis need oxygen?" })
        XCTAssertEqual(said.speaker, "Student")
        XCTAssertEqual(said.start, 33)
        XCTAssertTrue(document.blocks.allSatisfy { $0.kind == .cue && $0.start != nil && $0.end != nil })
    }

    /// A timed transcript saved on its own (OCW's `<span m='…'>` HTML, here one of 8.01SC's real
    /// transcripts written out of the course JSON) is read as a transcript, not as a web page: a
    /// phrase spoken in it is found at a time inside the span that says it.
    func testASavedTimedTranscriptPageIsATranscript() throws {
        let course = try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: course)) as? [String: Any])
        let media = try XCTUnwrap(json["course_embedded_media"] as? [String: [String: Any]])
        let lecture = try XCTUnwrap(media.values.first { ($0["title"] as? String) == "33.2 Angular Momentum of a Symmetric Object" })
        let transcript = try XCTUnwrap(lecture["transcript"] as? String)
        let folder = try TemporaryFolder()
        try folder.write("angular-momentum.html", "<html><head><title>33.2 Angular Momentum of a Symmetric Object</title></head><body>\(transcript)</body></html>")

        let extract = try runLectern(["extract", "angular-momentum.html", "--json"], in: folder.url, environment: hashing)
        XCTAssertEqual(extract.status, 0, extract.stderr)
        XCTAssertTrue(extract.stdout.contains("\"type\" : \"transcript\""), String(extract.stdout.prefix(300)))

        XCTAssertEqual(try runLectern(["ingest", "angular-momentum.html"], in: folder.url, environment: hashing).status, 0)
        let result = try runLectern(["search", "our axis of rotation", "--mode", "keyword", "--json", "-k", "1"], in: folder.url, environment: hashing)
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).first)
        XCTAssertEqual(hit.title, "33.2 Angular Momentum of a Symmetric Object")
        // "So here is our axis of rotation." is the span m='12110', until the next at 14270.
        let time = try XCTUnwrap(hit.time)
        XCTAssertGreaterThanOrEqual(time, 12.11)
        XCTAssertLessThan(time, 14.27)
        let text = try runLectern(["search", "our axis of rotation", "--mode", "keyword", "-k", "1"], in: folder.url, environment: hashing)
        XCTAssertTrue(text.stdout.contains("angular-momentum.html @ 00:00:12"), text.stdout)
    }
}
