import XCTest
@testable import Lectern

/// `lectern eval`: its measures against trec_eval's (through pytrec_eval), its ranking of
/// documents by their best passage, and the evaluation set over the shared corpus.
final class EvalTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    // MARK: The measures, by hand

    func testNDCGUsesLinearGainAndTheIdealOfEveryJudgedDocument() {
        // a (3) at rank 1, c (2) at rank 3; d (1) is judged but not found.
        let judgements = ["a": 3, "b": 0, "c": 2, "d": 1]
        let ranking = ["a", "b", "c", "x"]
        let dcg = 3.0 + 2.0 / log2(4.0)
        let ideal = 3.0 + 2.0 / log2(3.0) + 1.0 / log2(4.0)
        XCTAssertEqual(RetrievalMetrics.ndcg(ranking, judgements: judgements), dcg / ideal, accuracy: 1e-12)
        XCTAssertEqual(RetrievalMetrics.ndcg(ranking, judgements: judgements), 0.8400, accuracy: 1e-4, "linear gain, not 2^g − 1 (that gives 0.8222)")
        XCTAssertEqual(RetrievalMetrics.recall(ranking, judgements: judgements), 2.0 / 3.0, accuracy: 1e-12, "b is judged 0: not relevant")
        XCTAssertEqual(RetrievalMetrics.reciprocalRank(["b", "x", "c"], judgements: judgements), 1.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(RetrievalMetrics.reciprocalRank(Array(repeating: "x", count: 10) + ["a"], judgements: judgements), 0,
                       "MRR@10: a first relevant document at rank 11 scores 0")
        XCTAssertEqual(RetrievalMetrics.ndcg([], judgements: judgements), 0)
    }

    // MARK: Against pytrec_eval

    /// A small BEIR dataset from the project's own notes: a record per `##` section of each
    /// Markdown note and per paragraph of the printing-press text, with graded judgements.
    func writeNotesDataset() throws -> URL {
        var records: [BEIRDataset.Record] = []
        for name in ["chain-rule", "photosynthesis"] {
            let text = try String(contentsOf: TestPaths.corpora.appendingPathComponent("notes/\(name).md"), encoding: .utf8)
            var title = "", body: [String] = [], slug = "intro"
            func flush() {
                let joined = body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                if !joined.isEmpty { records.append(.init(id: "\(name)/\(slug)", title: title, text: joined)) }
                body = []
            }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("# ") {
                    title = String(line.dropFirst(2))
                } else if line.hasPrefix("## ") {
                    flush()
                    title = String(line.dropFirst(3))
                    slug = title.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
                } else {
                    body.append(String(line))
                }
            }
            flush()
        }
        let press = try String(contentsOf: TestPaths.corpora.appendingPathComponent("notes/printing-press.txt"), encoding: .utf8)
        for (index, paragraph) in press.components(separatedBy: "\n\n").dropFirst(2).enumerated() {
            records.append(.init(id: "printing-press/p\(index + 1)", title: "The Printing Press and the Spread of Ideas", text: paragraph))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let corpus = try records.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n")
        try folder.write("notes-beir/corpus.jsonl", corpus + "\n")

        let queries: [(String, String, [String: Int])] = [
            ("q1", "how do I take the derivative of a function nested inside another",
             ["chain-rule/statement-of-the-chain-rule": 3, "chain-rule/intro": 2, "chain-rule/worked-examples": 2, "chain-rule/why-the-rule-holds": 1]),
            ("q2", "where does carbon fixation take place in the chloroplast",
             ["photosynthesis/the-calvin-cycle": 3, "photosynthesis/the-chloroplast": 2, "photosynthesis/intro": 1]),
            ("q3", "splitting water gives off oxygen",
             ["photosynthesis/the-light-dependent-reactions": 3, "photosynthesis/intro": 1]),
            ("q4", "errors students make when differentiating composite functions",
             ["chain-rule/common-mistakes": 3, "chain-rule/practice-problems": 1, "chain-rule/worked-examples": 1]),
            ("q5", "Gutenberg's metal type and his ink",
             ["printing-press/p1": 3, "printing-press/p2": 1, "chain-rule/intro": 0]),
            ("q6", "how fast does the radius of an inflating balloon grow",
             ["chain-rule/related-rates": 3, "chain-rule/practice-problems": 2]),
            ("q7", "Luther's pamphlets and the Reformation", ["printing-press/p5": 3, "printing-press/p4": 1]),
            ("q8", "scientific diagrams reproduced exactly in print",
             ["printing-press/p6": 2, "printing-press/p4": 1, "photosynthesis/review-questions": 1]),
        ]
        var queryLines: [String] = [], qrels = "query-id\tcorpus-id\tscore\n"
        for (id, text, judged) in queries {
            queryLines.append(String(decoding: try JSONSerialization.data(withJSONObject: ["_id": id, "text": text]), as: UTF8.self))
            for (doc, grade) in judged.sorted(by: { $0.key < $1.key }) { qrels += "\(id)\t\(doc)\t\(grade)\n" }
        }
        try folder.write("notes-beir/queries.jsonl", queryLines.joined(separator: "\n") + "\n")
        try folder.write("notes-beir/qrels/test.tsv", qrels)
        return folder.file("notes-beir")
    }

    /// The oracle's Python, or a skip naming `make testdeps`; present but broken is a failure.
    func oraclePython() throws -> URL {
        let python = TestPaths.packageRoot.appendingPathComponent(".venv-tests/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("\(python.path) is absent: run `make testdeps` to compare with pytrec_eval")
        }
        return python
    }

    func run(_ executable: URL, _ arguments: [String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        return try capture(process)
    }

    func lecternBinary() throws {
        try TestPaths.requireLecternBinary()
    }

    func testMeasuresMatchPytrecEvalOnTheSameRunFiles() throws {
        try lecternBinary()
        let python = try oraclePython()
        let dataset = try writeNotesDataset()
        let result = try runLectern(["eval", dataset.path, "--mode", "all", "--json", "--run-file", "run.trec"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let modes = try XCTUnwrap(report?["modes"] as? [[String: Any]])
        XCTAssertEqual(modes.compactMap { $0["mode"] as? String }, ["keyword", "semantic", "hybrid"])
        XCTAssertEqual(report?["gain"] as? String, "linear")

        let runs = ["keyword", "semantic", "hybrid"].map { folder.file("run.\($0).trec").path }
        let oracle = try run(python, [TestPaths.packageRoot.appendingPathComponent("bench/eval_oracle.py").path,
                                      dataset.appendingPathComponent("qrels/test.tsv").path] + runs)
        XCTAssertEqual(oracle.status, 0, "pytrec_eval in .venv-tests is broken (run `make testdeps`): \(oracle.stderr)")
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(oracle.stdout.utf8)) as? [String: [String: Any]])

        var compared = 0, nonZero = 0
        for (mode, run) in zip(modes, runs) {
            let theirs = try XCTUnwrap(expected[run]?["per_query"] as? [String: [String: Double]])
            let ours = try XCTUnwrap(mode["per_query"] as? [[String: Any]])
            XCTAssertEqual(ours.count, 8)
            for query in ours {
                let id = try XCTUnwrap(query["query"] as? String)
                for measure in ["ndcg@10", "recall@100", "mrr@10"] {
                    let value = try XCTUnwrap(query[measure] as? Double)
                    let reference = try XCTUnwrap(theirs[id]?[measure], "pytrec_eval has no \(measure) for \(id)")
                    XCTAssertEqual(value, reference, accuracy: 5e-5, "\(mode["mode"] ?? "") \(id) \(measure)")
                    compared += 1
                    if value > 0 && value < 1 { nonZero += 1 }
                }
            }
            let mean = try XCTUnwrap(expected[run]?["mean"] as? [String: Double])
            XCTAssertEqual(mode["ndcg@10"] as? Double ?? -1, mean["ndcg@10"] ?? -2, accuracy: 5e-5)
            XCTAssertEqual(mode["recall@100"] as? Double ?? -1, mean["recall@100"] ?? -2, accuracy: 5e-5)
            XCTAssertEqual(mode["mrr@10"] as? Double ?? -1, mean["mrr@10"] ?? -2, accuracy: 5e-5)
        }
        XCTAssertEqual(compared, 3 * 8 * 3)
        XCTAssertGreaterThan(nonZero, 10, "the comparison must exercise partial gains, not only 0 and 1")
    }

    /// Each corpus document appears once per query, ranked by its best passage, with scores
    /// that fall with rank; the plain output names the measures and modes.
    func testRunFileRanksEachDocumentOnceByItsBestPassage() throws {
        try lecternBinary()
        let dataset = try writeNotesDataset()
        var result = try runLectern(["eval", dataset.path, "--mode", "all", "--run-file", "run.trec",
                                     "--keep", "library", "--dump-passages", "passages.jsonl"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("mode        nDCG@10  Recall@100  MRR@10  ms/query  cpu ms/query"), result.stdout)
        XCTAssertTrue(result.stdout.contains("8 queries"), result.stdout)
        XCTAssertTrue(result.stdout.split(separator: "\n").contains { $0.hasPrefix("keyword ") }, result.stdout)

        var lines: [[Substring]] = []
        for mode in ["keyword", "semantic", "hybrid"] {
            let run = try String(contentsOf: folder.file("run.\(mode).trec"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
            XCTAssertFalse(run.isEmpty)
            for query in Set(run.map { String($0[0]) }) {
                let rows = run.filter { $0[0] == query }
                XCTAssertEqual(rows.map { Int($0[3]) }, Array(1...rows.count).map { $0 }, "ranks 1…n for \(query)")
                XCTAssertEqual(Set(rows.map { $0[2] }).count, rows.count, "each document once for \(query)")
                // trec_eval reads scores into 32-bit floats and breaks ties by document id.
                let scores = rows.compactMap { Float($0[4]) }
                XCTAssertEqual(zip(scores, scores.dropFirst()).filter { $0.0 <= $0.1 }.count, 0, "\(mode) scores fall strictly for \(query)")
                XCTAssertTrue(rows.allSatisfy { $0[1] == "Q0" && $0[5] == "lectern-\(mode)" })
            }
            if mode == "keyword" { lines = run }
        }
        // The query about Luther finds the paragraph about the Reformation first.
        XCTAssertEqual(lines.first { $0[0] == "q7" }?[2], "printing-press/p5")

        // The passages other rankers get carry the corpus ids, and cover every stored record.
        let passages = try String(contentsOf: folder.file("passages.jsonl"), encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let ids = Set(passages.compactMap { $0["corpus_id"] as? String })
        XCTAssertTrue(ids.contains("chain-rule/related-rates") && ids.contains("printing-press/p5"), "\(ids.sorted())")
        XCTAssertTrue(passages.allSatisfy { ($0["text"] as? String)?.isEmpty == false })

        // Again with --keep: nothing is re-ingested, the figures are the same.
        let first = result.stdout.split(separator: "\n").first { $0.hasPrefix("keyword ") }.map { $0.split(separator: " ").prefix(4) }
        result = try runLectern(["eval", dataset.path, "--mode", "all", "--keep", "library"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").first { $0.hasPrefix("keyword ") }.map { $0.split(separator: " ").prefix(4) }, first)
    }

    /// `--embedder` beats the configured embedder (MiniLM, whose model is not in the models
    /// folder given), and
    /// `--depth` is how many passages each query reads: with 2, a query ranks at most 2 documents.
    func testEmbedderAndDepthOptionsChooseTheLibraryAndTheRankingsLength() throws {
        try lecternBinary()
        let dataset = try writeNotesDataset()
        let configured = ["LECTERN_EMBEDDER": "minilm", "LECTERN_MODELS": folder.file("no-models").path]
        var result = try runLectern(["eval", dataset.path, "--mode", "semantic", "--json"], in: folder.url, environment: configured)
        XCTAssertNotEqual(result.status, 0, "the configured embedder cannot embed here: \(result.stdout)")

        result = try runLectern(["eval", dataset.path, "--mode", "semantic", "--embedder", "hashing", "--depth", "2", "--json",
                                 "--run-file", "run.trec"], in: folder.url, environment: configured)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["embedder"] as? String)?.hasPrefix("hashing"), true, "\(report["embedder"] ?? "none")")
        XCTAssertEqual(report["passage_depth"] as? Int, 2)
        let rows = try String(contentsOf: folder.file("run.trec"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        let perQuery = Dictionary(grouping: rows, by: { String($0[0]) }).mapValues(\.count)
        XCTAssertEqual(perQuery.count, 8, "every query ranks something: \(perQuery)")
        XCTAssertTrue(perQuery.values.allSatisfy { $0 <= 2 }, "two passages give at most two documents: \(perQuery)")
    }

    /// `--split dev` judges by qrels/dev.tsv: only the queries judged there are asked (the run
    /// file ranks for them alone) and the report names the split; without it, test.tsv's eight.
    func testSplitChoosesTheJudgementsAndTheQueriesAsked() throws {
        try lecternBinary()
        let dataset = try writeNotesDataset()
        try folder.write("notes-beir/qrels/dev.tsv", "query-id\tcorpus-id\tscore\n"
                         + "q2\tphotosynthesis/the-calvin-cycle\t3\nq7\tprinting-press/p5\t3\nq7\tprinting-press/p4\t1\n")
        let dev = try runLectern(["eval", dataset.path, "--split", "dev", "--mode", "keyword", "--run-file", "dev.trec"], in: folder.url)
        XCTAssertEqual(dev.status, 0, dev.stderr)
        XCTAssertTrue(dev.stdout.hasPrefix("\(dataset.path) (dev): 2 queries, "), dev.stdout)
        let asked = try String(contentsOf: folder.file("dev.trec"), encoding: .utf8).split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(Set(asked), ["q2", "q7"])

        let json = try runLectern(["eval", dataset.path, "--split", "dev", "--mode", "keyword", "--json"], in: folder.url)
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        XCTAssertEqual(report["split"] as? String, "dev")
        let keyword = try XCTUnwrap((report["modes"] as? [[String: Any]])?.first, "\(report)")
        XCTAssertEqual(keyword["queries"] as? Int, 2, "\(keyword)")

        let test = try runLectern(["eval", dataset.path, "--mode", "keyword"], in: folder.url)
        XCTAssertTrue(test.stdout.hasPrefix("\(dataset.path) (test): 8 queries, "), test.stdout)
    }

    func testMalformedDatasetIsOneLineNamingFileAndLine() throws {
        try lecternBinary()
        try folder.write("bad/corpus.jsonl", "{\"_id\": \"a\", \"title\": \"A\", \"text\": \"alpha\"}\n{not json\n")
        try folder.write("bad/queries.jsonl", "{\"_id\": \"q\", \"text\": \"alpha\"}\n")
        try folder.write("bad/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq\ta\t1\n")
        var result = try runLectern(["eval", "bad"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: bad/corpus.jsonl:2: not a JSON object\n")

        try folder.write("bad/corpus.jsonl", "{\"_id\": \"a\", \"title\": \"A\", \"text\": \"alpha\"}\n")
        try folder.write("bad/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq a 1\n")
        result = try runLectern(["eval", "bad"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("lectern: bad/qrels/test.tsv:2: expected 'query-id<TAB>corpus-id<TAB>score'"), result.stderr)

        result = try runLectern(["eval", "bad", "--split", "dev"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("lectern: bad/qrels/dev.tsv: no such file"), result.stderr)
    }

    // MARK: The evaluation set over the shared corpus

    /// The committed queries and judgements point at units `bench/eval_corpus.py` cuts from
    /// ../shared, stay paraphrases (low word overlap), split in two halves, and are answerable:
    /// plain keyword search (no model) ranks judged units high for most of them.
    func testSharedEvalSetJudgesUnitsTheCorpusHolds() throws {
        let shared = try TestPaths.sharedCorpus()
        try lecternBinary()
        let out = folder.file("shared-beir")
        let script = TestPaths.packageRoot.appendingPathComponent("bench/eval_corpus.py")
        let built = try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--shared", shared.path, "--out", out.path, "--stats"])
        XCTAssertEqual(built.status, 0, built.stderr)
        let stats = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(built.stdout.utf8)) as? [String: Any])
        XCTAssertGreaterThanOrEqual(stats["queries"] as? Int ?? 0, 80)
        XCTAssertEqual((stats["unknown_units"] as? [String])?.count, 0, "judged units the corpus does not have: \(stats["unknown_units"] ?? "")")
        let split = try XCTUnwrap(stats["split"] as? [String: Int])
        XCTAssertGreaterThanOrEqual(split["dev"] ?? 0, 40)
        XCTAssertGreaterThanOrEqual(split["test"] ?? 0, 40)
        let overlap = try XCTUnwrap(stats["overlap"] as? [String: Double])
        XCTAssertLessThanOrEqual(overlap["jaccard_relevant_text"] ?? 1, 0.3)
        XCTAssertLessThanOrEqual(overlap["jaccard_best_sentence"] ?? 1, 0.3, "queries must paraphrase, not copy, the sentences that answer them")

        let result = try runLectern(["eval", out.path, "--mode", "keyword", "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["failed_documents"] as? Int, 0)
        let keyword = try XCTUnwrap((report["modes"] as? [[String: Any]])?.first)
        XCTAssertGreaterThan(keyword["ndcg@10"] as? Double ?? 0, 0.5, "the judged units should be findable by their words")
        XCTAssertGreaterThan(keyword["recall@100"] as? Double ?? 0, 0.8)
    }
}
