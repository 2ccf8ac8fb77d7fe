import XCTest
@testable import Lectern

/// The bash completion that `make install` installs, run in a real bash: paths where a command
/// takes files, and the library's curriculum names, topic ids and document ids where it takes those.
final class CompletionTests: CommandTestCase {
    /// What bash offers for `line` (the last word being completed), in the test's folder.
    func complete(_ line: String) throws -> [String] {
        let script = folder.file("lectern.bash")
        if !FileManager.default.fileExists(atPath: script.path) {
            let generated = try runLectern(["--generate-completion-script", "bash"], in: folder.url)
            XCTAssertEqual(generated.status, 0, generated.stderr)
            try generated.stdout.write(to: script, atomically: true, encoding: .utf8)
        }
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _lectern lectern '\(words.last ?? "")' '\(words.dropLast().last ?? "")' 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """]
        process.currentDirectoryURL = folder.url
        var environment = lecternEnvironment(in: folder.url)
        environment["PATH"] = TestPaths.lecternBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let result = try capture(process)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func testPathsCurriculaTopicsAndDocumentsComplete() throws {
        try folder.write("algebra.md", "# Algebra\n\nA group is a set with an associative operation, an identity and inverses.\n")
        try folder.write("alpha/decay.md", "# Alpha decay\n\nAn alpha particle is a helium nucleus emitted by a heavy atom.\n")
        XCTAssertEqual(try complete("lectern ingest al"), ["algebra.md", "alpha"])

        XCTAssertEqual(try runLectern(["ingest", "algebra.md", "alpha"], in: folder.url).status, 0)
        XCTAssertEqual(try runLectern(["curriculum", "build", "maths", "algebra.md"], in: folder.url).status, 0)
        XCTAssertEqual(try runLectern(["curriculum", "build", "physics", "alpha"], in: folder.url).status, 0)
        XCTAssertEqual(try complete("lectern curriculum show ma"), ["maths"])
        XCTAssertEqual(try complete("lectern curriculum rm "), ["maths", "physics"])
        XCTAssertEqual(try complete("lectern context --curriculum ph"), ["physics"])

        let record = try JSONDecoder().decode(Curriculum.self, from: Data(try runLectern(["curriculum", "show", "physics", "--json"], in: folder.url).stdout.utf8))
        let topic = try XCTUnwrap(record.topics.first).stableId
        XCTAssertEqual(try complete("lectern context --curriculum physics --topic \(topic.prefix(3))"), [topic])

        let sources = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try runLectern(["sources", "--json"], in: folder.url).stdout.utf8)) as? [[String: Any]])
        let ids = sources.flatMap { $0["documentIds"] as? [String] ?? [] }.sorted()
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(try complete("lectern show "), ids)

        // No library where the line points: nothing offered, no error on the user's line.
        XCTAssertEqual(try complete("lectern curriculum show --db nowhere.db ma"), [])
    }
}
