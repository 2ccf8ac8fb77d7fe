import Foundation
import XCTest
@testable import Lectern

/// Batches a script can rely on: passwords per file, a scan reported once and then unchanged,
/// `extract` and `ingest` exiting alike, and no empty library left by a first ingest that failed.
final class ScriptableBatchTests: CommandTestCase {
    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// A file of the shared corpus copied beside the test's library, under `name`.
    @discardableResult
    func copy(_ corpusPath: String, as name: String) throws -> URL {
        try copy(from: try TestPaths.sharedCorpus(corpusPath), as: name)
    }

    /// A generated fixture PDF (Tests/Fixtures/pdf) copied beside the test's library, under `name`.
    @discardableResult
    func copy(fixture: String, as name: String) throws -> URL {
        try copy(from: PDFExtractorTests.fixture(fixture), as: name)
    }

    private func copy(from source: URL, as name: String) throws -> URL {
        let target = folder.file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }

    func testAScanIsReportedOnceThenUnchangedWithExitZero() throws {
        try copy("pdf/docling-ocr_test.pdf", as: "scan.pdf")
        // With OCR off (OCRTests has it on).
        let warning = "lectern: warning: scan.pdf: no text layer on page 1 (scanned?): it is not searchable; OCR is off (--ocr never)\n"
        let first = try lectern(["ingest", "--ocr", "never", "scan.pdf"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, warning, "one line, the one extract gives")
        XCTAssertTrue(first.stdout.hasPrefix("1 stored (0 passages), 0 unchanged, 1 warning"), first.stdout)

        let again = try lectern(["ingest", "--ocr", "never", "scan.pdf"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "lectern: scan.pdf: unchanged (no text layer)\n")
        XCTAssertTrue(again.stdout.hasPrefix("0 stored (0 passages), 1 unchanged"), again.stdout)
        let events = try lectern(["ingest", "--ocr", "never", "--events", "json", "scan.pdf"])
        let unchanged = events.stderr.split(separator: "\n").compactMap { try? JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8)) }
            .filter { $0.event == .unchanged }
        XCTAssertEqual(unchanged.map(\.message), ["no text layer"])

        // Still listed, so a user sees it is there and why it finds nothing.
        let sources = try lectern(["sources"])
        XCTAssertTrue(sources.stdout.contains("scan.pdf"), sources.stdout)
        let shown = try lectern(["show", "scan.pdf"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        // Summarising the whole library passes over it rather than failing.
        try folder.write("notes.md", "# Cells\n\nThe cell membrane controls what enters and leaves the cell.\n")
        XCTAssertEqual(try lectern(["ingest", "notes.md"]).status, 0)
        let summarized = try lectern(["summarize"])
        XCTAssertEqual(summarized.status, 0, summarized.stderr)
        XCTAssertTrue(summarized.stdout.hasPrefix("1 document summarised"), summarized.stdout)
    }

    /// Situation → exit status, the same for both commands (0 all read, 1 an input failed,
    /// 2 a usage error).
    func testExtractAndIngestAgreeOnExitCodes() throws {
        try folder.write("notes.md", "# Cells\n\nThe cell membrane controls what enters and leaves the cell.\n")
        try copy(fixture: "image-only.pdf", as: "scan.pdf")
        try copy(fixture: "locked-handout.pdf", as: "locked.pdf")
        try folder.write("empty.txt", "")
        try folder.write("data/notes.md", "# Atoms\n\nAn atom has a nucleus of protons and neutrons.\n")
        try folder.write("data/shape.json", #"{"rows": [1, 2, 3]}"#)
        try folder.write("bad-passwords.tsv", "locked.pdf handout-pass\n")
        let situations: [(String, [String], Int32)] = [
            ("a readable file", ["notes.md"], 0),
            ("a scan without a text layer (a warning)", ["scan.pdf"], 0),
            ("a folder with a file no reader knows (a warning)", ["data"], 0),
            ("an encrypted PDF without its password", ["locked.pdf"], 1),
            ("a missing file", ["missing.md"], 1),
            ("a glob that matches nothing", ["*.docx"], 1),
            ("an empty file", ["empty.txt"], 1),
            ("a named file no reader knows", ["data/shape.json"], 1),
            ("one good and one failing input", ["notes.md", "missing.md"], 1),
            ("a malformed password file", ["--password-file", "bad-passwords.tsv", "locked.pdf"], 2),
            ("a missing password file", ["--password-file", "nowhere.tsv", "locked.pdf"], 2),
        ]
        for (situation, arguments, expected) in situations {
            let extract = try lectern(["extract"] + arguments)
            let ingest = try lectern(["ingest"] + arguments)
            XCTAssertEqual(extract.status, expected, "extract, \(situation): \(extract.stderr)")
            XCTAssertEqual(ingest.status, expected, "ingest, \(situation): \(ingest.stderr)")
        }
    }

    func testAPasswordFileGivesEachPDFItsOwnPassword() throws {
        try copy(fixture: "locked-primer.pdf", as: "papers/primer.pdf")
        try copy(fixture: "locked-handout.pdf", as: "papers/writer.pdf")
        FileManager.default.createFile(atPath: folder.file("papers/handout.pdf").path,
                                       contents: try Data(contentsOf: TestPaths.corpora.appendingPathComponent("pdf/calculus-handout.pdf")))
        // The first matching line wins: writer.pdf is matched by its name before the catch-all.
        try folder.write("passwords.tsv", "# per-file passwords\n\nwriter.pdf\thandout-pass\npapers/*.pdf\tprimer-pass\n")
        let extracted = try lectern(["extract", "--password-file", "passwords.tsv", "papers/writer.pdf", "papers/primer.pdf"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        XCTAssertTrue(extracted.stdout.contains("fundamental theorem of calculus") && extracted.stdout.contains("double helix"), extracted.stdout)
        let ingested = try lectern(["ingest", "--password-file", "passwords.tsv", "papers"])
        XCTAssertEqual(ingested.status, 0, ingested.stderr)
        XCTAssertTrue(ingested.stdout.hasPrefix("3 stored"), ingested.stdout)

        // --password is for the files no line names.
        try folder.write("one.tsv", "primer.pdf\tprimer-pass\n")
        let both = try lectern(["extract", "--password-file", "one.tsv", "--password", "handout-pass", "papers/primer.pdf", "papers/writer.pdf"])
        XCTAssertEqual(both.status, 0, both.stderr)

        // A wrong password is named as wrong and never shown: not on stderr, not in the library.
        let secret = "Wr0ng-Secret-Kx7"
        try folder.write("wrong.tsv", "writer.pdf\t\(secret)\n")
        FileManager.default.createFile(atPath: folder.file("papers/writer.pdf").path,
                                       contents: try Data(contentsOf: PDFExtractorTests.fixture("locked-handout.pdf")) + Data("\n".utf8))
        let wrong = try lectern(["ingest", "--password-file", "wrong.tsv", "--events", "json", "papers/writer.pdf"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("encrypted, and the password given does not open it"), wrong.stderr)
        let runs = try lectern(["runs", "--json"])
        XCTAssertTrue(runs.stdout.contains("--password-file"), "the option is recorded: \(runs.stdout.prefix(300))")
        for text in [wrong.stdout, wrong.stderr, runs.stdout] { XCTAssertFalse(text.contains(secret)) }
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: folder.file("lectern.db" + suffix))) ?? Data()
            XCTAssertNil(bytes.range(of: Data(secret.utf8)), "lectern.db\(suffix) holds the password")
        }

        // A malformed line is named by its number, never quoted (it may hold a password).
        try folder.write("malformed.tsv", "# ok\nwriter.pdf \(secret)\n")
        let malformed = try lectern(["ingest", "--password-file", "malformed.tsv", "papers/writer.pdf"])
        XCTAssertEqual(malformed.status, 2)
        XCTAssertEqual(malformed.stderr, "lectern: malformed.tsv:2: expected `glob<TAB>password` (no tab on this line)\n")
    }

    func testAFailedFirstIngestLeavesNoLibraryBehind() throws {
        try folder.write("empty.txt", "")
        let failed = try lectern(["ingest", "--db", "study.db", "missing.md", "empty.txt"])
        XCTAssertEqual(failed.status, 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("study.db") }
        XCTAssertEqual(left, [], "no empty library is left behind")
        let search = try lectern(["search", "--db", "study.db", "cells"])
        XCTAssertTrue(search.stderr.contains("no library here yet"), search.stderr)

        // A library that was there before stays, with what it holds, whatever the ingest does.
        try folder.write("notes.md", "# Cells\n\nThe cell membrane controls what enters and leaves the cell.\n")
        XCTAssertEqual(try lectern(["ingest", "--db", "study.db", "notes.md"]).status, 0)
        XCTAssertEqual(try lectern(["ingest", "--db", "study.db", "missing.md"]).status, 1)
        let kept = try lectern(["search", "--db", "study.db", "membrane"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertTrue(kept.stdout.contains("notes.md"), kept.stdout)
    }
}
