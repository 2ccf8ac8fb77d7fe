import Foundation

/// At most `limit` calls in flight to one provider at once, shared by every model object in
/// the process that talks to the same endpoint, so that parallel work never floods a server
/// (or a rate-limited account).
final class ConcurrencyLimit: Sendable {
    let limit: Int
    private let semaphore: DispatchSemaphore

    init(limit: Int) {
        self.limit = max(1, limit)
        semaphore = DispatchSemaphore(value: self.limit)
    }

    func run<T>(_ body: () throws -> T) rethrows -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }

    private static let shared = Locked<[String: ConcurrencyLimit]>([:])

    /// The limit for `endpoint` (provider and base URL). The first caller's limit holds
    /// until a caller asks for a different one, which replaces it for later calls.
    static func shared(for endpoint: String, limit: Int) -> ConcurrencyLimit {
        Self.shared.withLock { shared in
            if let existing = shared[endpoint], existing.limit == max(1, limit) { return existing }
            let made = ConcurrencyLimit(limit: limit)
            shared[endpoint] = made
            return made
        }
    }
}
