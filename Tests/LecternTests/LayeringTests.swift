import Foundation
import XCTest
@testable import Lectern

/// Dependencies point one way (DESIGN.md): Model and the run infrastructure ← the stages
/// (Extract, Chunk, Fetch, Embed, LLM) ← Config ← Store ← Search, Summarize, Curriculum, Cards,
/// Context, Eval ← the workflows that compose them ← CLI and MCP. A folder that reaches up (a
/// reader formatting times with Search's helper, the store naming files with a workflow's)
/// cannot be reused or tested alone. `rows` is that order as data: docs/architecture.md's
/// folder table is made from it (`GeneratedDocsTests`).
final class LayeringTests: XCTestCase {
    static let library = TestPaths.packageRoot.appendingPathComponent("Sources/Lectern")

    /// One folder of Sources/Lectern: what it holds, and the folders its code may use.
    struct Row {
        let folder: String
        let holds: String
        let mayUse: [String]
    }

    static let lowest = ["Model", "Run", "SystemLibrary"]
    static let stages = lowest + ["Extract", "Chunk", "Fetch", "Embed", "LLM"]
    static let belowStore = stages + ["Config"]
    static let withStore = belowStore + ["Store"]

    /// Every folder under Sources/Lectern, lowest first. A folder uses only what its row names.
    static let rows: [Row] = [
        Row(folder: "Model", holds: "the shared vocabulary (`Block`, `Passage` and `PassageReference`, `TimePoint`, `DocumentType`, `LecternError`, `OutlineEntry`) and the small helpers every stage uses (`DisplayPath`, `TimeFormat`, `WordTokenizer`, `SentenceSplitter`, `ContentWords`, `PorterStemmer`, `DefiningSentence`, `TextPattern`, `Redaction`, `ContentHash`, `ParallelWork`, `Locked`)",
            mayUse: []),
        Row(folder: "Run", holds: "what every stage reports through: `RunRecorder` (writing to a `RunLog`, the store), `PipelineEvent`, `Cancellation`, `BatchStop`/`BatchOutcome`, `BatchProgress`, `RunStatus`, argument redaction, the run lock",
            mayUse: ["Model"]),
        Row(folder: "SystemLibrary", holds: "the `dlopen` loader of poppler-glib, libxml2 and libcurl, and their versions",
            mayUse: ["Model"]),
        Row(folder: "Extract", holds: "readers chosen by content (`ReaderRegistry`): Markdown, plain text, `PDF/`, `Transcript/`, `Web/` (HTML, Wikipedia, OpenStax, OCW); text decoding and output bounds",
            mayUse: lowest),
        Row(folder: "Chunk", holds: "the chunker and its settings",
            mayUse: lowest),
        Row(folder: "Fetch", holds: "the libcurl HTTP client, rate limiting, source specs, the OpenStax book list, ZIP reading, temporary downloads",
            mayUse: lowest),
        Row(folder: "Embed", holds: "the `Embedder` protocol: `MiniLM/` (in-process), hashing, `Remote/` (OpenAI-compatible, Ollama), batch embedding",
            mayUse: lowest + ["Fetch"]),
        Row(folder: "LLM", holds: "the `LanguageModel` protocol and its providers (OpenAI-compatible, Anthropic, Ollama) over one transport",
            mayUse: lowest + ["Fetch"]),
        Row(folder: "Config", holds: "the table of configuration keys and its layers (flags, environment, pipeline file, config file), gathering the stages' settings",
            mayUse: stages),
        Row(folder: "Input", holds: "input policy: expanding paths and globs, ignore rules, selection and scope, password files, the document reader and archives",
            mayUse: belowStore),
        Row(folder: "Store", holds: "`LibraryStore`, the only code that knows SQL: opening and migrating, documents, search queries, vectors, runs, caches",
            mayUse: belowStore),
        Row(folder: "Search", holds: "hybrid search (BM25 and vector scores combined), the query parser, snippets, locations, links",
            mayUse: withStore),
        Row(folder: "Summarize", holds: "summaries (through a model or the offline extractive method) and `ask`; what summaries and cards both write: formulas in Unicode (`MathText`) and the relations a text states (`FormulaStatements`)",
            mayUse: withStore + ["Search"]),
        Row(folder: "Eval", holds: "`lectern eval`'s data: BEIR datasets and their reader, retrieval metrics",
            mayUse: withStore + ["Search"]),
        Row(folder: "Curriculum", holds: "curricula: the builder, outlines, topic content (key terms, objectives, prerequisites), `Export/` (UMCF, Markdown, JSON)",
            mayUse: withStore + ["Search", "Summarize"]),
        Row(folder: "Cards", holds: "flashcards of a curriculum's topics: generation (offline and by model), checks, grounding, identity, Anki and other exports",
            mayUse: withStore + ["Search", "Summarize", "Curriculum"]),
        Row(folder: "Context", holds: "tutoring context: the passages and topics packed for a model's prompt",
            mayUse: withStore + ["Search", "Summarize", "Curriculum"]),
        Row(folder: "Doctor", holds: "`lectern doctor`'s checks",
            mayUse: withStore),
        Row(folder: "Workflow", holds: "the workflows the commands call, composing the stages: ingest, `PipelineRun/` (`lectern run` and its file), reembed, removal and prune, backup, listings, curriculum export, the cached library model, the evaluation library, the OCW crawler",
            mayUse: withStore + ["Input", "Search", "Summarize", "Eval", "Curriculum", "Cards", "Context", "Doctor"]),
    ]

