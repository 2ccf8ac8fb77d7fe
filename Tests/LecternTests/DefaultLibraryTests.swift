import XCTest
@testable import Lectern

/// Without `--db`, `LECTERN_DB` or a config value, the library is one file in the user's data
/// directory, so every folder a command runs in sees the same library.
final class DefaultLibraryTests: CommandTestCase {
    /// The environment of a user who names no library (no LECTERN_DB) and whose data
    /// directory is `data`.
    func user(data: String) -> [String: String] { ["LECTERN_DB": "", "XDG_DATA_HOME": folder.file(data).path] }

    func testASearchFromAnotherFolderFindsTheSameLibrary() throws {
        try folder.write("course/notes/cells.md", "# Cells\n\nThe mitochondrion produces ATP through oxidative phosphorylation.\n")
        try FileManager.default.createDirectory(at: folder.file("elsewhere"), withIntermediateDirectories: true)
        let environment = user(data: "data")

        var result = try runLectern(["ingest", "notes"], in: folder.file("course"), environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let library = folder.file("data/lectern/library.db").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: library), "the first ingest makes the data folder and the library in it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("course/lectern.db").path), "nothing is written where the command runs")

        result = try runLectern(["search", "oxidative phosphorylation"], in: folder.file("elsewhere"), environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("1. Cells"), result.stdout)

        result = try runLectern(["stats"], in: folder.file("elsewhere"), environment: environment)
        XCTAssertTrue(result.stdout.hasPrefix("library    \(library) ("), "stats says where the library is: \(result.stdout)")
        result = try runLectern(["doctor"], in: folder.file("elsewhere"), environment: environment)
        XCTAssertTrue(result.stdout.contains("library: \(library) (the default library): integrity_check ok"), result.stdout)
    }

    /// Without XDG_DATA_HOME the library is under ~/.local/share; a read-only command on a
    /// library nobody has made says so in one line and makes nothing.
    func testWithoutXDGDataHomeTheLibraryIsUnderHome() throws {
        try folder.write("notes/info.txt", "Shannon entropy measures the average information of a message.\n")
        let environment = ["LECTERN_DB": "", "XDG_DATA_HOME": "", "HOME": folder.file("home").path]
        let library = folder.file("home/.local/share/lectern/library.db").path

        var result = try runLectern(["search", "entropy"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 2)
        // Named as every file is: relative to where the command runs when inside it.
        XCTAssertEqual(result.stderr, "lectern: home/.local/share/lectern/library.db: no library here yet: run `lectern ingest PATH` first, or pass --db\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("home/.local").path), "a search makes no folder")

        result = try runLectern(["doctor"], in: folder.url, environment: environment)
        XCTAssertTrue(result.stdout.contains("library: \(library) (the default library) does not exist yet"), result.stdout)

        result = try runLectern(["ingest", "notes"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path))
    }

    /// `--db` and LECTERN_DB still name a library where the user wants it.
    func testAnExplicitLibraryStillWins() throws {
        try folder.write("notes/info.txt", "Shannon entropy measures the average information of a message.\n")
        let result = try runLectern(["ingest", "notes", "--db", "mine.db"], in: folder.url, environment: user(data: "data"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("mine.db").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("data/lectern").path))
    }
}
