import Foundation
import XCTest
@testable import Lectern

/// `lectern mcp` as an MCP client sees it: the official Python SDK (`mcp` in .venv-tests, from
/// `make testdeps`) starts the server over stdio on a library of corpora/, lists its tools and
/// resources, calls each tool and checks every structured result against the tool's schema.
final class MCPServerTests: XCTestCase {
    /// One library of corpora/ (hashing embedder) and one client run for the class.
    nonisolated(unsafe) static var folder: TemporaryFolder!
    nonisolated(unsafe) static var report: [String: Any]?
    nonisolated(unsafe) static var setUpProblem: String?

    static var python: URL { TestPaths.packageRoot.appendingPathComponent(".venv-tests/bin/python") }
    static var client: String { TestPaths.packageRoot.appendingPathComponent("Tests/Support/mcp_client.py").path }

    override class func setUp() {
        super.setUp()
        guard FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path),
              FileManager.default.isExecutableFile(atPath: python.path) else { return }
        do {
            folder = try TemporaryFolder()
            let ingest = try runLectern(["ingest", TestPaths.corpora.path], in: folder.url)
            guard ingest.status == 0 else { setUpProblem = "ingest failed: \(ingest.stderr)"; return }
            let corpora = TestPaths.corpora
            let build = try runLectern(["curriculum", "build", "biology", corpora.appendingPathComponent("notes/photosynthesis.md").path,
                                        corpora.appendingPathComponent("pdf/cell-biology-notes.pdf").path,
                                        corpora.appendingPathComponent("transcripts/cell-respiration-lecture.vtt").path], in: folder.url)
            guard build.status == 0 else { setUpProblem = "curriculum build failed: \(build.stderr)"; return }
            let cards = try runLectern(["cards", "generate", "biology"], in: folder.url)
            guard cards.status == 0 else { setUpProblem = "cards generate failed: \(cards.stderr)"; return }
            report = try runClient(["serve", "--calls", "200"], in: folder.url)
        } catch {
            setUpProblem = "\(error)"
        }
    }

    override class func tearDown() {
        folder = nil
        report = nil
        super.tearDown()
    }

    /// Runs the Python client in `directory` against the built binary; its JSON report.
    static func runClient(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = python
        process.arguments = [client, TestPaths.lecternBinary.path] + arguments
        process.currentDirectoryURL = directory
        process.environment = lecternEnvironment(in: directory, overrides: environment)
        let result = try capture(process)
        if result.stderr.contains("No module named 'mcp'") {
            throw XCTSkip("the MCP Python SDK is not in .venv-tests: run `make testdeps`")
        }
        guard result.status == 0,
              let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw LecternError(.corrupt, "mcp_client.py", "exit \(result.status): \(result.stderr.suffix(3000))")
        }
        return report
    }

    func requireReport() throws -> [String: Any] {
        try TestPaths.requireLecternBinary()
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw XCTSkip("\(Self.python.path) is absent: run `make testdeps`")
        }
        if let problem = Self.setUpProblem {
            if problem.contains("make testdeps") { throw XCTSkip(problem) }
            XCTFail(problem)
        }
        return try XCTUnwrap(Self.report, Self.setUpProblem ?? "no report")
    }

    func result(_ report: [String: Any], _ key: String) throws -> [String: Any] {
        try XCTUnwrap(report[key] as? [String: Any], "no \(key) in the report")
    }

    func testClientListsToolsWithSchemasAndEveryResultMatchesThem() throws {
        let report = try requireReport()
        let server = try result(report, "server")
        XCTAssertEqual(server["name"] as? String, "lectern")
        let tools = try result(report, "tools")
        XCTAssertEqual(Set(tools.keys), ["search", "context", "curriculum", "topic", "cards", "ingest"])
        for (name, tool) in tools {
            let tool = try XCTUnwrap(tool as? [String: Any])
            let input = try XCTUnwrap(tool["inputSchema"] as? [String: Any], name)
            XCTAssertEqual(input["type"] as? String, "object", name)
            let output = try XCTUnwrap(tool["outputSchema"] as? [String: Any], "\(name) has no output schema")
            XCTAssertEqual(output["type"] as? String, "object", name)
        }
        XCTAssertEqual(((tools["search"] as? [String: Any])?["inputSchema"] as? [String: Any])?["required"] as? [String], ["query"])
        // jsonschema found no result (nor argument) outside its tool's schema, and the server wrote nothing
        // but the protocol on stdout (the SDK would have failed on a stray line).
        XCTAssertEqual(report["schemaErrors"] as? [String], [])
    }

    func testSearchHitsCarryTheirProvenance() throws {
        let report = try requireReport()
        let search = try result(report, "search")
        XCTAssertEqual(search["isError"] as? Bool, false)
        let hits = try XCTUnwrap((search["structured"] as? [String: Any])?["hits"] as? [[String: Any]])
        XCTAssertEqual(hits.count, 3)
        XCTAssertEqual(hits.map { $0["rank"] as? Int }, [1, 2, 3])
        let first = hits[0]
        XCTAssertTrue((first["location"] as? String ?? "").contains("photosynthesis"), "\(first)")
        XCTAssertTrue((first["text"] as? String ?? "").lowercased().contains("light"))
        // The text block is the same JSON, for clients that read only text.
        let text = try XCTUnwrap(search["text"] as? String)
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual((echoed["hits"] as? [[String: Any]])?.count, 3)

        let filtered = try result(report, "searchFiltered")
        let transcriptHits = try XCTUnwrap((filtered["structured"] as? [String: Any])?["hits"] as? [[String: Any]])
        XCTAssertFalse(transcriptHits.isEmpty)
        for hit in transcriptHits {
            XCTAssertEqual(hit["type"] as? String, "srt")
            XCTAssertNotNil(hit["timeStart"], "a transcript hit says when: \(hit)")
        }
        let nothing = try result(report, "searchNothing")
        XCTAssertEqual(nothing["isError"] as? Bool, false)
        XCTAssertEqual((nothing["structured"] as? [String: Any])?["note"] as? String, "--source nowhere/ matches no document")
    }

    func testContextIsCitedMarkdownWithinTheBudget() throws {
        let report = try requireReport()
        let context = try result(report, "context")
        XCTAssertEqual(context["isError"] as? Bool, false)
        let structured = try XCTUnwrap(context["structured"] as? [String: Any])
        XCTAssertEqual(structured["budget"] as? Int, 400)
        XCTAssertLessThanOrEqual(try XCTUnwrap(structured["tokens"] as? Int), 360)
        let passages = try XCTUnwrap(structured["passages"] as? [[String: Any]])
        XCTAssertFalse(passages.isEmpty)
        let markdown = try XCTUnwrap(context["text"] as? String)
        // The library has a curriculum: the question's best topic heads the context.
        let topic = try XCTUnwrap(structured["topic"] as? [String: Any], "no topic for a question in a library with a curriculum")
        XCTAssertTrue(markdown.hasPrefix("# \(topic["title"] as? String ?? "?")\nTopic "), markdown)
        XCTAssertTrue(markdown.contains("### [1] \(passages[0]["title"] as? String ?? "?") — \(passages[0]["location"] as? String ?? "?")"))
        let large = try XCTUnwrap(try result(report, "contextLarge")["structured"] as? [String: Any])
        XCTAssertGreaterThan((large["passages"] as? [Any])?.count ?? 0, passages.count)
    }

    func testCurriculaAndTopicsAsATutorNeedsThem() throws {
        let report = try requireReport()
        let list = try XCTUnwrap((try result(report, "curricula")["structured"] as? [String: Any])?["curricula"] as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["biology"])
        let tree = try XCTUnwrap(try result(report, "curriculumTree")["structured"] as? [String: Any])
        let units = try XCTUnwrap(tree["units"] as? [[String: Any]])
        // How many topics the sources make depends on which join across sources; the list,
        // the tree and the topic's place must agree on it.
        let titles = units.flatMap { ($0["topics"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
        XCTAssertEqual(list.first?["topics"] as? Int, titles.count)
        XCTAssertGreaterThanOrEqual(titles.count, 6, "the photosynthesis notes alone have six sections")
        XCTAssertEqual(units.first?["title"] as? String, "Photosynthesis")
        XCTAssertEqual((units[0]["topics"] as? [[String: Any]])?.compactMap { $0["title"] as? String }.contains("The Calvin cycle"), true)
        let calvin = try XCTUnwrap(titles.firstIndex(of: "The Calvin cycle")) + 1

        // `topic` takes an id's first 8 characters; the answer is the topic's context.
        let topic = try result(report, "topic")
        XCTAssertEqual(topic["isError"] as? Bool, false, "\(topic)")
        let described = try XCTUnwrap((topic["structured"] as? [String: Any])?["topic"] as? [String: Any])
        XCTAssertEqual(described["title"] as? String, "The Calvin cycle")
        XCTAssertEqual(described["position"] as? Int, calvin)
        XCTAssertEqual(described["topicCount"] as? Int, titles.count)
        XCTAssertEqual(described["unit"] as? String, "Photosynthesis")
        XCTAssertFalse((described["objectives"] as? [String] ?? []).isEmpty)
        XCTAssertEqual((described["next"] as? [[String: Any]])?.first?["title"] as? String, "Adaptations to hot and dry climates")
        let markdown = try XCTUnwrap(topic["text"] as? String)
        XCTAssertTrue(markdown.hasPrefix("# The Calvin cycle\nTopic \(calvin) of \(titles.count) in biology, unit \u{201C}Photosynthesis\u{201D}"), markdown)
        XCTAssertTrue(markdown.contains("\n## Objectives\n- "), markdown)
        let passages = try XCTUnwrap((topic["structured"] as? [String: Any])?["passages"] as? [[String: Any]])
        XCTAssertEqual(passages.first?["from"] as? String, "topic")
        XCTAssertTrue((passages.first?["location"] as? String ?? "").contains("photosynthesis.md § Photosynthesis › The Calvin cycle"))

        let context = try XCTUnwrap(try result(report, "contextTopic")["structured"] as? [String: Any])
        XCTAssertEqual((context["topic"] as? [String: Any])?["title"] as? String, "The Calvin cycle")
        XCTAssertLessThanOrEqual(context["tokens"] as? Int ?? 9999, 1080)
        let found = try XCTUnwrap(context["passages"] as? [[String: Any]])
        // The topic's own passages first, then what its prerequisites teach.
        XCTAssertEqual(found.first?["from"] as? String, "topic")
        XCTAssertTrue(Set(found.compactMap { $0["from"] as? String }).isSubset(of: ["topic", "prerequisite"]), "\(found)")
        XCTAssertTrue(found.contains { ($0["text"] as? String ?? "").contains("rubisco") }, "\(found)")
    }

    func testATopicsCardsCiteTheirPassages() throws {
        let report = try requireReport()
        let cards = try result(report, "cards")
        XCTAssertEqual(cards["isError"] as? Bool, false, "\(cards)")
        let structured = try XCTUnwrap(cards["structured"] as? [String: Any])
        XCTAssertEqual(structured["title"] as? String, "The Calvin cycle")
        let list = try XCTUnwrap(structured["cards"] as? [[String: Any]])
        XCTAssertFalse(list.isEmpty, "no cards for the Calvin cycle: \(structured)")
        for card in list {
            XCTAssertEqual(card["topic"] as? String, structured["topic"] as? String)
            XCTAssertFalse((card["front"] as? String ?? "").isEmpty)
            XCTAssertFalse((card["source"] as? String ?? "").isEmpty)
        }
        let unknown = try result(report, "cardsNoTopic")
        XCTAssertEqual(unknown["isError"] as? Bool, true)
        XCTAssertEqual(unknown["text"] as? String, "feedbeef: no topic with this id (see `lectern curriculum show`)")
    }

    func testEachCurriculumIsASyllabusAndAUMCFResource() throws {
        let report = try requireReport()
        let read = try XCTUnwrap(report["curriculumResources"] as? [String: String])
        XCTAssertEqual(Set(read.keys), ["lectern://curriculum/biology/syllabus.md", "lectern://curriculum/biology/export.umcf"])
        let syllabus = try XCTUnwrap(read["lectern://curriculum/biology/syllabus.md"])
        XCTAssertTrue(syllabus.contains("The Calvin cycle"), syllabus)
        // The same bytes `lectern curriculum export` writes.
        let umcf = try runLectern(["curriculum", "export", "biology", "--format", "umcf"], in: Self.folder.url)
        XCTAssertEqual(umcf.status, 0, umcf.stderr)
        XCTAssertEqual(read["lectern://curriculum/biology/export.umcf"], umcf.stdout)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(umcf.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set((report["templates"] as? [String]) ?? []), ["lectern://document/{id}/outline",
                       "lectern://curriculum/{name}/syllabus.md", "lectern://curriculum/{name}/export.umcf"])
    }

    func testResourcesAreEachDocumentsOutline() throws {
        let report = try requireReport()
        let resources = try XCTUnwrap(report["resources"] as? [[String: Any]]).filter {
            ($0["uri"] as? String ?? "").hasPrefix("lectern://document/")
        }
        XCTAssertEqual(resources.count, 11)
        for resource in resources {
            XCTAssertTrue((resource["uri"] as? String ?? "").hasPrefix("lectern://document/"))
            XCTAssertTrue((resource["uri"] as? String ?? "").hasSuffix("/outline"))
            XCTAssertEqual(resource["mimeType"] as? String, "text/markdown")
        }
        let outline = try XCTUnwrap(report["outline"] as? String)
        XCTAssertTrue(outline.hasPrefix("# "), outline)
        XCTAssertTrue(outline.contains("\n- ") || outline.contains("no headings"), outline)
        XCTAssertTrue((report["unknownResource"] as? String ?? "").contains("ffffffff"), "\(report["unknownResource"] ?? "")")
    }

    func testBadArgumentsAreErrorResultsAndTheServerKeepsServing() throws {
        let report = try requireReport()
        let errors = try result(report, "errors")
        let expected: [String: String] = [
            "negativeK": "k must be at least 1 (got -1)",
            "missingQuery": "query is missing",
            "wrongMode": "mode must be one of hybrid, keyword, semantic (got 'fuzzy')",
            "unknownArgument": "unknown argument 'limit' (search takes query, k, mode, source, type)",
            // The same line `lectern search ???` prints after `lectern: `.
            "emptyQuery": "query: '???' has no words to search for",
            "smallBudget": "the budget must be at least 64 tokens (got 5)",
            "noQuestion": "give a question or a topic id",
            "unknownTool": "unknown tool 'summon' (tools: search, context, curriculum, topic, cards, ingest)",
        ]
        for (name, message) in expected {
            let outcome = try XCTUnwrap(errors[name] as? [String: Any], name)
            XCTAssertEqual(outcome["isError"] as? Bool, true, name)
            XCTAssertEqual(outcome["text"] as? String, message, name)
            XCTAssertEqual(outcome["servingAfter"] as? Bool, true, name)
        }
        for (name, message) in [
            "unknownTopic": "no-such-topic: no topic with this id (see `lectern curriculum show`)",
            "unknownCurriculum": "geology: no curriculum of this name (see `lectern curriculum list`)",
            "topicWithoutId": "id is missing",
        ] {
            let outcome = try XCTUnwrap(errors[name] as? [String: Any], name)
            XCTAssertEqual(outcome["isError"] as? Bool, true, name)
            XCTAssertEqual(outcome["text"] as? String, message, name)
            XCTAssertEqual(outcome["servingAfter"] as? Bool, true, name)
        }
        let cli = try runLectern(["search", "???"], in: Self.folder.url)
        XCTAssertEqual(cli.stderr, "lectern: query: '???' has no words to search for\n")

        let ingest = try result(report, "ingest")
        XCTAssertEqual(ingest["isError"] as? Bool, true)
        XCTAssertEqual(ingest["text"] as? String,
                       "ingest: this server only reads the library: start it with `lectern mcp --allow-ingest DIR` (and --allow-urls for web sources)")
        XCTAssertEqual(report["serverStderr"] as? String, "")
    }

    func testTwoHundredCallsKeepMemoryFlat() throws {
        let report = try requireReport()
        XCTAssertEqual(report["calls"] as? Int, 200)
        XCTAssertEqual(report["callFailures"] as? Int, 0)
        let before = try XCTUnwrap(report["rssBeforeKiB"] as? Int)
        let after = try XCTUnwrap(report["rssAfterKiB"] as? Int)
        // A leak of a result a call (tens of KiB each) would grow by megabytes over 200 calls.
        XCTAssertLessThan(after - before, 4096, "RSS grew from \(before) KiB to \(after) KiB over 200 calls")
    }

    func testIngestOnlyWithAllowIngestAndThenSearchable() throws {
        _ = try requireReport()
        let folder = try TemporaryFolder()
        try folder.write("notes/brewing.md", "# Zymurgy\n\nZymurgy is the study of fermentation in brewing: yeast turns the sugars of malt into alcohol.\n")
        let report = try Self.runClient(["ingest", "--server-arg=--allow-ingest", "--server-arg=notes", "--ingest", "notes/brewing.md"], in: folder.url)
        let ingest = try result(report, "ingest")
        XCTAssertEqual(ingest["isError"] as? Bool, false, "\(ingest)")
        let summary = try XCTUnwrap((ingest["structured"] as? [String: Any])?["summary"] as? [String: Any])
        XCTAssertEqual(summary["stored"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 0)
        let hits = try XCTUnwrap((try result(report, "searchAfter")["structured"] as? [String: Any])?["hits"] as? [[String: Any]])
        XCTAssertEqual(hits.first?["title"] as? String, "Zymurgy")
        XCTAssertEqual(report["schemaErrors"] as? [String], [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("lectern.db").path))
        // What the call wrote is in the library file itself, not left in its -wal.
        let wal = (try? FileManager.default.attributesOfItem(atPath: folder.file("lectern.db-wal").path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertEqual(wal, 0)
        // The tool says what it may read.
        let description = try XCTUnwrap((try result(report, "tools")["ingest"] as? [String: Any])?["description"] as? String)
        XCTAssertTrue(description.contains("under these folders only (symbolic links and .. resolved; anything else is refused): \(folder.file("notes").resolvingSymlinksInPath().path)."), description)
        XCTAssertTrue(description.contains("Web sources (URLs, wikipedia:, openstax:, ocw:) are off"), description)
    }

    /// `--allow-ingest DIR` hands the client DIR, not every file the server can read: a path
    /// outside it (absolute, with .., or through a link) and a web source are refused with an
    /// error result and nothing is read; a link out met in a folder walk is one problem line.
    func testIngestIsConfinedToTheNamedFolders() throws {
        _ = try requireReport()
        let folder = try TemporaryFolder()
        let secret = "Quartermaster password tangerine-walrus-42 for the staging database."
        try folder.write("credentials.txt", secret + "\n")
        try folder.write("private/keys.md", "# Keys\n\n" + secret + "\n")
        try folder.write("notes/brewing.md", "# Zymurgy\n\nZymurgy is the study of fermentation in brewing: yeast turns the sugars of malt into alcohol.\n")
        try FileManager.default.createSymbolicLink(atPath: folder.file("notes/leak.txt").path, withDestinationPath: "../credentials.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.file("notes/private").path, withDestinationPath: "../private")
        let server = try TestServer(routes: ["/page": ["body": "<html><body><h1>Intranet</h1><p>\(secret)</p></body></html>",
                                                       "headers": ["Content-Type": "text/html"]]])
        let outside = [folder.file("credentials.txt").path, "notes/../credentials.txt", "notes/leak.txt", "notes/private/keys.md",
                       "notes/private", "notes/*/../../credentials.txt", "/etc/passwd", "/etc/*"]
        let web = [server.url("/page"), "wikipedia:Zymurgy", "openstax:introduction-philosophy-2e", "ocw:8-01sc-classical-mechanics-fall-2016"]
        let report = try Self.runClient(["ingest", "--server-arg=--allow-ingest", "--server-arg=notes"]
                                        + (outside + web + ["notes/*/keys.md", "notes"]).flatMap { ["--ingest", $0] }
                                        + ["--search", "tangerine walrus password"],
                                        in: folder.url)
        let ingests = try XCTUnwrap(report["ingests"] as? [[String: Any]])
        XCTAssertEqual(ingests.count, outside.count + web.count + 2)
        let notes = folder.file("notes").resolvingSymlinksInPath().path
        for (path, outcome) in zip(outside + web, ingests) {
            XCTAssertEqual(outcome["isError"] as? Bool, true, "\(path): \(outcome)")
            let text = outcome["text"] as? String ?? ""
            let expected = web.contains(path) ? "\(path): web sources are off: this server was started without --allow-urls"
                : "\(path): outside the folders this server may ingest from (\(notes))"
            XCTAssertEqual(text, expected, path)
        }
        let outsideMessage = "outside the folders this server may ingest from (\(notes))"
        // A glob inside the folder is read; what it matches through a link out is named, not read.
        let glob = try XCTUnwrap(ingests[outside.count + web.count]["structured"] as? [String: Any])
        XCTAssertEqual(glob["problems"] as? [String], ["notes/private/keys.md: " + outsideMessage])
        XCTAssertEqual((glob["summary"] as? [String: Any])?["failed"] as? Int, 1)
        // The folder itself: its own note is stored, the links out are named and not read.
        let walk = try XCTUnwrap(ingests.last)
        XCTAssertEqual(walk["isError"] as? Bool, false, "\(walk)")
        let structured = try XCTUnwrap(walk["structured"] as? [String: Any])
        XCTAssertEqual((structured["summary"] as? [String: Any])?["stored"] as? Int, 1, "\(structured)")
        let problems = try XCTUnwrap(structured["problems"] as? [String])
        XCTAssertEqual(Set(problems), ["notes/leak.txt: " + outsideMessage, "notes/private/keys.md: " + outsideMessage], "\(problems)")
        XCTAssertEqual(try server.requests().filter { ($0["path"] as? String) == "/page" }.count, 0, "the server fetched the URL")
        // Nothing of the secret reached the library.
        let search = try XCTUnwrap(try XCTUnwrap(report["searches"] as? [[String: Any]]).first?["structured"] as? [String: Any])
        XCTAssertEqual((search["hits"] as? [Any])?.count, 0, "\(search)")
        let sources = try runLectern(["sources", "--json"], in: folder.url)
        XCTAssertFalse(sources.stdout.contains("credentials") || sources.stdout.contains("keys.md"), sources.stdout)
    }

    /// With --allow-urls, web sources come from where the configuration says (`wikipedia.base_url`,
    /// as `lectern ingest` reads them: the tool used the public address before), and an ingest
    /// call is refused, naming the run, while a `lectern run` holds the library's run lock.
    func testWebSourcesWithAllowUrlsUseTheConfiguredBasesAndTheRunLock() throws {
        _ = try requireReport()
        let folder = try TemporaryFolder()
        let server = try TestServer(routes: ["/en/api/rest_v1/page/html/Zymurgy": [
            "body": "<html><head><title>Zymurgy</title></head><body><section><h2>Zymurgy</h2><p>Zymurgy is the branch of applied chemistry that studies fermentation in brewing.</p></section></body></html>",
            "headers": ["Content-Type": "text/html; charset=utf-8"]]])
        let environment = ["LECTERN_WIKIPEDIA_BASE_URL": server.url("/{language}/api/rest_v1/page/html/"), "LECTERN_HTTP_HOST_INTERVAL": "0"]
        let report = try Self.runClient(["ingest", "--server-arg=--allow-urls", "--ingest", "wikipedia:Zymurgy", "--ingest", "notes.md"],
                                        in: folder.url, environment: environment)
        let ingests = try XCTUnwrap(report["ingests"] as? [[String: Any]])
        XCTAssertEqual(ingests[0]["isError"] as? Bool, false, "\(ingests[0])")
        XCTAssertEqual(((ingests[0]["structured"] as? [String: Any])?["summary"] as? [String: Any])?["stored"] as? Int, 1, "\(ingests[0])")
        // No folder was named: files are refused.
        XCTAssertEqual(ingests[1]["isError"] as? Bool, true)
        XCTAssertEqual(ingests[1]["text"] as? String, "notes.md: outside the folders this server may ingest from (none)")
        let hits = try XCTUnwrap((try result(report, "searchAfter")["structured"] as? [String: Any])?["hits"] as? [[String: Any]])
        XCTAssertEqual(hits.first?["title"] as? String, "Zymurgy")

        let lock = try RunLock.acquire(library: folder.file("lectern.db").path)
        defer { lock.release() }
        let held = try Self.runClient(["ingest", "--server-arg=--allow-urls", "--ingest", "wikipedia:Zymurgy"], in: folder.url, environment: environment)
        let refused = try result(held, "ingest")
        XCTAssertEqual(refused["isError"] as? Bool, true)
        XCTAssertTrue((refused["text"] as? String ?? "").hasPrefix("ingest: a run (pid \(getpid()), started "), "\(refused)")
        XCTAssertTrue((refused["text"] as? String ?? "").hasSuffix(") is updating this library: try again when it has finished"), "\(refused)")
    }

    /// `--allow-ingest` names folders now: alone it is a usage error, and a folder must exist.
    func testAllowIngestNeedsExistingFolders() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        let bare = try runLectern(["mcp", "--allow-ingest"], in: folder.url)
        XCTAssertEqual(bare.status, 2, bare.stderr)
        XCTAssertTrue(bare.stderr.contains("--allow-ingest"), bare.stderr)
        let missing = try runLectern(["mcp", "--allow-ingest", "nowhere"], in: folder.url)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--allow-ingest: nowhere: no such folder"), missing.stderr)
        let help = try runLectern(["mcp", "--help"], in: folder.url)
        XCTAssertTrue(help.stdout.contains("--allow-ingest <dir> ..."), help.stdout)
        XCTAssertTrue(help.stdout.contains("--allow-urls"), help.stdout)
    }
}
