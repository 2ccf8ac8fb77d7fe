import XCTest
@testable import Lectern

/// The merge rule of a curriculum built from several sources, checked on a labelled set of
/// real topic pairs (Tests/Fixtures/topic-merge/pairs.json) with MiniLM vectors.
final class TopicMergeTests: XCTestCase {
    struct Selector: Decodable {
        var document: String
        var section: String?
        var lecture: Int?
        var passages: [Int]?
    }

    struct Pair: Decodable {
        var same: Bool
        var a: Selector
        var b: Selector
        var why: String
    }

    struct LabelledSet: Decodable {
        var pairs: [Pair]
    }

    static func labelledSet() throws -> LabelledSet {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/topic-merge/pairs.json")
        return try JSONDecoder().decode(LabelledSet.self, from: Data(contentsOf: url))
    }

    /// The vectors of the passages a selector names.
    func vectors(_ selector: Selector, in library: TopicLibrary) throws -> [[Float]] {
        let document = try library.document(selector.document)
        var indices = Array(document.passages.indices)
        if let section = selector.section {
            indices = indices.filter { document.passages[$0].sectionPath.contains(section) }
        }
        if let lecture = selector.lecture {
            let (_, starts) = try library.recordingJoins()
            let end = lecture + 1 < starts.count ? starts[lecture + 1] : document.passages.count
            indices = Array(starts[lecture]..<end)
        }
        if let range = selector.passages, range.count == 2 {
            indices = Array(indices[min(range[0], indices.count)..<min(range[1], indices.count)])
        }
        XCTAssertFalse(indices.isEmpty, "\(selector) names passages")
        return indices.map { document.vectors[$0] }
    }

    /// At `mergeThreshold`, `similarity` classifies at least 90% of the labelled pairs right,
    /// merges every same-subject pair and at most one different pair (the Calvin cycle and a
    /// respiration lecture, which MiniLM puts closer than mitochondria and respiration); the test
    /// prints each pair's score and the precision and recall of "same subject".
    func testMergeThresholdSeparatesTheLabelledPairs() throws {
        let library = try TopicLibrary.lectures()
        let set = try Self.labelledSet()
        var truePositives = 0, falsePositives = 0, falseNegatives = 0, correct = 0
        var lowestSame: Float = 1, highestDifferent: Float = -1
        for pair in set.pairs {
            let a = try vectors(pair.a, in: library), b = try vectors(pair.b, in: library)
            let score = TopicSimilarity.similarity(a, b)
            let merged = score >= TopicSimilarity.mergeThreshold
            print(String(format: "%@ %.3f %@", pair.same ? "same" : "diff", score, pair.why))
            if pair.same { lowestSame = min(lowestSame, score) } else { highestDifferent = max(highestDifferent, score) }
            switch (merged, pair.same) {
            case (true, true): truePositives += 1; correct += 1
            case (true, false): falsePositives += 1
            case (false, true): falseNegatives += 1
            case (false, false): correct += 1
            }
            if merged != pair.same { print("misclassified: \(pair.why) (\(score))") }
        }
        let precision = Double(truePositives) / Double(max(truePositives + falsePositives, 1))
        let recall = Double(truePositives) / Double(max(truePositives + falseNegatives, 1))
        print(String(format: "topic merge: %d pairs, %d right, precision %.2f, recall %.2f; lowest same %.3f, highest different %.3f",
                     set.pairs.count, correct, precision, recall, lowestSame, highestDifferent))
        XCTAssertGreaterThanOrEqual(Double(correct) / Double(set.pairs.count), 0.9, "at least 90% of the pairs are classified right")
        XCTAssertEqual(recall, 1, "every same-subject pair is merged")
        XCTAssertGreaterThanOrEqual(precision, 0.9, "at most one different pair in ten merged")
        XCTAssertGreaterThanOrEqual(set.pairs.filter(\.same).count, 8, "the set holds enough same-subject pairs to mean something")
        XCTAssertGreaterThanOrEqual(set.pairs.filter { !$0.same }.count, 12, "and enough different ones")
    }

    /// Where a later topic passes the threshold with several earlier ones, it joins the one whose
    /// rarer words it shares: the respiration lecture, nearer the Calvin cycle by vectors alone,
    /// joins mitochondria, the subject it teaches; and a candidate under the threshold is never
    /// chosen, however many words it shares.
    func testTheSharedWordsChooseAmongTheTopicsThatPass() throws {
        let library = try TopicLibrary.lectures()
        func profile(_ document: String, _ section: String? = nil) throws -> TopicSimilarity.Profile {
            let passages = try library.document(document).passages.indices.filter {
                section.map(try! library.document(document).passages[$0].sectionPath.contains) ?? true
            }
            let doc = try library.document(document)
            return TopicSimilarity.Profile(vectors: passages.map { doc.vectors[$0] }, texts: passages.map { doc.passages[$0].text })
        }
        let weights = TopicSimilarity.WordWeights(passages: library.documents.flatMap { $0.passages.map(\.text) })
        let lecture = try profile("cell-respiration-lecture.vtt")
        let calvin = try profile("photosynthesis.md", "The Calvin cycle"), mitochondria = try profile("cell-biology-notes.pdf", "2 Mitochondria")
        XCTAssertGreaterThan(TopicSimilarity.similarity(calvin.vectors, lecture.vectors), TopicSimilarity.similarity(mitochondria.vectors, lecture.vectors),
                             "vectors alone put the lecture nearer the Calvin cycle (what this test is about)")
        let chosen = try XCTUnwrap(TopicSimilarity.bestCandidate(for: lecture, among: [calvin, mitochondria], threshold: TopicSimilarity.mergeThreshold,
                                                                 weights: weights))
        XCTAssertEqual(chosen.index, 1, "the lecture joins mitochondria")
        XCTAssertNil(TopicSimilarity.bestCandidate(for: lecture, among: [calvin, mitochondria], threshold: 0.7, weights: weights))
        let membrane = try profile("cell-biology-notes.pdf", "1 The Cell Membrane")
        XCTAssertEqual(TopicSimilarity.bestCandidate(for: lecture, among: [membrane, calvin], threshold: TopicSimilarity.mergeThreshold,
                                                     weights: weights)?.index, 1, "the membrane is under the threshold")
    }

    /// Similarity is symmetric, 1 for a topic with itself, and 0 for a topic with no vectors.
    func testSimilarityIsSymmetricAndBounded() {
        let a: [[Float]] = [[1, 0, 0], [0.8, 0.6, 0]], b: [[Float]] = [[0, 1, 0]]
        XCTAssertEqual(TopicSimilarity.similarity(a, b), TopicSimilarity.similarity(b, a), accuracy: 1e-6)
        XCTAssertEqual(TopicSimilarity.similarity(a, a), 1, accuracy: 1e-5)
        XCTAssertEqual(TopicSimilarity.similarity(a, []), 0)
    }
}
