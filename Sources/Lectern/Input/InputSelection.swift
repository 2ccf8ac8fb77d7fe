import Foundation

/// What a folder walk takes, decided as git and ripgrep decide it: `--exclude` globs first, then
/// `--include` globs, then the `.lecternignore` files of the walked folders (a deeper one before
/// the one above it), then the default ignore list. A file or folder named on the command line,
/// or matched by a glob given there, is always read.
public struct InputSelection: Sendable, Equatable {
    /// Globs a file must match (itself, or a folder it is in) to be taken from a walk; one it
    /// matches itself is taken even where an ignore rule would leave it out.
    public var includes: [String]
    /// Globs of files and folders a walk leaves out, whatever else says.
    public var excludes: [String]
    /// The default ignore list: READMEs, licences, changelogs, data tables, hidden files and
    /// JSON that no reader recognises.
    public var useDefaultIgnore: Bool

    public init(includes: [String] = [], excludes: [String] = [], useDefaultIgnore: Bool = true) {
        self.includes = includes
        self.excludes = excludes
        self.useDefaultIgnore = useDefaultIgnore
    }

    /// The file in any walked folder whose lines (gitignore syntax) apply below that folder.
    public static let ignoreFileName = ".lecternignore"

    /// One line of the default ignore list: its patterns and what they leave out.
    struct DefaultEntry: Sendable {
        var patterns: [String]
        var anyCase: Bool
        var what: String
    }

    /// What is not learning material. `CHANGES` and `HISTORY` are capitals only: a student's
    /// `history.md` is notes, a project's `HISTORY.md` is not.
    static let defaultIgnoreList: [DefaultEntry] = [
        DefaultEntry(patterns: ["README", "README.*"], anyCase: true, what: "read-me files"),
        DefaultEntry(patterns: ["LICENSE", "LICENSE.*", "LICENSE-*", "LICENCE", "LICENCE.*"], anyCase: true, what: "licences"),
        DefaultEntry(patterns: ["COPYING", "COPYING.*"], anyCase: true, what: "licences"),
        DefaultEntry(patterns: ["CHANGELOG", "CHANGELOG.*"], anyCase: true, what: "changelogs"),
        DefaultEntry(patterns: ["CHANGES", "CHANGES.*", "HISTORY", "HISTORY.*"], anyCase: false, what: "changelogs (capitals only)"),
        DefaultEntry(patterns: ["*.csv", "*.tsv"], anyCase: true, what: "data tables"),
        DefaultEntry(patterns: [".*"], anyCase: false, what: "hidden files and folders"),
    ]

    static let unrecognisedJSON = "JSON that no reader recognises"
    static let defaultOrigin = "default ignore list"

    static let defaultRules = IgnoreRules(defaultIgnoreList.flatMap { entry in
        entry.patterns.compactMap { IgnorePattern($0, origin: defaultOrigin, anyCase: entry.anyCase) }
    })

    /// The default list as `lectern ingest --help` prints it, from the constant the walk uses.
    /// Every command's start makes it (the argument parser reads each command's help), so it
    /// pads in Swift: Foundation's `padding(toLength:)` was 3% of a `lectern stats` call.
    public static var defaultIgnoreHelp: String {
        let rows = defaultIgnoreList.map { (patterns: $0.patterns.joined(separator: " "), what: $0.what + ($0.anyCase ? ", any case" : "")) }
        let width = rows.map(\.patterns.count).max() ?? 0
        let lines = rows.map { "  " + $0.patterns + String(repeating: " ", count: width - $0.patterns.count) + "   " + $0.what }
        return (lines + ["  " + unrecognisedJSON + " (settings, metadata)"]).joined(separator: "\n")
    }

    var excludeRules: IgnoreRules { IgnoreRules(excludes.compactMap { IgnorePattern($0, origin: "--exclude") }) }
    var includeRules: IgnoreRules { IgnoreRules(includes.compactMap { IgnorePattern($0, origin: "--include") }) }

    /// A glob of `--include`/`--exclude` that is no pattern: empty, a comment, or a `!` line
    /// (on the command line, take a file back with --include).
    public static func problem(withGlob glob: String) -> String? {
        if glob.hasPrefix("!") { return "a glob cannot start with '!': to take a file back, use --include" }
        if IgnorePattern(glob, origin: "") == nil { return "not a glob (empty, or a # comment)" }
        return nil
    }
}

/// A file or folder a walk left out, and the rule that did.
struct LeftOutInput: Sendable, Equatable {
    var path: String
    var display: String
    var isDirectory: Bool
    /// "README.* (default ignore list)", "drafts/ (notes/.lecternignore:2)".
    var rule: String
}
