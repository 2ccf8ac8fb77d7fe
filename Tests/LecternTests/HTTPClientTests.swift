import Foundation
import Synchronization
import XCTest
@testable import Lectern

/// The shared HTTP client against the real loopback test server.
final class HTTPClientTests: XCTestCase {
    /// The waits a client or rate limiter asks for, recorded instead of slept, so back-off
    /// tests take no real seconds and can assert each delay.
    final class RecordedPauses: Sendable {
        private let delays = Mutex<[Double]>([])
        var pause: HTTPClient.Pause { { seconds in self.delays.withLock { $0.append(seconds) } } }
        var all: [Double] { delays.withLock { $0 } }
    }

    func fastRetries(_ retries: Int = 3) -> HTTPSettings {
        var settings = HTTPSettings()
        settings.maxRetries = retries
        settings.retryBaseDelay = 0.05
        settings.connectTimeout = 2
        settings.timeout = 5
        return settings
    }

    func testBodyHeadersGzipAndRedirects() throws {
        let page = String(repeating: "Photosynthesis happens in the chloroplast. ", count: 200)
        let server = try TestServer(routes: [
            "/page": ["body": page, "gzip": true, "headers": ["Content-Type": "text/html; charset=utf-8", "X-Twice": "a"]],
            "/old": ["redirect_to": "/page", "status": 301],
        ])
        let client = HTTPClient(settings: fastRetries())
        let response = try client.get(server.url("/old"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, page, "gzip is decoded")
        XCTAssertEqual(response.url, server.url("/page"), "the final URL after the redirect")
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(response.header("content-encoding"), "gzip")
        let received = try server.requests()
        XCTAssertEqual(received.map { $0["path"] as? String }, ["/old", "/page"])
        let headers = received[1]["headers"] as? [String: String] ?? [:]
        XCTAssertTrue(headers["accept-encoding"]?.contains("gzip") ?? false)
        XCTAssertTrue(headers["user-agent"]?.hasPrefix("lectern/\(Lectern.version)") ?? false, "\(headers)")
    }

    func testErrorStatusIsOneClearLine() throws {
        let server = try TestServer(routes: [:])
        let client = HTTPClient(settings: fastRetries())
        XCTAssertEqual(try client.send(HTTPRequest(url: server.url("/missing"))).status, 404, "send returns any status")
        XCTAssertThrowsError(try client.get(server.url("/missing"))) { error in
            XCTAssertEqual("\(error)", "\(server.url("/missing")): HTTP 404 Not Found")
        }
        XCTAssertEqual(try server.requests().count, 2, "a 404 is not retried")
    }

    func testStatusLineNamesTheReason() {
        func line(_ status: Int) -> String { HTTPResponse(status: status, headers: [:], body: Data(), url: "u").statusLine }
        XCTAssertEqual(line(200), "200 OK")
        XCTAssertEqual(line(404), "404 Not Found")
        XCTAssertEqual(line(414), "414 URI Too Long")
        XCTAssertEqual(line(429), "429 Too Many Requests")
        XCTAssertEqual(line(418), "418 Client Error", "an unregistered code gets its class")
        XCTAssertEqual(line(999), "999")
    }

    func testServerErrorsAreRetriedUntilSuccess() throws {
        let server = try TestServer(routes: ["/flaky": ["body": "ok at last", "fail_first": 2, "fail_status": 503]])
        let pauses = RecordedPauses()
        let response = try HTTPClient(settings: fastRetries(), pause: pauses.pause).get(server.url("/flaky"))
        XCTAssertEqual(response.text, "ok at last")
        XCTAssertEqual(response.attempts, 3)
        XCTAssertEqual(try server.requests().count, 3)
        XCTAssertEqual(pauses.all.count, 2, "a wait before each retry")

        for status in [500, 502, 504] {
            let once = try TestServer(routes: ["/once": ["body": "fine", "fail_first": 1, "fail_status": status]])
            let answer = try HTTPClient(settings: fastRetries(), pause: RecordedPauses().pause).get(once.url("/once"))
            XCTAssertEqual(answer.text, "fine", "\(status) then 200")
            XCTAssertEqual(answer.attempts, 2, "\(status) then 200")
        }

        let failing = try TestServer(routes: ["/down": ["fail_first": 100, "fail_status": 500]])
        let last = try HTTPClient(settings: fastRetries(2), pause: RecordedPauses().pause).send(HTTPRequest(url: failing.url("/down")))
        XCTAssertEqual(last.status, 500, "after the retries, the last answer comes back")
        XCTAssertEqual(try failing.requests().count, 3, "two retries, three attempts")
    }

    /// Without Retry-After, the n-th retry waits retry_delay × 2^(n-1) times a random factor
    /// in [0.5, 1] (full jitter), never more than max_retry_delay.
    func testBackOffIsExponentialWithJitterAndCapped() throws {
        let server = try TestServer(routes: ["/down": ["fail_first": 100, "fail_status": 503]])
        var settings = fastRetries(3)
        settings.retryBaseDelay = 0.5
        settings.timeout = 60
        var firstDelays: [Double] = []
        for _ in 0..<5 {
            let pauses = RecordedPauses()
            XCTAssertEqual(try HTTPClient(settings: settings, pause: pauses.pause).send(HTTPRequest(url: server.url("/down"))).status, 503)
            let delays = pauses.all
            XCTAssertEqual(delays.count, 3, "three retries, a wait before each")
            for (index, delay) in delays.enumerated() {
                let full = 0.5 * pow(2, Double(index))
                XCTAssertTrue((full / 2...full).contains(delay), "retry \(index + 1) waited \(delay) s, not within [\(full / 2), \(full)]")
            }
            firstDelays.append(delays[0])
        }
        XCTAssertGreaterThan(Set(firstDelays).count, 1, "jitter: five clients did not all wait the same \(firstDelays)")

        // A connection error backs off the same way; the cap holds: 4, 8, 16 s capped at 5.
        let closed = try TestServer(routes: [:])
        let port = closed.port
        closed.stop()
        settings.retryBaseDelay = 4
        settings.maxRetryDelay = 5
        let pauses = RecordedPauses()
        XCTAssertThrowsError(try HTTPClient(settings: settings, pause: pauses.pause).get("http://127.0.0.1:\(port)/gone")) { error in
            XCTAssertTrue("\(error)".hasSuffix("(after 4 attempts)"), "\(error)")
        }
        let delays = pauses.all
        XCTAssertEqual(delays.count, 3)
        XCTAssertTrue((2...4).contains(delays[0]), "\(delays)")
        XCTAssertTrue((4...5).contains(delays[1]), "\(delays)")
        XCTAssertEqual(delays[2], 5, "16 s of back-off capped at http.max_retry_delay")
    }

    func testTooManyRequestsWaitsForRetryAfter() throws {
        var settings = fastRetries()
        settings.timeout = 60
        settings.maxRetryDelay = 5
        func waits(_ failHeaders: [String: String]) throws -> [Double] {
            let server = try TestServer(routes: ["/limited": ["body": "fine", "fail_first": 1, "fail_status": 429, "fail_headers": failHeaders]])
            let pauses = RecordedPauses()
            let response = try HTTPClient(settings: settings, pause: pauses.pause).get(server.url("/limited"))
            XCTAssertEqual(response.text, "fine")
            XCTAssertEqual(response.attempts, 2, "the 429 was retried")
            return pauses.all
        }
        XCTAssertEqual(try waits(["Retry-After": "1"]), [1], "Retry-After: 1, not the 0.05 s back-off")
        XCTAssertEqual(try waits(["retry-after-ms": "400"]), [0.4], "retry-after-ms: 400 (OpenAI, Anthropic)")
        XCTAssertEqual(try waits(["Retry-After": "3600"]), [5], "a long Retry-After is capped at http.max_retry_delay")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let byDate = try waits(["Retry-After": formatter.string(from: Date().addingTimeInterval(4))])
        XCTAssertEqual(byDate.count, 1)
        XCTAssertTrue((2...4).contains(byDate[0]), "an HTTP date four seconds ahead (whole seconds): \(byDate)")

        XCTAssertEqual(HTTPClient.parseRetryAfter("120"), 120)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(HTTPClient.parseRetryAfter("Fri, 15 Jan 2027 08:00:00 GMT", now: date).map { $0.rounded() },
                       Date(timeIntervalSince1970: 1_800_000_000).distance(to: ISO8601DateFormatter().date(from: "2027-01-15T08:00:00Z")!).rounded())
    }

    /// http.timeout bounds the whole request: a slow-drip server that once held one URL for
    /// 243 s under the 60 s default (four attempts of 60 s, and back-off) now takes the timeout.
    func testTheTimeoutBoundsTheWholeRequestWithItsRetries() throws {
        let server = try TestServer(routes: [
            "/drip": ["drip": ["every": 0.2, "for": 30]],
            "/busy-then-drip": ["drip": ["every": 0.2, "for": 30], "fail_first": 1, "fail_status": 503],
            "/come-back-later": ["fail_first": 100, "fail_status": 429, "fail_headers": ["Retry-After": "10"]],
        ])
        var settings = fastRetries(3)
        settings.timeout = 2
        let start = Date()
        XCTAssertThrowsError(try HTTPClient(settings: settings).get(server.url("/drip"))) { error in
            XCTAssertEqual((error as? LecternError)?.code, .network)
            XCTAssertEqual("\(error)", "\(server.url("/drip")): took longer than http.timeout = 2 s")
        }
        // Generous: the timeout and the server's start-up are 2 s and some; four attempts were 8 s.
        XCTAssertLessThan(Date().timeIntervalSince(start), 6, "one request, retries included, within about http.timeout")
        XCTAssertEqual(try server.requests().count, 1, "no retry starts once the time is spent")

        // A retry gets what is left of the time, and its failure says how many attempts there were.
        let pauses = RecordedPauses()
        XCTAssertThrowsError(try HTTPClient(settings: settings, pause: pauses.pause).get(server.url("/busy-then-drip"))) { error in
            XCTAssertEqual("\(error)", "\(server.url("/busy-then-drip")): took longer than http.timeout = 2 s (after 2 attempts)")
        }
        XCTAssertEqual(pauses.all.count, 1)
        XCTAssertEqual(try server.requests().filter { $0["path"] as? String == "/busy-then-drip" }.count, 2)

        // A wait that would end past the deadline is not made: the 429 comes back at once.
        let waits = RecordedPauses()
        let refused = try HTTPClient(settings: settings, pause: waits.pause).send(HTTPRequest(url: server.url("/come-back-later")))
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.attempts, 1)
        XCTAssertEqual(waits.all, [], "Retry-After: 10 does not fit in a 2 s timeout")

        // A caller's own per-request timeout bounds it the same way, and is named as such.
        XCTAssertThrowsError(try HTTPClient(settings: settings).send(HTTPRequest(url: server.url("/drip"), timeout: 1))) { error in
            XCTAssertEqual("\(error)", "\(server.url("/drip")): took longer than its 1 s timeout")
        }
    }

