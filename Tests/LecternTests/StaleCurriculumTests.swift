import XCTest
@testable import Lectern

/// A curriculum whose source was ingested again with new content cites passages that are
/// gone: `cards generate`, `curriculum export` and `context` refuse it with one line naming the
/// command that brings it up to date (never a smaller deck reported as success), and
/// `curriculum build NAME` without sources rebuilds it from its own sources.
final class StaleCurriculumTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// corpora/notes copied into the test's folder, so that one note can be edited.
    func copyNotes() throws -> URL {
        let notes = folder.file("notes")
        try FileManager.default.copyItem(at: TestPaths.corpora.appendingPathComponent("notes"), to: notes)
        return notes
    }

    func noteCount(_ curriculum: String) throws -> Int {
        let listed = try lectern("cards", "list", "--curriculum", curriculum, "--json")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let cards = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], listed.stdout)
        return Set(cards.compactMap { $0["guid"] as? String }).count
    }

    func testCardsOfAnOutdatedCurriculumAreRefusedUntilItIsRebuilt() throws {
        let notes = try copyNotes()
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        XCTAssertEqual(try lectern("curriculum", "build", "cells", "notes").status, 0)
        let made = try lectern("cards", "generate", "cells")
        XCTAssertEqual(made.status, 0, made.stderr)
        let before = try noteCount("cells")
        XCTAssertGreaterThan(before, 5)

        // The user edits a note and ingests it again: its passages are replaced.
        let photosynthesis = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: notes.path).first { $0.hasPrefix("photosynthesis") })
        let file = notes.appendingPathComponent(photosynthesis)
        let text = try String(contentsOf: file, encoding: .utf8)
        try (text + "\n\nChlorophyll absorbs red and blue light and reflects green light.\n").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)

        let refused = try lectern("cards", "generate", "cells")
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("cells: built before its sources changed: notes/\(photosynthesis) changed since"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("run `lectern curriculum build cells`"), refused.stderr)
        XCTAssertEqual(try noteCount("cells"), before, "a refused generate keeps the deck as it was")

        let export = try lectern("curriculum", "export", "cells", "-o", "cells.umcf")
        XCTAssertEqual(export.status, 1)
        XCTAssertTrue(export.stderr.contains("run `lectern curriculum build cells`"), export.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("cells.umcf").path))

        let context = try lectern("context", "what does the Calvin cycle make?", "--curriculum", "cells")
        XCTAssertEqual(context.status, 1, context.stdout)
        XCTAssertTrue(context.stderr.contains("run `lectern curriculum build cells`"), context.stderr)

        // The command the line names: the curriculum from its own sources, then a whole deck again.
        let rebuilt = try lectern("curriculum", "build", "cells")
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertTrue(rebuilt.stdout.hasPrefix("cells: 3 units,"), rebuilt.stdout)
        let again = try lectern("cards", "generate", "cells")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertGreaterThanOrEqual(try noteCount("cells"), before, "the edited note's topics have their cards again")
        XCTAssertEqual(try lectern("curriculum", "export", "cells", "-o", "cells.umcf").status, 0)
    }

    func testARebuildWithoutSourcesKeepsTheTitleAndLeavesOutRemovedSources() throws {
        _ = try copyNotes()
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        XCTAssertEqual(try lectern("curriculum", "build", "cells", "notes", "--title", "Cell biology").status, 0)
        let unchanged = try lectern("curriculum", "build", "cells")
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertTrue(unchanged.stdout.hasPrefix("cells: unchanged (3 units"), "the given title is kept: \(unchanged.stdout)")

        let removed = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.file("notes").path).sorted().first)
        XCTAssertEqual(try lectern("rm", "notes/" + removed).status, 0)
        XCTAssertEqual(try lectern("cards", "generate", "cells").status, 1, "a removed source makes it outdated too")
        let rebuilt = try lectern("curriculum", "build", "cells")
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertTrue(rebuilt.stdout.hasPrefix("cells: 2 units,"), rebuilt.stdout)
        XCTAssertTrue(rebuilt.stderr.contains("no longer in the library: left out of cells"), rebuilt.stderr)
        let record = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern("curriculum", "show", "cells", "--json").stdout.utf8))
        XCTAssertEqual(record.title, "Cell biology")

        let unknown = try lectern("curriculum", "build", "nothing")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no curriculum of that name yet: give its sources, or --all"), unknown.stderr)
    }
}
