import Foundation
import XCTest
@testable import Lectern

/// The `cards` commands' options, `context --type` and `extract --include/--exclude` on a library
/// of the project's own corpora/ (a curriculum of 24 topics and about 20 offline cards, a few
/// seconds to build with the hashing embedder), so they are tested in every clone; CardsCLITests
/// repeats the cards commands on the shared corpus's book where it is present. One library for
/// the class; a test that removes cards works on a copy of it.
final class CardsOnCorporaTests: XCTestCase {
    nonisolated(unsafe) static var library: TemporaryFolder?

    static func corporaLibrary() throws -> TemporaryFolder {
        try TestPaths.requireLecternBinary()
        if let library { return library }
        let folder = try TemporaryFolder()
        for arguments in [["ingest", TestPaths.corpora.path], ["curriculum", "build", "biology", TestPaths.corpora.path],
                          ["cards", "generate", "biology"]] {
            let result = try runLectern(arguments, in: folder.url)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        library = folder
        return folder
    }

    /// A copy of the class's library, for a test that changes it.
    func copyOfLibrary() throws -> TemporaryFolder {
        let source = try Self.corporaLibrary()
        let copy = try TemporaryFolder()
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasPrefix("lectern.db") {
            try FileManager.default.copyItem(at: source.file(name), to: copy.file(name))
        }
        return copy
    }

    func cards(_ extra: [String] = [], in folder: TemporaryFolder) throws -> [[String: Any]] {
        let listed = try runLectern(["cards", "list", "--json"] + extra, in: folder.url)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    }

    /// The per-topic counts of `cards stats` (notes of each topic with cards).
    func topicCounts(in folder: TemporaryFolder) throws -> [(topic: String, title: String, notes: Int)] {
        let stats = try runLectern(["cards", "stats", "--json"], in: folder.url)
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let curricula = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])
        let topics = try XCTUnwrap(curricula.first?["topics"] as? [[String: Any]])
        return topics.compactMap { topic in
            guard let id = topic["topic"] as? String, let title = topic["title"] as? String,
                  let byType = topic["byType"] as? [String: Int] else { return nil }
            return (id, title, byType.values.reduce(0, +))
        }.filter { $0.notes > 0 }
    }

    /// `cards stats` agrees with `cards list`: the total, and each topic's count with
    /// `cards list --topic` (by a prefix of its id) and `cards export --topic`.
    func testStatsListAndExportAgreeTopicByTopic() throws {
        let folder = try Self.corporaLibrary()
        let all = try cards(in: folder)
        let stats = try runLectern(["cards", "stats", "--json"], in: folder.url)
        let totals = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(totals["notes"] as? Int, all.count)
        XCTAssertGreaterThan(all.count, 10, "offline cards of the corpora's definitions and key terms")
        let topics = try topicCounts(in: folder)
        XCTAssertGreaterThan(topics.count, 5)
        XCTAssertEqual(topics.map(\.notes).reduce(0, +), all.count)
        for (topic, title, notes) in topics {
            let listed = try cards(["--topic", String(topic.prefix(8))], in: folder)
            XCTAssertEqual(listed.count, notes, "\(title): cards list --topic")
            XCTAssertTrue(listed.allSatisfy { ($0["deck"] as? String)?.hasSuffix("::" + title) == true }, "\(title): \(listed.map { $0["deck"] ?? "" })")
            let exported = try runLectern(["cards", "export", "biology", "--topic", topic, "--format", "tsv", "-o", "-"], in: folder.url)
            XCTAssertEqual(exported.status, 0, exported.stderr)
            let rows = exported.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
            XCTAssertEqual(rows.count, notes, "\(title): cards export --topic\n\(exported.stdout)")
            XCTAssertTrue(rows.allSatisfy { $0.contains("::\(title)\"") }, "\(title): each row in its topic's deck")
        }
        // A model run's plan needs a model: said before any work.
        let plan = try runLectern(["cards", "generate", "biology", "--dry-run"], in: folder.url)
        XCTAssertEqual(plan.status, 2, plan.stderr)
        XCTAssertTrue(plan.stderr.contains("--provider"), plan.stderr)
    }

    /// `cards rm --guid` removes that note; `cards rm --topic` that topic's notes and no other;
    /// `cards generate --topic` makes that topic's again and leaves the rest as they are.
    func testRemoveByGuidAndTopicThenRegenerateOneTopic() throws {
        let folder = try copyOfLibrary()
        let before = try cards(in: folder)
        let topics = try topicCounts(in: folder)
        let chosen = try XCTUnwrap(topics.max { $0.notes < $1.notes })
        XCTAssertGreaterThan(chosen.notes, 1)

        let victim = try XCTUnwrap(before.first?["guid"] as? String)
        var result = try runLectern(["cards", "rm", "biology", "--guid", victim], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "removed 1 note\n")
        var after = try cards(in: folder)
        XCTAssertEqual(after.count, before.count - 1)
        XCTAssertFalse(after.contains { $0["guid"] as? String == victim })

        let inTopic = Set(try cards(["--topic", chosen.topic], in: folder).compactMap { $0["guid"] as? String })
        result = try runLectern(["cards", "rm", "biology", "--topic", chosen.topic], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "removed \(inTopic.count) notes\n")
        let left = try cards(in: folder)
        XCTAssertEqual(left.count, after.count - inTopic.count)
        XCTAssertTrue(left.allSatisfy { !inTopic.contains($0["guid"] as? String ?? "") }, "no card of the topic is left")
        after = left

        result = try runLectern(["cards", "generate", "biology", "--topic", chosen.topic], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let regenerated = try cards(in: folder)
        XCTAssertEqual(Set(try cards(["--topic", chosen.topic], in: folder).compactMap { $0["guid"] as? String }), inTopic,
                       "the topic's notes again, with the same GUIDs")
        XCTAssertEqual(regenerated.count, after.count + inTopic.count, "the other topics untouched")
    }

    /// `context --type pdf` draws only on PDFs; without it, the best passage for the question
    /// may come from a note.
    func testContextTypeKeepsToOneKindOfDocument() throws {
        let folder = try Self.corporaLibrary()
        func uris(_ extra: [String]) throws -> [String] {
            let result = try runLectern(["context", "light reactions make ATP in the membrane", "--budget", "400", "--json"] + extra, in: folder.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try XCTUnwrap(object["passages"] as? [[String: Any]]).compactMap { $0["uri"] as? String }
        }
        let any = try uris([])
        XCTAssertTrue(any.contains { !$0.hasSuffix(".pdf") }, "the question reaches notes too: \(any)")
        let pdfs = try uris(["--type", "pdf"])
        XCTAssertFalse(pdfs.isEmpty)
        XCTAssertTrue(pdfs.allSatisfy { $0.hasSuffix(".pdf") }, "\(pdfs)")
    }

    /// `extract --include` takes only what matches, `--exclude` wins over it, and what is left
    /// out is counted on stderr; nothing is written.
    func testExtractIncludeAndExcludeChooseTheFiles() throws {
        let folder = try TemporaryFolder()
        let result = try runLectern(["extract", TestPaths.corpora.path, "--include", "notes/", "--exclude", "*.txt", "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let titles = try result.stdout.split(separator: "\n").map { line -> String in
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try XCTUnwrap(object["title"] as? String)
        }
        XCTAssertEqual(titles.sorted(), ["Differentiation: the chain rule", "Photosynthesis"], "the two Markdown notes, not the .txt")
        XCTAssertEqual(result.stderr, "9 files left out by ignore rules\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("lectern.db").path), "extract writes no library")
    }
}
