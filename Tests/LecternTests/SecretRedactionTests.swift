import Foundation
import XCTest
@testable import Lectern

/// Credentials typed into a URL (`https://user:KEY@host/…`, `?api_key=KEY`) or pasted where a
/// variable's NAME belongs are used, but never stored in the library, recorded in a run or
/// shown on the terminal. Real loopback server, real library file, the real `lectern` binary.
final class SecretRedactionTests: XCTestCase {
    let password = "pw-Zq81xKv0hunter"
    let apiKey = "KEY-7f3a9c2e11d4b6"
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    var basicToken: String { Data("reader:\(password)".utf8).base64EncodedString() }
    var secrets: [String] { [password, apiKey, basicToken] }

    /// Every byte of the library: the database file and its write-ahead log.
    func libraryBytes(_ name: String = "lectern.db") -> Data {
        ["", "-wal", "-shm"].reduce(into: Data()) { bytes, suffix in
            bytes += FileManager.default.contents(atPath: folder.file(name + suffix).path) ?? Data()
        }
    }

    func assertNoSecret(in text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for secret in secrets {
            XCTAssertFalse(text.contains(secret), "\(what) shows \(secret): \(text)", file: file, line: line)
        }
    }

    func assertNoSecret(in bytes: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(bytes.isEmpty, "\(what) is empty", file: file, line: line)
        for secret in secrets {
            XCTAssertNil(bytes.range(of: Data(secret.utf8)), "\(what) holds \(secret)", file: file, line: line)
        }
    }

    static let page = """
        <!DOCTYPE html><html><head><title>Shannon entropy</title></head><body><main>
        <h1>Shannon entropy</h1>
        <p>Entropy measures the average information a message carries, in bits per symbol.</p>
        <p>A fair coin has one bit of entropy; a loaded coin has less.</p>
        </main></body></html>
        """

    func pageServer() throws -> TestServer {
        try TestServer(routes: [
            "/notes/entropy.html": ["body": Self.page, "etag": "\"rev-1\"", "headers": ["Content-Type": "text/html; charset=utf-8"]],
        ])
    }

    /// The library keeps the page under its URL with the secret replaced; the conditional GET of
    /// the next ingest still finds its validators under that URL.
    func testAnIngestedURLIsStoredWithItsCredentialsReplaced() throws {
        let server = try pageServer()
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        var settings = HTTPSettings()
        settings.hostInterval = 0
        var ingestor = Ingestor(store: store, embedder: HashingEmbedder())
        ingestor.fetcher = WebFetcher(settings: settings)
        let url = "http://reader:\(password)@127.0.0.1:\(server.port)/notes/entropy.html?api_key=\(apiKey)&lang=en"
        let missing = "http://reader:\(password)@127.0.0.1:\(server.port)/gone.html?token=\(apiKey)"
        let recorder = try RunRecorder(store: store, command: "ingest", arguments: [url, missing])
        let lines = LockedLines()
        let summary = ingestor.ingest([url, missing], recorder: recorder) { lines.add("\($0.input ?? ""): \($0.message ?? "")") }
        recorder.finish()
        XCTAssertEqual(summary.stored, 1, lines.all.joined(separator: "\n"))
        XCTAssertEqual(summary.failed, 1)

        let sent = try XCTUnwrap(server.requests().first)
        XCTAssertEqual((sent["headers"] as? [String: String])?["authorization"], "Basic \(basicToken)", "the login was used")
        XCTAssertEqual(sent["path"] as? String, "/notes/entropy.html?api_key=\(apiKey)&lang=en", "the key was sent")

        let recorded = "http://127.0.0.1:\(server.port)/notes/entropy.html?api_key=***&lang=en"
        XCTAssertEqual(try store.document(uri: recorded)?.title, "Shannon entropy")
        XCTAssertEqual(try store.fetchCache(url: recorded)?.etag, "\"rev-1\"")
        let second = ingestor.ingest([url], recorder: nil) { lines.add("\($0.input ?? ""): \($0.message ?? "")") }
        XCTAssertEqual(second.unchanged, 1, "the validators are found under the recorded URL")
        XCTAssertEqual((try server.requests().last?["headers"] as? [String: String])?["if-none-match"], "\"rev-1\"")

        assertNoSecret(in: lines.all.joined(separator: "\n"), "the events")
        assertNoSecret(in: libraryBytes(), "the library file")
    }

