import Foundation

/// What `lectern backup` wrote.
public struct BackupSummary: Codable, Sendable, Equatable {
    /// The library copied, as messages name it.
    public var library: String
    /// The copy, absolute.
    public var backup: String
    public var bytes: Int64
    public var documents: Int
    public var passages: Int
}

/// `lectern backup FILE`: a consistent copy of the library in one file, made with SQLite's
/// online backup API (other commands may read and write meanwhile). The copy is written to a
/// temporary file beside FILE, flushed to disk and renamed over it, so FILE is the old file or
/// the whole copy, never a part of one. FILE may not be the library itself (after symbolic
/// links and hard links), nor its `-wal`, `-shm` or run lock.
public enum LibraryBackup {
    public static func make(_ store: LibraryStore, to target: String) throws -> BackupSummary {
        let display = DisplayPath.of(target)
        try refuse(target, display: display, library: store.path)
        let folder = (target as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/." + (target as NSString).lastPathComponent + ".lectern-backup-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        // A signal that stops the process at once removes it (`TemporaryFolders.removeAll`).
        TemporaryFolders.track(temporary)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
            TemporaryFolders.untrack(temporary)
        }
        let counts = try store.copy(to: temporary, display: display)
        try flush(temporary, display: display)
        guard rename(temporary, target) == 0 else {
            throw LecternError(.writeFailed, display, "cannot write the copy: \(String(cString: strerror(errno)).lowercased())")
        }
        // The rename itself is on disk once the folder is.
        try? flush(folder.isEmpty ? "." : folder, display: display)
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: target)[.size]) as? NSNumber)?.int64Value ?? 0
        return BackupSummary(library: store.display, backup: target, bytes: bytes, documents: counts.documents, passages: counts.passages)
    }

    /// Refuses a target that would overwrite the library, its companions or a folder, or beside
    /// which a write-ahead log would be replayed into the copy.
    static func refuse(_ target: String, display: String, library: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
            throw LecternError(.invalidInput, display, "is a folder: give the file to write the copy to")
        }
        // A rename over a device or a pipe would replace the node itself (`/dev/stdout`).
        var node = stat()
        if lstat(target, &node) == 0, (node.st_mode & S_IFMT) != S_IFREG, (node.st_mode & S_IFMT) != S_IFLNK {
            throw LecternError(.invalidInput, display, "is not a regular file: give the file to write the copy to")
        }
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
            throw LecternError(.invalidInput, display, "folder \(DisplayPath.of(folder)) does not exist")
        }
        let resolvedLibrary = resolved(library)
        let resolvedTarget = resolved(target)
        for suffix in ["", "-wal", "-shm", "-journal", ".run-lock"] where resolvedTarget == resolvedLibrary + suffix {
            throw LecternError(.invalidInput, display, suffix.isEmpty ? "is the library itself: give another file for the copy"
                               : "belongs to the library (its \(suffix.dropFirst()) file): give another file for the copy")
        }
        var targetInfo = stat(), libraryInfo = stat()
        if stat(target, &targetInfo) == 0, stat(library, &libraryInfo) == 0,
           targetInfo.st_dev == libraryInfo.st_dev, targetInfo.st_ino == libraryInfo.st_ino {
            throw LecternError(.invalidInput, display, "is the library itself (a link to it): give another file for the copy")
        }
        var logInfo = stat()
        if stat(target + "-wal", &logInfo) == 0, logInfo.st_size > 0 {
            throw LecternError(.invalidInput, display, "has a write-ahead log beside it (\(DisplayPath.of(target + "-wal"))) that a program still uses: close it, or give another file")
        }
    }

    /// `path` with its folder's symbolic links and `..` resolved (the file itself too, when it is there).
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
        defer { free(real) }
        return String(cString: real) + "/" + (path as NSString).lastPathComponent
    }

    static func flush(_ path: String, display: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LecternError(.writeFailed, display, "cannot write the copy: \(String(cString: strerror(errno)).lowercased())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw LecternError(.writeFailed, display, "cannot write the copy: \(String(cString: strerror(errno)).lowercased())")
        }
    }
}
