import Foundation
import XCTest
@testable import Lectern

/// Inputs and settings that were taken as given and should not have been: JSON nested 100,000
/// deep (stored as 855 passages of brackets), a course id that climbs out of the URL's path, a
/// base URL with a query the endpoint path was appended to, numbers no machine means.
final class InputLimitsTests: XCTestCase {
    func testDeeplyNestedJSONIsRefusedNotStoredAsBrackets() throws {
        let folder = try TemporaryFolder()
        try folder.write("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        let extract = try runLectern(["extract", "deep.json"], in: folder.url)
        XCTAssertEqual(extract.status, 1)
        XCTAssertEqual(extract.stdout, "")
        XCTAssertEqual(extract.stderr, "lectern: deep.json: refused: JSON nested over 512 levels deep, which is no text to read\n")
        let ingest = try runLectern(["ingest", "deep.json"], in: folder.url)
        XCTAssertEqual(ingest.status, 1)
        XCTAssertTrue(ingest.stderr.contains("deep.json: refused: JSON nested over 512 levels deep"), ingest.stderr)
        XCTAssertTrue(ingest.stdout.contains("0 stored (0 passages)"), ingest.stdout)
        // JSON nested as data is (a transcript, a course) still goes to its reader.
        try folder.write("shallow.json", "{\"a\": [[[1]]]}")
        XCTAssertTrue(try runLectern(["extract", "shallow.json"], in: folder.url).stderr.contains("JSON of no known shape"))
    }

    func testCourseIdsAndBookSlugsAreRefusedAtParseTime() throws {
        let folder = try TemporaryFolder()
        func refused(_ toml: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try folder.write("p.toml", toml)
            let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
            XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
            XCTAssertEqual(result.stderr, expected + "\n", file: file, line: line)
        }
        try refused("[[source]]\nocw = \"../../../etc\"\n",
                    "lectern: p.toml:2: source[1].ocw '../../../etc' is not a course id (letters, digits and hyphens) or URL, as in ocw:8-01sc-classical-mechanics-fall-2016")
        try refused("[[source]]\nopenstax = \"../../users/x\"\n",
                    "lectern: p.toml:2: source[1].openstax '../../users/x' is not a book slug (letters, digits and hyphens), as in openstax:introduction-philosophy-2e")
        // On the command line the spec names nothing to fetch: nothing is asked of any server.
        let ingest = try runLectern(["ingest", "ocw:../../../etc"], in: folder.url)
        XCTAssertEqual(ingest.status, 1)
        XCTAssertTrue(ingest.stderr.contains("lectern: ocw:../../../etc: '../../../etc' is not a course id"), ingest.stderr)
        XCTAssertNil(SourceSpec.parse("ocw:../../../etc"))
        XCTAssertNil(SourceSpec.parse("openstax:a/b"))
        XCTAssertEqual(SourceSpec.parse("ocw:8-01sc-classical-mechanics-fall-2016"), .ocw(home: "https://ocw.mit.edu/courses/8-01sc-classical-mechanics-fall-2016/"))
    }

    func testABaseURLsQueryStaysAfterTheEndpointPath() throws {
        let server = try TestServer(routes: ["/v1/chat/completions": ["json": [
            "id": "chatcmpl-1", "object": "chat.completion", "model": "m",
            "choices": [["index": 0, "message": ["role": "assistant", "content": "Green."], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7],
        ]]])
        defer { server.stop() }
        var settings = LLMSettings()
        settings.provider = "openai"
        settings.model = "m"
        settings.baseURL = server.url("/v1/") + "?api_key=sk-query-key-123"
        let model = try XCTUnwrap(LanguageModelCatalog.make(settings, environment: [:]))
        let answer = try model.complete(ChatRequest(messages: [.user("Grass?")], maxTokens: 5))
        XCTAssertEqual(answer.text, "Green.")
        XCTAssertEqual(try server.requests().first?["path"] as? String, "/v1/chat/completions?api_key=sk-query-key-123")
        XCTAssertEqual(EndpointURL.join("https://h.example/openai/v1#x", "/embeddings"), "https://h.example/openai/v1/embeddings#x")
    }

    func testNumbersOutOfTheirRangeAreOneConfigError() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/a.md", "# Entropy\n\nEntropy measures uncertainty.\n")
        func refused(_ toml: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try folder.write("p.toml", "[[source]]\npath = \"notes\"\n" + toml)
            let result = try runLectern(["run", "p.toml", "--events", "text"], in: folder.url)
            XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
            XCTAssertEqual(result.stderr, expected + "\n", file: file, line: line)
        }
        try refused("[run]\njobs = 1000000000\n", "lectern: p.toml:4: run.jobs must be from 1 to 64, not 1000000000")
        try refused("[http]\ntimeout = 1e308\n", "lectern: p.toml:4: http.timeout must be from 0 to 3600, not 1e+308")
        try refused("[http]\ntimeout = inf\n", "lectern: p.toml:4: http.timeout must be from 0 to 3600, not inf")
        try refused("[llm]\ntemperature = 9\n", "lectern: p.toml:4: llm.temperature must be from 0 to 2, not 9")
        // The user's config file and the environment are held to the same ranges.
        try folder.write("config-home/lectern/config.toml", "[http]\nretries = 1000\n")
        // `search` exits like grep: 2 for any error (1 is "nothing found").
        let config = try runLectern(["search", "entropy"], in: folder.url)
        XCTAssertEqual(config.status, 2, config.stderr)
        XCTAssertTrue(config.stderr.contains("config.toml: http.retries must be from 0 to 20, not 1000"), config.stderr)
        try FileManager.default.removeItem(at: folder.file("config-home/lectern/config.toml"))
        let environment = try runLectern(["search", "entropy"], in: folder.url, environment: ["LECTERN_HTTP_TIMEOUT": "1e308"])
        XCTAssertEqual(environment.status, 2, environment.stderr)
        XCTAssertEqual(environment.stderr, "lectern: environment: http.timeout must be from 0 to 3600, not 1e+308\n")
        let flag = try runLectern(["run", "p.toml", "--jobs", "100"], in: folder.url)
        XCTAssertEqual(flag.status, 2, flag.stderr)
        XCTAssertTrue(flag.stderr.contains("--jobs must be from 1 to 64, not 100"), flag.stderr)
    }
}
