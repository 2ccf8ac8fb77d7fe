import Foundation

/// A temporary folder for a download or an unpacked archive, removed when the value goes away.
/// Every live one is also listed, so that a process stopped at once by a signal
/// (`TemporaryDownload.removeAll()`) leaves none behind.
final class TemporaryDownload {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-download-" + UUID().uuidString).path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LecternError(.unreadable, path, "cannot create a temporary folder for the download")
        }
        TemporaryFolders.live.add(path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFolders.live.remove(path)
    }
}

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
