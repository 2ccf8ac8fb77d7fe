import XCTest
@testable import Lectern

/// An ingest's progress is counted in bytes of input across the batch, not in documents: a
/// book and a note are not one unit of work each. `--events json` carries the numbers the
/// terminal's time left is computed from.
final class IngestProgressTests: CommandTestCase {
    func events(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// A long note of `paragraphs` paragraphs, each a distinct sentence or two.
    func longNote(_ title: String, paragraphs: Int) -> String {
        "# \(title)\n\n" + (1...paragraphs).map { "Paragraph \($0) of \(title): the cell stores energy number \($0 * 7) in ATP, and enzyme \($0) catalyses reaction \($0 + 3) of its pathway." }
            .joined(separator: "\n\n") + "\n"
    }

    func testTheBatchIsMeasuredInBytesAndUnchangedInputsLeaveIt() throws {
        let small = try folder.write("course/a-small.md", "# Small\n\nOsmosis moves water across a membrane.\n")
        let book = try folder.write("course/b-book.md", longNote("Book", paragraphs: 400))
        let other = try folder.write("course/c-other.md", longNote("Other", paragraphs: 20))
        let sizes = try [small, book, other].map { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) }
        let total = sizes.reduce(0, +)

        let first = try runLectern(["ingest", "course", "--events", "json"], in: folder.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let all = events(first.stderr)
        let started = all.filter { $0["event"] as? String == "input_started" }
        XCTAssertEqual(started.count, 3)
        XCTAssertEqual(started.map { $0["workTotal"] as? Int }, [total, total, total])
        // Each input starts where the ones before it end: bytes, not documents.
        XCTAssertEqual(started.map { $0["workDone"] as? Int }, [0, sizes[0], sizes[0] + sizes[1]])

        // The book's own embedding moves the batch along within it.
        let embedding = all.filter { $0["event"] as? String == "progress" && $0["input"] as? String == "course/b-book.md" }
        XCTAssertFalse(embedding.isEmpty, "a long document reports its embedding")
        let along = embedding.compactMap { $0["workDone"] as? Int }
        XCTAssertEqual(along, along.sorted(), "never backwards")
        XCTAssertTrue(along.allSatisfy { $0 >= sizes[0] && $0 <= sizes[0] + sizes[1] }, "\(along)")
        XCTAssertEqual(along.last, sizes[0] + sizes[1])

        // Again, with only the last note changed: the unchanged ones cost nothing and leave the total.
        try (longNote("Other", paragraphs: 21)).write(to: other, atomically: true, encoding: .utf8)
        let changedSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: other.path)[.size] as? Int)
        let again = try runLectern(["ingest", "course", "--events", "json"], in: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        let restarted = events(again.stderr).filter { $0["event"] as? String == "input_started" }
        XCTAssertEqual(restarted.map { $0["workTotal"] as? Int }, [sizes[0] + sizes[1] + changedSize, sizes[1] + changedSize, changedSize])
        XCTAssertEqual(restarted.map { $0["workDone"] as? Int }, [0, 0, 0])
    }

    /// On a terminal the batch line shows how far the batch is, in those bytes.
    func testATerminalShowsTheShareOfTheBatch() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("util-linux script is not installed") }
        try folder.write("course/a.md", "# A\n\nOsmosis moves water across a membrane.\n")
        try folder.write("course/b.md", longNote("Book", paragraphs: 300))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(TestPaths.lecternBinary.path)' ingest course", "/dev/null"]
        process.currentDirectoryURL = folder.url
        process.environment = lecternEnvironment(in: folder.url)
        let result = try capture(process)
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("[1/2] 0% course/a.md"), result.stdout)
        XCTAssertTrue(result.stdout.range(of: #"\[2/2\] [0-9]+%"#, options: .regularExpression) != nil, result.stdout)
    }
}
