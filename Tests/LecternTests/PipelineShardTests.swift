import XCTest
@testable import Lectern

/// `lectern run --shard I/N` and `--finish`: a nightly import split across processes or
/// machines by a stable hash of each source, then the finishing stages once.
final class PipelineShardTests: CommandTestCase {
    /// Markdown notes with distinct text and a definition each (flashcards ask about those).
    func writeNotes(_ names: [String], into base: TemporaryFolder) throws {
        let words = ["entropy", "channel", "signal", "noise", "coding", "bits", "source", "message", "capacity", "redundancy",
                     "parity", "symbol", "alphabet", "probability", "compression", "decoder", "encoder", "error", "rate", "block"]
        for (note, name) in names.enumerated() {
            var text = "# Note \(note): \(words[note % words.count]) and \(words[(note * 7 + 3) % words.count])\n\n"
            text += "\(words[note % words.count].capitalized) is the quantity of \(words[(note + 5) % words.count]) that a channel carries per symbol.\n\n"
            for paragraph in 0..<8 {
                if paragraph % 4 == 0 { text += "## Part \(paragraph / 4 + 1)\n\n" }
                let picked = (0..<14).map { words[(note * 31 + paragraph * 17 + $0 * 7) % words.count] }
                text += "Paragraph \(paragraph) of note \(note) says that the \(picked.prefix(7).joined(separator: " ")) "
                    + "meets the \(picked.suffix(7).joined(separator: " ")), which a careful reader checks twice.\n\n"
            }
            try base.write(name, text)
        }
    }

    static let pipeline = """
        [[source]]
        path = "notes"
        tags = ["bits"]
        [[source]]
        path = "extra/*.md"
        licence = "CC BY 4.0"
        [[curriculum]]
        name = "bits"
        sources = ["notes", "extra/*.md"]
        [[deck]]
        curriculum = "bits"
        format = "tsv"
        output = "out/bits.tsv"
        [[export]]
        curriculum = "bits"
        format = "umcf"
        output = "out/bits.umcf"
        [[export]]
        curriculum = "bits"
        format = "md"
        output = "out/bits.md"
        """

    static let noteNames = (0..<7).map { "notes/note-\($0).md" } + (0..<3).map { "extra/extra-\($0).md" }

    /// The files a shard's dry run says it takes.
    func planned(_ shard: String, in base: TemporaryFolder, pipeline: String = "p.toml") throws -> [String] {
        let plan = try runLectern(["run", pipeline, "--shard", shard, "--dry-run", "--json"], in: base.url)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let steps = try JSONDecoder().decode([PipelineStep].self, from: Data(plan.stdout.utf8))
        return steps.filter { $0.stage == "ingest" }.map(\.subject)
    }

