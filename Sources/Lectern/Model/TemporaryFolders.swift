import Foundation

/// The temporary folders this process has made and not yet removed.
public enum TemporaryFolders {
    static let live = Locked<Set<String>>([])

    /// Lists a temporary folder a command made itself (an evaluation's library), so that a
    /// signal that stops the process at once removes it too.
    public static func track(_ path: String) { live.withLock { _ = $0.insert(path) } }

    /// The folder is gone, or no longer temporary.
    public static func untrack(_ path: String) { live.withLock { _ = $0.remove(path) } }

    /// Removes every temporary folder still in use: for a process about to exit at once.
    public static func removeAll() {
        for path in live.withLock({ paths in defer { paths = [] }; return paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
