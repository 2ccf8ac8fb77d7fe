import Foundation

/// Keeps requests to one host at least `interval` seconds apart, across threads, so that a
/// crawl of many pages stays polite. Different hosts do not wait for each other.
final class RateLimiter: Sendable {
    let interval: Double
    private let nextSlot = Locked<[String: Date]>([:])
    /// How a wait is made: the real clock, unless a test records the pauses instead.
    private let pause: HTTPClient.Pause

    convenience init(interval: Double) {
        self.init(interval: interval, pause: HTTPClient.sleep)
    }

    init(interval: Double, pause: @escaping HTTPClient.Pause) {
        self.interval = interval
        self.pause = pause
    }

    /// Blocks until a request to `url`'s host may go, and books the next slot.
    func wait(for url: String) {
        let host = URLComponents(string: url)?.host?.lowercased() ?? url
        let now = Date()
        let slot = nextSlot.withLock { nextSlot in
            let slot = max(now, nextSlot[host] ?? now)
            nextSlot[host] = slot.addingTimeInterval(interval)
            return slot
        }
        let wait = slot.timeIntervalSince(now)
        if wait > 0 { pause(wait) }
    }
}
