import Foundation
import XCTest
@testable import Lectern

/// Dependencies point one way (DESIGN.md): Model ← Extract, Chunk, Embed, Fetch ← Store ←
/// Search, Summarize, Pipeline ← CLI. A stage that reaches up (a reader formatting times with
/// Search's helper, the store naming files with Pipeline's) cannot be reused or tested alone.
/// Config gathers the stages' settings (it sits above them, below Store); LLM's adapters sit
/// with the stages, and like the remote embedders they use Fetch's HTTP client.
final class LayeringTests: XCTestCase {
    static let library = TestPaths.packageRoot.appendingPathComponent("Sources/Lectern")

    /// The stages each folder must not use: a row for every folder but Pipeline, which composes
    /// them all. Doctor holds the system-library loader, which every stage that opens poppler
    /// or libxml2 needs, so it is not in these lists; the run infrastructure (recorder, events,
    /// cancellation) is still in Pipeline, so the stages above Store may use it until it moves
    /// lower (#34).
    static let forbidden: [String: [String]] = [
        "Model": ["Extract", "Chunk", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Extract": ["Chunk", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Chunk": ["Extract", "Embed", "Fetch", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Embed": ["Extract", "Chunk", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "Fetch": ["Extract", "Chunk", "Embed", "Store", "Search", "Summarize", "Pipeline", "Config", "LLM"],
        "LLM": ["Extract", "Chunk", "Embed", "Store", "Search", "Summarize", "Pipeline", "Config"],
        "Config": ["Store", "Search", "Summarize", "Pipeline"],
        "Store": ["Search", "Summarize", "Pipeline"],
        "Search": ["Summarize", "Pipeline", "Curriculum", "Cards", "Context", "Eval"],
        "Summarize": ["Curriculum", "Cards", "Context", "Eval"],
        "Doctor": ["Search", "Summarize", "Pipeline", "Curriculum", "Cards", "Context", "Eval"],
        // Curriculum and Cards still share one another's code (an export carries a topic's cards;
        // key terms use the cards' defining-clause test): the split is #34's.
        "Curriculum": ["Context", "Eval"],
        "Cards": ["Context", "Eval"],
        "Context": ["Cards", "Eval"],
        "Eval": ["Curriculum", "Cards", "Context"],
    ]

    /// Files that still reach up and are to move where they belong (Pipeline composes the
    /// library, the fetcher and the readers) once the Pipeline rewrite has merged. Each must
    /// still be where it is: a file moved or fixed comes off this list.
    static let pendingMoves: [String: String] = [:]

    /// Swift files of a folder (paths from `Sources/Lectern`), with comments and the text of
    /// string literals taken out (a word in a message is no dependency; what an interpolation
    /// `\(…)` holds is code, and stays).
    static func code(in folder: String) throws -> [(file: String, text: String)] {
        let root = library.appendingPathComponent(folder)
        var files: [(String, String)] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: url, encoding: .utf8)
            files.append((String(url.path.dropFirst(library.path.count + 1)), codeOnly(source)))
        }
        return files
    }

    /// `source` without comments and string literals' text; lines stay where they were.
    static func codeOnly(_ source: String) -> String {
        enum Context { case code(parens: Int), string(triple: Bool) }
        let chars = Array(source)
        var out = ""
        var stack: [Context] = [.code(parens: 0)]
        var i = 0
        func next(_ text: String) -> Bool {
            var j = i
            for c in text {
                guard j < chars.count, chars[j] == c else { return false }
                j += 1
            }
            return true
        }
        while i < chars.count {
            switch stack[stack.count - 1] {
            case .code(let parens):
                if next("//") {
                    while i < chars.count, chars[i] != "\n" { i += 1 }
                } else if next("/*") {
                    while i < chars.count, !next("*/") { if chars[i] == "\n" { out.append("\n") }; i += 1 }
                    i += 2
                } else if next("\"\"\"") {
                    stack.append(.string(triple: true)); out += "\""; i += 3
                } else if chars[i] == "\"" {
                    stack.append(.string(triple: false)); out += "\""; i += 1
                } else if chars[i] == ")", parens == 0, stack.count > 1 {
                    stack.removeLast(); i += 1  // the end of an interpolation
                } else {
                    if chars[i] == "(" { stack[stack.count - 1] = .code(parens: parens + 1) }
                    if chars[i] == ")" { stack[stack.count - 1] = .code(parens: parens - 1) }
                    out.append(chars[i]); i += 1
                }
            case .string(let triple):
                if next("\\(") {
                    stack.append(.code(parens: 0)); out += " "; i += 2
                } else if chars[i] == "\\" {
                    i += 2
                } else if triple ? next("\"\"\"") : chars[i] == "\"" {
                    stack.removeLast(); out += "\""; i += triple ? 3 : 1
                } else {
                    if chars[i] == "\n" { out.append("\n") }
                    i += 1
                }
            }
        }
        return out
    }

    /// The type names a folder declares: at the top level, or `nested` too. Another folder's
    /// nested types are reached through their outer type's name, and may share a name with a
    /// standard type (`Result`) or a folder's own.
    static func declaredTypes(in folder: String, nested: Bool = false) throws -> Set<String> {
        var names = Set<String>()
        let regex = try NSRegularExpression(
            pattern: (nested ? "" : "^") + #"(?:(?:public|internal|fileprivate|private|final|open|indirect)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9]*)"#,
            options: .anchorsMatchLines)
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
            let own = try Self.declaredTypes(in: folder, nested: true)
            let files = try Self.code(in: folder)
            for upper in above {
                for name in try Self.declaredTypes(in: upper).subtracting(own).sorted() {
                    let pattern = try NSRegularExpression(pattern: "\\b\(name)\\b")
                    for (file, text) in files where Self.pendingMoves[file] == nil
                        && pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                        violations.append("\(file) uses \(upper).\(name)")
                    }
                }
            }
        }
        XCTAssertEqual(violations, [], "lower stages reach up:\n" + violations.joined(separator: "\n"))
    }

    func testFilesWaitingToMoveAreStillWhereTheyWere() {
        for (file, destination) in Self.pendingMoves.sorted(by: { $0.key < $1.key }) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.library.appendingPathComponent(file).path),
                          "\(file) has moved (to \(destination)?): take it off LayeringTests.pendingMoves")
        }
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
