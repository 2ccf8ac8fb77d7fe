import Foundation

/// The temporary folders this process has made and not yet removed.
public enum TemporaryFolders {
    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []
        func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }
        func takeAll() -> Set<String> { lock.withLock { defer { paths = [] }; return paths } }
    }

    static let live = Registry()

    /// Lists a temporary folder a command made itself (an evaluation's library), so that a
    /// signal that stops the process at once removes it too.
    public static func track(_ path: String) { live.add(path) }

    /// The folder is gone, or no longer temporary.
    public static func untrack(_ path: String) { live.remove(path) }

    /// Removes every temporary folder still in use: for a process about to exit at once.
    public static func removeAll() {
        for path in live.takeAll() { try? FileManager.default.removeItem(atPath: path) }
    }
}
