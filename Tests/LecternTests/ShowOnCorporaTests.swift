import Foundation
import XCTest
@testable import Lectern

/// `show p<N> --context`, `search --group` and the pager rule on a library of the project's own
/// corpora/ (notes, PDFs, transcripts; 11 documents, 34 passages, about a second to ingest with the
/// hashing embedder), so they are tested in every clone; ShowTests repeats them on the shared
/// corpus's book where it is present. One library for the class.
final class ShowOnCorporaTests: XCTestCase {
    nonisolated(unsafe) static var library: TemporaryFolder?

    static func corporaLibrary() throws -> TemporaryFolder {
        try TestPaths.requireLecternBinary()
        if let library { return library }
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", TestPaths.corpora.path], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertTrue(ingest.stdout.hasPrefix("11 stored"), ingest.stdout)
        library = folder
        return folder
    }

    func lectern(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try runLectern(arguments, in: try Self.corporaLibrary().url, environment: environment)
    }

    func hits(_ query: String, _ extra: String...) throws -> [SearchHit] {
        let output = try runLectern(["search", query, "--json"] + extra, in: try Self.corporaLibrary().url)
        XCTAssertEqual(output.status, 0, output.stderr)
        return try JSONDecoder().decode([SearchHit].self, from: Data(output.stdout.utf8))
    }

