import Foundation

/// Turns what a user typed (files, folders, globs) into the sources to read.
struct InputExpander: Sendable {
    struct Item: Sendable, Equatable {
        /// Absolute path of the file or folder.
        var path: String
        /// How messages name it: the path relative to the working directory when inside it.
        var display: String
        var isDirectory: Bool
        /// Found by walking a folder rather than named: a file of a shape no reader knows is
        /// passed over with a warning, where a file named so is an error.
        var foundInFolder = false
    }

    let registry: ReaderRegistry
    init(registry: ReaderRegistry) { self.registry = registry }

    /// Expanded items in order, and the arguments that named nothing (or a folder that could
    /// not be listed, a broken link), with the reason.
    func expand(_ arguments: [String]) -> (items: [Item], failures: [LecternError]) {
        var walk = Walk()
        for argument in arguments {
            let absolute = Configuration.resolvePath(argument, base: nil)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    visit(folder: absolute, &walk)
                } else {
                    walk.add(Item(path: absolute, display: DisplayPath.of(absolute), isDirectory: false))
                }
            } else if argument.contains(where: { "*?[".contains($0) }) {
                let matches = Self.glob(absolute)
                if matches.isEmpty {
                    walk.failures.append(LecternError(.notFound, argument, "no files match this pattern"))
                }
                for match in matches {
                    var dir: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: match, isDirectory: &dir)
                    if dir.boolValue { visit(folder: match, &walk) } else {
                        walk.add(Item(path: match, display: DisplayPath.of(match), isDirectory: false))
                    }
                }
            } else if Self.isSymbolicLink(absolute) {
                walk.failures.append(LecternError(.notFound, argument, "broken symbolic link"))
            } else if let problem = SourceSpec.problem(with: argument) {
                walk.failures.append(LecternError(.invalidInput, argument, problem))
            } else {
                walk.failures.append(LecternError(.notFound, argument, "no such file or directory"))
            }
        }
        return (walk.items, walk.failures)
    }

    /// What a walk has found so far; folders are remembered by their real path, so a link
    /// back to a folder already walked (a cycle) is not walked again.
    struct Walk {
        var items: [Item] = []
        var failures: [LecternError] = []
        var seenPaths = Set<String>()
        var walkedFolders = Set<String>()

        mutating func add(_ item: Item) {
            if seenPaths.insert(item.path).inserted { items.append(item) }
        }
    }

    /// A folder some reader claims as a whole (an OpenStax book) is one item; otherwise its
    /// files are, recursively, skipping hidden entries and Lectern's own database files.
    func visit(folder: String, _ walk: inout Walk) {
        guard walk.walkedFolders.insert(Self.realPath(folder)).inserted else { return }
        if registry.extractors.contains(where: { $0.confidence(for: SourceInput(uri: "file://" + folder, path: folder, isDirectory: true)) > 0 }) {
            walk.add(Item(path: folder, display: DisplayPath.of(folder), isDirectory: true))
            return
        }
        let names: [String]
        do {
            names = try Self.listFolder(folder)
        } catch {
            walk.failures.append(LecternError(.unreadable, DisplayPath.of(folder), "cannot list folder: \(error.reason)"))
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            if name.hasSuffix(".db") || name.hasSuffix(".db-wal") || name.hasSuffix(".db-shm") { continue }
            let path = folder + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if Self.isSymbolicLink(path) {
                    walk.failures.append(LecternError(.notFound, DisplayPath.of(path), "broken symbolic link"))
                }
                continue
            }
            if isDirectory.boolValue {
                visit(folder: path, &walk)
            } else {
                walk.add(Item(path: path, display: DisplayPath.of(path), isDirectory: false, foundInFolder: true))
            }
        }
    }

    struct ListingError: Error { var reason: String }

    /// The names in a folder, or the system's reason why it cannot be listed.
    static func listFolder(_ folder: String) throws(ListingError) -> [String] {
        guard let directory = opendir(folder) else {
            throw ListingError(reason: String(cString: strerror(errno)).lowercased())
        }
        defer { closedir(directory) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { throw ListingError(reason: String(cString: strerror(errno)).lowercased()) }
        return names
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Foundation.glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for i in 0..<Int(result.gl_pathc) {
            if let cString = result.gl_pathv[i] { paths.append(String(cString: cString)) }
        }
        return paths.sorted()
    }
}
