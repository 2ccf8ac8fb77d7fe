import Foundation

/// Renews a worker's lease on its job in the background while the job is done, every third
/// of the lease: a job longer than its lease stays with its worker, and a worker that dies
/// stops renewing, so its job goes to another worker once the lease ends.
final class LeaseKeeper: Sendable {
    private let stopping = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// `renew` returns false when the lease was lost (another worker holds the job now): no
    /// more renewing then.
    init(every interval: Double, renew: @escaping @Sendable () -> Bool) {
        Thread.detachNewThread { [stopping, stopped] in
            while stopping.wait(timeout: .now() + interval) == .timedOut {
                if !renew() { break }
            }
            stopped.signal()
        }
    }

    /// Stops renewing, and returns once the renewing thread has ended.
    func stop() {
        stopping.signal()
        stopped.wait()
    }
}
