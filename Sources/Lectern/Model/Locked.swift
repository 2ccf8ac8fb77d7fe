import Foundation

/// A value shared between threads, reached only while its lock is held (NIO's
/// `NIOLockedValueBox` is the model). The one lock type of the library: state that threads
/// share sits in one of these instead of in a class with an `NSLock` beside its fields.
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; what `body` changes is kept.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value as it is now.
    public var current: Value {
        withLock { $0 }
    }
}

// Safe: `value` is read and written only inside `withLock`, under `lock`; so a `Locked` may be
// shared between threads whenever its `Value` may cross them. The one such claim for guarded state.
extension Locked: @unchecked Sendable where Value: Sendable {}
