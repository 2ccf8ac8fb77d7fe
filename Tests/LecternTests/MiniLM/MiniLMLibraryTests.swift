import XCTest
@testable import Lectern

/// MiniLM as a user meets it: the default embedder of a new library, semantic search that finds
/// answers worded differently, a clear error when the model is not installed, and a warning
/// for documents it cannot read well.
final class MiniLMLibraryTests: XCTestCase {
    var folder: TemporaryFolder!
    var models: String!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try TestPaths.requireLecternBinary()
        models = (try MiniLMFixtures.modelDirectory() as NSString).deletingLastPathComponent
    }

    /// The real default: no LECTERN_EMBEDDER (runLectern removes a variable given as "").
    func lectern(_ arguments: String..., models: String? = nil) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: ["LECTERN_EMBEDDER": "", "LECTERN_MODELS": models ?? self.models])
    }

    func fileName(_ hit: SearchHit?) -> String? {
        hit?.path.map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    func testNewLibraryUsesMiniLMAndFindsAnswersInOtherWords() throws {
        let ingest = try lectern("ingest", TestPaths.corpora.appendingPathComponent("notes").path)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertEqual(ingest.stderr, "", "English notes ingest without a warning")

        let stats = try JSONDecoder().decode(LibraryStats.self, from: Data(try lectern("stats", "--json").stdout.utf8))
        XCTAssertEqual(stats.embedder, "minilm (all-MiniLM-L6-v2, 384 dimensions)")
        XCTAssertEqual(stats.vectors, stats.passages)

        // Questions that share (almost) no word with the passage that answers them.
        let questions = [
            ("who came up with a way to mass-produce books in the fifteenth century", "printing-press.txt"),
            ("how do leaves capture energy from sunshine", "photosynthesis.md"),
            ("differentiating a function nested inside another function", "chain-rule.md"),
        ]
        for (question, expected) in questions {
            let result = try lectern("search", question, "--mode", "semantic", "--json", "-k", "1")
            XCTAssertEqual(result.status, 0, result.stderr)
            let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
            XCTAssertEqual(fileName(hits.first), expected, question)
        }
    }

    /// `make demo` with its default embedder: every demo question finds its document.
    func testDemoQuestionsWithTheDefaultEmbedder() throws {
        let ingest = try lectern("ingest", TestPaths.corpora.path)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let files = try XCTUnwrap(Int(ingest.stdout.prefix { $0.isNumber }))
        XCTAssertGreaterThan(files, 5)
        let again = try lectern("ingest", TestPaths.corpora.path)
        XCTAssertTrue(again.stdout.hasPrefix("0 stored (0 passages), \(files) unchanged"),
                      "a second ingest of the same folder finds every file unchanged: \(again.stdout)")
        let questions = [
            (["light-dependent reactions in the thylakoid"], "photosynthesis.md"),
            (["chain rule", "--mode", "keyword"], "chain-rule.md"),
            (["how did printing change the spread of ideas"], "printing-press.txt"),
            (["does glycolysis need oxygen"], "cell-respiration-lecture.vtt"),
            (["evidence for the endosymbiotic theory"], "cell-biology-notes.pdf"),
        ]
        for (arguments, expected) in questions {
            let result = try runLectern(["search"] + arguments + ["--json", "-k", "1"], in: folder.url,
                                        environment: ["LECTERN_EMBEDDER": "", "LECTERN_MODELS": models])
            XCTAssertEqual(result.status, 0, result.stderr)
            let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
            XCTAssertEqual(fileName(hits.first), expected, arguments[0])
        }
    }

    /// `lectern reembed` through the command line: a library built with the hashing baseline
    /// switches to MiniLM, answers a question in other words, and the next ingest re-cuts its
    /// documents once (their passages were sized by the old, approximate counter).
    func testReembedSwitchesALibraryToMiniLM() throws {
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        let built = try runLectern(["ingest", notes], in: folder.url, environment: ["LECTERN_MODELS": models])
        XCTAssertEqual(built.status, 0, built.stderr)
        let files = try XCTUnwrap(Int(built.stdout.prefix { $0.isNumber }))

        let reembed = try lectern("reembed", "--embedder", "minilm")
        XCTAssertEqual(reembed.status, 0, reembed.stderr)
        XCTAssertTrue(reembed.stdout.contains("passages now use minilm"), reembed.stdout)
        let stats = try JSONDecoder().decode(LibraryStats.self, from: Data(try lectern("stats", "--json").stdout.utf8))
        XCTAssertEqual(stats.embedder, "minilm (all-MiniLM-L6-v2, 384 dimensions)")
        XCTAssertEqual(stats.vectors, stats.passages)
        let result = try lectern("search", "who came up with a way to mass-produce books in the fifteenth century",
                                 "--mode", "semantic", "--json", "-k", "1")
        XCTAssertEqual(fileName(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).first),
                       "printing-press.txt")

        let recut = try lectern("ingest", notes)
        XCTAssertTrue(recut.stdout.hasPrefix("\(files) stored"), "passages sized by another tokenizer are re-cut: \(recut.stdout)")
        let settled = try lectern("ingest", notes)
        XCTAssertTrue(settled.stdout.hasPrefix("0 stored (0 passages), \(files) unchanged"), settled.stdout)
        let runs = try lectern("runs")
        XCTAssertTrue(runs.stdout.contains("reembed"), "the reembed is recorded: \(runs.stdout)")
    }

    func testMissingModelIsAnErrorNamingMakeModelNeverAFallback() throws {
        let empty = folder.file("no-models").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try folder.write("notes/a.md", "# Cells\n\nThe mitochondrion produces ATP.\n")
        let ingest = try lectern("ingest", "notes", models: empty)
        XCTAssertNotEqual(ingest.status, 0)
        XCTAssertTrue(ingest.stderr.contains("run `make model`"), ingest.stderr)

        // A library built with MiniLM keeps it: without the model, search fails the same way.
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let search = try lectern("search", "energy", models: empty)
        XCTAssertNotEqual(search.status, 0)
        XCTAssertTrue(search.stderr.contains("run `make model`"), search.stderr)
        XCTAssertEqual(search.stdout, "")
    }

    func testMostlyGermanDocumentWarnsOnceThatTheModelIsEnglish() throws {
        let german = try Self.pdfText("pdf/pypdf-GeoTopo-komprimiert.pdf", pages: 10...11)
        try folder.write("notes/geotopo.txt", german)
        try folder.write("notes/printing.txt", try String(contentsOf: TestPaths.corpora.appendingPathComponent("notes/printing-press.txt"), encoding: .utf8))
        let ingest = try lectern("ingest", "notes")
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let warnings = ingest.stderr.split(separator: "\n").filter { $0.contains("non-English") }
        XCTAssertEqual(warnings.count, 1, ingest.stderr)
        XCTAssertTrue(warnings.first?.contains("geotopo.txt") ?? false, ingest.stderr)
        XCTAssertTrue(ingest.stdout.hasPrefix("2 stored"), "the German document is still stored: \(ingest.stdout)")
    }

    /// Text of some pages of a shared-corpus PDF, through poppler's pdftotext.
    static func pdfText(_ relative: String, pages: ClosedRange<Int>) throws -> String {
        let pdf = try TestPaths.sharedCorpus(relative)
        guard let tool = ["/usr/bin/pdftotext", "/usr/local/bin/pdftotext"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("pdftotext (poppler-utils, installed by make setup) is absent")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", "\(pages.lowerBound)", "-l", "\(pages.upperBound)", "-enc", "UTF-8", pdf.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The language guess on real documents: German lecture notes are flagged, English textbook,
/// encyclopedia and lecture text is not.
final class EnglishTextCheckTests: XCTestCase {
    func testGermanLectureNotesAreMostlyNonEnglish() throws {
        let german = try MiniLMLibraryTests.pdfText("pdf/pypdf-GeoTopo-komprimiert.pdf", pages: 1...20)
        XCTAssertTrue(EnglishTextCheck.isMostlyNonEnglish(german.components(separatedBy: "\n\n")))
    }

    func testEnglishSourcesOfEveryKindAreEnglish() throws {
        let fixture = try MiniLMFixtures.tokens()
        var bySource: [String: [String]] = [:]
        // The German lecture notes and the Lorem Ipsum two-column sample are not English.
        let notEnglish = ["pdf/pypdf-GeoTopo-komprimiert.pdf", "pdf/pypdf-multicolumn.pdf"]
        for passage in fixture.passages where !notEnglish.contains(passage.source) {
            bySource[passage.source, default: []].append(passage.text)
        }
        var flagged: [String] = []
        for (source, texts) in bySource where texts.joined().count > 2000 {
            if EnglishTextCheck.isMostlyNonEnglish(texts) { flagged.append(source) }
        }
        XCTAssertEqual(flagged, [], "English sources flagged as non-English")
        let lorem = fixture.passages.filter { $0.source == "pdf/pypdf-multicolumn.pdf" }.map(\.text)
        XCTAssertFalse(lorem.isEmpty)
        XCTAssertTrue(EnglishTextCheck.isMostlyNonEnglish(lorem), "Lorem Ipsum is Latin filler")
        for note in ["notes/chain-rule.md", "notes/photosynthesis.md", "notes/printing-press.txt"] {
            let text = try String(contentsOf: TestPaths.corpora.appendingPathComponent(note), encoding: .utf8)
            XCTAssertFalse(EnglishTextCheck.isMostlyNonEnglish(text.components(separatedBy: "\n\n")), note)
        }
    }
}
