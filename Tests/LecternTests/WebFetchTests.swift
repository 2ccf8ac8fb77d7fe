import XCTest
@testable import Lectern

/// Web sources through the real HTTP client against the real loopback test server: served
/// saved pages, conditional GET (304 = unchanged), a rate-limited host, an oversized download,
/// a course crawl and a book's source archive. Nothing here leaves 127.0.0.1.
final class WebFetchTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: LibraryStore!
    var events: EventLog!

    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [PipelineEvent] = []
        func add(_ event: PipelineEvent) { lock.withLock { items.append(event) } }
        var all: [PipelineEvent] { lock.withLock { items } }
        var failures: [String] { all.filter { $0.event == .failed }.map { "\($0.input ?? ""): \($0.message ?? "")" } }
    }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("library.db").path)
        events = EventLog()
    }

    func ingestor(_ configure: (inout HTTPSettings) -> Void = { _ in }) -> Ingestor {
        var settings = HTTPSettings()
        settings.hostInterval = 0
        settings.retryBaseDelay = 0.05
        settings.timeout = 10
        configure(&settings)
        var ingestor = Ingestor(store: store, embedder: HashingEmbedder())
        ingestor.fetcher = WebFetcher(settings: settings)
        return ingestor
    }

    func ingest(_ ingestor: Ingestor, _ arguments: [String]) -> IngestSummary {
        let log = events!
        return ingestor.ingest(arguments, recorder: nil) { log.add($0) }
    }

    var parsoidFixture: String { TestPaths.packageRoot.appendingPathComponent("Tests/Support/web/parsoid-information-theory.html").path }

    func testSourceSpecsMapToTheServicesDocumentedEndpoints() throws {
        XCTAssertEqual(SourceSpec.parse("wikipedia:\"Information theory\"")?.url, "https://en.wikipedia.org/api/rest_v1/page/html/Information_theory")
        XCTAssertEqual(SourceSpec.parse("wikipedia:Information theory")?.url, "https://en.wikipedia.org/api/rest_v1/page/html/Information_theory")
        XCTAssertEqual(SourceSpec.parse("wikipedia:AC/DC")?.url, "https://en.wikipedia.org/api/rest_v1/page/html/AC%2FDC")
        XCTAssertEqual(SourceSpec.parse("wikipedia:fr:Entropie de Shannon")?.url, "https://fr.wikipedia.org/api/rest_v1/page/html/Entropie_de_Shannon")
        XCTAssertEqual(SourceSpec.parse("wikipedia:Schrödinger equation")?.url, "https://en.wikipedia.org/api/rest_v1/page/html/Schr%C3%B6dinger_equation")
        XCTAssertEqual(SourceSpec.parse("openstax:introduction-philosophy-2e")?.url, "https://api.github.com/repos/openstax/osbooks-introduction-philosophy/zipball")
        XCTAssertEqual(SourceSpec.parse("openstax:osbooks-biology-bundle")?.url, "https://api.github.com/repos/openstax/osbooks-biology-bundle/zipball")
        XCTAssertEqual(SourceSpec.parse("ocw:8-01sc-classical-mechanics-fall-2016")?.url, "https://ocw.mit.edu/courses/8-01sc-classical-mechanics-fall-2016/")
        XCTAssertEqual(SourceSpec.parse("ocw:https://ocw.mit.edu/courses/18-06-linear-algebra-spring-2010")?.url, "https://ocw.mit.edu/courses/18-06-linear-algebra-spring-2010/")
        XCTAssertEqual(SourceSpec.parse("https://example.org/a.html"), .url("https://example.org/a.html"))
        XCTAssertNil(SourceSpec.parse("notes/cells.md"), "a path is not a spec")
        let local = try folder.write("wikipedia:local.md", "# A file whose name looks like a spec\n")
        XCTAssertNil(SourceSpec.parse(local.path), "an existing file wins over a spec")
        XCTAssertEqual(SourceSpec.parse("wikipedia:\"Information theory\"")?.display, "wikipedia:Information theory")
    }

    func testServedPagesAreStoredThenUnchangedAfterA304() throws {
        // The project's own Parsoid page, once with a Last-Modified date and once with an ETag.
        let parsoidHeaders = ["Content-Type": "text/html; charset=utf-8; profile=\"https://www.mediawiki.org/wiki/Specs/HTML/2.8.0\""]
        let server = try TestServer(routes: [
            "/api/rest_v1/page/html/Information_theory": ["body_file": parsoidFixture, "last_modified": "Mon, 20 Nov 2023 10:00:00 GMT",
                                                          "headers": parsoidHeaders],
            "/mirror/Information_theory": ["body_file": parsoidFixture, "etag": "\"rev-1187000001\"", "headers": parsoidHeaders],
        ])
        let urls = [server.url("/api/rest_v1/page/html/Information_theory"), server.url("/mirror/Information_theory")]
        let first = ingest(ingestor(), urls)
        XCTAssertEqual(first.stored, 2, events.failures.joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: urls[0]))
        XCTAssertEqual(document.title, "Information theory")
        XCTAssertEqual(document.extractor, "wikipedia")
        XCTAssertNil(document.path, "a web document's provenance is its URL")
        XCTAssertEqual(try store.fetchCache(url: urls[0])?.lastModified, "Mon, 20 Nov 2023 10:00:00 GMT")
        XCTAssertEqual(try store.fetchCache(url: urls[1])?.etag, "\"rev-1187000001\"")

        let second = ingest(ingestor(), urls)
        XCTAssertEqual(second.unchanged, 2)
        XCTAssertEqual(second.stored, 0)
        let requests = try server.requests()
        XCTAssertEqual(requests.count, 4)
        let headers = requests.suffix(2).map { $0["headers"] as? [String: String] ?? [:] }
        XCTAssertEqual(headers[0]["if-modified-since"], "Mon, 20 Nov 2023 10:00:00 GMT", "the stored Last-Modified is sent back")
        XCTAssertEqual(headers[1]["if-none-match"], "\"rev-1187000001\"", "the stored ETag is sent back")
    }

    func testASavedWikipediaPageServedWithAnETagIsSearchableByItsURL() throws {
        let mozilla = try TestPaths.sharedCorpus("wikipedia/wikipedia/source.html")
        let server = try TestServer(routes: [
            "/wiki/Mozilla": ["body_file": mozilla.path, "etag": "\"rev-746574460\"", "headers": ["Content-Type": "text/html; charset=utf-8"]],
        ])
        let url = server.url("/wiki/Mozilla")
        XCTAssertEqual(ingest(ingestor(), [url]).stored, 1, events.failures.joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: url))
        XCTAssertEqual(document.title, "Mozilla")
        XCTAssertEqual(document.extractor, "wikipedia")
        XCTAssertEqual(try store.fetchCache(url: url)?.etag, "\"rev-746574460\"")
        XCTAssertEqual(ingest(ingestor(), [url]).unchanged, 1)
        XCTAssertEqual((try server.requests().last?["headers"] as? [String: String])?["if-none-match"], "\"rev-746574460\"")

        // Searchable with the URL as provenance.
        let hits = try Searcher(store: store, embedder: HashingEmbedder()).search("free-software community created by members of Netscape", k: 3)
        XCTAssertEqual(hits.first?.uri, url)
        XCTAssertTrue(hits.first?.location.hasPrefix(url) ?? false, hits.first?.location ?? "")
    }

    func testChangedChunkSettingsReReadAPageTheServerWouldCallNotModified() throws {
        // A 304 says the bytes are the same, not that they were read the way this run reads them.
        let mozilla = try TestPaths.sharedCorpus("wikipedia/wikipedia/source.html")
        let server = try TestServer(routes: ["/wiki/Mozilla": ["body_file": mozilla.path, "etag": "\"rev-746574460\""]])
        let url = server.url("/wiki/Mozilla")
        XCTAssertEqual(ingest(ingestor(), [url]).stored, 1, events.failures.joined(separator: "\n"))
        let before = try XCTUnwrap(store.document(uri: url))

        var smaller = ingestor()
        smaller.chunkSettings = ChunkSettings(maxTokens: 64, overlapTokens: 8, minTokens: 16)
        let rechunked = ingest(smaller, [url])
        XCTAssertEqual(rechunked.stored, 1, "re-read with the new chunk settings, not reported unchanged")
        XCTAssertEqual(rechunked.unchanged, 0)
        let after = try XCTUnwrap(store.document(uri: url))
        XCTAssertNotEqual(after.skipKey, before.skipKey)
        XCTAssertGreaterThan(after.passageCount, before.passageCount, "64-token passages are more than 254-token ones")
        let headers = try server.requests().map { $0["headers"] as? [String: String] ?? [:] }
        XCTAssertNil(headers[1]["if-none-match"], "the re-read is an unconditional GET")

        XCTAssertEqual(ingest(smaller, [url]).unchanged, 1, "with the same settings again, a 304 is enough")
        XCTAssertEqual(try server.requests().last?["headers"].flatMap { $0 as? [String: String] }?["if-none-match"], "\"rev-746574460\"")
        XCTAssertEqual(try store.document(uri: url)?.passageCount, after.passageCount)
    }

    func testTheServersCharsetIsHonoured() throws {
        let latin1 = try XCTUnwrap("<html><body><p>Le café crème se boit au comptoir, près de la fenêtre, à midi.</p></body></html>".data(using: .isoLatin1))
        let file = try folder.write("latin1.html", latin1)
        let server = try TestServer(routes: ["/cafe": ["body_file": file.path, "headers": ["Content-Type": "text/html; charset=ISO-8859-1"]]])
        XCTAssertEqual(ingest(ingestor(), [server.url("/cafe")]).stored, 1, events.failures.joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: server.url("/cafe")))
        XCTAssertEqual(try store.blocks(documentId: document.id).first?.text, "Le café crème se boit au comptoir, près de la fenêtre, à midi.")
    }

    func testAFailedStoreIsFetchedInFullNextTime() throws {
        // Validators are only sent for a document the library still holds.
        let server = try TestServer(routes: ["/page": ["body": "<html><body><p>The mitochondrion produces ATP through oxidative phosphorylation in the cell.</p></body></html>", "etag": "\"v1\""]])
        XCTAssertEqual(ingest(ingestor(), [server.url("/page")]).stored, 1)
        _ = try store.removeDocuments(try store.documents(matching: server.url("/page")))
        XCTAssertEqual(ingest(ingestor(), [server.url("/page")]).stored, 1, "removed, so fetched again in full")
        let last = try server.requests().last?["headers"] as? [String: String]
        XCTAssertNil(last?["if-none-match"])
    }

    func testRateLimitedHostIsWaitedForAndRequestsToOneHostAreSpaced() throws {
        let page = { (topic: String) in ["body": "<html><body><h1>\(topic)</h1><p>\(topic) is explained here in a paragraph long enough to be a passage of its own.</p></body></html>"] as [String: Any] }
        var limited = page("Entropy")
        limited["rate_limit"] = ["requests": 1, "window": 30, "retry_after": 1]
        let server = try TestServer(routes: ["/a": page("Bits"), "/b": page("Codes"), "/c": page("Channels"), "/limited": limited])
        // The limited route answers 429 with Retry-After to every request after its first.
        let client = HTTPClient(settings: { var s = HTTPSettings(); s.maxRetries = 0; return s }())
        XCTAssertEqual(try client.send(HTTPRequest(url: server.url("/limited"))).status, 200)
        let summary = ingest(ingestor { $0.hostInterval = 0.4; $0.maxRetries = 1 }, [server.url("/a"), server.url("/b"), server.url("/c"), server.url("/limited")])
        XCTAssertEqual(summary.stored, 3)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertTrue(events.failures.contains { $0.contains("/limited: HTTP 429") }, events.failures.joined(separator: "\n"))
        let requests = try server.requests()
        let times = requests.dropFirst().compactMap { $0["time"] as? Double }
        XCTAssertEqual(times.count, 5, "a b c, then /limited twice (one retry after Retry-After)")
        for (earlier, later) in zip(times.prefix(3), times.dropFirst().prefix(3)) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.35, "requests to one host at least http.host_interval apart")
        }
        XCTAssertGreaterThanOrEqual(times[4] - times[3], 0.9, "the retry waited for Retry-After")
    }

    func testOversizedDownloadIsRefusedNamingTheLimitAndTheBatchGoesOn() throws {
        let server = try TestServer(routes: [
            "/huge": ["size": 3 << 20, "headers": ["Content-Type": "text/html"]],
            "/fine": ["body": "<html><body><p>A small page about photosynthesis in the chloroplast of plant cells.</p></body></html>"],
        ])
        let summary = ingest(ingestor { $0.maxResponseBytes = 1 << 20 }, [server.url("/huge"), server.url("/fine")])
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.stored, 1, "the rest of the batch goes on")
        XCTAssertEqual(events.failures, ["\(server.url("/huge")): response larger than the 1 MB limit (http.max_response_mb)"])
        XCTAssertNil(try store.document(uri: server.url("/huge")), "nothing half-written")
    }

    func testOCWSpecCrawlsTheCoursePagesOnly() throws {
        func page(_ title: String, _ body: String) -> String {
            "<!DOCTYPE html><html><head><title>\(title) | Tiny Course | MIT OpenCourseWare</title></head><body><nav><a href=\"/\">Home</a></nav><main>\(body)</main></body></html>"
        }
        let home = page("Course Home", """
            <h1>Tiny Course</h1><p>An introduction to counting bits, for people who like small numbers and careful proofs.</p>
            <a href="pages/syllabus/">Syllabus</a> <a href="pages/calendar/?tab=1#week1">Calendar</a>
            <a href="/courses/other-course/pages/syllabus/">Another course</a> <a href="https://elsewhere.example/">Elsewhere</a>
            """)
        let server = try TestServer(routes: [
            "/courses/tiny/": ["body": home],
            "/courses/tiny/pages/syllabus/": ["body": page("Syllabus", "<h2>Grading</h2><p>Problem sets count for half of the grade; the final exam for the other half.</p>")],
            "/courses/tiny/pages/calendar/": ["body": page("Calendar", "<table><tr><th>Week</th><th>Topic</th></tr><tr><td>1</td><td>Bits</td></tr></table>")],
        ])
        let spec = "ocw:" + server.url("/courses/tiny")
        let summary = ingest(ingestor(), [spec])
        XCTAssertEqual(summary.stored, 1, events.failures.joined(separator: "\n"))
        let paths = try server.requests().compactMap { $0["path"] as? String }
        XCTAssertEqual(paths, ["/courses/tiny/", "/courses/tiny/pages/syllabus/", "/courses/tiny/pages/calendar/"], "only the course's own pages")
        let document = try XCTUnwrap(store.document(uri: server.url("/courses/tiny/")))
        XCTAssertEqual(document.extractor, "ocw")
        XCTAssertEqual(document.title, "Tiny Course")
        let blocks = try store.blocks(documentId: document.id)
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Problem sets count") }?.sectionPath, ["Syllabus", "Grading"])
        XCTAssertTrue(blocks.contains { $0.kind == .table && $0.text.contains("1 | Bits") })
    }

    func testOCWCrawlFollowsARedirectedCourseAndReachesResourcesLinkedFromItsPages() throws {
        func page(_ title: String, _ body: String) -> String {
            "<!DOCTYPE html><html><head><title>\(title) | Tiny Mechanics | MIT OpenCourseWare</title></head><body><main>\(body)</main></body></html>"
        }
        let home = page("Course Home", """
            <h1>Tiny Mechanics</h1><p>Forces, momentum and the occasional spinning top, one careful week at a time.</p>
            <a href="pages/video-lectures/">Video Lectures</a> <a href="pages/gone/">A dead link</a>
            """)
        let lectures = page("Video Lectures", """
            <p>Each lecture is filmed in the lecture hall and comes with a transcript.</p>
            <a href="/courses/tiny-mechanics/resources/lecture-1-momentum/">Lecture 1: Momentum</a>
            <a href="../syllabus/">Syllabus</a> <a href="/courses/other-course/resources/lecture-9/">Another course</a>
            """)
        let lecture = page("Lecture 1: Momentum", """
            <p>Momentum is mass times velocity, and it is conserved when no outside force acts.</p>
            <div class="transcript"><p><span m="0">Welcome back, everyone.</span> <span m="209000">Today we look at angular momentum of a spinning disk.</span></p></div>
            """)
        let server = try TestServer(routes: [
            // The old address of the course answers with a permanent redirect to the new one.
            "/courses/physics/8-00-tiny-mechanics-2004/": ["status": 301, "redirect_to": "/courses/tiny-mechanics/"],
            "/courses/tiny-mechanics/": ["body": home],
            "/courses/tiny-mechanics/pages/video-lectures/": ["body": lectures],
            "/courses/tiny-mechanics/pages/syllabus/": ["body": page("Syllabus", "<h2>Grading</h2><p>Two problem sets and one final exam make up the grade.</p>")],
            "/courses/tiny-mechanics/resources/lecture-1-momentum/": ["body": lecture],
            "/courses/tiny-mechanics/pages/gone/": ["status": 404, "body": "gone"],
        ])
        let spec = "ocw:" + server.url("/courses/physics/8-00-tiny-mechanics-2004")
        let summary = ingest(ingestor(), [spec])
        XCTAssertEqual(summary.stored, 1, events.failures.joined(separator: "\n"))
        let paths = try server.requests().compactMap { $0["path"] as? String }
        XCTAssertEqual(paths, ["/courses/physics/8-00-tiny-mechanics-2004/", "/courses/tiny-mechanics/",
                               "/courses/tiny-mechanics/pages/video-lectures/", "/courses/tiny-mechanics/pages/gone/",
                               "/courses/tiny-mechanics/resources/lecture-1-momentum/", "/courses/tiny-mechanics/pages/syllabus/"],
                       "the course's pages, then what they link inside the course, from where the server answered")
        XCTAssertTrue(events.all.contains { $0.event == .warning && $0.message == "pages/gone left out: HTTP 404 Not Found" },
                      events.all.compactMap(\.message).joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: server.url("/courses/physics/8-00-tiny-mechanics-2004/")))
        XCTAssertEqual(document.title, "Tiny Mechanics")
        let blocks = try store.blocks(documentId: document.id)
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Momentum is mass") }?.sectionPath, ["Lecture 1: Momentum"])
        let cue = try XCTUnwrap(blocks.first { $0.kind == .cue && $0.text.contains("angular momentum") })
        XCTAssertEqual(cue.start, 209, "a transcript two links from the home page is a timed cue")
        XCTAssertTrue(blocks.contains { $0.text.hasPrefix("Two problem sets") })

        let hits = try Searcher(store: store, embedder: HashingEmbedder()).search("angular momentum of a spinning disk", k: 1)
        XCTAssertTrue(hits.first?.location.contains("00:03:29") ?? false, hits.first?.location ?? "no hit")
    }

    func testBookSourceArchiveIsUnpackedAndReadAsABook() throws {
        let book = try TemporaryFolder()
        try writeTinyBook(book, module: """
            <document xmlns="http://cnx.rice.edu/cnxml"><title>Arguments</title><content>
            <section class="learning-objectives"><title>Learning Objectives</title><list><item>Tell a valid argument from a sound one.</item></list></section>
            <para>A valid argument is one whose conclusion follows from its premises; a sound argument is valid and has true premises.</para>
            </content></document>
            """)
        let archive = folder.file("osbooks-tiny.zip")
        try zipFolder(book.url, to: archive, prefix: "openstax-osbooks-tiny-0a1b2c3/")
        let evil = folder.file("evil.zip")
        try zipEntries(["../escaped.txt": "outside"], to: evil)
        let server = try TestServer(routes: [
            "/repos/openstax/osbooks-tiny/zipball": ["body_file": archive.path, "headers": ["Content-Type": "application/zip"]],
            "/evil.zip": ["body_file": evil.path],
        ])
        let url = server.url("/repos/openstax/osbooks-tiny/zipball")
        let summary = ingest(ingestor(), [url, server.url("/evil.zip")])
        XCTAssertEqual(summary.stored, 1, events.failures.joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: url))
        XCTAssertEqual(document.extractor, "openstax")
        XCTAssertEqual(document.title, "Tiny Book")
        let blocks = try store.blocks(documentId: document.id)
        XCTAssertEqual(blocks.first { $0.kind == .objective }?.text, "Tell a valid argument from a sound one.")
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("A valid argument") }?.sectionPath, ["1 Reasoning", "1.1 Arguments"])
        XCTAssertEqual(events.failures, ["\(server.url("/evil.zip")): refused: entry \"../escaped.txt\" points outside the archive's folder"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("escaped.txt").path))
    }

    func testOpenStaxBundleIsOneDocumentPerBookAndASlugPicksItsBook() throws {
        // Two books in one repository, as osbooks-calculus-bundle holds calculus volumes 1–3.
        let bundle = try TemporaryFolder()
        try bundle.write("META-INF/books.xml", """
            <container xmlns="https://openstax.org/namespaces/book-container" version="1">
            <book slug="tiny-calculus-volume-1" style="calculus" href="../collections/tiny-calculus-volume-1.collection.xml"/>
            <book slug="tiny-calculus-volume-2" style="calculus" href="../collections/tiny-calculus-volume-2.collection.xml"/>
            </container>
            """)
        for (volume, chapter, module, text) in [(1, "Limits", "m1", "A limit describes the value a function approaches as its input approaches a point."),
                                                (2, "Integration", "m2", "Integration by parts turns the integral of a product into a simpler integral.")] {
            try bundle.write("collections/tiny-calculus-volume-\(volume).collection.xml", """
                <col:collection xmlns:col="http://cnx.rice.edu/collxml" xmlns:md="http://cnx.rice.edu/mdml">
                <col:metadata><md:title>Tiny Calculus Volume \(volume)</md:title><md:slug>tiny-calculus-volume-\(volume)</md:slug></col:metadata>
                <col:content><col:subcollection><md:title>\(chapter)</md:title><col:content><col:module document="\(module)"/></col:content></col:subcollection></col:content>
                </col:collection>
                """)
            try bundle.write("modules/\(module)/index.cnxml", """
                <document xmlns="http://cnx.rice.edu/cnxml"><title>\(chapter) Defined</title><content><para>\(text)</para></content></document>
                """)
        }
        let archive = folder.file("bundle.zip")
        try zipFolder(bundle.url, to: archive, prefix: "openstax-osbooks-tiny-calculus-bundle-0a1b2c3/")
        // The approved book list's shape (content-manager-approved-books, api_version 2).
        let bookList: [String: Any] = ["api_version": 2, "approved_versions": [], "approved_books": [[
            "repository_name": "osbooks-tiny-calculus-bundle", "platforms": ["REX"],
            "versions": [["min_code_version": "20210224.204120", "edition": 1, "commit_sha": "74358c8e87ad6cca52fd78d97120b65bb031dc90",
                          "commit_metadata": ["committed_at": "2023-01-13T17:07:00+00:00", "books": [
                              ["style": "calculus", "uuid": "8b89d172-2927-466f-8661-01abc7ccdba4", "slug": "tiny-calculus-volume-1"],
                              ["style": "calculus", "uuid": "1d39a348-071f-4537-85b6-c98912458c3c", "slug": "tiny-calculus-volume-2"]]]]],
        ]]]
        let server = try TestServer(routes: [
            "/approved-book-list.json": ["json": bookList],
            "/repos/openstax/osbooks-tiny-calculus-bundle/zipball": ["body_file": archive.path, "headers": ["Content-Type": "application/zip"]],
        ])
        var ingestor = self.ingestor()
        ingestor.openstax.bookList = server.url("/approved-book-list.json")
        ingestor.openstax.archive = server.url("/repos/openstax/{repository}/zipball")
        let zipball = server.url("/repos/openstax/osbooks-tiny-calculus-bundle/zipball")

        // A book's slug: the list names its repository, and only that book of the bundle is stored.
        let one = ingest(ingestor, ["openstax:tiny-calculus-volume-2"])
        XCTAssertEqual(one.stored, 1, events.failures.joined(separator: "\n"))
        XCTAssertEqual(try server.requests().compactMap { $0["path"] as? String },
                       ["/approved-book-list.json", "/repos/openstax/osbooks-tiny-calculus-bundle/zipball"])
        let volume2 = try XCTUnwrap(store.document(uri: zipball + "#tiny-calculus-volume-2"))
        XCTAssertEqual(volume2.title, "Tiny Calculus Volume 2")
        XCTAssertNil(try store.document(uri: zipball + "#tiny-calculus-volume-1"), "only the book asked for")
        XCTAssertEqual(try store.blocks(documentId: volume2.id).first { $0.text.hasPrefix("Integration by parts") }?.sectionPath,
                       ["1 Integration", "1.1 Integration Defined"])

        // The repository's name: every book, one document each; the one already stored is unchanged.
        let all = ingest(ingestor, ["openstax:osbooks-tiny-calculus-bundle"])
        XCTAssertEqual(all.stored, 1, events.failures.joined(separator: "\n"))
        XCTAssertEqual(all.unchanged, 1)
        let volume1 = try XCTUnwrap(store.document(uri: zipball + "#tiny-calculus-volume-1"))
        XCTAssertEqual(volume1.title, "Tiny Calculus Volume 1")
        let hits = try Searcher(store: store, embedder: HashingEmbedder()).search("the value a function approaches", k: 1)
        XCTAssertEqual(hits.first?.uri, zipball + "#tiny-calculus-volume-1")
        XCTAssertEqual(try store.documents(matching: zipball).count, 2, "both books belong to the one archive")

        // `lectern extract` on the bundle folder shows the first book and says what else it holds.
        let (_, shown) = try DocumentReader().extract(SourceInput(uri: "file://" + bundle.url.path, path: bundle.url.path, isDirectory: true),
                                                     display: "bundle")
        XCTAssertEqual(shown.title, "Tiny Calculus Volume 1")
        XCTAssertEqual(shown.warnings, ["a bundle of 2 books (tiny-calculus-volume-1, tiny-calculus-volume-2): this is tiny-calculus-volume-1; ingest stores each book as its own document"])
    }

    func testOpenStaxSlugFallsBackToTheRepositoryGuessWhenTheBookListIsUnavailable() throws {
        let book = try TemporaryFolder()
        try writeTinyBook(book, module: """
            <document xmlns="http://cnx.rice.edu/cnxml"><title>Arguments</title><content><para>A sound argument is a valid argument with true premises.</para></content></document>
            """)
        let archive = folder.file("osbooks-tiny.zip")
        try zipFolder(book.url, to: archive, prefix: "openstax-osbooks-tiny-0a1b2c3/")
        let server = try TestServer(routes: ["/repos/openstax/osbooks-tiny/zipball": ["body_file": archive.path]])
        var ingestor = self.ingestor()
        ingestor.openstax.bookList = server.url("/approved-book-list.json")
        ingestor.openstax.archive = server.url("/repos/openstax/{repository}/zipball")
        XCTAssertEqual(ingest(ingestor, ["openstax:tiny-2e"]).stored, 1, events.failures.joined(separator: "\n"))
        XCTAssertTrue(events.all.contains { $0.event == .warning && ($0.message ?? "").hasPrefix("cannot read OpenStax's book list") && ($0.message ?? "").hasSuffix("trying osbooks-tiny") },
                      events.all.compactMap(\.message).joined(separator: "\n"))
        XCTAssertEqual(try store.document(uri: server.url("/repos/openstax/osbooks-tiny/zipball"))?.title, "Tiny Book", "a single book keeps the archive's URI")
    }

    func testADownloadedCourseZIPOnDiskIsReadAsItsFolder() throws {
        let course = try TemporaryFolder()
        try course.write("index.html", "<html><head><title>Course Home | Signals and Systems | MIT OpenCourseWare</title></head><body><main><p>Signals and systems for people who like convolution and careful sketches of spectra.</p></main></body></html>")
        try course.write("pages/syllabus/index.html", "<html><head><title>Syllabus | Signals and Systems</title></head><body><main><h2>Grading</h2><p>Weekly problem sets count for forty percent of the final grade.</p></main></body></html>")
        let archive = folder.file("signals-and-systems.zip")
        try zipFolder(course.url, to: archive, prefix: "signals-and-systems/")
        let summary = ingest(ingestor(), [archive.path])
        XCTAssertEqual(summary.stored, 1, events.failures.joined(separator: "\n"))
        let document = try XCTUnwrap(store.document(uri: "file://" + archive.path))
        XCTAssertEqual(document.extractor, "ocw")
        XCTAssertEqual(document.title, "Signals and Systems")
        XCTAssertEqual(document.path, archive.path, "provenance is the ZIP the user gave")
        let blocks = try store.blocks(documentId: document.id)
        XCTAssertEqual(blocks.first { $0.text.hasPrefix("Weekly problem sets") }?.sectionPath, ["Syllabus", "Grading"])
    }

    /// Zips a folder with Python's zipfile (deflated), as GitHub's archives are laid out.
    func zipFolder(_ source: URL, to archive: URL, prefix: String) throws {
        try python("""
            import os, sys, zipfile
            src, dst, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
            with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
                for root, dirs, files in os.walk(src):
                    for f in sorted(files):
                        p = os.path.join(root, f)
                        z.write(p, prefix + os.path.relpath(p, src))
            """, [source.path, archive.path, prefix])
    }

    func zipEntries(_ entries: [String: String], to archive: URL) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
        try python("""
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
                for name, text in json.loads(sys.argv[1]).items():
                    z.writestr(name, text)
            """, [json, archive.path])
    }

    /// Runs a Python helper; one that fails is a test failure with its stderr, not a skip.
    func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-zip-\(UUID().uuidString).stderr")
        XCTAssertTrue(FileManager.default.createFile(atPath: errors.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw LecternError(.invalidInput, "python3", "the ZIP helper failed (exit status \(process.terminationStatus)): \(said)")
        }
    }
}