    func testOversizedBodiesAreRefusedNamingTheLimit() throws {
        let server = try TestServer(routes: [
            "/declared": ["size": 3 << 20],
            "/streamed": ["size": 3 << 20, "chunked": true],
            "/small": ["size": 1000],
        ])
        var settings = fastRetries()
        settings.maxResponseBytes = 1 << 20
        let client = HTTPClient(settings: settings)
        for path in ["/declared", "/streamed"] {
            XCTAssertThrowsError(try client.get(server.url(path))) { error in
                XCTAssertEqual((error as? LecternError)?.code, .tooLarge)
                XCTAssertEqual("\(error)", "\(server.url(path)): response larger than the 1 MB limit (http.max_response_mb)")
            }
        }
        XCTAssertEqual(try client.get(server.url("/small")).body.count, 1000)
        XCTAssertEqual(try server.requests().count, 3, "an oversized body is not retried")
    }

    func testOnlyHTTPAndHTTPSAreFetched() throws {
        let client = HTTPClient(settings: fastRetries())
        for url in ["file:///etc/passwd", "ftp://example.org/notes.txt", "gopher://127.0.0.1/"] {
            XCTAssertThrowsError(try client.get(url)) { error in
                XCTAssertEqual((error as? LecternError)?.code, .unsupported, url)
                XCTAssertTrue("\(error)".contains("only http and https"), "\(error)")
            }
        }
        // A redirect to a file: URL is not followed either.
        let server = try TestServer(routes: ["/sneaky": ["redirect_to": "file:///etc/passwd"]])
        XCTAssertThrowsError(try client.get(server.url("/sneaky"))) { error in
            XCTAssertFalse("\(error)".contains("root:"), "\(error)")
        }
    }

