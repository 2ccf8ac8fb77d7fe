import Foundation
import XCTest
@testable import Lectern

/// `lectern search --stdin` and the warm session behind it, and what a search loads: a
/// keyword search never needs the embedding model.
final class SearchSessionTests: CommandTestCase {
    /// Runs `lectern` with `input` on its standard input.
    func lectern(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = TestPaths.lecternBinary
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = lecternEnvironment(in: folder.url, overrides: environment)
        let stdin = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `--timings` (the benchmark's figure): each query's milliseconds as a JSON line on stderr.
    func testStdinTimingsAreAJSONLineAQueryOnStderr() throws {
        try folder.write("notes/info.txt", "Shannon entropy measures the average information of a message.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)
        let result = try lectern(["search", "--stdin", "--timings", "-k", "2"], input: "entropy of a message\naverage information\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 2, result.stdout)
        let timings = result.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(timings.compactMap { $0["query"] as? String }, ["entropy of a message", "average information"], result.stderr)
        XCTAssertTrue(timings.allSatisfy { ($0["total_ms"] as? Double ?? -1) >= 0 && $0["embedding_ms"] is Double }, result.stderr)
    }

    func testStdinAnswersEachLineWithTheHitsSearchJSONGives() throws {
        try folder.write("notes/cells.md", "# Cells\n\n## Energy\n\nThe mitochondrion produces ATP through oxidative phosphorylation.\n")
        try folder.write("notes/info.txt", "Shannon entropy measures the average information of a message.\n")
        XCTAssertEqual(try runLectern(["ingest", "notes"], in: folder.url).status, 0)

        let result = try lectern(["search", "--stdin", "-k", "2"], input: "oxidative phosphorylation\n\n-entropy\nentropy of a message\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(lines.count, 4, "one line out for each line in:\n\(result.stdout)")
        let first = try JSONDecoder().decode([SearchHit].self, from: Data(lines[0].utf8))
        let alone = try runLectern(["search", "oxidative phosphorylation", "-k", "2", "--json"], in: folder.url)
        let expected = try JSONDecoder().decode([SearchHit].self, from: Data(alone.stdout.utf8))
        XCTAssertEqual(first.map(\.passageReference), expected.map(\.passageReference))
        XCTAssertEqual(first.map(\.score), expected.map(\.score))
        XCTAssertEqual(first.first?.title, "Cells")
        // An empty line and a query with nothing to look for are answered in their place.
        XCTAssertTrue(lines[1].contains("\"error\":\"the query is empty\""), lines[1])
        XCTAssertTrue(lines[2].contains("only excludes"), lines[2])
        XCTAssertTrue(result.stderr.contains("only excludes"), result.stderr)
        let last = try JSONDecoder().decode([SearchHit].self, from: Data(lines[3].utf8))
        XCTAssertEqual(last.first?.path, folder.file("notes/info.txt").path)

        let misuse = try runLectern(["search", "entropy", "--stdin"], in: folder.url)
        XCTAssertNotEqual(misuse.status, 0)
        XCTAssertTrue(misuse.stderr.contains("give no query argument"), misuse.stderr)
    }

    /// A library whose embedder is MiniLM is searched by keyword with no model installed at
    /// all; a search that needs a query vector says what is missing.
    func testKeywordSearchNeverNeedsTheModel() throws {
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        let minilm = EmbedderInfo(name: MiniLMEmbedder.name, model: MiniLMEmbedder.model, dimension: 384, version: 1)
        let passages = [Passage(ordinal: 0, text: "Catalase breaks down hydrogen peroxide.", kind: .text, sectionPath: [], tokenCount: 7)]
        try store.replaceDocument(LibraryStore.DocumentWrite(
            sourceURI: "doc:enzymes", sourceKind: .file, uri: "doc:enzymes", path: nil, extractor: "text", extractorVersion: 1,
            contentHash: "h", skipKey: SkipKey(passages: "p", embedder: minilm.key), document: ExtractedDocument(type: "text", title: "Enzymes", blocks: []),
            passages: passages, vectors: try HashingEmbedder().embed(passages.map(\.text)), embedder: minilm))
        let empty = try folder.write("models/.keep", "").deletingLastPathComponent().path
        let noModel = ["LECTERN_MODELS": empty, "LECTERN_EMBEDDER": ""]

        let keyword = try runLectern(["search", "hydrogen peroxide", "--mode", "keyword", "--json"], in: folder.url, environment: noModel)
        XCTAssertEqual(keyword.status, 0, keyword.stderr)
        XCTAssertEqual(try JSONDecoder().decode([SearchHit].self, from: Data(keyword.stdout.utf8)).first?.title, "Enzymes")

        let hybrid = try runLectern(["search", "hydrogen peroxide"], in: folder.url, environment: noModel)
        XCTAssertNotEqual(hybrid.status, 0)
        XCTAssertTrue(hybrid.stderr.contains("model files are missing"), hybrid.stderr)
    }
}
