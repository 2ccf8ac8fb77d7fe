import Foundation
import XCTest
@testable import Lectern

/// The order of a folder's documents in a curriculum, as `curriculum build --order` chooses it,
/// on generated notes: numbered names in natural order by default (lecture-2 before
/// lecture-10), a note that defines a term before the notes using it with `dependencies`, the
/// order named with `given`; a rebuild keeps the order the curriculum has.
final class CurriculumOrderTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    func unitTitles(_ name: String) throws -> [String] {
        let shown = try lectern("curriculum", "show", name, "--json")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        return try JSONDecoder().decode(Curriculum.self, from: Data(shown.stdout.utf8)).units.map(\.title)
    }

    func testNumberedNamesInNaturalOrderAndDefinitionsBeforeTheirUse() throws {
        let notes = folder.url.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        let files = [
            "lecture-2-derivatives.md": "# Derivatives\n\nA derivative is the rate at which a function changes at a point. "
                + "The derivative gives the slope of the tangent there. Each tangent touches the curve at that point only.\n",
            "lecture-3-tangents.md": "# Tangents\n\nA tangent is the straight line that touches a curve at one point without crossing it. "
                + "Draw it with a ruler against the curve.\n",
            "lecture-10-chain-rule.md": "# The chain rule\n\nFor a composition we multiply the derivatives of the outer and the inner function. "
                + "Both derivatives are taken at the matching points.\n",
        ]
        for (name, text) in files { try text.write(to: notes.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        XCTAssertEqual(try lectern("ingest", notes.path, "--embedder", "hashing").status, 0)

        XCTAssertEqual(try lectern("curriculum", "build", "calc", notes.path).status, 0)
        XCTAssertEqual(try unitTitles("calc"), ["Derivatives", "Tangents", "The chain rule"], "lecture-2, lecture-3, lecture-10")

        XCTAssertEqual(try lectern("curriculum", "build", "calc", notes.path, "--order", "dependencies").status, 0)
        XCTAssertEqual(try unitTitles("calc"), ["Tangents", "Derivatives", "The chain rule"],
                       "the note defining 'tangent' before the one using it; 'derivative' defined before the chain rule uses it")
        XCTAssertEqual(try lectern("curriculum", "build", "calc").status, 0)
        XCTAssertEqual(try unitTitles("calc"), ["Tangents", "Derivatives", "The chain rule"], "a rebuild keeps the order")

        let chain = notes.appendingPathComponent("lecture-10-chain-rule.md").path
        let derivatives = notes.appendingPathComponent("lecture-2-derivatives.md").path
        XCTAssertEqual(try lectern("curriculum", "build", "given", chain, derivatives, "--order", "given").status, 0)
        XCTAssertEqual(try unitTitles("given"), ["The chain rule", "Derivatives"])

        let wrong = try lectern("curriculum", "build", "calc", notes.path, "--order", "size")
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("--order"), wrong.stderr)
    }
}
