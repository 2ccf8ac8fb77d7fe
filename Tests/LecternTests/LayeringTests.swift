import Foundation
import XCTest
@testable import Lectern

/// Dependencies point one way (DESIGN.md): Model ← Extract, Chunk, Embed, Fetch ← Store ←
/// Search, Summarize, Pipeline ← CLI. A stage that reaches up (a reader formatting times with
/// Search's helper, the store naming files with Pipeline's) cannot be reused or tested alone.
final class LayeringTests: XCTestCase {
    static let library = TestPaths.packageRoot.appendingPathComponent("Sources/Lectern")

    /// The stages each folder must not use. Doctor holds the system-library loader, which
    /// every stage that opens poppler or libxml2 needs, so it is not in these lists.
    static let forbidden: [String: [String]] = [
        "Model": ["Extract", "Chunk", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Extract": ["Chunk", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Chunk": ["Extract", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Store": ["Search", "Summarize", "Pipeline"],
    ]

    /// Swift files of a folder, with comments and one-line string literals taken out (a word
    /// in a message is no dependency).
    static func code(in folder: String) throws -> [(file: String, text: String)] {
        let root = library.appendingPathComponent(folder)
        var files: [(String, String)] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: url, encoding: .utf8)
            let stripped = source.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var line = String(line)
                if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
                // Literals without interpolation only: what `\(…)` holds is code.
                return line.replacingOccurrences(of: #""(?:[^"\\]|\\[^(])*""#, with: "\"\"", options: .regularExpression)
            }.joined(separator: "\n")
            files.append((url.lastPathComponent, stripped))
        }
        return files
    }

    /// The type names a folder declares.
    static func declaredTypes(in folder: String) throws -> Set<String> {
        var names = Set<String>()
        let regex = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9]*)"#)
        for (_, text) in try code(in: folder) {
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }

    func testLowerStagesDoNotReachUp() throws {
        var violations: [String] = []
        for (folder, above) in Self.forbidden.sorted(by: { $0.key < $1.key }) {
            let own = try Self.declaredTypes(in: folder)
            let files = try Self.code(in: folder)
            for upper in above {
                for name in try Self.declaredTypes(in: upper).subtracting(own).sorted() {
                    let pattern = try NSRegularExpression(pattern: "\\b\(name)\\b")
                    for (file, text) in files where pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                        violations.append("\(folder)/\(file) uses \(upper).\(name)")
                    }
                }
            }
        }
        XCTAssertEqual(violations, [], "lower stages reach up:\n" + violations.joined(separator: "\n"))
    }

    /// The small helpers every stage shares live in Model, and read as before the move.
    func testSharedHelpersLiveInModel() throws {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertEqual(DisplayPath.of(cwd + "/notes/cells.md"), "notes/cells.md")
        XCTAssertEqual(DisplayPath.of("/elsewhere/cells.md"), cwd == "/" ? "elsewhere/cells.md" : "/elsewhere/cells.md")
        XCTAssertEqual(TimeFormat.clock(754.9), "00:12:34")
        XCTAssertEqual(TimeFormat.clock(3 * 3600 + 5), "03:00:05")
        XCTAssertEqual(WordTokenizer.words("Light-dependent reactions, 2nd stage!"), ["light", "dependent", "reactions", "2nd", "stage"])
        XCTAssertEqual(WordTokenizer.fold("Énergie"), "energie")
        XCTAssertEqual(WordTokenizer.fold("Größe"), "große", "as the index folds it")
        XCTAssertEqual(Searcher.terms("What are the light-dependent Réactions?"), ["light", "dependent", "reactions"])
    }
}
