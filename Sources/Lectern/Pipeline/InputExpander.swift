import Foundation

/// Turns what a user typed (files, folders, globs) into the sources to read.
public struct InputExpander: Sendable {
    public struct Item: Sendable, Equatable {
        /// Absolute path of the file or folder.
        public var path: String
        /// How messages name it: the path relative to the working directory when inside it.
        public var display: String
        public var isDirectory: Bool
    }

    public let registry: ReaderRegistry
    public init(registry: ReaderRegistry) { self.registry = registry }

    /// Expanded items in order, and the arguments that named nothing, with the reason.
    public func expand(_ arguments: [String]) -> (items: [Item], failures: [LecternError]) {
        var items: [Item] = []
        var failures: [LecternError] = []
        var seen = Set<String>()
        func add(_ item: Item) {
            if seen.insert(item.path).inserted { items.append(item) }
        }
        for argument in arguments {
            let absolute = Configuration.resolvePath(argument, base: nil)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    walk(absolute, into: add)
                } else {
                    add(Item(path: absolute, display: Self.display(absolute), isDirectory: false))
                }
            } else if argument.contains(where: { "*?[".contains($0) }) {
                let matches = Self.glob(absolute)
                if matches.isEmpty {
                    failures.append(LecternError(.notFound, argument, "no files match this pattern"))
                }
                for match in matches {
                    var dir: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: match, isDirectory: &dir)
                    if dir.boolValue { walk(match, into: add) } else {
                        add(Item(path: match, display: Self.display(match), isDirectory: false))
                    }
                }
            } else {
                failures.append(LecternError(.notFound, argument, "no such file or directory"))
            }
        }
        return (items, failures)
    }

    /// A folder some reader claims as a whole (an OpenStax book) is one item; otherwise its
    /// files are, recursively, skipping hidden entries and Lectern's own database files.
    func walk(_ folder: String, into add: (Item) -> Void) {
        if registry.extractors.contains(where: { $0.confidence(for: SourceInput(uri: "file://" + folder, path: folder, isDirectory: true)) > 0 }) {
            add(Item(path: folder, display: Self.display(folder), isDirectory: true))
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            if name.hasSuffix(".db") || name.hasSuffix(".db-wal") || name.hasSuffix(".db-shm") { continue }
            let path = folder + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(path, into: add)
            } else {
                add(Item(path: path, display: Self.display(path), isDirectory: false))
            }
        }
    }

    public static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
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
