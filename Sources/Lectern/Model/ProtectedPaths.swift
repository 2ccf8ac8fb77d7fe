import Foundation

/// The files an output must never replace: the library (with its `-wal`, `-shm`, vector sidecar
/// and run lock),
/// the pipeline file, and whatever a source reads. An export named by a typo (`-o cli.db`) or a
/// pipeline's `output = "notes/a.md"` would otherwise destroy the library or feed the next run
/// its own syllabus. Every path is compared after its symbolic links are resolved.
public struct ProtectedPaths: Sendable {
    enum Kind: Sendable { case file, tree, glob }

    struct Entry: Sendable {
        var path: String
        var kind: Kind
        var what: String
    }

    private var entries: [Entry] = []

    public init() {}

    /// The library at `path` and its companion files.
    public init(library path: String) {
        addLibrary(path)
    }

    /// The library file, its WAL and shared-memory files, its vector sidecar and its run lock.
    public mutating func addLibrary(_ path: String) {
        let library = ResolvedPath.of(path)
        entries.append(Entry(path: library, kind: .file, what: "the library"))
        for suffix in ["-wal", "-shm", "-journal", "-vectors", "-vectors.tmp", ".run-lock"] {
            entries.append(Entry(path: library + suffix, kind: .file, what: "the library's \(suffix.dropFirst()) file"))
        }
    }

    /// A single file (the pipeline file).
    public mutating func addFile(_ path: String, what: String) {
        entries.append(Entry(path: ResolvedPath.of(path), kind: .file, what: what))
    }

    /// Everything under a folder, whether or not it exists yet.
    public mutating func addFolder(_ path: String, what: String) {
        entries.append(Entry(path: ResolvedPath.of(path), kind: .tree, what: what))
    }

    /// What a source reads: a file, everything under a folder, or what a glob matches.
    public mutating func addSource(_ path: String, what: String) {
        if GlobPattern.isPattern(path) {
            // The glob's fixed folders resolved, its pattern kept.
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let fixedCount = parts.prefix { !GlobPattern.isPattern($0) }.count
            let fixed = parts.prefix(fixedCount).joined(separator: "/")
            let pattern = ResolvedPath.of(fixed.isEmpty ? "/" : fixed) + "/" + parts.dropFirst(fixedCount).joined(separator: "/")
            entries.append(Entry(path: pattern, kind: .glob, what: what))
            return
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        entries.append(Entry(path: ResolvedPath.of(path), kind: exists && isFolder.boolValue ? .tree : .file, what: what))
    }

    /// Why `output` must not be written (it is, or lies under, a protected path), nil when it may.
    public func refusal(for output: String) -> String? {
        let target = ResolvedPath.of(output)
        for entry in entries {
            switch entry.kind {
            case .file where target == entry.path:
                return "is \(entry.what) (\(entry.path)): an output must not overwrite it"
            case .tree where target == entry.path || target.hasPrefix(entry.path.hasSuffix("/") ? entry.path : entry.path + "/"):
                return "is inside \(entry.what) (\(entry.path)), which the run reads: write outputs elsewhere"
            case .glob where fnmatch(entry.path, target, FNM_PATHNAME) == 0 || Self.isUnderMatch(target, of: entry.path):
                return "matches \(entry.what) (\(entry.path)), which the run reads: write outputs elsewhere"
            default:
                continue
            }
        }
        return nil
    }

    /// Throws, naming `output` and why, when it must not be written (exit status 2).
    public func check(_ output: String) throws {
        if let reason = refusal(for: output) { throw LecternError(.invalidInput, output, reason) }
    }

    /// Whether a folder the glob matches holds `target` (a glob of folders reads their files).
    private static func isUnderMatch(_ target: String, of pattern: String) -> Bool {
        var folder = (target as NSString).deletingLastPathComponent
        while folder.count > 1 {
            if fnmatch(pattern, folder, FNM_PATHNAME) == 0 { return true }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return false
    }
}
