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

    /// The best threshold for `scored` pairs: the middle of the widest run of cut points between
    /// neighbouring scores that classifies the most pairs right (merged at or above it).
    static func bestThreshold(_ scored: [(score: Float, same: Bool)]) -> Float {
        let scores = scored.map(\.score).sorted()
        let cuts = [scores[0] - 0.01] + zip(scores, scores.dropFirst()).map { ($0 + $1) / 2 } + [scores[scores.count - 1] + 0.01]
        func right(_ cut: Float) -> Int { scored.filter { ($0.score >= cut) == $0.same }.count }
        let best = cuts.map(right).max() ?? 0
        // The widest run of consecutive best cuts; its middle leaves the most room on both sides.
        var runs: [[Float]] = [], current: [Float] = []
        for cut in cuts {
            if right(cut) == best { current.append(cut) } else if !current.isEmpty { runs.append(current); current = [] }
        }
        if !current.isEmpty { runs.append(current) }
        let widest = runs.max { ($0.last! - $0.first!) < ($1.last! - $1.first!) }!
        return (widest.first! + widest.last!) / 2
    }

    /// The threshold chosen on one half of the labelled pairs and scored on the other, both ways
    /// (halves by alternating pairs of each label, so each holds both kinds): the held-out
    /// figures say how the rule does on pairs it was not chosen on, which the test above, whose
    /// pairs chose `mergeThreshold`, cannot.
    func testAThresholdChosenOnHalfThePairsHoldsOnTheOtherHalf() throws {
        let library = try TopicLibrary.lectures()
        let pairs = try Self.labelledSet().pairs
        var scored: [(score: Float, same: Bool)] = []
        for pair in pairs {
            scored.append((TopicSimilarity.similarity(try vectors(pair.a, in: library), try vectors(pair.b, in: library)), pair.same))
        }
        func half(_ parity: Int) -> [(score: Float, same: Bool)] {
            [true, false].flatMap { label in scored.filter { $0.same == label }.enumerated().filter { $0.offset % 2 == parity }.map(\.element) }
        }
        var heldOutRight = 0, heldOutSameMerged = 0
        for (choose, score) in [(half(0), half(1)), (half(1), half(0))] {
            let threshold = Self.bestThreshold(choose)
            let right = score.filter { ($0.score >= threshold) == $0.same }.count
            let sameMerged = score.filter { $0.same && $0.score >= threshold }.count
            let differentMerged = score.filter { !$0.same && $0.score >= threshold }.count
            print(String(format: "topic merge, held out: threshold %.3f chosen on %d pairs; on the other %d: %d right, %d of %d same merged, %d of %d different merged",
                         threshold, choose.count, score.count, right, sameMerged, score.filter(\.same).count,
                         differentMerged, score.filter { !$0.same }.count))
            XCTAssertEqual(threshold, TopicSimilarity.mergeThreshold, accuracy: 0.03, "a half chooses near the shipped threshold (0.564 and 0.593)")
            heldOutRight += right
            heldOutSameMerged += sameMerged
        }
        print("topic merge, held out, both halves: \(heldOutRight) of \(pairs.count) right, \(heldOutSameMerged) of \(pairs.filter(\.same).count) same merged")
        XCTAssertGreaterThanOrEqual(heldOutRight, 23, "held-out pairs classified right (measured: 24 of 25)")
        XCTAssertEqual(heldOutSameMerged, pairs.filter(\.same).count, "every held-out same-subject pair merged")
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
