import XCTest
@testable import Lectern

/// The "done when": `pipelines/nightly.toml` itself runs end to end on the shared
/// corpus, its network sources served from a loopback server (Wikipedia's Parsoid HTML, the
/// OpenStax book zipped as GitHub serves its archive, an OCW course's pages), and a second run
/// reports everything unchanged and rewrites nothing.
final class NightlyPipelineTests: CommandTestCase {
    static let course = "6-050j-information-and-entropy-spring-2008"

    func testTheNightlyPipelineRunsEndToEndAndASecondRunFindsEverythingUnchanged() throws {
        let corpus = try TestPaths.sharedCorpus()
        let pipeline = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("pipelines/nightly.toml"), encoding: .utf8)
        // As shipped it reads the repository's sample transcripts; here, the shared corpus's, copied beside it.
        try folder.write("nightly.toml", pipeline.replacingOccurrences(of: "\"../corpora/transcripts/*.srt\"", with: "\"transcripts/*.srt\""))
        try FileManager.default.createDirectory(at: folder.file("exports"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.file("transcripts"), withIntermediateDirectories: true)
        let transcripts = try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("transcripts").path)
            .filter { $0.hasSuffix(".srt") }
        for name in transcripts {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent("transcripts/\(name)"), to: folder.file("transcripts/\(name)"))
        }
        let archive = folder.file("osbooks-introduction-philosophy.zip")
        try zip(corpus.appendingPathComponent("openstax/introduction-philosophy"), to: archive, prefix: "openstax-osbooks-introduction-philosophy-0a1b2c3/")

        func page(_ title: String, _ body: String) -> String {
            "<!DOCTYPE html><html><head><title>\(title) | Information and Entropy | MIT OpenCourseWare</title></head><body><main>\(body)</main></body></html>"
        }
        let home = "/courses/\(Self.course)/"
        let bookList: [String: Any] = ["api_version": 2, "approved_versions": [], "approved_books": [[
            "repository_name": "osbooks-introduction-philosophy", "platforms": ["REX"],
            "versions": [["min_code_version": "20210224.204120", "edition": 2, "commit_sha": "74358c8e87ad6cca52fd78d97120b65bb031dc90",
                          "commit_metadata": ["committed_at": "2023-01-13T17:07:00+00:00", "books": [
                              ["style": "philosophy", "uuid": "8b89d172-2927-466f-8661-01abc7ccdba4", "slug": "introduction-philosophy-2e"]]]]],
        ]]]
        let server = try TestServer(routes: [
            "/en/api/rest_v1/page/html/Information_theory": [
                "body_file": TestPaths.packageRoot.appendingPathComponent("Tests/Support/web/parsoid-information-theory.html").path,
                "headers": ["Content-Type": "text/html; charset=utf-8"], "etag": "\"information-theory-1\""],
            "/en/api/rest_v1/page/html/Hermitian_matrix": [
                "body_file": corpus.appendingPathComponent("wikipedia/wikipedia-3/source.html").path,
                "headers": ["Content-Type": "text/html; charset=utf-8"], "etag": "\"hermitian-matrix-1\""],
            "/approved-book-list.json": ["json": bookList],
            "/repos/openstax/osbooks-introduction-philosophy/zipball": ["body_file": archive.path, "headers": ["Content-Type": "application/zip"],
                                                                       "etag": "\"introduction-philosophy-1\""],
            home: ["body": page("Course Home", """
                <h1>Information and Entropy</h1><p>Bits, the entropy of a source and the capacity of a noisy channel, from first principles.</p>
                <a href="pages/syllabus/">Syllabus</a> <a href="pages/lecture-notes/">Lecture Notes</a>
                """)],
            home + "pages/syllabus/": ["body": page("Syllabus", "<h2>Grading</h2><p>Weekly problem sets count for half of the grade, the final for the rest.</p>")],
            home + "pages/lecture-notes/": ["body": page("Lecture Notes", "<h2>Unit 1: Bits and Codes</h2><p>A bit is the information in the answer to a yes-or-no question whose answers are equally likely.</p>")],
        ])
        let environment = [
            "LECTERN_DB": folder.file("nightly.db").path,
            "LECTERN_WIKIPEDIA_BASE_URL": server.url("/{language}/api/rest_v1/page/html/"),
            "LECTERN_OCW_BASE_URL": server.url("/courses/"),
            "LECTERN_OPENSTAX_BOOK_LIST": server.url("/approved-book-list.json"),
            "LECTERN_OPENSTAX_ARCHIVE": server.url("/repos/openstax/{repository}/zipball"),
            "LECTERN_HTTP_HOST_INTERVAL": "0",
        ]
        /// The run, its wall time and its CPU time (user + system, from the children's rusage):
        /// on a loaded machine the wall time mostly measures the others.
        func run() throws -> (result: CommandResult, summary: PipelineRunSummary, seconds: Double, cpu: Double) {
            func childrenCPU() -> Double {
                var usage = rusage()
                getrusage(RUSAGE_CHILDREN.rawValue, &usage)
                return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            }
            let start = Date(), cpu = childrenCPU()
            let result = try runLectern(["run", "nightly.toml", "--json"], in: folder.url, environment: environment)
            let seconds = Date().timeIntervalSince(start)
            XCTAssertEqual(result.status, 0, result.stderr + server.log)
            return (result, try JSONDecoder().decode(PipelineRunSummary.self, from: Data(result.stdout.utf8)), seconds, childrenCPU() - cpu)
        }

        let first = try run()
        let documents = 1 + 2 + 1 + transcripts.count
        XCTAssertEqual([first.summary.stored, first.summary.unchanged, first.summary.failed], [documents, 0, 0], first.result.stderr)
        XCTAssertEqual(first.summary.stagesSkipped, [])
        let outputs = [folder.file("exports/nightly.apkg").path, folder.file("exports/nightly.umcf.json").path]
        XCTAssertEqual(first.summary.outputsWritten, outputs)
        func written() throws -> [Date] {
            try outputs.map { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date) }
        }
        let writtenFirst = try written()
        let curriculum = try XCTUnwrap(first.summary.curricula.first)
        XCTAssertEqual([curriculum.name, "\(curriculum.unchanged)", "\(curriculum.sources)"], ["nightly", "false", "\(documents)"])
        XCTAssertGreaterThan(curriculum.topics, 10)
        let sources = try runLectern(["sources", "--json"], in: folder.url, environment: environment)
        let types = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sources.stdout.utf8)) as? [[String: Any]]).compactMap { $0["types"] as? String }
        XCTAssertEqual(Set(types), ["openstax", "wikipedia", "ocw", "srt"], sources.stdout)
        let library = folder.file("nightly.db")
        let before = try libraryDigest(library)
        XCTAssertEqual(before["integrity"] as? String, "ok")
        let served = try server.requests().count

        let second = try run()
        XCTAssertEqual([second.summary.stored, second.summary.unchanged, second.summary.failed], [0, documents, 0], second.result.stderr)
        XCTAssertEqual(second.summary.curricula.map(\.unchanged), [true], "the curriculum is not rebuilt")
        XCTAssertEqual(digestDocuments(try libraryDigest(library), written: true), digestDocuments(before, written: true), "no document rewritten")
        XCTAssertEqual(second.summary.outputsWritten, [], "no output rewritten")
        XCTAssertEqual(try written(), writtenFirst)
        let again = try server.requests().dropFirst(served)
        let conditional = again.filter { ($0["path"] as? String).map { $0.contains("page/html") || $0.hasSuffix("/zipball") } == true }
        XCTAssertEqual(conditional.count, 3)
        XCTAssertTrue(conditional.allSatisfy { ($0["headers"] as? [String: String])?["if-none-match"] != nil }, "conditional GETs: \(conditional)")
        print(String(format: "nightly pipeline: first run %.2f s (CPU %.2f s), unchanged run %.2f s (CPU %.2f s): %.1f%% of the first's time, %.1f%% of its CPU; lectern run nightly.toml, hashing embedder, loopback server",
                     first.seconds, first.cpu, second.seconds, second.cpu, 100 * second.seconds / first.seconds, 100 * second.cpu / first.cpu))
    }

    /// Zips a folder with Python's zipfile, as GitHub lays out a repository's archive.
    func zip(_ source: URL, to archive: URL, prefix: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import os, sys, zipfile
            src, dst, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
            with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
                for root, dirs, files in os.walk(src):
                    for f in sorted(files):
                        p = os.path.join(root, f)
                        z.write(p, prefix + os.path.relpath(p, src))
            """, source.path, archive.path, prefix]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "zipping \(source.path)")
    }
}
