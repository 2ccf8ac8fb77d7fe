import Foundation
import MCP
import XCTest
@testable import Lectern
@testable import lectern_mcp

/// A plain `tools/call` line is answered without the SDK's coding: the line parsed once, the
/// result encoded once and written into the response as it is. The SDK's path encoded a result
/// three times and parsed it back twice, matching each of its strings against a data-URL
/// pattern; the answer a client reads is the same JSON.
final class MCPToolCallTests: XCTestCase {
    func route(_ line: String) -> MCPMessageCheck.Route {
        MCPMessageCheck.route(Data(line.utf8))
    }

    func testAPlainToolCallGoesPastTheSDKAndEveryOtherLineDoesNot() throws {
        guard case .toolCall(let call) = route(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"quokka","k":3}}}"#) else {
            return XCTFail("a plain search call went to the SDK")
        }
        XCTAssertEqual(call.id, .number(7))
        XCTAssertEqual(call.name, "search")
        XCTAssertEqual(call.arguments, ["query": .string("quokka"), "k": .int(3)])
        guard case .toolCall(let named) = route(#"{"method":"tools/call","params":{"name":"curriculum","_meta":{"progressToken":1}},"id":"c-1","jsonrpc":"2.0"}"#) else {
            return XCTFail("a call without arguments went to the SDK")
        }
        XCTAssertEqual(named.id, .string("c-1"))
        XCTAssertNil(named.arguments)
        // Shapes the SDK answers as before (params it cannot read get -32602 from it), and
        // every other method, notification and batch.
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":null}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":"query"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","task":{}}}"#,
            #"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"initialize","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"[{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search"}}]"#,
        ] {
            XCTAssertEqual(route(line), .sdk, line)
        }
        guard case .answer = route("{not json") else { return XCTFail("a line that is not JSON was not answered") }
    }

    func testAToolCallsResponseIsTheSDKsJSONWithTheResultWrittenOnce() async throws {
        let folder = try TemporaryFolder()
        var notes = "# Island animals\n\n"
        for (animal, food) in [("Quokka", "leaves and grasses"), ("Gecko", "crickets and moths"), ("Petrel", "fish and squid")] {
            notes += "## \(animal)\n\nThe \(animal.lowercased()) eats \(food). \"It keeps to the shade\" / C:\\island \u{1F3DD} when the sun is high.\n\n"
        }
        try folder.write("animals.md", notes)
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("animals.md").path], recorder: nil) { _ in }.stored, 1)
        var configuration = Configuration()
        configuration.database = folder.file("lectern.db").path
        let library = MCPLibrary(configuration: configuration, store: store, scope: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

        for (id, name, arguments) in [(MCPRequestId.string("a-1"), "search", ["query": Value.string("what does the quokka eat"), "k": .int(2)]),
                                      (.number(2), "search", ["query": .string("zzzxqy"), "mode": .string("keyword")]),
                                      (.number(3), "summon", [:])] {
            let line = await library.respond(to: MCPToolCall(id: id, name: name, arguments: arguments))
            let answer = await library.answer(name, arguments)
            // What the SDK would have written for the same answer.
            let sdkId: ID = switch id { case .string(let text): .string(text); case .number(let number): .number(number) }
            let sdk = try encoder.encode(Response<CallTool>(id: sdkId, result: try answer.result()))
            let written = try XCTUnwrap(try JSONSerialization.jsonObject(with: line) as? NSDictionary, String(decoding: line, as: UTF8.self))
            XCTAssertEqual(written, try JSONSerialization.jsonObject(with: sdk) as? NSDictionary, name)
            if let structured = answer.structured {
                XCTAssertNotNil(line.range(of: structured), "the result's JSON is not in the line as it was encoded")
            }
        }
        let search = await library.answer("search", ["query": .string("what does the quokka eat"), "k": .int(2)])
        let hits = try XCTUnwrap(search.structured)
        let found = try XCTUnwrap((try JSONSerialization.jsonObject(with: hits) as? [String: Any])?["hits"] as? [[String: Any]])
        XCTAssertFalse(found.isEmpty)
        XCTAssertTrue((found[0]["text"] as? String ?? "").contains("leaves and grasses"), "\(found[0])")
        let unknown = await library.answer("summon", [:])
        XCTAssertEqual(unknown.isError, true)
        XCTAssertNil(unknown.structured)
    }
}
