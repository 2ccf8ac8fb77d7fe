import Foundation

/// Where an ingest may read from, for an ingest asked for by someone other than the user
/// (`lectern mcp --allow-ingest DIR… [--allow-urls]`: a client that is a language model, whose
/// input may carry a prompt injection). Files only under the named folders, judged by their
/// real path (symbolic links and `..` resolved), so a link inside a folder to `/etc/shadow` or a
/// credentials file is refused too; URLs and `wikipedia:` / `openstax:` / `ocw:` specs only when
/// `allowsWeb` (they reach any host the machine can, loopback and intranet included).
public struct IngestScope: Sendable, Equatable {
    /// The folders, by their real paths.
    public let folders: [String]
    public let allowsWeb: Bool

    /// `folders` as given (relative to the working folder, `~` allowed); each must be a folder.
    public init(folders: [String], allowsWeb: Bool) throws {
        self.folders = try folders.map { folder in
            let absolute = Configuration.resolvePath(folder, base: nil)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue else {
                throw LecternError(.invalidInput, folder, "no such folder (--allow-ingest names the folders the ingest tool may read)")
            }
            return Self.realPath(absolute) ?? absolute
        }
        self.allowsWeb = allowsWeb
    }

    /// The folders as a list for messages.
    public var described: String {
        folders.isEmpty ? "none" : folders.joined(separator: ", ")
    }

    /// Why `argument` (a path, glob, URL or spec, as an ingest takes it) may not be read, or nil.
    /// A glob is judged by the folder it starts from, after `..` climbs out of it; what it
    /// matches is judged again, file by file, after it is expanded (`refusal(ofFound:)`).
    public func refusal(of argument: String) -> LecternError? {
        if SourceSpec.parse(argument) != nil {
            return allowsWeb ? nil : LecternError(.invalidInput, argument, "web sources are off: this server was started without --allow-urls")
        }
        let absolute = Self.lexicallyNormal(Configuration.resolvePath(argument, base: nil))
        var fixed: [String] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if GlobPattern.isPattern(component) { break }
            fixed.append(String(component))
        }
        return isInside(Self.resolvedExisting("/" + fixed.joined(separator: "/"))) ? nil : outside(argument)
    }

    /// Why a file or folder an ingest found (named, matched by a glob, met in a folder walk) may
    /// not be read, or nil. A folder read as one document is refused when anything in it leads out.
    func refusal(ofFound path: String, display: String, isDirectory: Bool) -> LecternError? {
        guard let real = Self.realPath(path), isInside(real) else { return outside(display) }
        guard isDirectory else { return nil }
        var seen: Set<String> = [real]
        var pending = [path]
        while let folder = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names {
                let entry = folder + "/" + name
                guard let resolved = Self.realPath(entry) else { continue }
                guard isInside(resolved) else { return outside(DisplayPath.of(entry)) }
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: entry, isDirectory: &isFolder), isFolder.boolValue, seen.insert(resolved).inserted {
                    pending.append(entry)
                }
            }
        }
        return nil
    }

    func outside(_ subject: String) -> LecternError {
        LecternError(.invalidInput, subject, "outside the folders this server may ingest from (\(described))")
    }

    func isInside(_ path: String) -> Bool {
        folders.contains { folder in path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/") }
    }

    /// `path` (absolute) with `.` and `..` taken away by their meaning in the text alone.
    static func lexicallyNormal(_ path: String) -> String {
        var parts: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(component)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The real path of the longest part of `path` that exists, with the rest of `path` after it.
    static func resolvedExisting(_ path: String) -> String {
        var head = path, tail: [String] = []
        while head != "/" && !head.isEmpty {
            if let real = realPath(head) { return ([real == "/" ? "" : real] + tail).joined(separator: "/") }
            tail.insert((head as NSString).lastPathComponent, at: 0)
            head = (head as NSString).deletingLastPathComponent
        }
        return "/" + tail.joined(separator: "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
