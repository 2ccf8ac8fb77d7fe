import XCTest
@testable import Lectern

/// Keyword search a user can steer: "phrases", -exclusions, the BM25 score it ranks by, a
/// filter that matches nothing named as such, `--type` in any case.
final class SearchQueryTests: XCTestCase {
    func testQueryParsesPhrasesExclusionsAndWords() {
        let query = SearchQuery(parsing: #"What is "Begging the Question" fallacy -circular -"straw man" x-ray"#)
        XCTAssertEqual(query.phrases, [["begging", "the", "question"]])
        XCTAssertEqual(query.words, ["fallacy", "x", "ray"], "stopwords out, a hyphen inside a word is no exclusion")
        XCTAssertEqual(query.exclusions, [["circular"], ["straw", "man"]])
        XCTAssertEqual(query.text, #"What is Begging the Question fallacy x-ray"#, "what is embedded: no quotes, no exclusions")

        let unclosed = SearchQuery(parsing: #"state of "nature and war"#)
        XCTAssertEqual(unclosed.phrases, [["nature", "and", "war"]], "an unclosed quote runs to the end")
        XCTAssertEqual(unclosed.words, ["state"])
        XCTAssertTrue(SearchQuery(parsing: "-entropy -\"heat death\"").isEmpty, "only exclusions: nothing to search for")
        XCTAssertEqual(SearchQuery(parsing: "- -- 5 - 3").words, ["5", "3"], "a lone or doubled dash is no exclusion")
    }

    /// Whatever a user types, FTS5 never sees syntax: random punctuation, quotes, dashes,
    /// operators and non-Latin text give hits or "no words", never an SQL error.
    func testOddQueriesNeverReachFTS5AsSyntax() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        try folder.write("notes/logic.md", """
            # Fallacies

            Begging the question assumes what it sets out to prove. A straw man attacks a weaker claim.
            Ad hominem attacks the person: NOT an argument AND never NEAR the point (it's "rhetoric").
            """)
        let summary = Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("notes").path], recorder: nil) { _ in }
        XCTAssertEqual(summary.stored, 1)
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        let pieces = ["\"", "-", "--", "*", "^", "(", ")", ":", "+", "{", "}", "'", "\\", "NEAR", "AND", "OR", "NOT", "NEAR/2",
                      "man", "straw", "question", "é", "ß", "日本", "\u{301}", "0", "-\"", "\"-", " ", "  ", "\t", "\"\"", "·", "col:man"]
        var generator = TestRandom.seeded()
        var found = 0
        for _ in 0..<400 {
            var query = ""
            for _ in 0..<Int.random(in: 1...7, using: &generator) {
                query += pieces.randomElement(using: &generator)!
                if Bool.random(using: &generator) { query += " " }
            }
            for mode in [SearchMode.keyword, .hybrid] {
                do {
                    found += try searcher.search(query, mode: mode).count
                } catch let error as LecternError where error.code == .invalidInput {
                    continue   // no words to search for: said so, as before
                } catch {
                    XCTFail("\(mode) search for \(query.debugDescription) failed: \(error) (\(generator.replay))")
                }
            }
        }
        XCTAssertGreaterThan(found, 0, "some random queries hold a word of the note")
        XCTAssertEqual(try searcher.search(#""straw man" NOT"#, mode: .keyword).count, 1)
        // No passage holds "man straw" in that order: the one with the words apart still follows.
        XCTAssertEqual(try searcher.search("\"man straw\"", mode: .keyword).count, 1, "a phrase's words apart come after the phrase")
        XCTAssertEqual(try searcher.search("\"man straw\" -weaker", mode: .keyword).count, 0, "exclusions still hold")
    }

    /// The OpenStax book as a student searches it: a quoted phrase ranks passages with the phrase
    /// first; -word leaves out what holds the word, in every mode; keyword mode ranks by BM25 and
    /// shows it; a filter that matches nothing is named; `--type OPENSTAX` is `--type openstax`.
    func testSteeringKeywordSearchOnTheOpenStaxBook() throws {
        let corpus = try TestPaths.sharedCorpus()
        let folder = try TemporaryFolder()
        let book = corpus.appendingPathComponent("openstax/introduction-philosophy").path
        let page = corpus.appendingPathComponent("wikipedia/wikipedia-3/source.html").path
        var result = try runLectern(["ingest", book, page], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)

        func hits(_ arguments: String...) throws -> [SearchHit] {
            let output = try runLectern(["search"] + arguments + ["--json"], in: folder.url)
            XCTAssertEqual(output.status, 0, output.stderr)
            return try JSONDecoder().decode([SearchHit].self, from: Data(output.stdout.utf8))
        }
        func holds(_ hit: SearchHit, _ pattern: String) -> Bool {
            hit.text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
        }

        // Unquoted, any of the words finds a passage; quoted, the passages holding the phrase come
        // first and those with its words apart after them (Porter stems: "begs the question" is
        // the phrase too).
        let phrase = #"\bbeg(s|ged|ging)?\W+the\W+question"#
        let loose = try hits("begging the question", "--mode", "keyword", "-k", "20")
        XCTAssertTrue(loose.contains { !holds($0, phrase) && holds($0, #"\bquestion"#) }, "the words also stand apart in the book")
        for mode in ["keyword", "hybrid", "semantic"] {
            let quoted = try hits("\"begging the question\"", "--mode", mode, "-k", "60")
            let holding = quoted.prefix { holds($0, phrase) }.count
            XCTAssertGreaterThan(holding, 0, "\(mode): the phrase comes first")
            XCTAssertFalse(quoted.dropFirst(holding).contains { holds($0, phrase) }, "\(mode): every passage with the phrase ranks above the others")
            XCTAssertEqual(quoted.count, 60, "\(mode): passages without the phrase follow those with it")
            if mode == "keyword" {
                XCTAssertTrue(quoted.dropFirst(holding).allSatisfy { holds($0, #"\bbeg|\bquestion"#) }, "the words apart follow")
            }
        }
        let inOrder = try hits("\"the question begging\"", "--mode", "keyword", "-k", "5")
        XCTAssertTrue(inOrder.prefix { holds($0, #"question\W+beg"#) }.count == inOrder.filter { holds($0, #"question\W+beg"#) }.count,
                      "the words in the quoted order rank first")

        // -word excludes, in every mode.
        let fallacies = try hits("fallacy of relevance", "--mode", "keyword", "-k", "30")
        XCTAssertTrue(fallacies.contains { holds($0, #"\bargument"#) })
        for mode in ["keyword", "hybrid", "semantic"] {
            let without = try hits("fallacy of relevance -argument", "--mode", mode, "-k", "30")
            XCTAssertFalse(without.isEmpty, mode)
            XCTAssertFalse(without.contains { holds($0, #"\bargument"#) }, "\(mode): -argument leaves out passages with 'argument(s)'")
        }

        // Keyword mode ranks by BM25 and reports it: falling scores, not 1/rank.
        let scored = try hits("fallacy of relevance", "--mode", "keyword", "-k", "10")
        XCTAssertEqual(scored.count, 10)
        XCTAssertTrue(zip(scored, scored.dropFirst()).allSatisfy { $0.score >= $1.score }, "\(scored.map(\.score))")
        XCTAssertTrue(scored.allSatisfy { $0.score > 0 })
        XCTAssertNotEqual(scored[1].score, 0.5, "not the reciprocal rank")
        result = try runLectern(["search", "fallacy of relevance", "--mode", "keyword", "-k", "1"], in: folder.url)
        XCTAssertTrue(result.stdout.contains(String(format: "%.4f", scored[0].score)), result.stdout)

        // A filter that matches nothing is named, not the query.
        result = try runLectern(["search", "fallacy", "--source", "nothing"], in: folder.url)
        XCTAssertEqual(result.status, 1, "nothing found: \(result.stderr)")
        XCTAssertTrue((result.stdout + result.stderr).contains("--source nothing matches no document"), result.stdout + result.stderr)
        result = try runLectern(["search", "fallacy", "--type", "srt"], in: folder.url)
        XCTAssertTrue((result.stdout + result.stderr).contains("--type srt matches no document"), result.stdout + result.stderr)
        result = try runLectern(["search", "fallacy", "--source", page, "--type", "openstax"], in: folder.url)
        XCTAssertTrue((result.stdout + result.stderr).contains("no document matches both --source \(page) and --type openstax"),
                      result.stdout + result.stderr)
        XCTAssertEqual(try hits("fallacy", "--type", "OpenStax", "-k", "3").count, 3, "--type in any case")
    }
}
