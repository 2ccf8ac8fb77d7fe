import GRDB
import XCTest
@testable import Lectern

final class IngestTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: LibraryStore!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("library.db").path)
    }

    func ingestor() -> Ingestor {
        Ingestor(store: store, embedder: HashingEmbedder())
    }

    func ingest(_ paths: [String]) -> (IngestSummary, [PipelineEvent]) {
        let collected = EventLog()
        let recorder = try? RunRecorder(store: store, command: "ingest", arguments: paths)
        let summary = ingestor().ingest(paths, recorder: recorder) { collected.append($0) }
        recorder?.finish()
        return (summary, collected.events)
    }

    /// Every row of every content table, to prove a re-run wrote nothing.
    func snapshot() throws -> String {
        try store.writer.read { db in
            var out = ""
            for table in ["sources", "documents", "blocks", "passages", "vector_blocks"] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") { out += "\(table) \(row)\n" }
            }
            return out
        }
    }

    func testUnchangedReingestWritesNothingAndChangedFileIsReplaced() throws {
        let notes = try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP for the cell.\n")
        try folder.write("notes/sub/entropy.txt", "Entropy measures the uncertainty of a source.\n")
        var (summary, _) = ingest([folder.file("notes").path])
        XCTAssertEqual(summary.stored, 2)
        XCTAssertEqual(summary.failed, 0)
        let before = try snapshot()

        let (again, events) = ingest([folder.file("notes").path])
        XCTAssertEqual(again.stored, 0)
        XCTAssertEqual(again.unchanged, 2)
        XCTAssertEqual(events.filter { $0.event == .unchanged }.count, 2)
        XCTAssertEqual(try snapshot(), before, "an unchanged re-ingest writes nothing")

        try "# Cells\n\nRibosomes build proteins from amino acids.\n".write(to: notes, atomically: true, encoding: .utf8)
        (summary, _) = ingest([folder.file("notes").path])
        XCTAssertEqual(summary.stored, 1)
        XCTAssertEqual(summary.unchanged, 1)
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        XCTAssertEqual(try searcher.search("ribosomes proteins", k: 1).first?.title, "Cells")
        XCTAssertTrue(try searcher.search("mitochondrion", mode: .keyword).isEmpty, "the old passages are gone")
        let stats = try store.stats()
        XCTAssertEqual(stats.documents, 2)
        XCTAssertEqual(stats.vectors, stats.passages, "no orphan vectors after a replace")
    }

    func testBadInputsAreNamedAndTheBatchGoesOn() throws {
        let good = try folder.write("good.md", "# Good\n\nPhotosynthesis happens in chloroplasts.\n")
        let empty = try folder.write("empty.md", "")
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        png.append(Data(repeating: 0, count: 64))
        let binary = try folder.write("picture.txt", png)
        var latin1 = Data("Caf".utf8)
        latin1.append(0xE9)
        latin1.append(Data(" au lait.\n".utf8))
        let invalid = try folder.write("latin1.txt", latin1)
        let missing = folder.file("missing.md").path

        let (summary, events) = ingest([missing, empty.path, binary.path, good.path, invalid.path, "/proc/self/mem"])
        XCTAssertEqual(summary.stored, 2, "the good file and the one with replaced bytes are stored")
        XCTAssertEqual(summary.failed, 4)
        let failures = events.filter { $0.event == .failed }.map { "\($0.input ?? ""): \($0.message ?? "")" }
        XCTAssertTrue(failures.contains("\(missing): no such file or directory"), "\(failures)")
        XCTAssertTrue(failures.contains { $0.hasSuffix("empty.md: empty file") }, "\(failures)")
        XCTAssertTrue(failures.contains { $0.hasSuffix("picture.txt: binary data that no reader understands") }, "\(failures)")
        XCTAssertTrue(failures.contains { $0.hasPrefix("/proc/self/mem: ") }, "an unreadable file is named: \(failures)")
        XCTAssertTrue(events.contains { $0.event == .warning && ($0.input ?? "").hasSuffix("latin1.txt") && ($0.message ?? "").contains("invalid UTF-8") })
        // The run record keeps each failure with its reason.
        let run = try XCTUnwrap(store.runs(limit: 1).first)
        XCTAssertEqual(run.status, .partial)
        XCTAssertEqual(run.failures.filter { $0.severity == .error }.count, 4)
        XCTAssertEqual(run.counts["documents"], 2)
        // Counts and milliseconds per stage: what `lectern runs` shows of a slow import.
        XCTAssertEqual(run.counts["passages"], run.counts["vectors"])
        XCTAssertGreaterThanOrEqual(run.counts["blocks"] ?? 0, 2)
        for stage in ["extract", "chunk", "embed", "write"] {
            XCTAssertNotNil(run.counts[stage + "_ms"], "time spent in \(stage): \(run.counts)")
        }
    }

    /// The skip key: other chunk settings re-cut every document; a finished `reembed` to an
    /// embedder with the same tokenizer leaves the next ingest nothing to do, one with another
    /// tokenizer re-cuts (its passages were sized by the old counter).
    func testChunkSettingsAndReembedDecideWhatTheNextIngestRedoes() throws {
        try folder.write("notes/a.md", "# A\n\nEnzymes lower the activation energy of reactions.\n")
        try folder.write("notes/b.md", "# B\n\nRibosomes translate messenger RNA into proteins.\n")
        let notes = [folder.file("notes").path]
        func run(_ embedder: any Embedder, _ settings: ChunkSettings = ChunkSettings()) -> IngestSummary {
            Ingestor(store: store, embedder: embedder, chunkSettings: settings).ingest(notes, recorder: nil) { _ in }
        }
        XCTAssertEqual(run(HashingEmbedder()).stored, 2)
        XCTAssertEqual(run(HashingEmbedder()).unchanged, 2)
        let smaller = ChunkSettings(maxTokens: 120, overlapTokens: 16, minTokens: 24)
        XCTAssertEqual(run(HashingEmbedder(), smaller).stored, 2, "other chunk settings re-cut every document")
        XCTAssertEqual(run(HashingEmbedder(), smaller).unchanged, 2)

        let narrower = HashingEmbedder(dimension: 256)
        XCTAssertTrue(try Reembedding(store: store, target: narrower).run(recorder: nil) { _ in }.switched)
        let after = run(narrower, smaller)
        XCTAssertEqual(after.unchanged, 2, "a reembed with the same tokenizer leaves nothing to redo: \(after)")
        XCTAssertEqual(after.stored, 0)
    }

    func testGlobsExpandAndUnmatchedGlobIsReported() throws {
        try folder.write("a/one.md", "# One\n\nFirst note about limits.\n")
        try folder.write("a/two.md", "# Two\n\nSecond note about derivatives.\n")
        try folder.write("a/skip.txt", "Not matched by the glob.\n")
        let (summary, events) = ingest([folder.file("a").path + "/*.md", folder.file("a").path + "/*.pdf"])
        XCTAssertEqual(summary.stored, 2)
        XCTAssertEqual(events.first { $0.event == .failed }?.message, "no files match this pattern")
    }

    func testPassagesKeepProvenance() throws {
        let text = "# Biology\n\n## Cells\n\n" + String(repeating: "Cells divide by mitosis in many tissues. ", count: 80) + "\n"
        try folder.write("bio.md", text)
        _ = ingest([folder.file("bio.md").path])
        let document = try XCTUnwrap(store.documents(matching: folder.file("bio.md").path).first)
        let passages = try store.passages(documentId: document.id)
        XCTAssertGreaterThan(passages.count, 1)
        for passage in passages {
            XCTAssertEqual(passage.sectionPath, ["Biology", "Cells"])
            XCTAssertLessThanOrEqual(passage.tokenCount, 254)
            let start = try XCTUnwrap(passage.charStart)
            let source = Array(text)
            // The offset points at the passage's first sentence in the source file.
            XCTAssertEqual(String(source[start..<(start + 10)]), String(passage.text.prefix(10)))
        }
    }

    func testAnotherEmbedderIsRefusedNotMixed() throws {
        try folder.write("x.md", "# X\n\nSome text about enzymes.\n")
        _ = ingest([folder.file("x.md").path])
        var other = Ingestor(store: store, embedder: HashingEmbedder(dimension: 256))
        other.chunkSettings = ChunkSettings(maxTokens: 100)
        try folder.write("y.md", "# Y\n\nOther text about catalysts.\n")
        let log = EventLog()
        let summary = other.ingest([folder.file("y.md").path], recorder: nil) { log.append($0) }
        XCTAssertEqual(summary.failed, 1)
        XCTAssertTrue(log.events.first { $0.event == .failed }?.message?.contains("run `lectern reembed --embedder hashing`") ?? false)
        XCTAssertEqual(try store.stats().documents, 1)
    }
}

/// Collects events a pipeline reports.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [PipelineEvent] = []
    func append(_ event: PipelineEvent) { lock.withLock { stored.append(event) } }
    var events: [PipelineEvent] { lock.withLock { stored } }
}
