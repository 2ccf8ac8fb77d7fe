import XCTest
@testable import Lectern

/// `lectern run FILE`, as cron runs it: strict pipeline files, runs that do only what changed,
/// one run at a time per library, and a library that survives being killed at any moment.
final class PipelineRunTests: CommandTestCase {
    /// Markdown notes with distinct text, `paragraphs` paragraphs each under a few headings.
    func writeNotes(_ count: Int, paragraphs: Int = 12, into folderName: String = "notes", in base: TemporaryFolder? = nil) throws {
        let words = ["entropy", "channel", "signal", "noise", "coding", "bits", "source", "message", "capacity", "redundancy",
                     "parity", "symbol", "alphabet", "probability", "compression", "decoder", "encoder", "error", "rate", "block"]
        for note in 0..<count {
            var text = "# Note \(note): \(words[note % words.count]) and \(words[(note * 7 + 3) % words.count])\n\n"
            // A definition, which flashcards ask about.
            text += "\(words[note % words.count].capitalized) is the quantity of \(words[(note + 5) % words.count]) that a channel carries per symbol.\n\n"
            for paragraph in 0..<paragraphs {
                if paragraph % 4 == 0 { text += "## Part \(paragraph / 4 + 1)\n\n" }
                let picked = (0..<14).map { words[(note * 31 + paragraph * 17 + $0 * 7) % words.count] }
                text += "Paragraph \(paragraph) of note \(note) says that the \(picked.prefix(7).joined(separator: " ")) "
                    + "meets the \(picked.suffix(7).joined(separator: " ")), which a careful reader checks twice.\n\n"
            }
            try (base ?? folder).write("\(folderName)/note-\(note).md", text)
        }
    }

    func digest(_ library: URL) throws -> [String: Any] { try libraryDigest(library) }

    func documents(_ digest: [String: Any], written: Bool = false) -> [String: [String: AnyHashable]] {
        digestDocuments(digest, written: written)
    }

