import Dispatch
import Foundation

/// Runs independent pieces of work side by side on a fixed number of workers: the one way
/// Lectern does parallel work (embedding batches, PDF page ranges, section summaries).
enum ParallelWork {
    /// `body(index)` for every index in `0..<count`, at most `workers` at once, each worker
    /// taking the next index when it is done. Results come back in index order, each slot
    /// written once by the worker that ran it; an error stays in its own slot.
    static func map<T>(_ count: Int, workers: Int, _ body: @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
        guard count > 0 else { return [] }
        let slots = Slots<T>(count: count)
        let width = max(1, min(workers, count))
        if width == 1 {
            for index in 0..<count { slots.fill(index, Result { try body(index) }) }
        } else {
            DispatchQueue.concurrentPerform(iterations: width) { _ in
                while let index = slots.claim() { slots.fill(index, Result { try body(index) }) }
            }
        }
        return slots.results
    }

    /// The slots workers fill, one an index, and the counter that hands indices out.
    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result<T, any Error>?]
        private var next = 0

        init(count: Int) { values = Array(repeating: nil, count: count) }

        /// The next index nobody has taken, or nil when all are taken.
        func claim() -> Int? {
            lock.withLock {
                guard next < values.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func fill(_ index: Int, _ result: Result<T, any Error>) {
            lock.withLock { values[index] = result }
        }

        /// Read once every worker has finished, so every slot is filled.
        var results: [Result<T, any Error>] { lock.withLock { values.map { $0! } } }
    }
}
