import Foundation

/// A path with every symbolic link resolved, as the kernel will follow it: for a file that
/// does not exist yet, its nearest existing folder resolved and the rest appended. Two
/// spellings of one file (`lib.db`, `./link-to/lib.db`) resolve to the same string.
enum ResolvedPath {
    static func of(_ path: String) -> String {
        of(path, depth: 0)
    }

    private static func of(_ path: String, depth: Int) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let standard = (absolute as NSString).standardizingPath
        guard standard != "/", depth < 40 else { return standard }
        // A dangling link: where it points is where a write would land.
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: standard) {
            let base = (standard as NSString).deletingLastPathComponent
            return of(target.hasPrefix("/") ? target : base + "/" + target, depth: depth + 1)
        }
        let parent = of((standard as NSString).deletingLastPathComponent, depth: depth + 1)
        return (parent == "/" ? "" : parent) + "/" + (standard as NSString).lastPathComponent
    }
}
