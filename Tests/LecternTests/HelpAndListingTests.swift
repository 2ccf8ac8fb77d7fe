import XCTest
@testable import Lectern

/// What a user reads: help at 80 columns and through a pipe, the shell completions, and the
/// `sources` listing.
final class HelpAndListingTests: CommandTestCase {
    static let commands = ["ingest", "search", "ask", "summarize", "sources", "show", "extract", "rm", "prune", "reembed",
                           "stats", "runs", "logs", "doctor", "embed", "eval"]

    /// Every command's help fits 80 columns, piped or not, and no paragraph of ours breaks
    /// into a ragged short line in the middle (argument-parser wraps our text itself).
    func testHelpReadsWellAt80ColumnsAndThroughAPipe() throws {
        for command in [[]] + Self.commands.map({ [$0] }) {
            for columns in ["80", ""] {
                let result = try runLectern(command + ["--help"], in: folder.url, environment: ["COLUMNS": columns])
                XCTAssertEqual(result.status, 0, result.stderr)
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                // The usage line is argument-parser's own, one line however long.
                let wide = lines.filter { $0.count > 80 && !$0.hasPrefix("USAGE: ") }
                XCTAssertEqual(wide, [], "lectern \(command.joined()) --help with COLUMNS=\(columns)")
                // A ragged break: a line of a paragraph much shorter than its neighbours, then more of it.
                for (index, line) in lines.enumerated().dropFirst().dropLast() {
                    let next = lines[index + 1], previous = lines[index - 1]
                    let indent = line.prefix { $0 == " " }.count
                    guard !line.trimmingCharacters(in: .whitespaces).isEmpty, previous.count > 70,
                          next.prefix(while: { $0 == " " }).count == indent, !next.trimmingCharacters(in: .whitespaces).isEmpty,
                          !next.trimmingCharacters(in: .whitespaces).hasPrefix("-"), !next.trimmingCharacters(in: .whitespaces).hasPrefix("lectern"),
                          previous.prefix(while: { $0 == " " }).count == indent else { continue }
                    XCTAssertGreaterThan(line.count, 40, "a ragged line in lectern \(command.joined()) --help: \(line)")
                }
            }
        }
    }

    func testHelpShowsTheDefaults() throws {
        let search = try runLectern(["search", "--help"], in: folder.url, environment: ["COLUMNS": "80"]).stdout
        XCTAssertTrue(search.contains("default: hybrid)"), search)
        XCTAssertTrue(search.contains("default: search.k, 10"), search)
        let ask = try runLectern(["ask", "--help"], in: folder.url, environment: ["COLUMNS": "80"]).stdout
        XCTAssertTrue(ask.contains("(default: 8)"), ask)
        let db = try runLectern(["stats", "--help"], in: folder.url, environment: ["COLUMNS": "80"]).stdout
        XCTAssertTrue(db.contains("~/.local/share/lectern/library.db"), "--db names the default library: \(db)")
    }

    /// `make install` installs what `--generate-completion-script` writes: the bash script
    /// completes every subcommand.
    func testTheBashCompletionScriptNamesEverySubcommand() throws {
        let result = try runLectern(["--generate-completion-script", "bash"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("complete -o filenames -F _lectern lectern") || result.stdout.contains("-F _lectern lectern"),
                      String(result.stdout.prefix(400)))
        for command in Self.commands where command != "embed" {  // embed is hidden from help and completions
            XCTAssertTrue(result.stdout.contains(" \(command)") || result.stdout.contains("'\(command)'"), "bash completion lacks \(command)")
        }
        for shell in ["zsh", "fish"] {
            let script = try runLectern(["--generate-completion-script", shell], in: folder.url)
            XCTAssertEqual(script.status, 0, script.stderr)
            XCTAssertTrue(script.stdout.contains("logs"), "\(shell) completion lacks logs")
        }
    }

    func testSourcesAreAlignedColumnsWithPlurals() throws {
        try folder.write("notes/a.md", "# Cells\n\nThe mitochondrion produces ATP.\n")
        var long = "# Entropy\n\n"
        for section in 1...3 { long += "## Part \(section)\n\n" + String(repeating: "Shannon entropy measures the average information of a message. ", count: 40) + "\n\n" }
        try folder.write("notes/information-theory.md", long)
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let result = try runLectern(["sources"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stdout)
        let cells = try XCTUnwrap(lines.first { $0.contains("notes/a.md") })
        let entropy = try XCTUnwrap(lines.first { $0.contains("notes/information-theory.md") })
        XCTAssertTrue(cells.contains(" 1 passage  "), "one passage, singular: \(cells)")
        XCTAssertFalse(cells.contains("1 passages"))
        XCTAssertTrue(entropy.range(of: #" \d+ passages  "#, options: .regularExpression) != nil, entropy)
        // Columns line up: the types, the counts and the titles start at the same place.
        for column in ["markdown", "passage", "Cells"] {
            let other = column == "Cells" ? "Entropy" : column
            let a = try XCTUnwrap(cells.range(of: column)), b = try XCTUnwrap(entropy.range(of: other))
            XCTAssertEqual(cells.distance(from: cells.startIndex, to: a.lowerBound),
                           entropy.distance(from: entropy.startIndex, to: b.lowerBound), "\(column) column:\n\(result.stdout)")
        }
    }
}