    func testThreeShardsTakeEverySourceOnceAndWithFinishGiveWhatOnePlainRunGives() throws {
        // Both in the same folder (the plain run's library and files moved aside first), so
        // that what is made from where a source is (URIs, card GUIDs) is compared too.
        // A file's shard hashes its absolute path, so how the ten notes spread depends on the
        // temporary folder's name: one folder in twenty leaves a shard empty (3 · (2/3)^10; it
        // failed the suite once). A folder whose notes fall in all three shards is taken (eight
        // tries all failing: about 1 in 10^10).
        var folder: TemporaryFolder?
        for _ in 0..<8 where folder == nil {
            let candidate = try TemporaryFolder()
            try writeNotes(Self.noteNames, into: candidate)
            try candidate.write("p.toml", Self.pipeline)
            if try (0..<3).allSatisfy({ try !planned("\($0)/3", in: candidate).isEmpty }) { folder = candidate }
        }
        let base = try XCTUnwrap(folder, "eight folders whose ten notes left a shard empty")
        for leftover in ["lectern.db", "lectern.db-wal", "lectern.db-shm"] {
            try? FileManager.default.removeItem(at: base.file(leftover))
        }
        let whole = try runLectern(["run", "p.toml"], in: base.url)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let expected = try libraryDigest(base.file("lectern.db"))
        let outputs = ["bits.tsv", "bits.umcf", "bits.md"]
        let plainOutputs = try outputs.map { try String(contentsOf: base.file("out/" + $0), encoding: .utf8) }
        for leftover in ["lectern.db", "lectern.db-wal", "lectern.db-shm", "out"] where FileManager.default.fileExists(atPath: base.file(leftover).path) {
            try FileManager.default.removeItem(at: base.file(leftover))
        }

        let plans = try (0..<3).map { try planned("\($0)/3", in: base) }
        XCTAssertEqual(plans.flatMap { $0 }.sorted(), Self.noteNames.sorted(), "every input in exactly one shard's plan: \(plans)")
        let header = try runLectern(["run", "p.toml", "--shard", "1/3", "--dry-run"], in: base.url)
        XCTAssertTrue(header.stdout.contains("shard 1/3: \(plans[1].count) of 10 inputs (2 sources)"), header.stdout)
        XCTAssertTrue(header.stdout.contains("finish  not in a shard  "), header.stdout)

        // The three shards at once on one SQLite library: they take its run lock in turn.
        let shards = try (0..<3).map { try RunningLectern(["run", "p.toml", "--shard", "\($0)/3", "--json"], in: base.url) }
        var stored: [[String]] = []
        for (index, shard) in shards.enumerated() {
            let result = shard.finish(timeout: 120)
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(result.stdout.utf8))
            XCTAssertEqual(summary.stored, plans[index].count, "shard \(index) stores what its plan said")
            XCTAssertEqual(summary.curricula, [], "a shard builds no curriculum")
            XCTAssertEqual(summary.outputsWritten, [], "a shard writes no output")
            stored.append(shard.events.filter { $0.event == .stored }.compactMap(\.input).sorted())
        }
        XCTAssertEqual(stored, plans.map { $0.sorted() }, "each shard stored exactly its plan's files")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.file("out").path), "no output before --finish")

        let finish = try runLectern(["run", "p.toml", "--finish", "--json"], in: base.url)
        XCTAssertEqual(finish.status, 0, finish.stderr)
        let finished = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(finish.stdout.utf8))
        XCTAssertEqual([finished.stored, finished.unchanged], [0, 0], "--finish reads no source")
        XCTAssertEqual(finished.outputsWritten.count, 3)

        let got = try libraryDigest(base.file("lectern.db"))
        XCTAssertEqual(digestDocuments(got).count, 10)
        XCTAssertEqual(digestDocuments(got), digestDocuments(expected), "the same documents, passages and vectors")
        let curricula = try XCTUnwrap(expected["curricula"] as? [String: Any])
        XCTAssertFalse(((curricula["bits"] as? [String: Any])?["units"] as? [Any] ?? []).isEmpty, "the curriculum was built")
        XCTAssertEqual(NSDictionary(dictionary: got["curricula"] as? [String: Any] ?? [:]), NSDictionary(dictionary: curricula),
                       "the same curriculum, unit for unit and topic for topic")
        let cards = try XCTUnwrap(expected["cards"] as? [String: [String]])
        XCTAssertFalse((cards["bits"] ?? []).isEmpty, "cards were made")
        XCTAssertEqual(got["cards"] as? [String: [String]], cards, "the same cards")
        // The same files, but for when the curriculum was built (UMCF lifecycle.created/modified, version.date).
        let times = try NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}[T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?"#)
        func masked(_ text: String) -> [String] {
            times.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "TIME")
                .split(separator: "\n").map(String.init)
        }
        for (name, plain) in zip(outputs, plainOutputs) {
            let (mine, theirs) = (masked(try String(contentsOf: base.file("out/" + name), encoding: .utf8)), masked(plain))
            XCTAssertEqual(mine.count, theirs.count, name)
            XCTAssertEqual(zip(mine, theirs).filter { $0 != $1 }.prefix(2).map { "\($0) ≠ \($1)" }, [], name)
        }
    }

    func testANewFileMovesNoOtherFileToAnotherShard() throws {
        let base = try TemporaryFolder()
        try writeNotes((0..<30).map { "notes/n-\($0).md" }, into: base)
        try base.write("p.toml", "[[source]]\npath = \"notes\"\n")
        func shardOf() throws -> [String: Int] {
            var found: [String: Int] = [:]
            for index in 0..<4 { for file in try planned("\(index)/4", in: base) { found[file] = index } }
            return found
        }
        let before = try shardOf()
        XCTAssertEqual(before.count, 30)
        XCTAssertGreaterThan(Set(before.values).count, 2, "the files spread over the shards: \(before)")
        // New files sort before, between and after the old ones: positions in the folder walk move, shards do not.
        try writeNotes(["notes/a-new.md", "notes/n-15a.md", "notes/z-new.md", "notes/n-0-copy.md"], into: base)
        let after = try shardOf()
        XCTAssertEqual(after.count, 34)
        XCTAssertEqual(after.filter { before[$0.key] != nil }, before, "every old file keeps its shard")
    }

    func testBadShardsAndAFinishBeforeTheShardsAreRefusedInOneLine() throws {
        // A file's shard hashes its absolute path, so which of the four notes shard 0/2 takes
        // depends on the temporary folder's name: all four fell in shard 0 once in 16 folders,
        // and then --finish after that shard had nothing left to refuse. A folder whose notes
        // both shards share is taken (one in 8 is not; eight tries all failing is 1 in 16 million).
        var folder: TemporaryFolder?
        for _ in 0..<8 where folder == nil {
            let candidate = try TemporaryFolder()
            try writeNotes((0..<4).map { "notes/note-\($0).md" }, into: candidate)
            try candidate.write("p.toml", "[[source]]\npath = \"notes\"\n[[curriculum]]\nname = \"c\"\nsources = [\"notes\"]\n"
                + "[[export]]\ncurriculum = \"c\"\nformat = \"md\"\noutput = \"c.md\"\n")
            if (1...3).contains(try planned("0/2", in: candidate).count) { folder = candidate }
        }
        let base = try XCTUnwrap(folder, "eight folders whose four notes all fell in one shard")
        for leftover in ["lectern.db", "lectern.db-wal", "lectern.db-shm"] {
            try? FileManager.default.removeItem(at: base.file(leftover))
        }
        func refused(_ arguments: [String], status: Int32 = 2, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let result = try runLectern(["run", "p.toml", "--events", "text"] + arguments, in: base.url)
            XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
            XCTAssertTrue(result.stderr.contains(expected), "expected \(expected) in: \(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)", file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: base.file("c.md").path), "nothing written", file: file, line: line)
        }
        try refused(["--shard", "3/3"], "--shard: must be I/N with N at least 1 and I from 0 to N-1, not 3/3")
        try refused(["--shard", "x"], "--shard: must be I/N (shard I of N, I from 0 to N-1, e.g. 0/3), not 'x'")
        try refused(["--shard=-1/3"], "--shard: must be I/N with N at least 1 and I from 0 to N-1, not -1/3")
        try refused(["--shard", "0/0"], "--shard: must be I/N with N at least 1 and I from 0 to N-1, not 0/0")
        try refused(["--shard", "0/2", "--finish"], "--shard: goes with no --finish")
        try refused(["--force"], "--force: goes with --finish only")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base.file("lectern.db").path), "a refused option does no work")

        try refused(["--finish"], status: 1, "p.toml: --finish: 4 inputs of the plan not stored or not up to date (e.g. notes/note-")
        let first = try runLectern(["run", "p.toml", "--shard", "0/2", "--json"], in: base.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let done = try JSONDecoder().decode(PipelineRunSummary.self, from: Data(first.stdout.utf8)).stored
        try refused(["--finish"], status: 1, "--finish: \(4 - done) input\(4 - done == 1 ? "" : "s") of the plan not stored or not up to date")
        let second = try runLectern(["run", "p.toml", "--shard", "1/2"], in: base.url)
        XCTAssertEqual(second.status, 0, second.stderr)
        // A file changed since its shard ran is out of date: its shard reads it again first.
        try base.write("notes/note-2.md", "# Note 2, rewritten\n\nEntropy is the average surprise of a message.\n")
        try refused(["--finish"], status: 1, "--finish: 1 input of the plan not stored or not up to date (e.g. notes/note-2.md)")
        let forced = try runLectern(["run", "p.toml", "--finish", "--force"], in: base.url)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stdout.hasPrefix("run #3: finishing stages, 1 outputs written"), forced.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: base.file("c.md").path))
    }
}
