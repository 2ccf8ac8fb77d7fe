import Foundation
import XCTest
@testable import Lectern

/// The work queue proved with real parts on one machine: three `lectern worker` processes on
/// a real PostgreSQL do a queued run of corpora/ and renamed copies of it while a random worker
/// is killed (SIGKILL) at least ten times, a new one started each time. At the end every
/// source is stored exactly once, no passage or vector is doubled or missing, and the
/// curriculum, the cards (a TSV deck) and a UMCF export are those a single `lectern run` of the
/// same pipeline makes on PostgreSQL, but for build times.
final class QueueKillTests: CommandTestCase {
    /// Renamed copies of corpora/ beside the originals: 110 inputs, about 7 s of three debug
    /// workers' work on a quiet machine, and ten kills or more however fast (33 s in all at a load of 21).
    static let copies = 9

    func testKilledWorkersLoseNothingAndStoreNothingTwice() throws {
        let server = try PostgresServer.shared()
        var random = TestRandom.seeded()
        let corpora = TestPaths.packageRoot.appendingPathComponent("corpora")
        let files = try FileManager.default.subpathsOfDirectory(atPath: corpora.path).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: corpora.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 10, "corpora/ holds the project's samples")
        for file in files {
            let data = try Data(contentsOf: corpora.appendingPathComponent(file))
            try folder.write("originals/" + file, data)
            for copy in 0..<Self.copies {
                let name = (file as NSString).lastPathComponent, parent = (file as NSString).deletingLastPathComponent
                try folder.write("copies/\(parent)/copy-\(copy)-\(name)", data)
            }
        }
        let inputs = files.count * (1 + Self.copies)
        try folder.write("p.toml", """
            [[source]]
            path = "originals"
            tags = ["samples"]
            [[source]]
            path = "copies"
            licence = "CC BY 4.0"
            [[curriculum]]
            name = "samples"
            sources = ["originals"]
            [[deck]]
            curriculum = "samples"
            format = "tsv"
            output = "out/samples.tsv"
            [[export]]
            curriculum = "samples"
            format = "umcf"
            output = "out/samples.umcf"
            """)
        let (url, single) = (try server.freshDatabase(for: Self.self, suffix: "_workers"), try server.freshDatabase(for: Self.self, suffix: "_single"))
        let plain = try runLectern(["run", "p.toml"], in: folder.url, environment: ["LECTERN_DB": single])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        // Its deck and export aside: the workers' finish job writes the same paths.
        try FileManager.default.moveItem(at: folder.file("out"), to: folder.file("single-out"))

        let queued = try runLectern(["run", "p.toml", "--queue"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertTrue(queued.stdout.hasPrefix("run #1: \(inputs) jobs queued"), queued.stdout)
        func worker() throws -> RunningLectern {
            try RunningLectern(["worker", "--exit-when-idle", "--lease", "3", "--events", "json"], in: folder.url, environment: ["LECTERN_DB": url])
        }
        let check = try PostgresConnection(url: url)
        func sourceJobs(_ states: String) throws -> Int {
            Int(try check.query("select count(*) from queue_jobs where kind = 'source' and state in (\(states))").scalar ?? "0") ?? 0
        }
        // A kill each time another fifteenth of the jobs is done (give or take a few), wherever
        // the workers are: ten kills or more however fast the machine is.
        var thresholds = (1...14).map { inputs * $0 / 15 + Int.random(in: -2...2, using: &random) }
        var workers = try (0..<3).map { _ in try worker() }
        var kills = 0
        let started = Date()
        while Date().timeIntervalSince(started) < 240, try sourceJobs("'pending', 'leased'") > 0 {
            guard let next = thresholds.first, try sourceJobs("'done'") >= next else {
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            thresholds.removeFirst()
            let victim = Int.random(in: 0..<workers.count, using: &random)
            workers[victim].send(SIGKILL)
            XCTAssertEqual(workers[victim].finish(timeout: 10).status, -SIGKILL)
            kills += 1
            workers[victim] = try worker()
            Thread.sleep(forTimeInterval: 0.2)
        }
        let killing = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(kills, 10, "only \(kills) kills in the \(Int(killing)) s the source jobs took (\(random.replay))")
        for worker in workers {
            let result = worker.finish(timeout: 180)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        print("QueueKillTests: \(inputs) inputs, \(kills) kills in \(String(format: "%.1f", killing)) s, all done after \(String(format: "%.1f", Date().timeIntervalSince(started))) s")

        let jobs = try Library(backend: try PostgresLibrary(url: url, access: .read)).queueJobs(run: 1)
        XCTAssertEqual(jobs.count, inputs + 1)
        XCTAssertEqual(jobs.filter { $0.state != .done }.map(\.display), [], "every job done (\(random.replay))")
        XCTAssertGreaterThan(jobs.map(\.lostLeases).reduce(0, +), 0, "a kill took a job from its worker (\(random.replay))")
        let status = try check.query("select status from runs where id = 1").scalar
        XCTAssertEqual(status, "succeeded")

        // Every source exactly once, with the passages and vectors one run makes.
        let (mine, theirs) = (try QueuedLibrary.documents(url), try QueuedLibrary.documents(single))
        XCTAssertEqual(mine.count, inputs)
        XCTAssertEqual(Set(mine.keys), Set(theirs.keys), "the same documents")
        XCTAssertEqual(mine.filter { theirs[$0.key] != $0.value }.keys.sorted(), [], "the same passages and vectors (\(random.replay))")
        XCTAssertEqual(try QueuedLibrary.totals(url), try QueuedLibrary.totals(single), "nothing doubled or missing (\(random.replay))")
        // The deck (the cards) and the export the finish job wrote, as the single run wrote them.
        for name in ["samples.tsv", "samples.umcf"] {
            let (written, expected) = (try String(contentsOf: folder.file("out/" + name), encoding: .utf8),
                                       try String(contentsOf: folder.file("single-out/" + name), encoding: .utf8))
            XCTAssertFalse(written.isEmpty, name)
            XCTAssertEqual(QueuedLibrary.masked(written), QueuedLibrary.masked(expected), "the same \(name) (\(random.replay))")
        }
        XCTAssertGreaterThan(try String(contentsOf: folder.file("out/samples.tsv"), encoding: .utf8).split(separator: "\n").count, 10, "cards were made")
        for format in ["md", "umcf"] {
            let (queuedExport, singleExport) = (try QueuedLibrary.export("samples", format: format, url: url, in: folder.url),
                                                try QueuedLibrary.export("samples", format: format, url: single, in: folder.url))
            XCTAssertFalse(queuedExport.isEmpty)
            XCTAssertEqual(queuedExport, singleExport, "the same curriculum as \(format)")
        }
    }
}
