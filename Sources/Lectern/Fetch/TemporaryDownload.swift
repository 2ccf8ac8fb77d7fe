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
        TemporaryFolders.track(path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFolders.untrack(path)
    }
}
