import Foundation
import XCTest
@testable import Lectern

/// The work queue of a library on PostgreSQL: `lectern run --queue` enqueues a pipeline's
/// inputs as jobs, `lectern worker` processes take them one at a time with a lease and do them
/// as `lectern run` would, and the run's finishing stages run once when its sources are done.
/// A real PostgreSQL 18 (Support/PostgresServer), the real binary, generated notes.
final class QueueWorkerTests: CommandTestCase {
    private var server: PostgresServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PostgresServer.shared()
    }

    /// Notes with distinct text, a definition each, in `notes/`, and a pipeline over them with a curriculum.
    private func writeNotesAndPipeline(count: Int, extra: String = "") throws {
        let words = ["entropy", "channel", "signal", "noise", "coding", "bits", "source", "message", "capacity", "redundancy",
                     "parity", "symbol", "alphabet", "probability", "compression", "decoder", "encoder", "error"]
        for note in 0..<count {
            var text = "# Note \(note): \(words[note % words.count]) and \(words[(note * 7 + 3) % words.count])\n\n"
            text += "\(words[note % words.count].capitalized) is the quantity of \(words[(note + 5) % words.count]) that a channel carries per symbol.\n\n"
            for paragraph in 0..<4 {
                let picked = (0..<12).map { words[(note * 31 + paragraph * 17 + $0 * 7) % words.count] }
                text += "Paragraph \(paragraph) of note \(note) says that the \(picked.prefix(6).joined(separator: " ")) "
                    + "meets the \(picked.suffix(6).joined(separator: " ")).\n\n"
            }
            try folder.write("notes/note-\(note).md", text)
        }
        try folder.write("p.toml", """
            [[source]]
            path = "notes"
            tags = ["bits"]
            \(extra)
            [[curriculum]]
            name = "bits"
            sources = ["notes"]
            """)
    }

    private func worker(_ url: String, _ extra: [String] = []) throws -> RunningLectern {
        try RunningLectern(["worker", "--exit-when-idle", "--lease", "3", "--events", "json"] + extra, in: folder.url, environment: ["LECTERN_DB": url])
    }

    /// `--queue` needs a library the workers share: on a library file it is one line naming
    /// --queue and why, exit 2, and nothing is made; with --shard or --finish too.
    func testQueueIsRefusedOnALibraryFileAndWithShards() throws {
        try writeNotesAndPipeline(count: 2)
        let refused = try runLectern(["run", "p.toml", "--queue", "--events", "text"], in: folder.url)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--queue: needs a library on PostgreSQL (postgres://…), which workers on several machines share; lectern.db is a library file"),
                      refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "a refused --queue made a library")
        let url = try server.freshDatabase(for: Self.self, suffix: "_refused")
        let both = try runLectern(["run", "p.toml", "--queue", "--shard", "0/2", "--events", "text"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertTrue(both.stderr.contains("--queue: goes with no --shard or --finish"), both.stderr)
        let idle = try runLectern(["worker", "--exit-when-idle"], in: folder.url)
        XCTAssertEqual(idle.status, 2, idle.stderr)
        XCTAssertTrue(idle.stderr.contains("`lectern worker` takes jobs from a library on PostgreSQL"), idle.stderr)
    }

    /// Two workers do a queued run: every note stored once, the curriculum the same as one
    /// `lectern run` builds, the run `succeeded` with every job done and by whom.
    func testTwoWorkersDoAQueuedRunAsOneRunDoes() throws {
        try writeNotesAndPipeline(count: 8)
        let (url, single) = (try server.freshDatabase(for: Self.self, suffix: "_queued"), try server.freshDatabase(for: Self.self, suffix: "_single"))
        let plain = try runLectern(["run", "p.toml"], in: folder.url, environment: ["LECTERN_DB": single])
        XCTAssertEqual(plain.status, 0, plain.stderr)

        let dry = try runLectern(["run", "p.toml", "--queue", "--dry-run"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(dry.stdout.contains(", queued for workers: 8 jobs (1 source), then the finishing stages once:"), dry.stdout)
        let queued = try runLectern(["run", "p.toml", "--queue"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertTrue(queued.stdout.hasPrefix("run #1: 8 jobs queued (1 source) for `lectern worker`, then the finishing stages"), queued.stdout)
        XCTAssertEqual(try QueuedLibrary.totals(url)["documents"], "0", "enqueueing reads nothing")
        let waiting = try runLectern(["runs", "show", "1"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(waiting.stdout.contains("status   queued"), waiting.stdout)
        XCTAssertTrue(waiting.stdout.contains("jobs     9: 8 pending, 1 waiting"), waiting.stdout)

        let workers = try (0..<2).map { _ in try worker(url) }
        var owners: Set<String> = []
        for worker in workers {
            let result = worker.finish(timeout: 120)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("worker "), result.stdout)
        }
        let shown = try runLectern(["runs", "show", "1", "--json"], in: folder.url, environment: ["LECTERN_DB": url])
        let run = try JSONDecoder().decode(RunRecord.self, from: Data(shown.stdout.utf8))
        XCTAssertEqual(run.status, .succeeded)
        let jobs = try XCTUnwrap(run.jobs)
        XCTAssertEqual(jobs.count, 9)
        XCTAssertTrue(jobs.allSatisfy { $0.state == .done && $0.doneBy != nil && $0.seconds != nil }, "\(jobs)")
        owners.formUnion(jobs.compactMap(\.doneBy))
        XCTAssertTrue(owners.allSatisfy { $0.hasPrefix(ProcessInfo.processInfo.hostName + ":") }, "\(owners)")
        XCTAssertEqual(run.counts["documents"], 8, "\(run.counts)")
        XCTAssertEqual(run.counts["curricula_built"], 1, "\(run.counts)")
        let text = try runLectern(["runs", "show", "1"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(text.stdout.contains("jobs     9: 9 done"), text.stdout)
        XCTAssertTrue(text.stdout.contains(" notes/note-3.md "), text.stdout)

        XCTAssertEqual(try QueuedLibrary.documents(url), try QueuedLibrary.documents(single), "the same documents, passages and vectors")
        XCTAssertEqual(try QueuedLibrary.totals(url), try QueuedLibrary.totals(single))
        // (Markdown and UMCF name passages by stable ids; the JSON export has their row ids, which
        // follow the order documents were written in.)
        for format in ["md", "umcf"] {
            let curriculum = try QueuedLibrary.export("bits", format: format, url: url, in: folder.url)
            XCTAssertTrue(curriculum.contains("Note 3"), curriculum)
            XCTAssertEqual(curriculum, try QueuedLibrary.export("bits", format: format, url: single, in: folder.url), "the same curriculum as \(format)")
        }
        // The pipeline's tags, given by the finish job.
        let note = try runLectern(["show", "notes/note-1.md", "--json"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(note.stdout.contains("pipeline_tags"), note.stdout)
    }

    /// A job that fails every time is tried 3 times, then recorded as failed with its reason;
    /// the other jobs and the finishing stages are done and the run is `partial`.
    func testAJobThatFailsThreeTimesIsFailedWithItsReasonAndTheRunGoesOn() throws {
        try writeNotesAndPipeline(count: 3, extra: "[[source]]\npath = \"broken.pdf\"\n")
        try folder.write("broken.pdf", Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer garbage\n".utf8))
        let url = try server.freshDatabase(for: Self.self, suffix: "_failing")
        XCTAssertEqual(try runLectern(["run", "p.toml", "--queue"], in: folder.url, environment: ["LECTERN_DB": url]).status, 0)
        let result = try worker(url).finish(timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("worker "), result.stdout)
        XCTAssertTrue(result.stdout.contains(": 4 jobs done, 3 failed"), result.stdout)
        XCTAssertEqual(try QueuedLibrary.jobStates(url), ["done": 4, "failed": 1])
        let shown = try runLectern(["runs", "show", "1"], in: folder.url, environment: ["LECTERN_DB": url])
        XCTAssertTrue(shown.stdout.contains("status   partial"), shown.stdout)
        let line = try XCTUnwrap(shown.stdout.split(separator: "\n").first { $0.contains("failed   broken.pdf") }, shown.stdout)
        XCTAssertTrue(line.contains("after 3 attempts: "), String(line))
        XCTAssertTrue(shown.stdout.contains("error [ingest] broken.pdf: failed 3 times, for good: "), shown.stdout)
        XCTAssertEqual(try QueuedLibrary.totals(url)["documents"], "3")
    }

    /// A worker that died holding a job (its lease not renewed) holds back an idle worker
    /// (`--exit-when-idle` waits for it) until the lease ends; then the job is taken again and
    /// done. SIGTERM: the worker gives its job back (or finishes it) and exits 143.
    func testAnEndedLeaseGoesToAnotherWorkerAndSIGTERMGivesTheJobBack() throws {
        try writeNotesAndPipeline(count: 2)
        let url = try server.freshDatabase(for: Self.self, suffix: "_lease")
        XCTAssertEqual(try runLectern(["run", "p.toml", "--queue"], in: folder.url, environment: ["LECTERN_DB": url]).status, 0)
        // A worker on another machine takes a job for 4 s and is never heard of again.
        let gone = try PostgresLibrary(url: url)
        let held = try XCTUnwrap(try gone.takeJob(owner: "lost-machine:77", lease: 4))
        let started = Date()
        let result = try worker(url).finish(timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 3.0, "the worker waited for the lease to end")
        let jobs = try Library(backend: gone).queueJobs(run: 1)
        let again = try XCTUnwrap(jobs.first { $0.id == held.id })
        XCTAssertEqual(again.state, .done)
        XCTAssertEqual([again.attempts, again.lostLeases, again.failures], [2, 1, 0])
        XCTAssertNotEqual(again.doneBy, "lost-machine:77")
        XCTAssertEqual(try gone.endJob(held.id, owner: "lost-machine:77", .done(counts: [:], failures: [])), .leaseLost,
                       "the lost worker's late end counts for nothing")
        XCTAssertEqual(try QueuedLibrary.totals(url)["documents"], "2")

        // A slow web page: SIGTERM while the worker reads it.
        let slow = try TestServer(routes: ["/slow.html": ["body": "<html><head><title>Slow</title></head><body><p>A page about tides.</p></body></html>",
                                                          "delay": 2]])
        try folder.write("slow.toml", "[[source]]\nurl = \"\(slow.url("/slow.html"))\"\n")
        XCTAssertEqual(try runLectern(["run", "slow.toml", "--queue"], in: folder.url, environment: ["LECTERN_DB": url]).status, 0)
        let stopping = try worker(url)
        XCTAssertTrue(stopping.waitForStderr { $0.contains("\"input_started\"") }, "the worker did not start the job")
        stopping.send(SIGTERM)
        let stopped = stopping.finish(timeout: 60)
        XCTAssertEqual(stopped.status, 143, stopped.stderr)
        let page = try XCTUnwrap(try Library(backend: gone).queueJobs(run: 2).first { $0.kind == .source })
        XCTAssertNotEqual(page.state, .leased, "the job was finished or given back: \(page)")
        XCTAssertNil(page.leaseOwner)
        if page.state == .pending { XCTAssertEqual(page.attempts, 0, "a job given back is no attempt") }
    }
}