    /// Back edges still there, each to go by the issue named beside it; a listed edge that is
    /// gone fails `testKnownExceptionsStillExist`, so the list only shrinks.
    /// Edges the layering allows for now, each with the issue that removes it (none left: the
    /// store's records replaced the curriculum's and the cards' types, #34 item 3).
    static let knownExceptions: [String: Set<String>] = [:]

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
                } else if next("#\"") {
                    // A raw string: no escapes and no interpolation, to its closing quote and `#`.
                    let close = next("#\"\"\"") ? "\"\"\"#" : "\"#"
                    i += 2
                    while i < chars.count, !next(close) { if chars[i] == "\n" { out.append("\n") }; i += 1 }
                    out += "\"\""; i += close.count
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

    /// Each file's capitalised words, once per folder.
    static func words(in folder: String) throws -> [(file: String, words: Set<String>)] {
        let regex = try NSRegularExpression(pattern: "\\b[A-Z][A-Za-z0-9]*\\b")
        return try code(in: folder).map { file, text in
            (file, Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }))
        }
    }

    /// "file uses Folder.Type" for every use of a folder the row does not allow (read once).
    static func backEdges() throws -> [(folder: String, upper: String, line: String)] { try foundEdges.get() }
    static let foundEdges = Result { try findBackEdges() }

    static func findBackEdges() throws -> [(folder: String, upper: String, line: String)] {
        var declared: [String: Set<String>] = [:]
        for row in rows { declared[row.folder] = try declaredTypes(in: row.folder) }
        var edges: [(String, String, String)] = []
        for row in rows {
            let own = try declaredTypes(in: row.folder, nested: true)
            let files = try words(in: row.folder)
            for upper in rows.map(\.folder) where upper != row.folder && !row.mayUse.contains(upper) {
                let names = declared[upper, default: []].subtracting(own)
                for (file, words) in files {
                    for name in words.intersection(names).sorted() { edges.append((row.folder, upper, "\(file) uses \(upper).\(name)")) }
                }
            }
        }
        return edges.sorted { $0.2 < $1.2 }
    }

    func testEveryFolderHasARow() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.library.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.library.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        XCTAssertEqual(Set(folders), Set(Self.rows.map(\.folder)), "every folder under Sources/Lectern has one row in LayeringTests.rows, and every row a folder")
        for (index, row) in Self.rows.enumerated() {
            for used in row.mayUse {
                let at = Self.rows.firstIndex { $0.folder == used }
                XCTAssertNotNil(at, "\(row.folder) may use \(used), which has no row")
                XCTAssertLessThan(at ?? .max, index, "\(row.folder) may use \(used), which is not below it in the table")
            }
        }
    }

    func testNoFolderReachesUp() throws {
        let violations = try Self.backEdges().filter { !(Self.knownExceptions[$0.folder]?.contains($0.upper) ?? false) }.map(\.line)
        XCTAssertEqual(violations, [], "folders reach up (or sideways):\n" + violations.joined(separator: "\n"))
    }

    func testKnownExceptionsStillExist() throws {
        let edges = try Self.backEdges()
        for (folder, uppers) in Self.knownExceptions {
            for upper in uppers {
                XCTAssertTrue(edges.contains { $0.folder == folder && $0.upper == upper },
                              "\(folder) no longer uses \(upper): take it off LayeringTests.knownExceptions")
            }
        }
    }

    /// The checker sees a use through code only: not in a comment or a string, and through a
    /// raw string's quotes (`#"[^"]"#`) as well.
    func testCodeOnlyDropsCommentsAndStrings() {
        let source = "let a = Foo() // Bar\n" + ##"let b = #"[^\s"'] Baz"# + "Qux \(Quux())""## + "\n/* Corge */ Grault"
        let code = Self.codeOnly(source)
        for name in ["Foo", "Quux", "Grault"] { XCTAssertTrue(code.contains(name), name) }
        for name in ["Bar", "Baz", "Qux", "Corge"] { XCTAssertFalse(code.contains(name), name) }
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
