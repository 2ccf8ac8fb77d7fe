import XCTest
@testable import Lectern

/// Transcripts and pages without structure cut into topics where their subject shifts, on real
/// lectures embedded with MiniLM (the default embedder).
final class TopicSegmentationTests: XCTestCase {
    func assertCovers(_ segments: [Range<Int>], _ count: Int, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(segments.first?.lowerBound, 0, name, file: file, line: line)
        XCTAssertEqual(segments.last?.upperBound, count, name, file: file, line: line)
        for (a, b) in zip(segments, segments.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound, name, file: file, line: line) }
        XCTAssertTrue(segments.allSatisfy { !$0.isEmpty }, name, file: file, line: line)
    }

    /// A long real lecture (OCW 8.01SC "Friction at the Nanoscale", ~5,000 words) gives several
    /// topics, none of one passage, none outside the size bounds; the shared subtitles (~1,000
    /// words each) give one or two, never one a passage.
    func testRealLecturesAreCutIntoSeveralTopicsNotOnePerPassage() throws {
        let library = try TopicLibrary.lectures()
        let (recording, starts) = try library.recordingJoins()
        let lecture = starts[1]..<starts[2]
        let vectors = Array(recording.vectors[lecture]), tokens = Array(recording.tokenCounts[lecture])
        let segments = TopicSegmentation.segments(vectors: vectors, tokenCounts: tokens)
        print("friction: \(vectors.count) passages, \(tokens.reduce(0, +)) tokens → \(segments.count) topics \(segments)")
        assertCovers(segments, vectors.count, "friction")
        XCTAssertGreaterThanOrEqual(segments.count, 3, "a 5,000-word lecture holds several subjects")
        XCTAssertLessThanOrEqual(segments.count, vectors.count / 3, "never one topic per passage")
        for segment in segments {
            let size = segment.map { tokens[$0] }.reduce(0, +)
            XCTAssertGreaterThan(segment.count, 1, "no topic is a single passage: \(segment)")
            XCTAssertLessThanOrEqual(size, TopicSegmentation.maximumTokens, "\(segment)")
            XCTAssertGreaterThanOrEqual(size, TopicSegmentation.minimumTokens, "\(segment)")
        }
        for document in library.documents where document.uri.hasSuffix(".srt") || document.uri.hasSuffix(".vtt") {
            let segments = TopicSegmentation.segments(vectors: document.vectors, tokenCounts: document.tokenCounts)
            let name = URL(string: document.uri)?.lastPathComponent ?? document.uri
            print("\(name): \(document.passages.count) passages, \(document.tokenCounts.reduce(0, +)) tokens → \(segments)")
            assertCovers(segments, document.passages.count, name)
            XCTAssertTrue(segments.count <= 2 && (segments.count == 1 || segments.allSatisfy { $0.count > 1 }), "\(name): \(segments)")
        }
    }

    /// Three unrelated lectures recorded one after the other (transfer learning, friction at
    /// the nanoscale, the carbon footprint of Transformers) are cut at both joins, within one
    /// passage: one recording's passages, embedded under one header, so nothing but the words
    /// tells where a lecture ends.
    func testUnrelatedLecturesRecordedInARowAreCutAtTheJoins() throws {
        let library = try TopicLibrary.lectures()
        let (recording, starts) = try library.recordingJoins()
        let segments = TopicSegmentation.segments(vectors: recording.vectors, tokenCounts: recording.tokenCounts)
        print("recording: joins at \(starts) of \(recording.passages.count) → \(segments)")
        assertCovers(segments, recording.passages.count, "recording")
        let cuts = segments.dropFirst().map(\.lowerBound)
        for join in starts.dropFirst() {
            let nearest = cuts.min { abs($0 - join) < abs($1 - join) } ?? 0
            XCTAssertLessThanOrEqual(abs(nearest - join), 1, "a cut at the join (\(join)): \(segments)")
        }
    }

    /// Edge cases a builder meets: nothing, one passage, a short lecture, a gap-free run.
    func testSmallInputsStayOneTopic() {
        XCTAssertEqual(TopicSegmentation.segments(vectors: [], tokenCounts: []), [])
        XCTAssertEqual(TopicSegmentation.segments(vectors: [[1, 0]], tokenCounts: [200]), [0..<1])
        let same = [[Float]](repeating: [1, 0, 0], count: 3)
        XCTAssertEqual(TopicSegmentation.segments(vectors: same, tokenCounts: [200, 200, 200]), [0..<3],
                       "600 tokens are too few for two topics of the minimum size")
        // Twenty identical passages (4,000 tokens): no subject shift, so only the maximum size cuts.
        let long = [[Float]](repeating: [1, 0, 0], count: 20)
        let segments = TopicSegmentation.segments(vectors: long, tokenCounts: .init(repeating: 200, count: 20))
        XCTAssertTrue(segments.allSatisfy { $0.count * 200 <= TopicSegmentation.maximumTokens }, "\(segments)")
        XCTAssertEqual(segments.count, 2, "\(segments)")
    }
}
