import Foundation
import XCTest
@testable import Lectern

/// The one way Lectern runs work side by side (embedding batches now; PDF page ranges and
/// section summaries can follow): every result lands in its own place, a failure stays with
/// the piece that failed, and no more pieces run at once than asked.
final class ParallelWorkTests: XCTestCase {
    func testResultsKeepTheirOrderAndAFailureOnlyItsOwnPiece() {
        let results = ParallelWork.map(40, workers: 3) { index -> Int in
            if index == 7 { throw LecternError(.corrupt, "piece 7", "unreadable") }
            usleep(UInt32(1000 * (index % 4)))  // finishing out of order
            return index * index
        }
        XCTAssertEqual(results.count, 40)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let value): XCTAssertEqual(value, index * index, "piece \(index)")
            case .failure(let error): XCTAssertEqual(index, 7, "\(error)")
            }
        }
        XCTAssertThrowsError(try results[7].get()) { XCTAssertEqual("\($0)", "piece 7: unreadable") }
    }

    func testNoMoreRunAtOnceThanTheWorkersAsked() {
        for workers in [1, 2, 3] {
            let gauge = InFlight()
            let results = ParallelWork.map(12, workers: workers) { _ in gauge.during { usleep(10_000) } }
            XCTAssertEqual(results.count, 12)
            XCTAssertLessThanOrEqual(gauge.most, workers)
            if workers == 1 { XCTAssertEqual(gauge.most, 1) }
            // Sleeping pieces overlap on any machine with two cores: the work is really shared.
            if workers == 2, ProcessInfo.processInfo.activeProcessorCount >= 2 { XCTAssertEqual(gauge.most, 2) }
        }
        XCTAssertEqual(ParallelWork.map(0, workers: 4) { $0 }.count, 0)
    }

    /// A user's vectors do not depend on how many cores embedded them: one worker and
    /// several pack the batches differently and still put every vector in its text's place.
    func testMiniLMGivesTheSameVectorsOnOneWorkerAsOnSeveral() throws {
        let several = try MiniLMFixtures.embedder()
        try XCTSkipUnless(several.parallelism > 1, "one core here: one worker is all there is")
        let one = try MiniLMEmbedder(directory: MiniLMFixtures.modelDirectory(), parallelism: 1)
        let texts = try MiniLMFixtures.reference().passages.prefix(24).map(\.text)
        for (index, (a, b)) in zip(try one.embed(texts), try several.embed(texts)).enumerated() {
            let cosine = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            XCTAssertGreaterThan(cosine, 0.99999, "text \(index)")
        }
    }
}

/// Counts the pieces running at once and the most seen.
private final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0

    func during(_ body: () -> Void) {
        lock.withLock { now += 1; most = max(most, now) }
        body()
        lock.withLock { now -= 1 }
    }
}
