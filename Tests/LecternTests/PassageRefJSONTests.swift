import Foundation
import MCP
import XCTest
@testable import Lectern
@testable import lectern_mcp

/// Ids print and parse the same way everywhere: the command line takes `p1662`, so every JSON
/// object that carries a passage id (`passageId`, or a passage's own `id`) carries `ref: "p1662"`
/// beside it, in each command's `--json`, the exports and the MCP tools' results; the number
/// stays, and JSON written before `ref` still reads.
final class PassageRefJSONTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// corpora/notes as a library with a curriculum `cells` and its cards.
    func library() throws {
        try FileManager.default.copyItem(at: TestPaths.corpora.appendingPathComponent("notes"), to: folder.file("notes"))
        for step in [["ingest", "notes"], ["curriculum", "build", "cells", "notes"], ["cards", "generate", "cells"]] {
            let result = try runLectern(step, in: folder.url)
            XCTAssertEqual(result.status, 0, "\(step): \(result.stderr)")
        }
    }

    /// Every object under `json` with a numeric `passageId` (or, where `idIsPassage` says so for
    /// the object's key path, `id`): its `ref` must be `p` and the number. Returns how many.
    @discardableResult
    func checkRefs(_ json: Any, _ what: String, path: String = "", idIsPassage: (String) -> Bool = { _ in false },
                   file: StaticString = #filePath, line: UInt = #line) -> Int {
        var count = 0
        if let object = json as? [String: Any] {
            let key = object["passageId"] != nil ? "passageId" : (idIsPassage(path) && object["id"] != nil ? "id" : nil)
            if let key {
                let id = object[key] as? Int
                XCTAssertNotNil(id, "\(what) \(path).\(key) is not a number: \(object)", file: file, line: line)
                XCTAssertEqual(object["ref"] as? String, id.map { "p\($0)" }, "\(what) \(path): \(object)", file: file, line: line)
                count += 1
            } else {
                XCTAssertNil(object["ref"], "\(what) \(path): a ref without a passage id", file: file, line: line)
            }
            for (name, value) in object { count += checkRefs(value, what, path: path + "." + name, idIsPassage: idIsPassage, file: file, line: line) }
        } else if let array = json as? [Any] {
            for value in array { count += checkRefs(value, what, path: path + "[]", idIsPassage: idIsPassage, file: file, line: line) }
        }
        return count
    }

    func json(_ result: CommandResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        XCTAssertEqual(result.status, 0, "\(what): \(result.stderr)", file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), "\(what): not JSON: \(result.stdout.prefix(300))")
    }

    func testEveryCommandsJSONNamesItsPassagesAsTheCommandLineDoes() throws {
        try library()
        let hits = try json(lectern("search", "light reactions chlorophyll", "--json"), "search")
        XCTAssertGreaterThan(checkRefs(hits, "search"), 0)
        let first = try XCTUnwrap((hits as? [[String: Any]])?.first)
        let ref = try XCTUnwrap(first["ref"] as? String)

        XCTAssertGreaterThan(checkRefs(try json(lectern("search", "light reactions chlorophyll", "--group", "--json"), "search --group"), "search --group"), 0)

        // What search's JSON calls `ref` is what `show` takes, and show's JSON names it so too,
        // the passage it opens and each neighbour (their `id`).
        let shown = try json(lectern("show", ref, "--json"), "show \(ref)")
        XCTAssertEqual((shown as? [String: Any])?["ref"] as? String, ref)
        XCTAssertGreaterThan(checkRefs(shown, "show \(ref)", idIsPassage: { $0 == ".passages[]" }), 1)

        let documentId = try XCTUnwrap(first["documentId"] as? String)
        let document = try json(lectern("show", documentId, "--json"), "show \(documentId)")
        XCTAssertGreaterThan(checkRefs(document, "show \(documentId)", idIsPassage: { $0 == ".passages[]" }), 0)

        let asked = try json(lectern("ask", "what do the light reactions make?", "--json"), "ask")
        XCTAssertGreaterThan(checkRefs(asked, "ask"), 0)

        let cards = try json(lectern("cards", "list", "--curriculum", "cells", "--json"), "cards list")
        XCTAssertGreaterThan(checkRefs(cards, "cards list"), 0)

        // A topic's passages are passages: their own `id`, as `show` prints them.
        let curriculum = try json(lectern("curriculum", "show", "cells", "--json"), "curriculum show")
        XCTAssertGreaterThan(checkRefs(curriculum, "curriculum show", idIsPassage: { $0 == ".units[].topics[].passages[]" }), 0)

        XCTAssertEqual(try lectern("cards", "export", "cells", "--format", "json", "-o", "deck.json").status, 0)
        let deck = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("deck.json")))
        XCTAssertGreaterThan(checkRefs(deck, "cards export --format json"), 0)

        // The tutor's context names its passages by `passage: "p…"` alone; no `ref` strays in.
        let context = try json(lectern("context", "what do the light reactions make?", "--json"), "context")
        checkRefs(context, "context")
        let passages = try XCTUnwrap((context as? [String: Any])?["passages"] as? [[String: Any]])
        XCTAssertTrue(passages.allSatisfy { ($0["passage"] as? String)?.hasPrefix("p") == true }, "\(passages)")
    }

    func testTheMCPToolsResultsNameTheirPassagesToo() async throws {
        try library()
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        var configuration = Configuration()
        configuration.database = folder.file("lectern.db").path
        let server = MCPLibrary(configuration: configuration, store: store, scope: nil)
        let search = await server.call("search", ["query": .string("light reactions chlorophyll")])
        let curriculum = await server.call("curriculum", ["name": .string("cells")])
        let topics = try XCTUnwrap(toolJSON(curriculum)["units"] as? [[String: Any]]).flatMap { $0["topics"] as? [[String: Any]] ?? [] }
        var carded = 0
        for topic in topics {
            let id = try XCTUnwrap(topic["id"] as? String)
            carded += checkRefs(try toolJSON(await server.call("cards", ["topic": .string(id)])), "mcp cards \(id)")
        }
        XCTAssertGreaterThan(carded, 0)
        XCTAssertGreaterThan(checkRefs(try toolJSON(search), "mcp search"), 0)
        // The tools' output schemas say so.
        for schema in [MCPTools.hitSchema] {
            XCTAssertEqual(schema.objectValue?["properties"]?.objectValue?["ref"], ["type": "string"])
        }
    }

    func toolJSON(_ result: CallTool.Result) throws -> [String: Any] {
        XCTAssertNotEqual(result.isError, true, "\(result.content)")
        guard case .text(let text, _, _) = try XCTUnwrap(result.content.first) else { throw XCTSkip("no text content") }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// JSON written before `ref` still decodes, and so does a topic's passage as a curriculum's
    /// JSON of version 1 wrote it (its id as `passageId`); the encoding is a passage's own keys,
    /// a nil left out as before, and `ref`.
    func testJSONWithoutRefStillReadsAndEncodingOnlyAddsRef() throws {
        let passage = #"{"passageId":7,"documentId":3,"ordinal":2,"text":"ATP","kind":"text","sectionPath":["Cells"],"pageStart":4,"tokenCount":1}"#
        let decoded = try JSONDecoder().decode(Passage.self, from: Data(passage.utf8))
        XCTAssertEqual(decoded.id, 7)
        XCTAssertNil(decoded.documentTitle, "version 1 held no document facts")
        let encoded = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(decoded)) as? NSDictionary)
        var expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(passage.utf8)) as? [String: Any])
        expected["id"] = expected.removeValue(forKey: "passageId")
        expected["ref"] = "p7"
        XCTAssertEqual(encoded, expected as NSDictionary, "the keys before, the id as `id`, nil pageEnd left out, and ref")
        XCTAssertEqual(try JSONDecoder().decode(Passage.self, from: JSONEncoder().encode(decoded)), decoded)

        let term = #"{"term":"ATP","definition":"the cell's energy currency","origin":"source"}"#
        let read = try JSONDecoder().decode(KeyTerm.self, from: Data(term.utf8))
        XCTAssertNil(read.passageId)
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(read)) as? [String: Any])
        XCTAssertNil(written["ref"], "no passage, no ref")
        XCTAssertEqual(written["basis"] as? String, "defined")
    }
}
