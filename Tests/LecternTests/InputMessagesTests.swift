import XCTest
@testable import Lectern

/// Each bad input gets a line that names the real problem, never a misleading "no such file"
/// or "permission denied", and the batch goes on.
final class InputMessagesTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try folder.write("notes/cells.md", "# Cells\n\nRibosomes make proteins from amino acids.\n")
    }

    /// `lectern ingest ARGUMENT notes/cells.md`: the argument's one line, and the good file stored.
    func ingestLine(_ argument: String) throws -> String {
        let result = try runLectern(["ingest", argument, "notes/cells.md"], in: folder.url)
        XCTAssertEqual(result.status, 1, "\(argument): \(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("1 stored") || result.stdout.hasPrefix("0 stored (0 passages), 1 unchanged"), result.stdout)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1, result.stderr)
        return lines.first ?? ""
    }

    func testWebSpecsWithoutANameAndUnsupportedSchemesSaySo() throws {
        XCTAssertEqual(try ingestLine("wikipedia:\"\""), "lectern: wikipedia:\"\": no article named: give its title, as in wikipedia:\"Information theory\"")
        XCTAssertEqual(try ingestLine("wikipedia:fr:"), "lectern: wikipedia:fr:: no article named: give its title, as in wikipedia:\"Information theory\"")
        XCTAssertEqual(try ingestLine("openstax:"), "lectern: openstax:: no book named: give its slug, as in openstax:introduction-philosophy-2e")
        XCTAssertEqual(try ingestLine("ocw:"), "lectern: ocw:: no course named: give its id or URL, as in ocw:8-01sc-classical-mechanics-fall-2016")
        XCTAssertEqual(try ingestLine("ftp://example.org/notes.txt"),
                       "lectern: ftp://example.org/notes.txt: unsupported scheme ftp: Lectern fetches http:// and https:// URLs, and wikipedia:, openstax: and ocw: specs")
        // A path that merely contains a colon is still just missing.
        XCTAssertEqual(try ingestLine("draft:notes.md"), "lectern: draft:notes.md: no such file or directory")
    }

    func testDevicesAndNamedPipesAreNamedAndNeverWaitedOn() throws {
        XCTAssertEqual(try ingestLine("/dev/zero"), "lectern: /dev/zero: a character device, not a regular file: Lectern reads files and folders")
        let pipe = folder.file("notes/incoming.pipe").path
        XCTAssertEqual(mkfifo(pipe, 0o644), 0)
        // Nothing ever writes to the pipe: an ingest that opened it would wait forever.
        let started = Date()
        let result = try runLectern(["ingest", "notes"], in: folder.url)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: notes/incoming.pipe: a named pipe (FIFO), not a regular file: Lectern reads files and folders\n")
        XCTAssertTrue(result.stdout.hasPrefix("0 stored (0 passages), 1 unchanged, 1 failed"), result.stdout)
        let extract = try runLectern(["extract", "notes/incoming.pipe"], in: folder.url)
        XCTAssertEqual(extract.stderr, "lectern: notes/incoming.pipe: a named pipe (FIFO), not a regular file: Lectern reads files and folders\n")
    }

    func testJSONOfNoKnownShapeIsNotStoredAsText() throws {
        try folder.write("notes/settings.json", #"{"theme": "dark", "recent": ["cells.md", "energy.md"], "zoom": 1.25}"#)
        try folder.write("notes/lecture.json", #"[{"speaker": "Ada", "start": 1.5, "end": 4, "text": "Ribosomes read messenger RNA."}]"#)
        // Named: an error.
        let named = try runLectern(["ingest", "notes/settings.json"], in: folder.url)
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(named.stderr, "lectern: notes/settings.json: JSON of no known shape (neither transcript turns with start times nor an OCW course)\n")
        let extract = try runLectern(["extract", "notes/settings.json"], in: folder.url)
        XCTAssertEqual(extract.status, 1)
        XCTAssertEqual(extract.stderr, "lectern: notes/settings.json: JSON of no known shape (neither transcript turns with start times nor an OCW course)\n")
        // Met in a folder: on the default ignore list, counted; the rest (a JSON transcript too) is read.
        let walk = try runLectern(["ingest", "notes"], in: folder.url)
        XCTAssertEqual(walk.status, 0, walk.stderr)
        XCTAssertEqual(walk.stderr, "")
        XCTAssertTrue(walk.stdout.hasPrefix("2 stored (2 passages), 0 unchanged, 1 file left out by ignore rules"), walk.stdout)
        let sources = try runLectern(["sources", "--json"], in: folder.url)
        XCTAssertFalse(sources.stdout.contains("settings.json"), sources.stdout)
        let extractWalk = try runLectern(["extract", "notes"], in: folder.url)
        XCTAssertEqual(extractWalk.status, 0, extractWalk.stderr)
        XCTAssertEqual(extractWalk.stderr, "1 file left out by ignore rules\n")
        // Without the default list, passed over with the reader's line.
        let everything = try runLectern(["ingest", "notes", "--no-default-ignore"], in: folder.url)
        XCTAssertEqual(everything.status, 0, everything.stderr)
        XCTAssertEqual(everything.stderr, "lectern: warning: notes/settings.json: skipped: JSON of no known shape (neither transcript turns with start times nor an OCW course)\n")
        XCTAssertTrue(everything.stdout.hasPrefix("0 stored (0 passages), 2 unchanged, 1 warning"), everything.stdout)
    }

    func testANegativeHitCountIsRefusedWithItsReason() throws {
        let result = try runLectern(["search", "ribosomes", "-k", "-1"], in: folder.url)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").first, "Error: -k must be at least 1")
        let zero = try runLectern(["search", "ribosomes", "-k", "0"], in: folder.url)
        XCTAssertEqual(zero.stderr.split(separator: "\n").first, "Error: -k must be at least 1")
    }
}
