import Foundation

/// How messages and listings name a file: relative to the working directory when inside it,
/// else absolute. Every stage names files this way, so it lives here rather than in one of them.
public enum DisplayPath {
    /// `/home/me/notes/cells.md` in `/home/me` → `notes/cells.md`.
    public static func of(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