    /// The same through the command line: what the terminal, `runs` and `sources` show, and
    /// every byte of the library file.
    func testCredentialsInAnIngestedURLReachNeitherTheTerminalNorTheLibrary() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path), "the lectern binary is not built")
        let server = try pageServer()
        let url = "http://reader:\(password)@127.0.0.1:\(server.port)/notes/entropy.html?api_key=\(apiKey)"
        let missing = "http://reader:\(password)@127.0.0.1:\(server.port)/gone.html?access_token=\(apiKey)"
        try folder.write("config-home/lectern/config.toml", "[http]\nhost_interval = 0\nretries = 0\n")
        let ingest = try runLectern(["ingest", url, missing], in: folder.url)
        XCTAssertEqual(ingest.status, 1, "one of two failed: \(ingest.stderr)")
        XCTAssertTrue(ingest.stderr.contains("http://127.0.0.1:\(server.port)/gone.html?access_token=***: HTTP 404 Not Found"), ingest.stderr)
        let runs = try runLectern(["runs", "--json"], in: folder.url)
        XCTAssertTrue(runs.stdout.contains("api_key=***"), "the run records the URL, without its key: \(runs.stdout)")
        let sources = try runLectern(["sources", "--json"], in: folder.url)
        XCTAssertTrue(sources.stdout.contains("/notes/entropy.html?api_key=***"), sources.stdout)
        for result in [ingest, runs, sources] {
            assertNoSecret(in: result.stdout + result.stderr, "lectern's output")
        }
        assertNoSecret(in: libraryBytes(), "the library file")
    }

    /// A base URL with a login (`http://u:pw@host/v1`) sends it as HTTP Basic; a server that
    /// echoes the Authorization header in its error shows neither the password nor the token.
    func testALoginInAnEmbeddingURLNeverShowsAsABasicToken() throws {
        let echo = "invalid credentials in Authorization: Basic \(basicToken) (user reader, password \(password))"
        let server = try TestServer(routes: ["/v1/embeddings": ["status": 401, "json": ["error": ["message": echo, "type": "invalid_request_error"]]]])
        let settings = RemoteEmbeddingSettings(url: "http://reader:\(password)@127.0.0.1:\(server.port)/v1")
        XCTAssertThrowsError(try RemoteEmbedder(.openAI, model: "text-embedding-3-small", settings: settings, environment: [:])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("http://127.0.0.1:\(server.port)/v1/embeddings: HTTP 401"), text)
            self.assertNoSecret(in: text, "the embedder's error")
        }
        XCTAssertEqual((try server.requests().first?["headers"] as? [String: String])?["authorization"], "Basic \(basicToken)",
                       "the login was sent, so there was something to leak")
    }

    /// The same for the language model's `llm.base_url`, through `lectern summarize --base-url`:
    /// stderr, the recorded run (its arguments and its failure) and the library file.
    func testALoginInTheModelsBaseURLReachesNeitherTheTerminalNorTheLibrary() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path), "the lectern binary is not built")
        let echo = "invalid credentials in Authorization: Basic \(basicToken) (password \(password))"
        let server = try TestServer(routes: ["/v1/chat/completions": ["status": 401, "json": ["error": ["message": echo, "type": "invalid_request_error"]]]])
        let notes = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        XCTAssertEqual(try runLectern(["ingest", notes], in: folder.url).status, 0)
        try folder.write("config-home/lectern/config.toml", "[http]\nretries = 0\n")
        let base = "http://reader:\(password)@127.0.0.1:\(server.port)/v1"
        let summarize = try runLectern(["summarize", "--provider", "openai", "--model", "gpt-test", "--base-url", base], in: folder.url)
        XCTAssertEqual(summarize.status, 1)
        XCTAssertTrue(summarize.stderr.contains("HTTP 401"), summarize.stderr)
        let runs = try runLectern(["runs", "--json"], in: folder.url)
        XCTAssertTrue(runs.stdout.contains("--base-url"), runs.stdout)
        XCTAssertTrue(runs.stdout.contains("HTTP 401"), "the failure is recorded: \(runs.stdout)")
        for result in [summarize, runs] {
            assertNoSecret(in: result.stdout + result.stderr, "lectern's output")
        }
        assertNoSecret(in: libraryBytes(), "the library file")
    }

    /// A key pasted where the NAME of its variable belongs is refused without being repeated,
    /// for the embedder as for the language model: in the configuration, and by the embedder.
    func testAKeyPastedAsTheEmbeddingKeyVariableIsNeverEchoed() throws {
        let key = "sk-proj-lectern-pasted-0a1b2c3d4e5f"
        let layer = ConfigLayer(name: "config.toml", values: ["embedding.api_key_env": .string(key)])
        XCTAssertThrowsError(try Configuration.merge([layer])) { error in
            XCTAssertEqual("\(error)", "config.toml: embedding.api_key_env must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
        }
        let settings = RemoteEmbeddingSettings(url: "http://127.0.0.1:9/v1", apiKeyEnv: key, dimensions: 8)
        XCTAssertThrowsError(try RemoteEmbedder(.openAI, model: "m", settings: settings, environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("must be the NAME of an environment variable"), "\(error)")
            XCTAssertFalse("\(error)".contains(key), "\(error)")
            XCTAssertFalse("\(error)".contains(String(key.prefix(12))), "\(error)")
        }
    }

    /// The same key through the environment, as a user would set it: one line, no key.
    func testAKeyPastedIntoTheEmbeddingVariableNeverReachesTheTerminal() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path), "the lectern binary is not built")
        let key = "sk-proj-lectern-pasted-9f8e7d6c5b4a"
        try folder.write("notes/a.md", "# A\n\nSome text.\n")
        let result = try runLectern(["ingest", "notes"], in: folder.url, environment: [
            "LECTERN_EMBEDDER": "openai:text-embedding-3-small", "LECTERN_EMBEDDING_API_KEY_ENV": key,
            "LECTERN_EMBEDDING_URL": "http://127.0.0.1:9/v1",
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "lectern: environment: embedding.api_key_env must be the NAME of an environment variable (like OPENAI_API_KEY), not a key\n")
        XCTAssertFalse((result.stdout + result.stderr).contains(String(key.prefix(12))))
    }

    func testURLRedactionKeepsThePageAndHidesEverySecret() {
        XCTAssertEqual(Redaction.url("https://reader:pw@example.org/a/b.html?page=2#intro"), "https://example.org/a/b.html?page=2#intro")
        XCTAssertEqual(Redaction.url("https://ghp_token123@example.org/x"), "https://example.org/x", "a user name alone may be the token")
        XCTAssertEqual(Redaction.url("https://example.org/x?q=a%20b&api_key=K1&apiKey=K2&X-Amz-Signature=S&X-Amz-Credential=C&sig=s&client_secret=c&password=p&auth=a&monkey=banana"),
                       "https://example.org/x?q=a%20b&api_key=***&apiKey=***&X-Amz-Signature=***&X-Amz-Credential=***&sig=***&client_secret=***&password=***&auth=***&monkey=banana")
        XCTAssertEqual(Redaction.url("https://example.org/search?q=C%2B%2B+templates&keyword=x"), "https://example.org/search?q=C%2B%2B+templates&keyword=x",
                       "a URL without secrets is left exactly as typed")
        XCTAssertEqual(Redaction.urls(in: "--base-url=http://u:pw@127.0.0.1:8080/v1 and https://h/x?token=t."),
                       "--base-url=http://127.0.0.1:8080/v1 and https://h/x?token=***.")
        XCTAssertEqual(Redaction.urls(in: "notes/cells.md"), "notes/cells.md")
    }

    func testARecordedCommandLineHidesTheLoginOfAnyURLScheme() {
        XCTAssertEqual(ArgumentRedaction.redact(["ingest", "--db-url", "postgres://user:pw@db.example.org:5432/notes",
                                                 "ftp://u:p@files.example.org/slides.pdf", "--mirror=sftp://me:hunter22@h/x"]),
                       ["ingest", "--db-url", "postgres://db.example.org:5432/notes", "ftp://files.example.org/slides.pdf", "--mirror=sftp://h/x"])
        XCTAssertEqual(Redaction.urls(in: "cannot reach ftp://u:p@files.example.org/a.pdf: timed out"),
                       "cannot reach ftp://files.example.org/a.pdf: timed out")
        XCTAssertEqual(ArgumentRedaction.redact(["file:///home/me/notes.md", "s3://bucket/key.pdf", "openstax:biology-2e"]),
                       ["file:///home/me/notes.md", "s3://bucket/key.pdf", "openstax:biology-2e"], "URLs without secrets stay as typed")
    }
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
