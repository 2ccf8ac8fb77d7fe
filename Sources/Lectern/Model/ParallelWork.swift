import Dispatch
import Foundation

/// Runs independent pieces of work side by side on a fixed number of workers: the one way
/// Lectern does parallel work (embedding batches, PDF page ranges, section summaries).
enum ParallelWork {
    /// `body(index)` for every index in `0..<count`, at most `workers` at once, each worker
    /// taking the next index when it is done. Results come back in index order, each slot
    /// written once by the worker that ran it; an error stays in its own slot.
    static func map<T: Sendable>(_ count: Int, workers: Int, _ body: @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
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

    /// `body` on a thread of its own, waited for while `stop` is asked every 50 ms. A stop throws
    /// at once and leaves `body` to finish unwatched, its result unused: for C work that cannot
    /// be interrupted (poppler inside one page, which a crafted page keeps busy for minutes)
    /// when a signal is stopping the process, which ends soon after. Without a stop, `body` runs here.
    static func stoppable<T: Sendable>(_ stop: (any StopCheck)?, subject: String?, _ body: @escaping @Sendable () throws -> T) throws -> T {
        guard let stop else { return try body() }
        let slots = Slots<T>(count: 1)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            slots.fill(0, Result { try body() })
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            try stop.check(subject)
        }
        return try slots.results[0].get()
    }

    /// `aside` on a thread of its own while `here` runs on this one, both waited for: two halves
    /// of one answer that wait on different things (two sessions of a database server). The
    /// first error is `here`'s, then `aside`'s.
    static func sideBySide<A: Sendable, B>(_ aside: @escaping @Sendable () throws -> A, _ here: () throws -> B) throws -> (A, B) {
        let slots = Slots<A>(count: 1)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            slots.fill(0, Result { try aside() })
            done.signal()
        }
        let mine = Result { try here() }
        done.wait()
        let value = try mine.get()
        return (try slots.results[0].get(), value)
    }

    /// The slots workers fill, one an index, and the counter that hands indices out.
    private final class Slots<T: Sendable>: Sendable {
        private struct State {
            var values: [Result<T, any Error>?]
            var next = 0
        }
        private let state: Locked<State>

        init(count: Int) { state = Locked(State(values: Array(repeating: nil, count: count))) }

        /// The next index nobody has taken, or nil when all are taken.
        func claim() -> Int? {
            state.withLock { state in
                guard state.next < state.values.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func fill(_ index: Int, _ result: Result<T, any Error>) {
            state.withLock { $0.values[index] = result }
        }

        /// Read once every worker has finished, so every slot is filled.
        var results: [Result<T, any Error>] { state.withLock { $0.values.map { $0! } } }
    }
}
