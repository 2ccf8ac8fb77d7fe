import Foundation
import MCP
import XCTest
@testable import Lectern
@testable import lectern_mcp

/// The MCP server's tools on a library on PostgreSQL (a real PostgreSQL 18 with pgvector,
/// Support/PostgresServer): ingest (within its folders, respecting the writer lock a `lectern
/// run` holds), search and documents' outlines give what they give on a library file.
final class MCPBackendTests: XCTestCase {
    private func text(_ result: CallTool.Result) -> String {
        guard case .text(let text, _, _)? = result.content.first else { return "" }
        return text
    }

    func testToolsServeALibraryOnPostgreSQLAsALibraryFile() async throws {
        let server = try PostgresServer.shared()
        let folder = try TemporaryFolder()
        try folder.write("notes/cells.md", "# Cells\n\n## Membranes\n\nThe cell membrane is a lipid bilayer that keeps most ions out.\n")
        try folder.write("notes/orbits.md", "# Orbits\n\nA planet moves on an ellipse with the sun at one focus.\n")
        let url = try server.freshDatabase(for: Self.self)
        var configuration = Configuration()
        configuration.embedder = "hashing"
        configuration.database = url
        let scope = try IngestScope(folders: [folder.file("notes").path], allowsWeb: false)
        var results: [String] = []
        for library in [Library(try LibraryStore(path: folder.file("lectern.db").path)), try Library.open(url, access: .create)] {
            let tools = MCPLibrary(configuration: configuration, library: library, scope: scope)
            let ingest = await tools.call("ingest", ["paths": .array([.string(folder.file("notes").path)])])
            XCTAssertNotEqual(ingest.isError, true, text(ingest))
            let search = await tools.call("search", ["query": .string("cell membrane ions"), "k": .int(2)])
            XCTAssertNotEqual(search.isError, true, text(search))
            let hits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text(search).utf8)) as? [String: Any])["hits"] as? [[String: Any]]
            results.append((hits ?? []).map { "\($0["title"] ?? "") \($0["location"] ?? "")" }.joined(separator: "\n"))
            // Each document's outline is a resource.
            let resources = try await tools.resources(cursor: nil).resources
            XCTAssertEqual(resources.count, 2, "\(resources)")
            let outline = try await tools.read(try XCTUnwrap(resources.first?.uri))
            XCTAssertEqual(outline.contents.count, 1)
        }
        XCTAssertEqual(results[1], results[0], "the search tool answers alike on both backends")
        XCTAssertTrue(results[1].hasPrefix("Cells"), results[1])

        let tools = MCPLibrary(configuration: configuration, library: try Library.open(url, access: .create), scope: scope)
        let curriculum = await tools.call("curriculum", ["name": .string("nothing")])
        XCTAssertEqual(curriculum.isError, true)
        XCTAssertTrue(text(curriculum).contains("nothing: no curriculum of this name"), text(curriculum))
        XCTAssertFalse(text(curriculum).contains(server.password))
        // While a run holds the library's writer lock (an advisory lock, any machine), the
        // ingest tool is refused at once, naming the run.
        let run = try PostgresConnection(url: url)
        try run.query("select pg_advisory_lock($1)", [String(PostgresSchema.writerLock)])
        try run.query("insert into settings (key, value) values ('writer_lock', '4242 2026-11-28T11:00:00Z')")
        let refused = await tools.call("ingest", ["paths": .array([.string(folder.file("notes").path)])])
        XCTAssertEqual(refused.isError, true)
        XCTAssertTrue(text(refused).contains("a run (pid 4242, started 2026-11-28T11:00:00Z) is updating this library"), text(refused))
    }
}
