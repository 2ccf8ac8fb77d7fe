import GRDB
import XCTest
@testable import Lectern

/// Every command reads a document reference (id, prefix, path, folder, URI, glob) and a topic
/// reference (a stable id or its first 4+ characters) the same way: a glob that `rm` takes is
/// summarised too, by `summarize` and by a run's summarise stage; a topic prefix that `cards
/// list` finds is what `cards rm` removes; a prefix naming two topics is an error naming both
/// everywhere, never "all of them" in one command and an error in another.
final class ReferenceResolutionTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// Markdown notes, each a title, a definition and a few paragraphs of its own words.
    func writeNotes(_ names: [String], into folderName: String) throws {
        let words = ["entropy", "channel", "signal", "noise", "coding", "bits", "source", "message", "capacity", "redundancy"]
        for (index, name) in names.enumerated() {
            var text = "# \(name.capitalized): \(words[index % words.count])\n\n"
            text += "\(words[index % words.count].capitalized) is the quantity of \(words[(index + 5) % words.count]) that a channel carries per symbol.\n\n"
            for paragraph in 0..<6 {
                let picked = (0..<10).map { words[(index * 31 + paragraph * 17 + $0 * 7) % words.count] }
                text += "Paragraph \(paragraph) of \(name) says that the \(picked.prefix(5).joined(separator: " ")) meets the "
                    + "\(picked.suffix(5).joined(separator: " ")), which a careful reader checks twice.\n\n"
            }
            try folder.write("\(folderName)/\(name).md", text)
        }
    }

    func testSummarizeTakesAGlobAsRmDoes() throws {
        try writeNotes(["alpha", "beta"], into: "notes")
        try folder.write("notes/gamma.txt", "Gamma is a plain text note. It says what a channel carries. Nothing more is said here.\n")
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        let summarised = try lectern("summarize", "notes/*.md", "--json")
        XCTAssertEqual(summarised.status, 0, summarised.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(summarised.stdout.utf8)) as? [String: Any])
        let titles = ((report["documents"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }.sorted()
        XCTAssertEqual(titles, ["Alpha: entropy", "Beta: channel"], "the glob takes the two Markdown notes, not the text file")

        let none = try lectern("summarize", "notes/*.pdf")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("notes/*.pdf: no document in the library matches this pattern"), none.stderr)
    }

    func testARunSummarisesAGlobSource() throws {
        try writeNotes(["first", "second"], into: "transcripts")
        try folder.write("p.toml", "[[source]]\npath = \"transcripts/*.md\"\n[run]\nsummarise = true\n")
        let run = try lectern("run", "p.toml", "--events", "text")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("2 documents summarised with extractive/"), run.stderr)
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        for document in try store.allDocuments() {
            XCTAssertFalse(try store.summaries(documentId: document.id).isEmpty, "\(document.title) has its summaries")
        }
    }

    /// A curriculum with cards from generated notes; its topics' stable ids.
    func curriculumWithCards() throws -> [Topic] {
        try writeNotes(["entropy", "capacity", "redundancy", "coding"], into: "notes")
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
        XCTAssertEqual(try lectern("curriculum", "build", "info", "notes").status, 0)
        let made = try lectern("cards", "generate", "info")
        XCTAssertEqual(made.status, 0, made.stderr)
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        return try XCTUnwrap(store.curriculum(named: "info")).topics
    }

    func cardTopics(_ arguments: String...) throws -> [String] {
        let listed = try runLectern(["cards", "list", "--json"] + arguments, in: folder.url)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return (try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])).compactMap { $0["topic"] as? String }
    }

    func testATopicPrefixThatListFindsIsWhatRmRemoves() throws {
        _ = try curriculumWithCards()
        let all = try cardTopics()
        let topic = try XCTUnwrap(all.first)
        let prefix = String(topic.prefix(4))
        let others = all.filter { $0.hasPrefix(prefix) && $0 != topic }
        try XCTSkipIf(!others.isEmpty, "two topics share the prefix \(prefix)")
        let count = all.filter { $0 == topic }.count
        XCTAssertEqual(try cardTopics("--topic", prefix).count, count)

        let removed = try lectern("cards", "rm", "info", "--topic", prefix)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stdout, "removed \(count) note\(count == 1 ? "" : "s")\n")
        XCTAssertEqual(try cardTopics("--topic", topic), [])
        XCTAssertEqual(try cardTopics().count, all.count - count, "the other topics keep their cards")
    }

    func testAnAmbiguousTopicPrefixIsAnErrorNamingTheTopicsInEveryCommand() throws {
        let topics = try curriculumWithCards()
        XCTAssertGreaterThanOrEqual(topics.count, 2)
        // Two topics given ids that share their first four characters, cards and links alike.
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        let renamed = topics.prefix(2).map { "beef" + $0.stableId.dropFirst(4) }
        try store.write { db in
            for (topic, id) in zip(topics.prefix(2), renamed) {
                for table in ["topics SET stable_id", "cards SET topic_stable_id"] {
                    let column = table.split(separator: " ").last!
                    try db.execute(sql: "UPDATE \(table) = ? WHERE \(column) = ?", arguments: [id, topic.stableId])
                }
            }
        }
        let cardsBefore = try cardTopics().count
        let commands: [[String]] = [
            ["cards", "list", "--topic", "beef"],
            ["cards", "rm", "info", "--topic", "beef"],
            ["cards", "generate", "info", "--topic", "beef"],
            ["cards", "export", "info", "--topic", "beef", "-o", "deck.tsv", "--format", "tsv"],
            ["context", "--topic", "beef"],
            ["search", "channel", "--curriculum", "info", "--topic", "beef"],
        ]
        for command in commands {
            let result = try runLectern(command, in: folder.url)
            XCTAssertNotEqual(result.status, 0, "\(command): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("beef: names 2 topics, give more of the id: \(renamed[0]) "), "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(renamed[1]), "\(command): \(result.stderr)")
        }
        XCTAssertEqual(try cardTopics().count, cardsBefore, "nothing was removed or made again")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("deck.tsv").path))
        // More of the id names one topic again.
        XCTAssertEqual(try cardTopics("--topic", String(renamed[0].prefix(8))), try cardTopics("--topic", renamed[0]))
    }
}
