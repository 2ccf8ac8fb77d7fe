import Foundation

/// Where every export goes (curricula, decks, evaluation runs, from the CLI and `lectern run`
/// alike): the one way Lectern writes a file a user named.
///
/// A regular file (or a name not yet taken) is written to a temporary file of its own in the
/// target's folder (`.<name>.lectern-tmp-<pid>-<random>`), synced, and renamed over the target,
/// so a reader sees the old file or the new one, never a mix; a symbolic link is followed, and
/// the file it names is replaced, not the link. A device, a FIFO or a socket (`/dev/stdout`,
/// `/dev/null`, a named pipe) is written through, never replaced; `-` is standard output.
/// Temporary files a killed write left beside the target (their pid is gone) are removed by
/// the next write of that target.
public enum OutputFile {
    /// The part of a temporary file's name after the target's own.
    static let temporaryMarker = ".lectern-tmp-"

    /// The export formats a file's extension names: an extension naming one format on a file
    /// written in another (`--format md -o x.umcf`) is refused.
    static let formatExtensions: [String: String] = [
        "umcf": "umcf", "md": "md", "markdown": "md", "json": "json", "apkg": "apkg", "tsv": "tsv", "csv": "csv",
    ]

    /// The other export format `path`'s extension names when it is not `format` (`md`, `umcf`,
    /// `apkg` …): `x.umcf` for Markdown. Nil when they agree or the extension names none
    /// (`deck.txt`), and for standard output; UMCF may be named `.json`.
    public static func formatMismatch(_ path: String, format: String) -> String? {
        let written = formatExtensions[format.lowercased()] ?? format.lowercased()
        guard descriptorAlias(path) == nil,
              let named = formatExtensions[(path as NSString).pathExtension.lowercased()], named != written,
              // UMCF is JSON: `course.umcf.json` is a fine name for it.
              !(written == "umcf" && named == "json") else { return nil }
        return named
    }

    /// Throws, naming `path`, when its extension names another format than `format` (exit
    /// status 2, before any work).
    public static func checkFormat(_ path: String, format: String) throws {
        guard let named = formatMismatch(path, format: format) else { return }
        let written = formatExtensions[format.lowercased()] ?? format.lowercased()
        throw LecternError(.invalidInput, path, "the extension says \(named), but the format is \(written): name the file .\(written) or give --format \(named)")
    }

    /// `-`, or a name of this process's standard output.
    public static func isStandardOutput(_ path: String) -> Bool {
        path == "-" || descriptorAlias(path) == STDOUT_FILENO
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names.
    /// Written to directly: opening them again would start at the file's beginning.
    static func descriptorAlias(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// The bytes of the regular file at `path`, nil when there is none (a device or a FIFO is
    /// never read: `/dev/full` would never end).
    public static func currentContents(_ path: String) -> Data? {
        guard descriptorAlias(path) == nil else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    /// Writes `data` to `path` as the type says. Throws `outputFailed` naming `path` and why
    /// (a folder, a missing folder, a full disk); the target is then as it was.
    public static func write(_ data: Data, to path: String) throws {
        if let descriptor = descriptorAlias(path) {
            try writeAll(data, to: descriptor, path: path)
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw LecternError(.outputFailed, path, "is a folder: name a file to write")
            default:
                try writeThrough(data, to: path)
                return
            }
        }
        try replace(data, at: ResolvedPath.of(path), named: path, mode: info.st_mode & S_IFMT == S_IFREG ? info.st_mode & 0o7777 : nil)
    }

    /// Opens a device or FIFO and writes to it, as `cat > /dev/…` would.
    static func writeThrough(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        try writeAll(data, to: descriptor, path: path)
    }

    /// A temporary file beside `target`, synced and renamed over it (`mode`: the old file's).
    static func replace(_ data: Data, at target: String, named path: String, mode: mode_t?) throws {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LecternError(.outputFailed, path, "cannot be written: its folder \(folder) does not exist")
        }
        removeStaleTemporaries(of: name, in: folder)
        let temporary = folder + "/." + name + temporaryMarker + "\(getpid())-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(path, errno) }
        do {
            if let mode { _ = fchmod(descriptor, mode) }
            try writeAll(data, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw failure(path, errno) }
            close(descriptor)
            guard rename(temporary, target) == 0 else { throw failure(path, errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        syncFolder(folder)
    }

    /// Syncs `folder` (empty: the current one), so that a rename into it survives a power cut.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    /// Removes `.<name>.lectern-tmp-<pid>-…` files in `folder` whose process is gone: what a
    /// write killed before its rename left behind.
    static func removeStaleTemporaries(of name: String, in folder: String) {
        let prefix = "." + name + temporaryMarker
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(),
                  !RunProcess(pid: pid, startTicks: nil).isAlive else { continue }
            unlink(folder + "/" + entry)
        }
    }

    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard var next = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                let written = Glibc.write(descriptor, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, errno)
                }
                left -= written
                next += written
            }
        }
    }

    static func failure(_ path: String, _ code: Int32) -> LecternError {
        let reason: String
        switch code {
        case ENOSPC: reason = "the disk is full (No space left on device)"
        case EISDIR: reason = "is a folder: name a file to write"
        default: reason = String(cString: strerror(code))
        }
        return LecternError(.outputFailed, path, "cannot be written: \(reason)")
    }
}