    func events(_ stderr: String) -> [PipelineEvent] {
        stderr.split(separator: "\n").compactMap { try? JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8)) }
    }

    // MARK: Pipeline files

    func testPipelineFileErrorsNameTheFileTheKeyAndTheLineAndNothingIsDone() throws {
        try writeNotes(1)
        func refused(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try folder.write("p.toml", text)
            let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
            XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
            XCTAssertTrue(result.stderr.contains(expected), "expected \(expected) in: \(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)", file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "no work before the file is right",
                           file: file, line: line)
        }
        try refused("[[source]]\npath = \"notes\"\n\n[chunk]\nmax_token = 100\n",
                    "lectern: p.toml:5: chunk.max_token is not a setting (did you mean chunk.max_tokens?)")
        try refused("[[source]]\npath = \"notes\"\n[run]\njobs = \"4\"\n", "p.toml:4: run.jobs must be a whole number, not string")
        try refused("[[source]]\npath = \"notes\"\n\n[[source]]\npath = \"missing\"\n",
                    "p.toml:5: source[2].path 'missing': no such file or folder (relative paths are relative to the pipeline file)")
        try refused("[[source]]\npath = \"notes/*.pdf\"\n", "p.toml:2: source[1].path 'notes/*.pdf' matches no file")
        try refused("embedder = 3\n[[source]]\npath = \"notes\"\n", "p.toml:1: embedder must be a string, not int")
        try refused("[[source]]\npath = \"notes\"\ntags = [\"a\"]\ncolour = \"red\"\n", "p.toml:4: source[1].colour is not a key of [[source]]")
        try refused("[[source]]\npath = \"notes\"\nurl = \"https://example.org/\"\n",
                    "p.toml:1: source[1] gives path and url: one source a [[source]]")
        try refused("[[source]]\npath = \"notes\"\n[[export]]\ncurriculum = \"nope\"\nformat = \"umcf\"\noutput = \"x.json\"\n",
                    "p.toml:4: export[1].curriculum names 'nope', which is no [[curriculum]]'s name")
        try refused("[[source]]\npath = \"notes\"\n[[curriculum]]\nname = \"c\"\nsources = [\"notes\"]\n[[deck]]\ncurriculum = \"c\"\nformat = \"pdf\"\noutput = \"d.apkg\"\n",
                    "p.toml:8: deck[1].format 'pdf' is not one of apkg, tsv, csv, md, json")
        try refused("[[source]]\npath = \"notes\"\n[http]\ntimeout = -1\n", "p.toml:4: http.timeout must be from 0 to 3600, not -1")
        try refused("[[source]\npath = \"notes\"\n", "p.toml:1:")
        try refused("[chunk]\nmax_tokens = 100\n", "p.toml: no [[source]]")
    }

    func testTheExamplePipelinesAreValidPipelineFilesAsShipped() throws {
        // As shipped they read the repository's own samples (corpora/), relative to the file.
        let pipelines = TestPaths.packageRoot.appendingPathComponent("pipelines")
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora").standardizedFileURL.path
        let notes = try PipelineFile(contentsOf: pipelines.appendingPathComponent("notes.toml").path)
        XCTAssertEqual(notes.sources.map(\.kind), [.path, .path])
        XCTAssertEqual(notes.sources.map(\.argument), [corpora + "/notes", corpora + "/pdf/*.pdf"])
        XCTAssertEqual(notes.sources[1].password, "course-password")
        XCTAssertEqual(notes.decks.first?.output, pipelines.appendingPathComponent("exports/my-notes.apkg").path, "relative to the pipeline file")
        let nightly = try PipelineFile(contentsOf: pipelines.appendingPathComponent("nightly.toml").path)
        XCTAssertEqual(nightly.sources.map(\.argument).prefix(4),
                       ["openstax:introduction-philosophy-2e", "wikipedia:Information theory", "wikipedia:Hermitian matrix",
                        "ocw:6-050j-information-and-entropy-spring-2008"])
        XCTAssertEqual(nightly.sources.last?.argument, corpora + "/transcripts/*.srt")
        XCTAssertEqual(nightly.curricula.map(\.name), ["nightly"])
        XCTAssertEqual(nightly.exports.first?.format, "umcf")
        XCTAssertEqual(nightly.jobs, 2)
        XCTAssertEqual(nightly.settings.values["http.host_interval"], .int(1))

        // `lectern run FILE --dry-run` passes for each, from anywhere, and says which output
        // folders it would make.
        for name in ["notes", "nightly"] {
            let result = try runLectern(["run", pipelines.appendingPathComponent("\(name).toml").path, "--dry-run"], in: folder.url,
                                        environment: ["LECTERN_DB": ""])
            XCTAssertEqual(result.status, 0, "\(name).toml: \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("; its folder \(pipelines.path)/exports/ is made)"), result.stdout)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: pipelines.appendingPathComponent("exports").path), "a dry run makes nothing")
    }

    func testAPipelineOutputsFolderIsMadeWhenItIsWritten() throws {
        try writeNotes(2)
        try folder.write("p.toml", """
            [[source]]
            path = "notes"
            [[curriculum]]
            name = "c"
            sources = ["notes"]
            [[export]]
            curriculum = "c"
            format = "md"
            output = "exports/2026/c.md"
            """)
        let plan = try runLectern(["run", "p.toml", "--dry-run"], in: folder.url)
        XCTAssertTrue(plan.stdout.contains("md → exports/2026/c.md (written if its bytes change; its folder exports/2026/ is made)"), plan.stdout)
        let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("exports/2026/c.md").path))
    }

    // MARK: Runs

    func testARunStoresWhatChangedAndARunWithNothingChangedRewritesNothing() throws {
        try writeNotes(4)
        try folder.write("job/p.toml", """
            library = "../study.db"
            [[source]]
            path = "../notes"
            tags = ["bits"]
            licence = "CC BY 4.0"
            [[curriculum]]
            name = "bits"
            sources = ["../notes"]
            [[deck]]
            curriculum = "bits"
            format = "tsv"
            output = "bits.tsv"
            [[export]]
            curriculum = "bits"
            format = "umcf"
            output = "bits.umcf"
            """)
        let elsewhere = folder.file("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let library = folder.file("study.db")
        // Cron starts in $HOME: paths in the file are relative to the file, not to where lectern runs.
        func run(_ arguments: String...) throws -> CommandResult {
            try runLectern(["run", folder.file("job/p.toml").path] + arguments, in: elsewhere, environment: ["LECTERN_DB": ""])
        }

        var result = try run("--dry-run")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("ingest  \(folder.file("notes").path)  path, licence CC BY 4.0, tags bits"), result.stdout)
        XCTAssertTrue(result.stdout.contains("export  bits  umcf → "), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.path), "a dry run changes nothing")

        result = try run()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("run #1: 4 stored"), result.stdout)
        // stderr is no terminal: JSON lines, from run_started to run_finished.
        let first = events(result.stderr)
        XCTAssertEqual(first.first?.event, .runStarted)
        XCTAssertEqual(first.last?.event, .runFinished)
        XCTAssertEqual(first.filter { $0.event == .stored && $0.input?.hasSuffix(".md") == true }.count, 4)
        XCTAssertTrue(first.contains { $0.event == .note && $0.input == "bits" && $0.message?.hasPrefix("curriculum built: ") == true },
                      result.stderr)
        let outputs = [folder.file("job/bits.tsv").path, folder.file("job/bits.umcf").path]
        func written() throws -> [Date] {
            try outputs.map { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date) }
        }
        let writtenFirst = try written()
        // The source's licence reaches the UMCF file's rights; its tags, every card.
        func cardTags() throws -> [String] {
            try String(contentsOfFile: outputs[0], encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { String($0.split(separator: "\t", omittingEmptySubsequences: false).last ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        let tagged = try cardTags()
        XCTAssertFalse(tagged.isEmpty)
        XCTAssertTrue(tagged.allSatisfy { $0.split(separator: " ").contains("bits") }, "\(tagged)")
        let umcf = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: outputs[1]))) as? [String: Any]
        let sources = (umcf?["sourceProvenance"] as? [String: Any])?["primarySources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.count, 4)
        XCTAssertTrue(sources.allSatisfy { $0["license"] as? String == "CC BY 4.0" }, "\(sources)")
        let before = try digest(library)
        XCTAssertEqual(before["integrity"] as? String, "ok")

        result = try run("--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(result.stdout.utf8))
        XCTAssertEqual([summary.stored, summary.unchanged, summary.embedded], [0, 4, 0])
        XCTAssertEqual(events(result.stderr).filter { $0.event == .unchanged && $0.input?.hasSuffix(".md") == true }.count, 4)
        XCTAssertEqual(summary.curricula.map(\.unchanged), [true], "nothing changed: the curriculum is not rebuilt")
        XCTAssertEqual(summary.outputsWritten, [], "no output rewritten")
        XCTAssertEqual(try written(), writtenFirst)
        XCTAssertEqual(documents(try digest(library), written: true), documents(before, written: true), "nothing rewritten")

        try folder.write("notes/note-2.md", "# Note 2, rewritten\n\nOnly this note changed since the last run.\n")
        result = try run()
        XCTAssertTrue(result.stdout.hasPrefix("run #3: 1 stored ("), result.stdout)
        XCTAssertTrue(result.stdout.contains(", 3 unchanged, "), result.stdout)

        // New tags in the pipeline file, no new content: the cards carry them.
        let pipeline = try String(contentsOf: folder.file("job/p.toml"), encoding: .utf8)
        try folder.write("job/p.toml", pipeline.replacingOccurrences(of: "tags = [\"bits\"]", with: "tags = [\"bits\", \"week 3\"]"))
        result = try run()
        XCTAssertEqual(result.status, 0, result.stderr)
        let retagged = try cardTags()
        XCTAssertFalse(retagged.isEmpty)
        XCTAssertTrue(retagged.allSatisfy { $0.split(separator: " ").contains("week_3") }, "\(retagged)")

        result = try runLectern(["runs", "show", "1", "--db", library.path], in: elsewhere)
        XCTAssertEqual(result.status, 0, result.stderr)
        for expected in ["run #1: run ", "status   succeeded", "  stages", "    extract ", " ms", "    embed ", "    write ",
                         "model    no model calls", "outputs  2 written", "    \(outputs[0])", "failures 0"] {
            XCTAssertTrue(result.stdout.contains(expected), "\(expected) in:\n\(result.stdout)")
        }
        result = try runLectern(["runs", "show", "9", "--db", library.path], in: elsewhere)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("run 9: no such run"), result.stderr)
    }

    func testASourceThatFailsExits1AndTheOthersAreDoneAndShownInRunsShow() throws {
        try writeNotes(2)
        try folder.write("broken.pdf", "%PDF-1.4 this is no PDF at all")
        try folder.write("p.toml", "[[source]]\npath = \"notes\"\n[[source]]\npath = \"broken.pdf\"\n")
        let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("run #1: 2 stored"), result.stdout)
        XCTAssertTrue(result.stderr.contains("broken.pdf"), result.stderr)
        let shown = try runLectern(["runs", "show", "1"], in: folder.url)
        XCTAssertTrue(shown.stdout.contains("status   partial"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("error [ingest] broken.pdf: "), shown.stdout)
    }

    func testTheSummariseStageSummarisesWhatChangedAndLeavesTheRestAlone() throws {
        try writeNotes(3)
        try folder.write("p.toml", "[[source]]\npath = \"notes\"\n[run]\nsummarise = true\n")
        func summaries() throws -> [String: [StoredSummary]] {
            let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
            return try Dictionary(uniqueKeysWithValues: store.allDocuments().map { ($0.title, try store.summaries(documentId: $0.id)) })
        }
        let first = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let made = try summaries()
        XCTAssertEqual(made.count, 3)
        XCTAssertTrue(made.values.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.provider == "extractive" } }, "\(made)")

        // One note changes: only it is summarised again; the others keep their summaries.
        try folder.write("notes/note-1.md", "# Note 1, rewritten\n\nChannel capacity is the highest rate at which information crosses a noisy channel. "
            + "Shannon proved that codes reach it. Redundancy protects a message against noise.\n")
        let second = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("summaries: skipped"), second.stderr)
        let after = try summaries()
        XCTAssertEqual(after.count, 3)
        for (title, stored) in made where after[title] != nil {
            XCTAssertEqual(after[title], stored, "\(title) did not change: its summaries stay as they were")
        }
        let rewritten = try XCTUnwrap(after["Note 1, rewritten"])
        XCTAssertTrue(rewritten.contains { $0.text.contains("capacity") }, "\(rewritten)")
    }

    func testOneRunAtATimePerLibraryAndHandStartedIngestsWaitForIt() throws {
        try writeNotes(2)
        try folder.write("p.toml", "[[source]]\npath = \"notes\"\n")
        let library = folder.file("lectern.db").path

        // Another process holds the lock (this test, as a run would).
        let held = try RunLock.acquire(library: library)
        var result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("another run (pid \(getpid()), started 20"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("holds the lock\n"), result.stderr)

        // `--wait` and a hand-started ingest wait (saying so) and go on when the lock is free.
        let waiting = try RunningLectern(["run", "p.toml", "--wait"], in: folder.url)
        let ingest = try RunningLectern(["ingest", "notes", "--events", "json"], in: folder.url)
        XCTAssertTrue(waiting.waitForStderr { $0.contains("holds the lock: waiting") })
        XCTAssertTrue(ingest.waitForStderr { $0.contains("is updating this library: waiting for it to finish") })
        XCTAssertTrue(waiting.process.isRunning && ingest.process.isRunning, "both wait while the lock is held")
        held.release()
        XCTAssertEqual(waiting.finish().status, 0)
        XCTAssertEqual(ingest.finish().status, 0)

        // A lock left by a run that died is taken over, and said so.
        try "999999999 2026-11-23T03:00:00Z\n".write(toFile: RunLock.path(library: library), atomically: true, encoding: .utf8)
        result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("took over the run lock left by a run that is gone (pid 999999999, started 2026-11-23T03:00:00Z)"),
                      result.stderr)
    }

    func testSIGTERMStopsARunAtADocumentBoundaryAndTheRunIsRecordedAsInterrupted() throws {
        try writeNotes(30, paragraphs: 40)
        try folder.write("p.toml", "[[source]]\npath = \"notes\"\n[run]\njobs = 1\n")
        let run = try RunningLectern(["run", "p.toml"], in: folder.url)
        XCTAssertTrue(run.waitForStderr { $0.contains("\"event\":\"stored\"") })
        run.send(SIGTERM)
        let result = run.finish()
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertTrue(result.stdout.contains(", interrupted (SIGTERM): "), result.stdout)
        let shown = try runLectern(["runs", "show", "1"], in: folder.url)
        XCTAssertTrue(shown.stdout.contains("status   interrupted"), shown.stdout)
        XCTAssertEqual(try digest(folder.file("lectern.db"))["integrity"] as? String, "ok")
        let next = try runLectern(["run", "p.toml", "--json"], in: folder.url)
        let summary = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(next.stdout.utf8))
        XCTAssertEqual(summary.stored + summary.unchanged, 30, "the next run does the rest")
        XCTAssertGreaterThan(summary.unchanged, 0, "what the stopped run stored is not done again")
    }

    func testTwoRunsAtOnceGiveExit3() throws {
        // A page the server is slow to send keeps the first run busy while the second starts.
        let server = try TestServer(routes: ["/slow.html": ["body": "<html><head><title>Slow</title></head><body><p>A page that takes its time to arrive.</p></body></html>",
                                                            "delay": 3]])
        try folder.write("p.toml", "[[source]]\nurl = \"\(server.url("/slow.html"))\"\n")
        let first = try RunningLectern(["run", "p.toml"], in: folder.url)
        XCTAssertTrue(first.waitForStderr { $0.contains("\"input_started\"") })
        let second = try runLectern(["run", "p.toml"], in: folder.url)
        XCTAssertEqual(second.status, 3, second.stderr)
        let stop = try XCTUnwrap(events(second.stderr).last)
        XCTAssertEqual(stop.message?.hasPrefix("another run (pid \(first.process.processIdentifier), started "), true, second.stderr)
        XCTAssertEqual(first.finish().status, 0)
    }

    /// The issue's kill test: runs killed with SIGKILL at random moments (while notes keep
    /// changing, so every run has documents, topics and cards to write), then one left to
    /// finish, give the library a clean run of the same notes gives: same documents, passages,
    /// vectors, curriculum, cards and deck file, none twice, none missing, integrity_check and
    /// the FTS index's check ok.
    func testRunsKilledAtRandomMomentsLeaveALibraryTheNextRunCompletesAsACleanRunWould() throws {
        let killed = try TemporaryFolder(), clean = try TemporaryFolder()
        try writeNotes(10, paragraphs: 30, in: killed)
        let pipeline = "[[source]]\npath = \"notes\"\n[run]\njobs = 2\n[[curriculum]]\nname = \"notes\"\nsources = [\"notes\"]\n"
            + "[[deck]]\ncurriculum = \"notes\"\nformat = \"tsv\"\noutput = \"notes.tsv\"\n"
        try killed.write("p.toml", pipeline)
        try clean.write("p.toml", pipeline)

        // A random moment: after a random number of the run's events (ingest, curriculum build,
        // the run's record), plus up to 60 ms.
        var killedMidRun = 0, attempts = 0, moments: [String] = []
        var random = TestRandom.seeded()
        while killedMidRun < 10 && attempts < 25 {
            if attempts > 0 {
                for note in [attempts % 10, (attempts + 3) % 10] {
                    // Each version keeps a definition, so the curriculum has key terms to make cards of.
                    try killed.write("notes/note-\(note).md", "# Note \(note), version \(attempts)\n\n"
                        + "Bandwidth is the range of frequencies that channel \(note) carries in version \(attempts).\n\n"
                        + (0..<20).map { "Revision \(attempts) of note \(note), paragraph \($0): the channel carries \($0 + attempts) bits of news.\n\n" }.joined())
                }
            }
            attempts += 1
            let run = try RunningLectern(["run", "p.toml"], in: killed.url)
            let events = Int.random(in: 1...40, using: &random), pause = Int.random(in: 0...60, using: &random)
            moments.append("\(events)+\(pause)ms")
            _ = run.waitForStderr(timeout: 60) { _ in run.events.count >= events }
            usleep(UInt32(pause * 1000))
            run.send(SIGKILL)
            if run.finish().status == -SIGKILL { killedMidRun += 1 }
            if FileManager.default.fileExists(atPath: killed.file("lectern.db").path) {
                let state = try digest(killed.file("lectern.db"))
                XCTAssertEqual(state["integrity"] as? String, "ok", "after a kill at \(moments.last ?? "")")
                XCTAssertEqual(state["passages_without_vector"] as? Int, 0, "after a kill at \(moments.last ?? "")")
                XCTAssertEqual(state["fts"] as? String, "ok", "after a kill at \(moments.last ?? "")")
            }
        }
        print("kill test: killed \(killedMidRun) of \(attempts) runs mid-run, after events+pause \(moments.joined(separator: ", ")) (\(random.replay))")
        XCTAssertGreaterThanOrEqual(killedMidRun, 10, "kills that landed while the run worked")

        let present = Set(documents(try digest(killed.file("lectern.db"))).filter { $0.value["passages"] != nil }.keys)
        let last = try runLectern(["run", "p.toml", "--json"], in: killed.url)
        XCTAssertEqual(last.status, 0, last.stderr)
        let summary = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(last.stdout.utf8))
        XCTAssertEqual(summary.stored + summary.unchanged, 10)
        XCTAssertLessThanOrEqual(summary.unchanged, present.count, "finished documents are not done again")

        try FileManager.default.copyItem(at: killed.file("notes"), to: clean.file("notes"))
        let cleanRun = try runLectern(["run", "p.toml"], in: clean.url)
        XCTAssertEqual(cleanRun.status, 0, cleanRun.stderr)
        let expected = try digest(clean.file("lectern.db"))
        XCTAssertEqual(documents(expected).count, 10)

        let got = try digest(killed.file("lectern.db"))
        XCTAssertEqual(got["integrity"] as? String, "ok")
        XCTAssertEqual(got["fts"] as? String, "ok")
        XCTAssertEqual(got["duplicate_vectors"] as? Int, 0)
        XCTAssertEqual(got["passages_without_vector"] as? Int, 0)
        XCTAssertEqual(got["vectors_without_passage"] as? Int, 0)
        XCTAssertEqual(got["passages"] as? Int, expected["passages"] as? Int)
        XCTAssertEqual(got["vectors"] as? Int, expected["vectors"] as? Int)
        var gotDocuments = documents(got), expectedDocuments = documents(expected)
        // The same documents hold the same passages and vectors; only where they came from differs.
        for key in Array(gotDocuments.keys) { gotDocuments[key.replacingOccurrences(of: killed.url.path, with: "")] = gotDocuments.removeValue(forKey: key) }
        for key in Array(expectedDocuments.keys) {
            expectedDocuments[key.replacingOccurrences(of: clean.url.path, with: "")] = expectedDocuments.removeValue(forKey: key)
        }
        XCTAssertEqual(gotDocuments, expectedDocuments)
        let curricula = try XCTUnwrap(expected["curricula"] as? [String: Any])
        XCTAssertFalse(((curricula["notes"] as? [String: Any])?["units"] as? [Any] ?? []).isEmpty, "the curriculum was built")
        XCTAssertEqual(NSDictionary(dictionary: got["curricula"] as? [String: Any] ?? [:]), NSDictionary(dictionary: curricula),
                       "the same curriculum, unit for unit and topic for topic")
        let cards = try XCTUnwrap(expected["cards"] as? [String: [String]])
        XCTAssertFalse((cards["notes"] ?? []).isEmpty, "cards were made")
        XCTAssertEqual(got["cards"] as? [String: [String]], cards, "the same cards, none twice, none missing")
        let deck = try String(contentsOf: killed.file("notes.tsv"), encoding: .utf8).replacingOccurrences(of: killed.url.path, with: "")
        let cleanDeck = try String(contentsOf: clean.file("notes.tsv"), encoding: .utf8).replacingOccurrences(of: clean.url.path, with: "")
        // A card's GUID is made from where its source is (another folder here), so it is left out.
        func withoutGUID(_ line: Substring) -> Substring { line.hasPrefix("#") ? line : line.drop { $0 != "\t" } }
        let differing = zip(deck.split(separator: "\n"), cleanDeck.split(separator: "\n")).filter { withoutGUID($0) != withoutGUID($1) }.prefix(2)
        XCTAssertEqual(deck.split(separator: "\n").count, cleanDeck.split(separator: "\n").count, "the same deck file")
        XCTAssertTrue(differing.isEmpty, "the same deck file: \(differing)")
    }
}
