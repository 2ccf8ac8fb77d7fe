import XCTest
@testable import Lectern

/// What a folder ingest takes: the default ignore list on a tree laid out as the shared corpus is, a
/// `.lecternignore` in any walked folder, `--include`/`--exclude`, and `rm` taking the globs
/// `ingest` takes.
final class InputSelectionTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// The stored documents' paths, relative to the test folder.
    func storedPaths() throws -> [String] {
        let result = try lectern("sources", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let root = folder.url.resolvingSymlinksInPath().path + "/"
        return listed.compactMap { $0["path"] as? String }
            .map { $0.hasPrefix(folder.path + "/") ? String($0.dropFirst(folder.path.count + 1)) : $0.replacingOccurrences(of: root, with: "") }
            .sorted()
    }

    func summary(_ result: CommandResult) throws -> IngestSummary {
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(IngestSummary.self, from: Data(result.stdout.utf8))
    }

    /// A small tree laid out as the shared corpus is, written here so the tests run in every
    /// clone: its README, a licence, two subtitle files beside their metadata CSV, a saved
    /// Wikipedia page and its expected text beside their metadata JSON, and a PDF.
    func copyOfTheSharedCorpus() throws {
        func subtitles(_ lines: [String]) -> String {
            lines.enumerated().map { index, line in
                "\(index + 1)\n00:00:\(String(format: "%02d", index * 4 + 1)),000 --> 00:00:\(String(format: "%02d", index * 4 + 4)),500\n\(line)\n"
            }.joined(separator: "\n")
        }
        func page(_ title: String, _ paragraphs: [String]) -> String {
            "<!DOCTYPE html>\n<html><head><title>\(title) - Wikipedia</title></head><body><main><h1>\(title)</h1>\n"
                + paragraphs.map { "<p>\($0)</p>\n" }.joined() + "</main></body></html>\n"
        }
        let files: [(String, Data)] = [
            ("README.md", Data("# The shared corpus\n\nReal documents for Lectern's tests: where each came from and its licence.\n".utf8)),
            ("LICENSE", Data("Creative Commons Attribution 4.0 International Public License\n\nBy exercising the Licensed Rights you accept its terms.\n".utf8)),
            ("transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt", Data(subtitles([
                "Welcome to the course.", "In this course we teach natural language processing.", "We start with the pipeline of a model."]).utf8)),
            ("transcripts/hf-course-01_the-pipeline-function.srt", Data(subtitles([
                "The pipeline function.", "It groups the tokenizer, the model and the post-processing.", "Sentiment analysis is one task it does."]).utf8)),
            ("transcripts/hf-course-metadata.csv", Data("file,title\nhf-course-00,Welcome\nhf-course-01,The pipeline function\n".utf8)),
            ("wikipedia/wikipedia-3/source.html", Data(page("Hermitian matrix", [
                "In mathematics, a Hermitian matrix is a complex square matrix that is equal to its own conjugate transpose.",
                "All eigenvalues of a Hermitian matrix are real, and eigenvectors of distinct eigenvalues are orthogonal."]).utf8)),
            ("wikipedia/wikipedia-3/expected.html", Data(page("Hermitian matrix (expected text)", [
                "A Hermitian matrix equals its conjugate transpose; its diagonal entries are real numbers.",
                "Hermitian matrices are named after the French mathematician Charles Hermite."]).utf8)),
            ("wikipedia/wikipedia-3/expected-metadata.json", Data(#"{"title": "Hermitian matrix", "sections": ["Properties"]}"#.utf8)),
            ("pdf/docling-2305.03393v1-pg9.pdf", try Data(contentsOf: TestPaths.corpora.appendingPathComponent("pdf/genetics-primer.pdf"))),
        ]
        for (path, data) in files {
            try folder.write("corpus/" + path, data)
        }
    }

    func testAFolderIngestOfTheCorpusStoresOnlyLearningMaterial() throws {
        try copyOfTheSharedCorpus()
        let ingest = try summary(try lectern("ingest", "corpus", "--json"))
        XCTAssertEqual(ingest.stored, 5)
        XCTAssertEqual(ingest.leftOut, 4, "README, LICENSE, the metadata CSV and the metadata JSON")
        XCTAssertEqual(ingest.warnings, 0, "what the default list leaves out is counted, not warned about one by one")
        XCTAssertEqual(try storedPaths(), [
            "corpus/pdf/docling-2305.03393v1-pg9.pdf",
            "corpus/transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt",
            "corpus/transcripts/hf-course-01_the-pipeline-function.srt",
            "corpus/wikipedia/wikipedia-3/expected.html",
            "corpus/wikipedia/wikipedia-3/source.html",
        ])

        // The closing line counts them; --events json names each with the rule that left it out.
        let again = try runLectern(["ingest", "corpus", "--events", "json"], in: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix("0 stored (0 passages), 5 unchanged, 4 files left out by ignore rules — "), again.stdout)
        let events = again.stderr.split(separator: "\n").compactMap { try? JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8)) }
        let leftOut = Dictionary(uniqueKeysWithValues: events.filter { $0.event == .leftOut }.map { ($0.input ?? "", $0.message ?? "") })
        XCTAssertEqual(leftOut, [
            "corpus/LICENSE": "LICENSE (default ignore list)",
            "corpus/README.md": "README.* (default ignore list)",
            "corpus/transcripts/hf-course-metadata.csv": "*.csv (default ignore list)",
            "corpus/wikipedia/wikipedia-3/expected-metadata.json": "JSON that no reader recognises (default ignore list)",
        ])
        XCTAssertEqual(events.last?.event, .runFinished)
        XCTAssertEqual(events.last?.counts?["left_out"], 4)

        // Named, a file is always read: the CSV becomes a document of its own.
        let named = try summary(try lectern("ingest", "corpus/transcripts/hf-course-metadata.csv", "--json"))
        XCTAssertEqual(named.stored, 1)
        XCTAssertEqual(named.leftOut, 0)
        XCTAssertTrue(try storedPaths().contains("corpus/transcripts/hf-course-metadata.csv"))
    }

    func testWithoutTheDefaultListEverythingIsWalkedAndUnknownJSONIsWarnedAbout() throws {
        try copyOfTheSharedCorpus()
        try folder.write("corpus/.obsidian/workspace.md", "# Workspace\n\nThe editor's own notes about open panes.\n")
        let result = try lectern("ingest", "corpus", "--no-default-ignore", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let ingest = try JSONDecoder().decode(IngestSummary.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(ingest.leftOut, 0)
        XCTAssertEqual(ingest.stored, 9, "README, LICENSE, the CSV and the hidden folder's note are stored too")
        XCTAssertEqual(ingest.warnings, 1)
        XCTAssertTrue(result.stderr.contains("corpus/wikipedia/wikipedia-3/expected-metadata.json: skipped: JSON of no known shape"), result.stderr)
        XCTAssertTrue(try storedPaths().contains("corpus/.obsidian/workspace.md"))
    }

    func testALecternIgnoreInAnyWalkedFolderAppliesBelowIt() throws {
        try folder.write("notes/cells.md", "# Cells\n\nRibosomes make proteins from amino acids.\n")
        try folder.write("notes/README.md", "# Biology notes\n\nMy notes for the biology course, by week.\n")
        try folder.write("notes/scratch.txt", "Half a thought about enzymes.\n")
        try folder.write("notes/important.txt", "Enzymes lower the activation energy of a reaction.\n")
        try folder.write("notes/drafts/mitosis.md", "# Mitosis\n\nNot finished.\n")
        try folder.write("notes/drafts/.lecternignore", "!*\n")
        try folder.write("notes/week2/osmosis.txt", "Water moves across a membrane towards the higher solute concentration.\n")
        try folder.write("notes/week2/todo.txt", "Ask about the lab.\n")
        try folder.write("notes/.lecternignore", """
            # my own read-me is notes
            !README.md
            *.txt
            !important.txt
            drafts/
            """)
        // Below week2, its own file takes .txt back (a deeper file wins), but not todo.txt.
        try folder.write("notes/week2/.lecternignore", "!*.txt\ntodo.txt\n")
        let ingest = try summary(try lectern("ingest", "notes", "--json"))
        XCTAssertEqual(try storedPaths(), ["notes/README.md", "notes/cells.md", "notes/important.txt", "notes/week2/osmosis.txt"])
        XCTAssertEqual(ingest.leftOut, 2, "scratch.txt and todo.txt")
        XCTAssertEqual(ingest.foldersLeftOut, 1, "drafts/, whose own file cannot take anything back: git does not look inside an ignored folder")

        let events = try runLectern(["ingest", "notes", "--events", "json"], in: folder.url).stderr
        XCTAssertTrue(events.contains(#""input":"notes/drafts/","message":"drafts/ (notes/.lecternignore:5)""#), events)
        XCTAssertTrue(events.contains(#""input":"notes/week2/todo.txt","message":"todo.txt (notes/week2/.lecternignore:2)""#), events)
    }

    func testExcludeAndIncludeNarrowAWalk() throws {
        try copyOfTheSharedCorpus()
        var ingest = try summary(try lectern("ingest", "corpus", "--exclude", "wikipedia/", "--exclude", "*.pdf", "--json"))
        XCTAssertEqual(try storedPaths(), [
            "corpus/transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt",
            "corpus/transcripts/hf-course-01_the-pipeline-function.srt",
        ])
        XCTAssertEqual(ingest.foldersLeftOut, 1)
        XCTAssertEqual(ingest.leftOut, 4, "the PDF, README, LICENSE and the CSV")

        // --include takes only what matches; a match is taken despite the default list; --exclude wins.
        XCTAssertEqual(try lectern("rm", "corpus").status, 0)
        ingest = try summary(try lectern("ingest", "corpus", "--include", "transcripts/", "--include", "README.md",
                                         "--exclude", "*01_*", "--json"))
        XCTAssertEqual(try storedPaths(), ["corpus/README.md", "corpus/transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt"])
        XCTAssertEqual(ingest.stored, 2)

        let bad = try lectern("ingest", "corpus", "--exclude", "!*.md")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("Error: --exclude '!*.md': a glob cannot start with '!': to take a file back, use --include"), bad.stderr)
    }

    func testRemoveTakesTheGlobsIngestTakes() throws {
        try copyOfTheSharedCorpus()
        try folder.write("corpus/wikipedia/wikipedia-x/expected.html", Data(contentsOf: folder.file("corpus/wikipedia/wikipedia-3/expected.html")))
        XCTAssertEqual(try summary(try lectern("ingest", "corpus", "--json")).stored, 6)
        let removed = try lectern("rm", "corpus/wikipedia/*/expected.html")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stdout.split(separator: "\n").count, 2, removed.stdout)
        XCTAssertFalse(try storedPaths().contains { $0.hasSuffix("expected.html") })
        XCTAssertTrue(try storedPaths().contains("corpus/wikipedia/wikipedia-3/source.html"))

        let nothing = try lectern("rm", "corpus/wikipedia/*/expected.html")
        XCTAssertEqual(nothing.status, 1)
        XCTAssertEqual(nothing.stderr, "lectern: corpus/wikipedia/*/expected.html: no document in the library matches this pattern\n")

        // A glob that names folders removes what is under them, as ingest walked them.
        XCTAssertEqual(try lectern("rm", "corpus/[tp]*").status, 0)
        XCTAssertEqual(try storedPaths(), ["corpus/wikipedia/wikipedia-3/source.html"])
    }

    func testIngestHelpPrintsTheDefaultListTheWalkUses() throws {
        let help = try lectern("ingest", "--help")
        for entry in InputSelection.defaultIgnoreList {
            XCTAssertTrue(help.stdout.contains(entry.patterns.joined(separator: " ")), "\(entry.patterns) in:\n\(help.stdout)")
        }
        XCTAssertTrue(help.stdout.contains("JSON that no reader recognises"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--no-default-ignore"), help.stdout)
        XCTAssertTrue(try lectern("extract", "--help").stdout.contains("README README.*"))
    }

    /// The whole shared corpus walked as `lectern ingest ../shared/corpus` walks it: its README
    /// and metadata CSV are left out by name, its metadata JSON by content.
    func testTheWholeSharedCorpusWalkLeavesOutItsReadMeAndMetadata() throws {
        let corpus = try TestPaths.sharedCorpus()
        let expansion = InputExpander(registry: .standard).walk([corpus.path])
        XCTAssertEqual(expansion.leftOut.map { String($0.path.dropFirst(corpus.path.count + 1)) },
                       ["README.md", "transcripts/hf-course-metadata.csv"])
        let reader = DocumentReader()
        let json = try expansion.items.filter { try reader.open(reader.load($0), display: $0.display).reader.name == "json" }
        XCTAssertEqual(json.map { URL(fileURLWithPath: $0.path).lastPathComponent }, Array(repeating: "expected-metadata.json", count: 4))
        XCTAssertEqual(expansion.items.count - json.count, 31, "13 PDFs, 8 Wikipedia pages, 6 subtitle files, 3 courses, 1 book")
    }
}