    func testConnectionRefusedNamesTheURLAndHidesCredentials() throws {
        // A port nobody listens on: start a server, note its port, stop it.
        let server = try TestServer(routes: [:])
        let port = server.port
        server.stop()
        let client = HTTPClient(settings: fastRetries(1))
        let url = "http://reader:hunter2secret@127.0.0.1:\(port)/notes?api_key=sk-live-12345&page=2"
        XCTAssertThrowsError(try client.send(HTTPRequest(url: url, headers: ["Authorization": "Bearer sk-live-abcdef"]))) { error in
            let text = "\(error)"
            XCTAssertEqual((error as? LecternError)?.code, .network)
            XCTAssertTrue(text.hasPrefix("http://127.0.0.1:\(port)/notes?api_key=***&page=2: "), text)
            XCTAssertTrue(text.contains("after 2 attempts"), text)
            for secret in ["hunter2secret", "reader", "sk-live-12345", "sk-live-abcdef"] {
                XCTAssertFalse(text.contains(secret), "\(secret) leaked: \(text)")
            }
        }
    }

    func testSlowServersTimeOut() throws {
        let server = try TestServer(routes: ["/slow": ["body": "late", "delay": 3]])
        var settings = fastRetries(0)
        settings.timeout = 0.5
        XCTAssertThrowsError(try HTTPClient(settings: settings).get(server.url("/slow"))) { error in
            XCTAssertEqual((error as? LecternError)?.code, .network)
            XCTAssertEqual("\(error)", "\(server.url("/slow")): took longer than http.timeout = 0.5 s", "the client gave up at its timeout, not the server's pace")
        }
        // A per-request timeout overrides the setting.
        XCTAssertEqual(try HTTPClient(settings: settings).send(HTTPRequest(url: server.url("/slow"), timeout: 10)).text, "late")
    }

