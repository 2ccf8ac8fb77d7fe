import XCTest
@testable import Lectern

/// SIGINT and SIGTERM stop `lectern run` in every stage, not only while it reads sources
/// (issue #39 item 6): between curricula, topics, decks and outputs. The later stages are made
/// slow by a real language-model server on 127.0.0.1 that takes its time over each answer: half a
/// second, time enough to signal while a call is in hand (1.5 s kept the class 23 s on a clock
/// for 2 s of CPU).
final class PipelineStopTests: CommandTestCase {
    var model: TestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        model = try TestServer(routes: ["/v1/chat/completions": ["delay": 0.5, "json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "slow",
            "choices": [["index": 0, "message": ["role": "assistant", "content": #"{"summary": "Enzymes lower the activation energy of the reactions these notes describe.", "key_points": ["Enzymes lower activation energy"]}"#], "finish_reason": "stop"]],
        ]]])
        for note in 0..<3 {
            var text = "# Note \(note)\n\n"
            for part in 0..<4 {
                text += "## Part \(part)\n\nEnzyme \(note * 4 + part) is a protein that speeds up reaction \(part) of the cell.\nPart \(part) of note \(note) says that enzyme \(note * 4 + part) lowers the activation energy of reaction \(part).\n\n"
            }
            try folder.write("notes/note-\(note).md", text)
        }
        try folder.write("p.toml", """
            [llm]
            provider = "openai"
            model = "slow"
            base_url = "\(model.url("/v1"))"
            max_concurrency = 1
            [[source]]
            path = "notes"
            [[curriculum]]
            name = "c"
            sources = ["notes"]
            [[deck]]
            curriculum = "c"
            format = "tsv"
            output = "out/c.tsv"
            [[export]]
            curriculum = "c"
            format = "umcf"
            output = "out/c.umcf"
            """)
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        model?.stop()
        super.tearDown()
    }

    var modelCalls: Int { ((try? model.requests()) ?? []).count }

    func lastRun() throws -> RunRecord {
        try XCTUnwrap(try JSONDecoder().decode([RunRecord].self, from: Data(try runLectern(["runs", "--json"], in: folder.url).stdout.utf8)).first)
    }

    /// The signal comes while the curriculum's topics are being written by the model: the run
    /// stops after the call in hand, saves no curriculum and writes no output.
    func testSIGTERMWhileTheCurriculumIsBuiltStopsTheRun() throws {
        let running = try RunningLectern(["run", "p.toml", "--events", "json"], in: folder.url)
        let deadline = Date().addingTimeInterval(60)
        while modelCalls == 0 && Date() < deadline && running.process.isRunning { usleep(20_000) }
        XCTAssertGreaterThan(modelCalls, 0, "the curriculum stage never called the model")
        let signalled = Date()
        running.send(SIGTERM)
        let result = running.finish(timeout: 30)
        XCTAssertEqual(result.status, 143, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 5, "it stopped after the call in hand")
        XCTAssertTrue(result.stdout.contains("interrupted (SIGTERM)"), result.stdout)
        XCTAssertEqual(running.events.last?.message, "interrupted")
        XCTAssertEqual(try lastRun().status, .interrupted)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path), [], "no output written")
        let curricula = try runLectern(["curriculum", "list", "--json"], in: folder.url)
        XCTAssertEqual(try JSONDecoder().decode([CurriculumSummary].self, from: Data(curricula.stdout.utf8)).count, 0)
    }

    /// The signal comes once the curriculum is saved, while the deck's cards are asked of the
    /// model: the curriculum stays, the cards and files are not written, the run is interrupted.
    func testSIGINTWhileCardsAreMadeStopsBeforeTheOutputs() throws {
        let running = try RunningLectern(["run", "p.toml", "--events", "json"], in: folder.url)
        XCTAssertTrue(running.waitForStderr(timeout: 120) { $0.contains("curriculum built") }, "the curriculum was never built")
        let callsBefore = modelCalls
        let deadline = Date().addingTimeInterval(30)
        while modelCalls == callsBefore && Date() < deadline && running.process.isRunning { usleep(20_000) }
        running.send(SIGINT)
        let result = running.finish(timeout: 30)
        XCTAssertEqual(result.status, 130, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("interrupted (SIGINT)"), result.stdout)
        XCTAssertEqual(try lastRun().status, .interrupted)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path), [], "no output written")

        // The next run finishes the job.
        model.stop()
        model = nil
        try folder.write("p.toml", try String(contentsOf: folder.file("p.toml"), encoding: .utf8)
            .replacingOccurrences(of: "provider = \"openai\"", with: "provider = \"extractive\""))
        let next = try runLectern(["run", "p.toml", "--events", "json"], in: folder.url)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path)), ["c.tsv", "c.umcf"], next.stderr)
    }
}
