import Foundation

/// Keeps requests to one host at least `interval` seconds apart, across threads, so that a
/// crawl of many pages stays polite. Different hosts do not wait for each other.
public final class RateLimiter: @unchecked Sendable {
    public let interval: Double
    private let lock = NSLock()
    private var nextSlot: [String: Date] = [:]

    public init(interval: Double) {
        self.interval = interval
    }

    /// Blocks until a request to `url`'s host may go, and books the next slot.
    public func wait(for url: String) {
        let host = URLComponents(string: url)?.host?.lowercased() ?? url
        lock.lock()
        let now = Date()
        let slot = max(now, nextSlot[host] ?? now)
        nextSlot[host] = slot.addingTimeInterval(interval)
        lock.unlock()
        let pause = slot.timeIntervalSince(now)
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
    }
}
