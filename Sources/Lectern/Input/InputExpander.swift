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
    /// What a folder walk takes; files named (or matched by a glob) are always taken.
    var selection: InputSelection

    init(registry: ReaderRegistry, selection: InputSelection = InputSelection()) {
        self.registry = registry
        self.selection = selection
    }

    /// What the arguments name: the items to read in order, the arguments that named nothing
    /// (or a folder that could not be listed, a broken link) with the reason, and what folder
    /// walks left out by ignore rules.
    struct Expansion: Sendable {
        var items: [Item] = []
        var failures: [LecternError] = []
        var leftOut: [LeftOutInput] = []
    }

    /// Expanded items in order, and the arguments that named nothing, with the reason.
    func expand(_ arguments: [String]) -> (items: [Item], failures: [LecternError]) {
        let expansion = walk(arguments)
        return (expansion.items, expansion.failures)
    }

    func walk(_ arguments: [String]) -> Expansion {
        var walk = Walk(excludes: selection.excludeRules, includes: selection.includeRules)
        for argument in arguments {
            let absolute = Configuration.resolvePath(argument, base: nil)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    visitRoot(absolute, &walk)
                } else {
                    walk.add(Item(path: absolute, display: DisplayPath.of(absolute), isDirectory: false))
                }
            } else if GlobPattern.isPattern(argument) {
                let matches = Self.glob(absolute)
                if matches.isEmpty {
                    walk.failures.append(LecternError(.notFound, argument, "no files match this pattern"))
                }
                for match in matches {
                    var dir: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: match, isDirectory: &dir)
                    if dir.boolValue { visitRoot(match, &walk) } else {
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
        return Expansion(items: walk.items, failures: walk.failures, leftOut: walk.leftOut)
    }

    /// What a walk has found so far; folders are remembered by their real path, so a link
    /// back to a folder already walked (a cycle) is not walked again.
    struct Walk {
        var items: [Item] = []
        var failures: [LecternError] = []
        var leftOut: [LeftOutInput] = []
        var seenPaths = Set<String>()
        var walkedFolders = Set<String>()
        let excludes: IgnoreRules
        let includes: IgnoreRules

        mutating func add(_ item: Item) {
            if seenPaths.insert(item.path).inserted { items.append(item) }
        }
    }

    /// The rules of one folder of a walk: its `.lecternignore`, or the default list (at the root).
    struct RuleLayer {
        /// The folder's path relative to the walked root ("" for the root).
        var base: String
        var rules: IgnoreRules

        func decision(for relative: String, isDirectory: Bool) -> IgnoreDecision? {
            if base.isEmpty { return rules.decision(for: relative, isDirectory: isDirectory) }
            guard relative.hasPrefix(base + "/") else { return nil }
            return rules.decision(for: String(relative.dropFirst(base.count + 1)), isDirectory: isDirectory)
        }
    }

    /// Where a walk is: the folder's path below the root, the rule layers above it, and
    /// whether an `--include` glob matched it or a folder above it.
    struct Place {
        var relative: String
        var layers: [RuleLayer]
        var included: Bool

        func child(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
    }

    /// A folder named on the command line (or matched by a glob there): always walked.
    func visitRoot(_ folder: String, _ walk: inout Walk) {
        let layers = selection.useDefaultIgnore ? [RuleLayer(base: "", rules: InputSelection.defaultRules)] : []
        visit(folder: folder, at: Place(relative: "", layers: layers, included: walk.includes.isEmpty), &walk)
    }

    /// Whether a walk takes the entry at `relative`: the rule that leaves it out, or nil.
    /// Whether an --include glob names it (a folder then takes what is below it).
    func verdict(_ relative: String, isDirectory: Bool, at place: Place, _ walk: Walk) -> (leftOutBy: IgnorePattern?, included: Bool) {
        if case .ignored(let pattern)? = walk.excludes.decision(for: relative, isDirectory: isDirectory) {
            return (pattern, place.included)
        }
        if walk.includes.decision(for: relative, isDirectory: isDirectory) != nil { return (nil, true) }
        for layer in place.layers.reversed() {
            switch layer.decision(for: relative, isDirectory: isDirectory) {
            case .ignored(let pattern)?: return (pattern, place.included)
            case .included?: return (nil, place.included)
            case nil: continue
            }
        }
        return (nil, place.included)
    }

    /// A folder some reader claims as a whole (an OpenStax book) is one item; otherwise its
    /// files are, recursively, as the ignore rules decide (Lectern's own database files never).
    func visit(folder: String, at place: Place, _ walk: inout Walk) {
        guard walk.walkedFolders.insert(Self.realPath(folder)).inserted else { return }
        if registry.extractors.contains(where: { $0.confidence(for: SourceInput(uri: "file://" + folder, path: folder, isDirectory: true)) > 0 }) {
            // Read as one document, it is a file to --include.
            if place.included || place.relative.isEmpty {
                walk.add(Item(path: folder, display: DisplayPath.of(folder), isDirectory: true))
            } else {
                walk.leftOut.append(LeftOutInput(path: folder, display: DisplayPath.of(folder), isDirectory: true, rule: "matched by no --include"))
            }
            return
        }
        let names: [String]
        do {
            names = try Self.listFolder(folder)
        } catch {
            walk.failures.append(LecternError(.unreadable, DisplayPath.of(folder), "cannot list folder: \(error.reason)"))
            return
        }
        var place = place
        if names.contains(InputSelection.ignoreFileName) {
            let file = folder + "/" + InputSelection.ignoreFileName
            // Walking on without it would take what the user meant to leave out.
            guard let data = FileManager.default.contents(atPath: file) else {
                walk.failures.append(LecternError(.unreadable, DisplayPath.of(file), "cannot read this ignore file, so its folder is not walked"))
                return
            }
            place.layers.append(RuleLayer(base: place.relative, rules: IgnoreRules(text: String(decoding: data, as: UTF8.self), origin: DisplayPath.of(file))))
        }
        for name in names.sorted() where name != InputSelection.ignoreFileName {
            if name.hasSuffix(".db") || name.hasSuffix(".db-wal") || name.hasSuffix(".db-shm") { continue }
            let path = folder + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if Self.isSymbolicLink(path) {
                    walk.failures.append(LecternError(.notFound, DisplayPath.of(path), "broken symbolic link"))
                }
                continue
            }
            let relative = place.child(name)
            let (leftOutBy, included) = verdict(relative, isDirectory: isDirectory.boolValue, at: place, walk)
            if let leftOutBy {
                walk.leftOut.append(LeftOutInput(path: path, display: DisplayPath.of(path), isDirectory: isDirectory.boolValue, rule: leftOutBy.described))
            } else if isDirectory.boolValue {
                visit(folder: path, at: Place(relative: relative, layers: place.layers, included: included), &walk)
            } else if included {
                walk.add(Item(path: path, display: DisplayPath.of(path), isDirectory: false, foundInFolder: true))
            } else {
                walk.leftOut.append(LeftOutInput(path: path, display: DisplayPath.of(path), isDirectory: false, rule: "matched by no --include"))
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