    /// A hit's `p<N>` opens it between its neighbours in reading order, the hit marked; the
    /// context stays inside the hit's document (the cell biology notes hold five passages).
    func testAHitOpensWithItsNeighboursInsideItsDocument() throws {
        let query = "Small molecules cross the membrane in several ways"
        let hit = try XCTUnwrap(hits(query, "--mode", "keyword", "-k", "1").first)
        XCTAssertEqual(hit.title, "Cell Biology: Lecture Notes")
        let text = try lectern("search", query, "--mode", "keyword", "-k", "1")
        XCTAssertTrue(text.stdout.contains(hit.passageReference + "  "), "the text output names the hit's p<N>: \(text.stdout)")

        let shown = try lectern("show", hit.passageReference, "--context", "1")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("Cell Biology: Lecture Notes  document \(hit.documentShortId)\n"), shown.stdout)
        let heads = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("▶ p") || $0.hasPrefix("  p") }
        XCTAssertEqual(heads.count, 3, shown.stdout)
        XCTAssertTrue(heads[1].hasPrefix("▶ \(hit.passageReference)  "), "the hit in the middle: \(heads)")
        let ids = heads.compactMap { Int($0.dropFirst(3).prefix { $0.isNumber }) }
        XCTAssertEqual(ids.count, 3, "\(heads)")
        if ids.count == 3 { XCTAssertEqual(ids, [ids[1] - 1, ids[1], ids[1] + 1], "the passage before and the one after: \(heads)") }
        XCTAssertTrue(shown.stdout.contains("Every cell is enclosed by a plasma membrane"), "the passage before, whole")
        XCTAssertTrue(shown.stdout.contains("Mitochondria are the power plants of the cell."), "the passage after, whole")

        // Two on each side of the mitochondria passage: the notes' last passage ends the list,
        // the next document's first is not borrowed.
        let mitochondria = try XCTUnwrap(hits("Mitochondria are the power plants of the cell", "--mode", "keyword", "-k", "1").first)
        let json = try lectern("show", mitochondria.passageReference, "--context", "2", "--json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["documentShortId"] as? String, mitochondria.documentShortId)
        let passages = try XCTUnwrap(object["passages"] as? [[String: Any]])
        XCTAssertEqual(passages.compactMap { $0["isHit"] as? Bool }, [false, false, true, false], "\(passages.map { $0["id"] ?? "?" })")
        XCTAssertTrue((passages.last?["text"] as? String)?.hasPrefix("The nucleus holds the cell's chromosomes") == true, "the notes' last passage")

        // A passage that is not there: one line naming it. --context belongs to a passage.
        let missing = try lectern("show", "p999999999")
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("p999999999"), missing.stderr)
        let misuse = try lectern("show", hit.documentShortId, "--context", "1")
        XCTAssertEqual(misuse.status, 2, misuse.stderr)
        XCTAssertTrue(misuse.stderr.contains("--context"), misuse.stderr)
    }

    /// `--group`: each document's title once with its hit count, its hits under it with their
    /// overall ranks; JSON groups in the order of their best hit, holding every hit once.
    func testSearchGroupsHitsByDocument() throws {
        let flat = try hits("cell", "-k", "12")
        let documents = Set(flat.map(\.documentShortId))
        XCTAssertGreaterThan(documents.count, 2, "the query should reach several documents: \(flat.map(\.title))")
        let grouped = try lectern("search", "cell", "-k", "12", "--group")
        XCTAssertEqual(grouped.status, 0, grouped.stderr)
        let lines = grouped.stdout.components(separatedBy: "\n")
        for title in Set(flat.map(\.title)) {
            let count = flat.filter { $0.title == title }.count
            let heads = lines.filter { $0.hasPrefix(title + "  ") }
            XCTAssertEqual(heads.count, 1, "\(title) once:\n\(grouped.stdout)")
            XCTAssertTrue(heads.first?.hasSuffix("· \(count) hit" + (count == 1 ? "" : "s")) == true, "\(heads)")
        }
        // Every rank of the flat list appears once, each under its own document's heading.
        var document: String?
        var ranks: [Int] = []
        for line in lines {
            if let title = flat.first(where: { line.hasPrefix($0.title + "  ") })?.title { document = title; continue }
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("  "), let dot = trimmed.firstIndex(of: "."), let rank = Int(trimmed[..<dot]) else { continue }
            ranks.append(rank)
            XCTAssertEqual(flat[rank - 1].title, document, "hit \(rank) under its document:\n\(grouped.stdout)")
        }
        XCTAssertEqual(ranks.sorted(), Array(1...flat.count))

        let json = try lectern("search", "cell", "-k", "12", "--group", "--json")
        let groups = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(groups.count, documents.count)
        XCTAssertEqual(groups.compactMap { ($0["hits"] as? [Any])?.count }.reduce(0, +), flat.count)
        XCTAssertEqual(groups.first?["document"] as? String, flat.first?.documentShortId, "the best hit's document first")
    }

    /// The pager rule: `show --passages` goes through $PAGER on a terminal (a pseudo-terminal
    /// from util-linux's `script`), never through a pipe, and not when PAGER is empty or `cat`.
    func testPassagesArePagedOnATerminalOnly() throws {
        let folder = try Self.corporaLibrary()
        let id = try XCTUnwrap(hits("Mitochondria are the power plants", "--mode", "keyword", "-k", "1").first?.documentShortId)
        let pager = ["PAGER": "sed s/^/PAGED:/"]

        let piped = try lectern("show", id, "--passages", environment: pager)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stdout.contains("PAGED:"), String(piped.stdout.prefix(300)))
        XCTAssertTrue(piped.stdout.contains("Mitochondria are the power plants of the cell."))
        XCTAssertTrue(piped.stdout.contains("[p"), "each passage with its p<N>")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux's script (a pseudo-terminal) is not installed")
        }
        func onTerminal(_ environment: [String: String]) throws -> CommandResult {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = [TestPaths.lecternBinary.path, "show", id, "--passages"].map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            process.currentDirectoryURL = folder.url
            process.environment = lecternEnvironment(in: folder.url, overrides: environment)
            // A terminal ends its lines with CR LF.
            var result = try capture(process)
            result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
            return result
        }
        let paged = try onTerminal(pager)
        XCTAssertEqual(paged.status, 0, paged.stderr)
        let lines = paged.stdout.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        XCTAssertGreaterThan(lines.count, 10, paged.stdout)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("PAGED:") }, "every line through the pager: \(lines.prefix(5))")
        XCTAssertTrue(paged.stdout.contains("PAGED:Mitochondria are the power plants of the cell."), String(paged.stdout.prefix(600)))
        for off in ["", "cat"] {
            // Blank stands for empty: the test environment removes a variable given as "".
            let plain = try onTerminal(off.isEmpty ? ["PAGER": " "] : ["PAGER": off])
            XCTAssertEqual(plain.status, 0, plain.stderr)
            XCTAssertFalse(plain.stdout.contains("PAGED:"))
            XCTAssertTrue(plain.stdout.contains("Mitochondria are the power plants of the cell."), "PAGER='\(off)': \(plain.stdout.prefix(300))")
        }
    }
}
