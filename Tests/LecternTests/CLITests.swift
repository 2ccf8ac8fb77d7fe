import CGemm
import XCTest
@testable import Lectern

/// The `lectern` binary as a user runs it: output, stderr lines and exit codes.
final class CLITests: CommandTestCase {
    func lectern(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    func testIngestSearchShowRemoveRoundTrip() throws {
        try folder.write("notes/cells.md", "# Cells\n\n## Energy\n\nThe mitochondrion produces ATP through oxidative phosphorylation.\n")
        try folder.write("notes/info.txt", "Shannon entropy measures the average information of a message.\n")

        var result = try lectern("ingest", "notes")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("2 stored (2 passages), 0 unchanged"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "the tests' library is ./lectern.db (LECTERN_DB=lectern.db in lecternEnvironment)")

        result = try lectern("ingest", "notes")
        XCTAssertTrue(result.stdout.hasPrefix("0 stored (0 passages), 2 unchanged"), result.stdout)

        result = try lectern("search", "oxidative phosphorylation")
        XCTAssertEqual(result.status, 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("1. Cells"), result.stdout)
        // The hit's passage (`show p<N>` opens it), then where it is.
        XCTAssertTrue(lines[1].trimmingCharacters(in: .whitespaces).hasPrefix("p"), result.stdout)
        XCTAssertTrue(lines[1].hasSuffix("  notes/cells.md § Cells › Energy"), result.stdout)
        XCTAssertFalse(result.stdout.contains("\u{1B}["), "no colour when NO_COLOR is set or stdout is not a terminal")

        result = try lectern("search", "entropy", "--json", "-k", "1")
        let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(hits.count, 1)
        XCTAssertEqual(hits[0].path, folder.file("notes/info.txt").path)
        XCTAssertEqual(hits[0].highlights.count, 1)
        XCTAssertFalse(hits[0].snippet.contains("\u{1B}"))

        result = try lectern("search", "entropy", "--type", "markdown", "--json")
        XCTAssertTrue(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).allSatisfy { $0.type == "markdown" })

        result = try lectern("sources", "--json")
        let sources = try JSONDecoder().decode([SourceSummary].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(sources.count, 2)
        // A script takes a document's id from the listing straight to `show`.
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let cells = try XCTUnwrap(listed.first { ($0["path"] as? String) == folder.file("notes/cells.md").path })
        let ids = try XCTUnwrap(cells["documentIds"] as? [String])
        XCTAssertEqual(ids.count, 1)
        XCTAssertTrue(try lectern("show", ids[0]).stdout.hasPrefix("Cells\n"))

        let shortId = ContentHash.shortId("file://" + folder.file("notes/cells.md").path)
        result = try lectern("show", String(shortId.prefix(5)))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Cells\nid \(shortId)  type markdown"), result.stdout)

        result = try lectern("rm", "notes/cells.md")
        XCTAssertEqual(result.stdout, "removed file://\(folder.file("notes/cells.md").path)\n")
        result = try lectern("search", "mitochondrion", "--mode", "keyword", "--json")
        XCTAssertEqual(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).count, 0)

        try FileManager.default.removeItem(at: folder.file("notes/info.txt"))
        result = try lectern("prune")
        XCTAssertEqual(result.stdout, "removed file://\(folder.file("notes/info.txt").path)\n")

        result = try lectern("runs", "--json")
        let runs = try JSONDecoder().decode([RunRecord].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(runs.map(\.command), ["prune", "rm", "ingest", "ingest"])
    }

    func testExitCodesAndOneLinePerBadInput() throws {
        try folder.write("good.md", "# Good\n\nEnzymes lower activation energy.\n")
        try folder.write("empty.txt", "")
        var result = try lectern("ingest", "good.md", "missing.md", "empty.txt")
        XCTAssertEqual(result.status, 1, "some inputs failed")
        XCTAssertEqual(result.stderr, "lectern: missing.md: no such file or directory\nlectern: empty.txt: empty file\n")
        XCTAssertTrue(result.stdout.hasPrefix("1 stored"), result.stdout)

        result = try lectern("search")
        XCTAssertEqual(result.status, 2, "usage error")
        result = try lectern("ingest", "good.md", "--no-such-flag")
        XCTAssertEqual(result.status, 2)
        result = try lectern("search", "x", "--db", "nowhere.db")
        XCTAssertEqual(result.status, 2, "search exits 1 only when it found nothing")
        XCTAssertEqual(result.stderr, "lectern: nowhere.db: no library here yet: run `lectern ingest PATH` first, or pass --db\n")
        result = try lectern("--version")
        XCTAssertEqual(result.stdout, Lectern.version + "\n")
        XCTAssertEqual(result.status, 0)
    }

    /// Permissions and links in a folder the user hands over: each problem is one line naming
    /// the path and the system's reason, the readable files are stored, and a link back up
    /// the tree does not ingest the same notes again under a longer path.
    func testUnreadableFilesFoldersAndLinksInAFolder() throws {
        try folder.write("notes/good.md", "# Good\n\nEnzymes lower activation energy.\n")
        let secret = try folder.write("notes/secret.md", "# Secret\n\nNot for reading.\n")
        try folder.write("notes/locked/inside.md", "# Inside\n\nBehind a folder that cannot be listed.\n")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.file("notes/again").path, withDestinationPath: folder.file("notes").path)
        try manager.createSymbolicLink(atPath: folder.file("notes/gone.md").path, withDestinationPath: folder.file("nowhere.md").path)
        try manager.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)
        try manager.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.file("notes/locked").path)
        // The unprivileged user writes the library into the test's folder.
        try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        defer { try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.file("notes/locked").path) }

        let result = try runLectern(["ingest", "notes"], in: folder.url, asUnprivilegedUser: true)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(Set(result.stderr.split(separator: "\n").map(String.init)), [
            "lectern: notes/gone.md: broken symbolic link",
            "lectern: notes/locked: cannot list folder: permission denied",
            "lectern: notes/secret.md: permission denied",
        ])
        XCTAssertTrue(result.stdout.hasPrefix("1 stored (1 passage), 0 unchanged, 3 failed"), result.stdout)
    }

    /// A PDF password is recorded as `***` in either spelling of the option; the library file
    /// never holds it, and a file named like the password is still recorded.
    func testPasswordsNeverReachTheRunRecord() throws {
        try folder.write("hunter2-notes.md", "# Notes\n\nEnzymes lower activation energy.\n")
        var result = try lectern("ingest", "--password=hunter2-notes.md", "hunter2-notes.md")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try lectern("ingest", "--password", "correct-horse", "hunter2-notes.md")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try lectern("runs", "--json")
        XCTAssertFalse(result.stdout.contains("correct-horse"), result.stdout)
        XCTAssertTrue(result.stdout.contains("--password=***"), result.stdout)
        XCTAssertTrue(result.stdout.contains("hunter2-notes.md"), "the file itself is recorded: \(result.stdout)")
        XCTAssertFalse(result.stdout.contains("--password=hunter2"), result.stdout)
        let library = try Data(contentsOf: folder.file("lectern.db"))
            + ((try? Data(contentsOf: folder.file("lectern.db-wal"))) ?? Data())
        XCTAssertNil(library.range(of: Data("correct-horse".utf8)), "the password is nowhere in the library")
    }

    /// A command stopped by an error ends its run `failed`, with the reason, and the library
    /// keeps its embedder and vectors.
    func testAReembedThatCannotReachItsServerIsRecordedAsFailed() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        XCTAssertEqual(try lectern("ingest", "a.md").status, 0)
        let result = try lectern("reembed", "--embedder", "openai:nomic-embed", environment: [
            "LECTERN_EMBEDDING_URL": "http://127.0.0.1:9/v1", "LECTERN_EMBEDDING_DIMENSIONS": "8", "LECTERN_HTTP_RETRIES": "0"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("127.0.0.1:9"), result.stderr)
        let runs = try JSONDecoder().decode([RunRecord].self, from: Data(try lectern("runs", "--json").stdout.utf8))
        let reembed = try XCTUnwrap(runs.first { $0.command == "reembed" })
        XCTAssertEqual(reembed.status, .failed)
        XCTAssertEqual(reembed.failures.count, 1)
        XCTAssertEqual(reembed.failures[0].input, "http://127.0.0.1:9/v1/embeddings")
        XCTAssertTrue(reembed.failures[0].reason.contains("connect"), "\(reembed.failures)")
        let stats = try JSONDecoder().decode(LibraryStats.self, from: Data(try lectern("stats", "--json").stdout.utf8))
        XCTAssertTrue(stats.embedder?.hasPrefix("hashing") == true, "\(String(describing: stats.embedder))")
        XCTAssertEqual(try lectern("search", "helium").status, 0)
    }

    func testEventsJSONAndLECTERN_DB() throws {
        try folder.write("a.md", "# A\n\nAlpha particles are helium nuclei.\n")
        let result = try lectern("ingest", "a.md", "nope.md", "--events", "json", environment: ["LECTERN_DB": folder.file("env.db").path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("env.db").path))
        let events = try result.stderr.split(separator: "\n").map { try JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8)) }
        XCTAssertEqual(events.first?.event, .runStarted)
        XCTAssertEqual(events.last?.event, .runFinished)
        XCTAssertTrue(events.contains { $0.event == .failed && $0.input == "nope.md" && $0.message == "no such file or directory" })
        XCTAssertTrue(events.contains { $0.event == .stored && $0.input == "a.md" && $0.passages == 1 })

        // An error that stops a command is a JSON line too, never plain text.
        let stopped = try lectern("search", "alpha", "--db", "nowhere.db", "--events", "json")
        XCTAssertEqual(stopped.status, 2)
        let line = try JSONDecoder().decode(PipelineEvent.self, from: Data(stopped.stderr.utf8))
        XCTAssertEqual(line.event, .failed)
        XCTAssertEqual(line.input, "nowhere.db")
        XCTAssertEqual(line.message, "no library here yet: run `lectern ingest PATH` first, or pass --db")
    }

    func testDoctorReportsLibrariesAndIntegrity() throws {
        try folder.write("a.md", "# A\n\nText.\n")
        _ = try lectern("ingest", "a.md")
        let result = try lectern("doctor")
        XCTAssertEqual(result.status, 0)
        for name in ["poppler-glib", "libxml2", "libcurl", "sqlite3", "gemm", "tesseract"] {
            XCTAssertTrue(result.stdout.contains("ok   \(name): "), "\(name) missing in:\n\(result.stdout)")
        }
        XCTAssertTrue(result.stdout.contains("integrity_check ok"))
        // Which int8 kernel `minilm-int8` runs on this CPU.
        XCTAssertTrue(result.stdout.contains("int8 \(String(cString: lectern_gemm_i8_kernel()))"), result.stdout)

        // Missing MiniLM files fail doctor only where the library embeds with MiniLM.
        let empty = folder.file("no-models").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let hashing = try lectern("doctor", environment: ["LECTERN_MODELS": empty])
        XCTAssertEqual(hashing.status, 0, "this library embeds with hashing: \(hashing.stdout)")
        XCTAssertTrue(hashing.stdout.contains("warn minilm model: missing model.safetensors, vocab.txt, tokenizer.json"), hashing.stdout)
        let minilm = try lectern("doctor", "--db", "new.db", environment: ["LECTERN_MODELS": empty, "LECTERN_EMBEDDER": ""])
        XCTAssertEqual(minilm.status, 1, "a new library would embed with MiniLM: \(minilm.stdout)")
        XCTAssertTrue(minilm.stdout.contains("FAIL minilm model: missing"), minilm.stdout)
        let bfloat16 = try lectern("doctor", "--db", "new.db", environment: ["LECTERN_MODELS": empty, "LECTERN_EMBEDDER": "minilm-bf16"])
        XCTAssertEqual(bfloat16.status, 1, "minilm-bf16 reads the same files: \(bfloat16.stdout)")
        XCTAssertTrue(bfloat16.stdout.contains("FAIL minilm model: missing"), bfloat16.stdout)
        let int8 = try lectern("doctor", "--db", "new.db", environment: ["LECTERN_MODELS": empty, "LECTERN_EMBEDDER": "minilm-int8"])
        XCTAssertEqual(int8.status, 1, "minilm-int8 reads the same files: \(int8.stdout)")
        XCTAssertTrue(int8.stdout.contains("FAIL minilm model: missing"), int8.stdout)
    }

    /// poppler-glib, libxml2 and libcurl (and their ~80 dependencies) are opened on
    /// first use: a direct call that bypasses the shims' `lazy_` wrappers would link them again
    /// and every command would pay ~20 ms to load them.
    func testSystemLibrariesAreNotLinked() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") else { throw XCTSkip("no readelf") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        process.arguments = ["-d", TestPaths.lecternBinary.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let needed = output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(needed.isEmpty, output)
        for library in ["libpoppler", "libglib", "libgobject", "libcairo", "libxml2", "libcurl", "libopenblas", "libFoundationNetworking"] {
            XCTAssertFalse(needed.contains { $0.contains(library) }, "\(library) is linked:\n\(needed.joined(separator: "\n"))")
        }
    }

    func testExtractPrintsTypedBlocksWithoutALibrary() throws {
        try folder.write("cells.md", "# Cells\n\n## Energy\n\nMitochondria make ATP.\n")
        var result = try lectern("extract", "cells.md")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").map(String.init),
                       ["Cells  (markdown, read by markdown)", "heading/1  Cells", "heading/2  Energy", "paragraph  Mitochondria make ATP."])
        result = try lectern("extract", "cells.md", "--json")
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(document.blocks.last?.sectionPath, ["Cells", "Energy"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "extract stores nothing")
        result = try lectern("extract", "nothing-here.md")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: nothing-here.md: no such file or directory\n")
    }

    func testExtractReadsEveryFileAndGoesOnPastBadOnes() throws {
        try folder.write("notes/cells.md", "# Cells\n\nMitochondria make ATP.\n")
        try folder.write("notes/entropy.md", "# Entropy\n\nEntropy measures information.\n")
        try folder.write("notes/broken.pdf", Data("%PDF-1.7\n1 0 obj << /Type /Catalog >> nonsense".utf8))
        // Text: a header line naming each file, then its blocks; each bad input is one line on
        // stderr, the rest are read, and the exit status says something failed.
        var result = try lectern("extract", "notes", "missing.md")
        XCTAssertEqual(result.status, 1)
        let problems = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(problems.count, 2, result.stderr)
        XCTAssertEqual(problems.first, "lectern: missing.md: no such file or directory")
        XCTAssertTrue(problems.last?.hasPrefix("lectern: notes/broken.pdf: not a readable PDF") == true, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                       ["notes/cells.md: Cells  (markdown, read by markdown)", "heading/1  Cells", "paragraph  Mitochondria make ATP.", "",
                        "notes/entropy.md: Entropy  (markdown, read by markdown)", "heading/1  Entropy", "paragraph  Entropy measures information.", ""])
        // --json with a folder: JSON lines, one document a line, each naming its input and reader.
        result = try lectern("extract", "notes", "--json")
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map { Data($0.utf8) }
        XCTAssertEqual(lines.count, 2, result.stdout)
        let objects = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
        XCTAssertEqual(objects.map { $0["input"] as? String }, ["notes/cells.md", "notes/entropy.md"])
        XCTAssertEqual(objects.map { $0["reader"] as? String }, ["markdown", "markdown"])
        let documents = try lines.map { try JSONDecoder().decode(ExtractedDocument.self, from: $0) }
        XCTAssertEqual(documents.map(\.title), ["Cells", "Entropy"])
        XCTAssertEqual(documents.last?.blocks.last?.sectionPath, ["Entropy"])
        // A glob is several files too, even when it matches one: the form follows the command line.
        result = try lectern("extract", "notes/c*.md", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8)).title, "Cells")
        // One file stays one JSON object, so `json.load(sys.stdin)['blocks']` (README) still works.
        result = try lectern("extract", "notes/cells.md", "--json")
        let single = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertNil(single["input"])
        XCTAssertEqual((single["blocks"] as? [Any])?.count, 2)
    }
}
