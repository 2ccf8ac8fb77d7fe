import XCTest
@testable import Lectern

/// The library workflows the commands call (summarise a set of documents, remove and prune,
/// doctor's checks, extract, run records): the same code the CLI runs, without a terminal.
final class WorkflowTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: LibraryStore!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("library.db").path)
    }

    @discardableResult
    func ingestNotes(_ names: [String]) throws -> [String] {
        let paths = try names.map { name in
            try folder.write("notes/\(name)", "# \(name)\n\nCells divide by mitosis; the spindle pulls the chromatids apart. Each daughter cell gets a full set of chromosomes.\n").path
        }
        let summary = Ingestor(store: store, embedder: HashingEmbedder()).ingest(paths, recorder: nil) { _ in }
        XCTAssertEqual(summary.stored, names.count)
        return paths
    }

    func testSummarisingASetOfDocumentsNamesAnUnknownOneGoesOnAndStopsWhenAsked() throws {
        let paths = try ingestNotes(["a.md", "b.md", "c.md"])
        let summaries = DocumentSummaries(store: store, summarizer: ExtractiveSummarizer())
        let log = EventLog()
        let recorder = try RunRecorder(store: store, command: "summarize", arguments: [])
        let batch = try recorder.run { try summaries.summarize([paths[0], "nowhere.md", paths[2]], recorder: recorder) { log.append($0) } }
        XCTAssertEqual(batch.documents.map(\.title), ["a.md", "c.md"])
        XCTAssertEqual(batch.failed, 1)
        XCTAssertTrue(log.events.contains { $0.event == .failed && $0.input == "nowhere.md" }, "\(log.events)")
        XCTAssertEqual(try store.summaries(documentId: try XCTUnwrap(store.document(uri: "file://" + paths[0])).id).count, 1)
        let run = try XCTUnwrap(store.runs(limit: 1).first)
        XCTAssertEqual(run.status, .partial)
        XCTAssertEqual(run.counts["documents"], 2)
        XCTAssertEqual(run.failures.map(\.input), ["nowhere.md"])

        // Stopped after the first document (as by Ctrl-C): the rest are left, and the run says so.
        let stop = Cancellation()
        let second = try RunRecorder(store: store, command: "summarize", arguments: [])
        let stopped = try second.run {
            try summaries.summarize([], recorder: second, cancellation: stop) { event in
                if event.event == .stored { stop.cancel(signal: SIGTERM) }
            }
        }
        XCTAssertEqual(stopped.documents.count, 1)
        XCTAssertEqual(stopped.notRead, 2)
        XCTAssertEqual(stopped.stopped, .interrupted)
        XCTAssertEqual(try store.runs(limit: 1).first?.status, .interrupted)
    }

    func testRemoveAndPruneSelectWhatTheyRemove() throws {
        let paths = try ingestNotes(["kept.md", "gone.md", "also-kept.md"])
        try FileManager.default.removeItem(atPath: paths[1])
        let removal = LibraryRemoval(store: store)
        XCTAssertEqual(try removal.documentsWhoseFilesAreGone().map(\.path), [paths[1]])

        let dryRun = try removal.prune(dryRun: true, recorder: nil)
        XCTAssertEqual(dryRun.removed, ["file://" + paths[1]])
        XCTAssertEqual(try store.stats().documents, 3, "a dry run removes nothing")
        XCTAssertEqual(try removal.prune(dryRun: false, recorder: nil).removed, ["file://" + paths[1]])
        XCTAssertEqual(try store.stats().documents, 2)

        let log = EventLog()
        let result = try removal.remove([paths[2], "never-stored.md"], recorder: nil) { log.append($0) }
        XCTAssertEqual(result.removed, ["file://" + paths[2]])
        XCTAssertEqual(result.notFound, ["never-stored.md"])
        XCTAssertEqual(log.events.map(\.message), ["not in the library"])
        XCTAssertEqual(try store.allDocuments().map(\.path), [paths[0]])
    }

    /// Doctor asks MiniLM which files it loads: the check and the embedder cannot disagree.
    func testDoctorChecksTheFilesMiniLMLoads() throws {
        var configuration = Configuration()
        configuration.database = store.path
        configuration.modelsDirectory = folder.file("models").path
        try folder.write("models/\(MiniLMEmbedder.model)/vocab.txt", "[PAD]\n")
        let checks = DoctorChecks.run(configuration: configuration) { self.store }
        let model = try XCTUnwrap(checks.first { $0.name == "minilm model" })
        XCTAssertFalse(model.ok)
        XCTAssertEqual(model.detail, "missing \(MiniLMEmbedder.files.filter { $0 != "vocab.txt" }.joined(separator: ", ")) in "
                       + folder.file("models/\(MiniLMEmbedder.model)").path + ": run `make model`")
        XCTAssertTrue(model.required, "a new library embeds with MiniLM by default")
        XCTAssertTrue(DoctorChecks.failed(checks))
        XCTAssertEqual(checks.first { $0.name == "library" }?.detail, "\(store.path): integrity_check ok")
    }

    func testExtractionReadsEachInputAndNamesTheBadOnes() throws {
        try folder.write("notes/one.md", "# One\n\nFirst.\n")
        try folder.write("notes/two.md", "# Two\n\nSecond.\n")
        let log = EventLog()
        var read: [ReadDocument] = []
        let result = Extraction().run([folder.file("notes").path, folder.file("missing.md").path], events: { log.append($0) }) { read.append($0) }
        XCTAssertEqual(read.map(\.document.title), ["One", "Two"])
        XCTAssertEqual(read.map(\.alone), [false, false])
        XCTAssertEqual(result.read, 2)
        XCTAssertEqual(result.failed, 1)
        XCTAssertEqual(log.events.map(\.message), ["no such file or directory"])
    }

    /// Every recorded run goes through one redaction: secret options and key-like query values
    /// become `***`, a URL's login is left out; a variable's NAME, file names and other options stay.
    func testRunRecordsRedactSecretsInEveryForm() throws {
        let recorder = try RunRecorder(store: store, command: "ingest", arguments: [
            "ingest", "--password", "hunter2", "--api-key=sk-live-123", "--access-token", "tok-9",
            "https://alice:s3cret@example.org/notes.html?page=2&api_key=k-77&sig=abc#top",
            "--base-url=http://bob:pw@127.0.0.1:8080/v1", "--api-key-env", "MY_KEY_VARIABLE", "--max-tokens", "512", "password-notes.md",
        ])
        recorder.fail(input: "http://dave:wh1sper@example.org/a.html", stage: "fetch", reason: "redirected to (https://example.org/b?token=zz-42) and refused")
        recorder.finish()
        let failure = try XCTUnwrap(store.runs(limit: 1).first?.failures.first)
        XCTAssertEqual(failure.input, "http://example.org/a.html")
        XCTAssertEqual(failure.reason, "redirected to (https://example.org/b?token=***) and refused")
        let recorded = try XCTUnwrap(store.runs(limit: 1).first).arguments
        XCTAssertEqual(recorded, [
            "ingest", "--password", "***", "--api-key=***", "--access-token", "***",
            "https://example.org/notes.html?page=2&api_key=***&sig=***#top",
            "--base-url=http://127.0.0.1:8080/v1", "--api-key-env", "MY_KEY_VARIABLE", "--max-tokens", "512", "password-notes.md",
        ])
        let library = try Data(contentsOf: folder.file("library.db")) + ((try? Data(contentsOf: folder.file("library.db-wal"))) ?? Data())
        for secret in ["hunter2", "sk-live-123", "tok-9", "s3cret", "k-77", ":pw@", "wh1sper", "zz-42"] {
            XCTAssertNil(library.range(of: Data(secret.utf8)), "\(secret) is in the library file")
        }
    }
}
