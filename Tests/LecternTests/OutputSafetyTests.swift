import XCTest
@testable import Lectern

/// Where exports land (issue #39): an output never overwrites the library, the pipeline file
/// or a source; a device, FIFO or standard output is written through, not replaced; a file is
/// replaced whole through a named, synced temporary file, and what a killed write left is
/// cleaned up; an output that cannot be written is that output's failure; an extension that
/// names another format is refused.
final class OutputSafetyTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func writeNotes() throws {
        try folder.write("notes/chain-rule.md", "# The chain rule\n\nThe chain rule differentiates a composition: the derivative of f(g(x)) is f'(g(x)) times g'(x).\n\n## Examples\n\nThe derivative of sin(x squared) is cos(x squared) times 2x, which the chain rule gives at once.\n")
        try folder.write("notes/enzymes.md", "# Enzymes\n\nEnzymes are proteins that lower the activation energy of a reaction.\n\n## Inhibition\n\nA competitive inhibitor binds the active site and slows the reaction down.\n")
    }

    /// A library at ./lectern.db with curriculum `c` built from ./notes and its cards.
    func libraryWithCurriculum() throws {
        try writeNotes()
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let built = try lectern("curriculum", "build", "c", "notes")
        XCTAssertEqual(built.status, 0, built.stderr)
        let cards = try lectern("cards", "generate", "c")
        XCTAssertEqual(cards.status, 0, cards.stderr)
    }

    func pipeline(exports: [(format: String, output: String)], library: String = "lectern.db") -> String {
        var text = "library = \"\(library)\"\n[[source]]\npath = \"notes\"\n[[curriculum]]\nname = \"c\"\nsources = [\"notes\"]\n"
        for export in exports {
            text += "[[export]]\ncurriculum = \"c\"\nformat = \"\(export.format)\"\noutput = \"\(export.output)\"\n"
        }
        return text
    }

    func hiddenFiles(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix(".") }.sorted()
    }

    // MARK: Item 1: outputs that would destroy what the run depends on

    func testAPipelineOutputOntoTheLibraryThePipelineFileOrASourceIsRefusedBeforeAnyWork() throws {
        try writeNotes()
        try FileManager.default.createSymbolicLink(atPath: folder.file("linked-notes").path, withDestinationPath: "notes")
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias.md").path, withDestinationPath: "notes/chain-rule.md")
        let note = try String(contentsOf: folder.file("notes/chain-rule.md"), encoding: .utf8)
        let cases: [(output: String, reason: String)] = [
            ("lectern.db", "is the library"),
            ("lectern.db-wal", "is the library's wal file"),
            ("lectern.db.run-lock", "is the library's run-lock file"),
            ("p.toml", "is the pipeline file"),
            ("notes/chain-rule.md", "is inside source 'notes'"),
            ("notes/syllabus.md", "is inside source 'notes'"),
            ("linked-notes/chain-rule.md", "is inside source 'notes'"),
            ("alias.md", "is inside source 'notes'"),
        ]
        for (output, reason) in cases {
            let format = output.hasSuffix(".md") ? "md" : "json"
            try folder.write("p.toml", pipeline(exports: [(format, output)]))
            for dryRun in [false, true] {
                let result = try runLectern(["run", "p.toml", "--events", "text"] + (dryRun ? ["--dry-run"] : []), in: folder.url)
                XCTAssertEqual(result.status, 2, "\(output): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("lectern: p.toml:10: export[1].output \(output) \(reason)"), "\(output): \(result.stderr)")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "no work was done for \(output)")
        }
        XCTAssertEqual(try String(contentsOf: folder.file("notes/chain-rule.md"), encoding: .utf8), note, "the source is untouched")

        // A source given as a glob protects what it matches.
        try folder.write("p.toml", "[[source]]\npath = \"notes/*.md\"\n[[curriculum]]\nname = \"c\"\nsources = [\"notes/*.md\"]\n"
                         + "[[export]]\ncurriculum = \"c\"\nformat = \"md\"\noutput = \"notes/syllabus.md\"\n")
        let glob = try lectern("run", "p.toml", "--events", "text")
        XCTAssertEqual(glob.status, 2, glob.stderr)
        XCTAssertTrue(glob.stderr.contains("export[1].output notes/syllabus.md matches source 'notes/*.md'"), glob.stderr)

        // The library named through a symbolic link is still the library.
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias.db").path, withDestinationPath: "lectern.db")
        try folder.write("p.toml", pipeline(exports: [("json", "alias.db")]))
        let aliased = try lectern("run", "p.toml", "--events", "text")
        XCTAssertEqual(aliased.status, 2, aliased.stderr)
        XCTAssertTrue(aliased.stderr.contains("export[1].output alias.db is the library ("), aliased.stderr)
    }

    func testACommandLineExportOntoItsOwnLibraryIsRefusedAndTheLibraryStaysWhole() throws {
        try libraryWithCurriculum()
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias.db").path, withDestinationPath: "lectern.db")
        for arguments in [["curriculum", "export", "c", "--db", "lectern.db", "-o", "lectern.db", "--format", "md"],
                          ["curriculum", "export", "c", "-o", "alias.db", "--format", "json"],
                          ["curriculum", "export", "c", "-o", "lectern.db-wal", "--format", "json"],
                          ["cards", "export", "c", "-o", "lectern.db", "--format", "json"],
                          ["cards", "export", "c", "-o", "./alias.db", "--format", "apkg"]] {
            let result = try runLectern(arguments, in: folder.url)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is the library"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: folder.file("lectern.db")).prefix(15), Data("SQLite format 3".utf8), "still the library")
        let list = try JSONDecoder().decode([CurriculumSummary].self, from: Data(try lectern("curriculum", "list", "--json").stdout.utf8))
        XCTAssertEqual(list.map(\.name), ["c"])
    }

    // MARK: Item 13: an extension that names another format

    func testAnExtensionNamingAnotherFormatIsRefused() throws {
        try libraryWithCurriculum()
        var result = try lectern("curriculum", "export", "c", "--format", "md", "-o", "x.umcf")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stderr, "lectern: x.umcf: the extension says umcf, but the format is md: name the file .md or give --format umcf\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.umcf").path))
        result = try lectern("cards", "export", "c", "--format", "apkg", "-o", "deck.csv")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("deck.csv").path))
        // Agreeing names, and names of no format, are written.
        XCTAssertEqual(try lectern("curriculum", "export", "c", "--format", "markdown", "-o", "x.md").status, 0)
        XCTAssertEqual(try lectern("cards", "export", "c", "--format", "tsv", "-o", "deck.txt").status, 0)
        XCTAssertEqual(try lectern("curriculum", "export", "c", "--format", "umcf", "-o", "x.umcf.json").status, 0, "UMCF is JSON")

        try folder.write("p.toml", pipeline(exports: [("md", "out.umcf")]))
        result = try lectern("run", "p.toml", "--events", "text")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stderr, "lectern: p.toml:10: export[1].output 'out.umcf' has the extension of umcf, but format is md: name the file .md or write format = \"umcf\"\n")
    }

    // MARK: Item 3: devices, FIFOs and standard output are written through

    func testStandardOutputAndAFIFOAreWrittenThroughNotReplaced() throws {
        try libraryWithCurriculum()
        let expected = try lectern("curriculum", "export", "c", "--format", "md").stdout
        XCTAssertTrue(expected.contains("The chain rule"), expected)
        for name in ["-", "/dev/stdout"] {
            let result = try lectern("curriculum", "export", "c", "--format", "md", "-o", name)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, expected, name)
        }
        let cards = try lectern("cards", "export", "c", "--format", "json", "-o", "-")
        XCTAssertEqual(cards.status, 0, cards.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(cards.stdout.utf8)), "the cards themselves, as JSON")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("-").path), "no file named -")

        // A named pipe another program reads from stays a named pipe.
        let fifo = folder.file("out.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let result = try lectern("curriculum", "export", "c", "--format", "md", "-o", "out.fifo")
        XCTAssertEqual(result.status, 0, result.stderr)
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &buffer, buffer.count)
        XCTAssertEqual(String(decoding: buffer[..<max(0, count)], as: UTF8.self), expected, "the reader got the syllabus")
    }

    // MARK: Item 8: named temporary files, and what killed writes left

    func testLeftoversOfKilledWritesAreRemovedAndNoneAreMade() throws {
        try libraryWithCurriculum()
        let tmp = folder.file("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        // What a write killed before its rename leaves, and an apkg build's work folder.
        try folder.write(".deck.apkg.lectern-tmp-999999999-1a2b", "half a deck")
        try folder.write(".deck.apkg.lectern-tmp-\(getpid())-3c4d", "a write still under way")
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("lectern-apkg-999999999-AAAA"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("lectern-apkg-\(getpid())-BBBB"), withIntermediateDirectories: true)

        let result = try runLectern(["cards", "export", "c", "--format", "apkg", "-o", "deck.apkg"], in: folder.url,
                                    environment: ["TMPDIR": tmp.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(hiddenFiles(folder.path), [".deck.apkg.lectern-tmp-\(getpid())-3c4d"],
                       "the dead process's leftover is removed, a live one's kept, none added")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["lectern-apkg-\(getpid())-BBBB"])
        XCTAssertEqual(try Data(contentsOf: folder.file("deck.apkg")).prefix(2), Data("PK".utf8))

        // A file reached through a link is replaced; the link stays a link.
        try FileManager.default.createSymbolicLink(atPath: folder.file("latest.md").path, withDestinationPath: "deck.apkg")
        XCTAssertEqual(try lectern("cards", "export", "c", "--format", "md", "-o", "latest.md").status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("latest.md").path), "deck.apkg")
        XCTAssertTrue(try String(contentsOf: folder.file("deck.apkg"), encoding: .utf8).hasPrefix("#"), "the linked file holds the Markdown")
    }

    // MARK: Item 7: an output that cannot be written is that output's failure

    func testAnOutputThatCannotBeWrittenIsNamedRecordedAndTheOthersAreWritten() throws {
        try writeNotes()
        try FileManager.default.createDirectory(at: folder.file("out/folder.json"), withIntermediateDirectories: true)
        try folder.write("p.toml", pipeline(exports: [("json", "out/folder.json"), ("md", "/dev/full"), ("umcf", "out/c.umcf")]))
        let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("out/folder.json: is a folder: name a file to write"), result.stderr)
        XCTAssertTrue(result.stderr.contains("/dev/full: cannot be written: the disk is full (No space left on device)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("library_unwritable"), result.stderr)
        XCTAssertTrue(result.stdout.contains("2 failed") && result.stdout.contains("1 outputs written"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("out/c.umcf").path), "the other output is written")
        var info = stat()
        XCTAssertEqual(lstat("/dev/full", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/full is still a device")

        let runs = try JSONDecoder().decode([RunRecord].self, from: Data(try lectern("runs", "--json").stdout.utf8))
        XCTAssertEqual(runs.first?.status, .partial)
        XCTAssertEqual(Set(runs.first?.failures.map(\.input) ?? []), [folder.file("out/folder.json").path, "/dev/full"])

        // From the command line: one line naming the output and why, exit 1.
        let export = try lectern("curriculum", "export", "c", "--format", "md", "-o", "/dev/full")
        XCTAssertEqual(export.status, 1)
        XCTAssertEqual(export.stderr, "lectern: /dev/full: cannot be written: the disk is full (No space left on device)\n")
        let folderExport = try lectern("curriculum", "export", "c", "--format", "json", "-o", "out")
        XCTAssertEqual(folderExport.status, 1)
        XCTAssertTrue(folderExport.stderr.contains("out: is a folder: name a file to write"), folderExport.stderr)
    }

    // MARK: Item 2 and 11: the run lock

    func testTheRunLockFollowsNoLinkTruncatesNoOtherFileAndIsOnePerLibrary() throws {
        try writeNotes()
        try folder.write("p.toml", "[[source]]\npath = \"notes\"\n")
        try folder.write("victim.txt", "export PATH=precious\n")
        let lock = folder.file("lectern.db.run-lock").path
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: "victim.txt")
        var result = try lectern("run", "p.toml", "--events", "text")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("lectern.db.run-lock: is a symbolic link; Lectern does not follow it"), result.stderr)
        XCTAssertEqual(try String(contentsOf: folder.file("victim.txt"), encoding: .utf8), "export PATH=precious\n")

        // A hard link, or a file with other text, is not a lock either.
        try FileManager.default.removeItem(atPath: lock)
        XCTAssertEqual(link(folder.file("victim.txt").path, lock), 0)
        result = try lectern("run", "p.toml", "--events", "text")
        XCTAssertTrue(result.stderr.contains("has other names (a hard link)"), result.stderr)
        try FileManager.default.removeItem(atPath: lock)
        try "precious notes\n".write(toFile: lock, atomically: false, encoding: .utf8)
        result = try lectern("run", "p.toml", "--events", "text")
        XCTAssertTrue(result.stderr.contains("holds text that is not a run lock's"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: lock, encoding: .utf8), "precious notes\n")
        XCTAssertEqual(try String(contentsOf: folder.file("victim.txt"), encoding: .utf8), "export PATH=precious\n")

        // Its own lock file is used again, run after run.
        try FileManager.default.removeItem(atPath: lock)
        XCTAssertEqual(try lectern("run", "p.toml", "--events", "text").status, 0)
        XCTAssertEqual(try lectern("run", "p.toml", "--events", "text").status, 0)

        // The library through a link has the same lock: a second run is refused.
        try FileManager.default.createDirectory(at: folder.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("elsewhere/alias.db").path, withDestinationPath: folder.file("lectern.db").path)
        XCTAssertEqual(RunLock.path(library: folder.file("elsewhere/alias.db").path), RunLock.path(library: folder.file("lectern.db").path))
        let held = try RunLock.acquire(library: folder.file("lectern.db").path)
        defer { held.release() }
        result = try runLectern(["run", "p.toml", "--db", "elsewhere/alias.db", "--events", "text"], in: folder.url)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("another run (pid \(getpid())"), result.stderr)
    }
}