    func testConditionalRequestsGetNotModified() throws {
        let server = try TestServer(routes: ["/article": ["body": "<p>Entropy</p>", "etag": "\"v1\"", "last_modified": "Sat, 21 Nov 2026 10:00:00 GMT"]])
        let client = HTTPClient(settings: fastRetries())
        let first = try client.get(server.url("/article"))
        XCTAssertEqual(first.header("etag"), "\"v1\"")
        let again = try client.get(server.url("/article"), headers: ["If-None-Match": "\"v1\""])
        XCTAssertTrue(again.isNotModified)
        XCTAssertTrue(again.body.isEmpty)
        let byDate = try client.get(server.url("/article"), headers: ["If-Modified-Since": "Sat, 21 Nov 2026 10:00:00 GMT"])
        XCTAssertEqual(byDate.status, 304)
        let changed = try client.get(server.url("/article"), headers: ["If-None-Match": "\"v0\""])
        XCTAssertEqual(changed.text, "<p>Entropy</p>")
    }

    func testJSONPostsAndReplayedExamples() throws {
        let server = try TestServer(routes: [:], replay: [
            ["request": ["method": "POST", "path": "/api/echo", "json": ["model": "small"]],
             "response": ["json": ["answer": "small model"]]],
            ["request": ["method": "POST", "path": "/api/echo"], "response": ["status": 400, "json": ["error": "unknown model"]]],
        ])
        let client = HTTPClient(settings: fastRetries())
        let body = try JSONSerialization.data(withJSONObject: ["model": "small", "prompt": "hi"])
        let ok = try client.send(.json(server.url("/api/echo"), body: body))
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: ok.body) as? [String: String], ["answer": "small model"])
        let bad = try client.send(.json(server.url("/api/echo"), body: Data(#"{"model":"huge"}"#.utf8)))
        XCTAssertEqual(bad.status, 400)
        let received = try server.requests()
        XCTAssertEqual(received.first?["body"] as? String, String(decoding: body, as: UTF8.self))
        XCTAssertEqual((received.first?["headers"] as? [String: String])?["content-type"], "application/json")
    }

    func testRedirectsSendKeysOnlyToTheirOrigin() throws {
        let elsewhere = try TestServer(routes: ["/landing": ["body": "landed elsewhere"]])
        let server = try TestServer(routes: [
            "/api/moved": ["redirect_to": elsewhere.url("/landing"), "status": 307],
            "/api/here": ["redirect_to": "/api/final", "status": 308],
            "/api/final": ["body": "landed here"],
        ])
        let client = HTTPClient(settings: fastRetries())
        let headers = ["x-api-key": "sk-ant-secret-1", "Authorization": "Bearer sk-secret-2", "X-Trace": "t-1"]
        let away = try client.send(HTTPRequest(url: server.url("/api/moved"), headers: headers))
        XCTAssertEqual(away.text, "landed elsewhere")
        XCTAssertEqual(away.url, elsewhere.url("/landing"))
        let sentAway = try elsewhere.requests().first?["headers"] as? [String: String] ?? [:]
        XCTAssertNil(sentAway["x-api-key"], "a key never follows a redirect to another host: \(sentAway)")
        XCTAssertNil(sentAway["authorization"])
        XCTAssertEqual(sentAway["x-trace"], "t-1", "other headers do follow")

        let home = try client.send(HTTPRequest(url: server.url("/api/here"), headers: headers))
        XCTAssertEqual(home.text, "landed here")
        let sentHome = try server.requests().last?["headers"] as? [String: String] ?? [:]
        XCTAssertEqual(sentHome["x-api-key"], "sk-ant-secret-1", "the same origin keeps its key")
        XCTAssertEqual(sentHome["authorization"], "Bearer sk-secret-2")
    }

    func testRedirectsChangeMethodsLikeBrowsers() throws {
        let server = try TestServer(routes: [
            "/form": ["redirect_to": "/thanks", "status": 303],
            "/upload": ["redirect_to": "/stored", "status": 307],
            "/thanks": ["body": "thanks"],
            "/stored": ["body": "stored"],
            "/loop": ["redirect_to": "/loop"],
        ])
        let client = HTTPClient(settings: fastRetries())
        let body = Data(#"{"q":"entropy"}"#.utf8)
        XCTAssertEqual(try client.send(.json(server.url("/form"), body: body)).text, "thanks")
        XCTAssertEqual(try client.send(.json(server.url("/upload"), body: body)).text, "stored")
        let received = try server.requests()
        XCTAssertEqual(received.map { "\($0["method"] ?? "") \($0["path"] ?? "")" },
                       ["POST /form", "GET /thanks", "POST /upload", "POST /stored"])
        XCTAssertEqual(received[1]["body"] as? String, "", "a 303 drops the body")
        XCTAssertEqual(received[3]["body"] as? String, #"{"q":"entropy"}"#, "a 307 repeats it")

        XCTAssertThrowsError(try client.get(server.url("/loop"))) { error in
            XCTAssertEqual("\(error)", "\(server.url("/loop")): more than 5 redirects (http.max_redirects)")
        }
        var noFollow = fastRetries()
        noFollow.maxRedirects = 0
        let unfollowed = try HTTPClient(settings: noFollow).send(HTTPRequest(url: server.url("/form")))
        XCTAssertEqual(unfollowed.status, 303)
        XCTAssertEqual(unfollowed.header("location"), "/thanks")
    }

    func testCompressedBombIsRefusedAtTheDecodedSize() throws {
        // 4 MB of repeated text gzips to a few KB: the declared length passes, the decoded body does not.
        let server = try TestServer(routes: ["/bomb": ["size": 4 << 20, "gzip": true]])
        var settings = fastRetries()
        settings.maxResponseBytes = 1 << 20
        XCTAssertThrowsError(try HTTPClient(settings: settings).get(server.url("/bomb"))) { error in
            XCTAssertEqual((error as? LecternError)?.code, .tooLarge)
            XCTAssertTrue("\(error)".hasSuffix("response larger than the 1 MB limit (http.max_response_mb)"), "\(error)")
        }
    }

    func testOneClientServesManyThreads() throws {
        let server = try TestServer(routes: (0..<16).reduce(into: [String: [String: Any]]()) { routes, n in
            routes["/page/\(n)"] = ["body": "page \(n)", "gzip": true, "delay": 0.05]
        })
        let client = HTTPClient(settings: fastRetries())
        let results = Mutex(Array(repeating: "", count: 16))
        let base = server.baseURL
        DispatchQueue.concurrentPerform(iterations: 16) { n in
            let text = (try? client.get(base + "/page/\(n)").text) ?? "failed"
            results.withLock { $0[n] = text }
        }
        XCTAssertEqual(results.withLock { $0 }, (0..<16).map { "page \($0)" })
        XCTAssertEqual(try server.requests().count, 16)
    }

    func testCredentialsInURLsAreUsedButNeverShown() throws {
        let server = try TestServer(routes: ["/private": ["body": "members only"]])
        let client = HTTPClient(settings: fastRetries())
        let withLogin = server.baseURL.replacingOccurrences(of: "http://", with: "http://reader:hunter2secret@")
        let response = try client.get(withLogin + "/private")
        XCTAssertEqual(response.text, "members only")
        XCTAssertEqual(response.url, server.url("/private"), "the URL a caller stores holds no password")
        let sent = try server.requests().first?["headers"] as? [String: String] ?? [:]
        XCTAssertEqual(sent["authorization"], "Basic " + Data("reader:hunter2secret".utf8).base64EncodedString())

        XCTAssertThrowsError(try client.get(withLogin + "/missing?token=tok-abcdef", headers: ["x-api-key": "sk-9876543"])) { error in
            XCTAssertEqual("\(error)", "\(server.url("/missing"))?token=***: HTTP 404 Not Found")
        }
    }

    func testConfiguredSettingsReachTheWire() throws {
        let folder = try TemporaryFolder()
        try folder.write("config-home/lectern/config.toml", """
            [http]
            contact = "student@example.org"
            max_response_mb = 1
            retries = 2
            retry_delay = 0.05
            max_retry_delay = 0.2
            """)
        let environment = ["XDG_CONFIG_HOME": folder.file("config-home").path, "LECTERN_HTTP_RETRIES": "0"]
        let configuration = try Configuration.load(environment: environment)
        XCTAssertEqual(configuration.http.maxRetries, 0, "the environment beats the config file")
        XCTAssertEqual(configuration.http.maxRetryDelay, 0.2)
        let server = try TestServer(routes: ["/big": ["size": 2 << 20], "/flaky": ["fail_first": 1, "body": "ok"]])
        let client = HTTPClient(settings: configuration.http)
        XCTAssertThrowsError(try client.get(server.url("/big"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("the 1 MB limit (http.max_response_mb)"), "\(error)")
        }
        XCTAssertEqual(try client.send(HTTPRequest(url: server.url("/flaky"))).status, 503, "retries = 0: no second try")
        let agent = (try server.requests().first?["headers"] as? [String: String])?["user-agent"]
        XCTAssertEqual(agent, "lectern/\(Lectern.version) (+student@example.org)")
    }

    func testStreamedReplayArrivesWholeAndMismatchesSayWhy() throws {
        // Ollama's /api/chat streams one JSON object per line (its API documentation's example).
        let lines: [[String: Any]] = [
            ["model": "llama3.2", "created_at": "2023-08-04T08:52:19.385406455-07:00", "message": ["role": "assistant", "content": "The"], "done": false],
            ["model": "llama3.2", "created_at": "2023-08-04T08:52:19.385406455-07:00", "message": ["role": "assistant", "content": " sky is blue"], "done": false],
            ["model": "llama3.2", "created_at": "2023-08-04T19:22:45.499127Z", "message": ["role": "assistant", "content": ""], "done": true, "eval_count": 282],
        ]
        let server = try TestServer(routes: [:], replay: [
            ["request": ["method": "POST", "path": "/api/chat", "json": ["model": "llama3.2", "stream": true]],
             "response": ["chunks": lines, "chunk_delay": 0.05, "headers": ["Content-Type": "application/x-ndjson"]]],
        ])
        let client = HTTPClient(settings: fastRetries())
        let request = #"{"model":"llama3.2","messages":[{"role":"user","content":"why is the sky blue?"}],"stream":true}"#
        let response = try client.send(.json(server.url("/api/chat"), body: Data(request.utf8)))
        XCTAssertEqual(response.header("content-type"), "application/x-ndjson")
        let objects = try response.text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        XCTAssertEqual(objects.compactMap { ($0["message"] as? [String: Any])?["content"] as? String }.joined(), "The sky is blue")
        XCTAssertEqual(objects.last?["done"] as? Bool, true)

        let other = try client.send(.json(server.url("/api/chat"), body: Data(#"{"model":"mistral"}"#.utf8)))
        XCTAssertEqual(other.status, 404)
        XCTAssertTrue(other.text.contains("no route or replay pair for POST /api/chat") && other.text.contains("llama3.2"), other.text)
    }

    func testABrokenServerSpecIsOneClearFailure() throws {
        XCTAssertThrowsError(try TestServer(routes: ["no-slash": ["body": "x"]])) { error in
            XCTAssertTrue("\(error)".contains("route paths must start with /: no-slash"), "\(error)")
        }
    }

    func testRateLimiterSpacesRequestsToOneHost() throws {
        let pauses = RecordedPauses()
        let limiter = RateLimiter(interval: 0.3, pause: pauses.pause)
        limiter.wait(for: "http://127.0.0.1:1/a")
        limiter.wait(for: "http://other.example/x")
        XCTAssertEqual(pauses.all, [], "the first request to a host, and other hosts, do not wait")
        limiter.wait(for: "http://127.0.0.1:1/b")
        limiter.wait(for: "http://127.0.0.1:1/c")
        // Nothing really slept, so the second waits one interval and the third two (less the
        // moments between the calls).
        let waits = pauses.all
        XCTAssertEqual(waits.count, 2, "\(waits)")
        XCTAssertTrue((0.2...0.3).contains(waits[0]), "\(waits)")
        XCTAssertTrue((0.5...0.6).contains(waits[1]), "three requests to one host span two intervals: \(waits)")
    }
}
