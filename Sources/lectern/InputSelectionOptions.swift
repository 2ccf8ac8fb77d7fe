import ArgumentParser
import Lectern

/// `--include`, `--exclude` and `--no-default-ignore`: what `ingest` and `extract` take from
/// the folders they walk.
struct InputSelectionOptions: ParsableArguments {
    @Option(name: .customLong("include"), help: ArgumentHelp(
        "In a folder walk, take only files that match GLOB (repeatable): a name ('*.pdf') or a path below the walked folder ('week*/slides/'); a folder that matches takes what is in it. A file that matches is taken even where an ignore rule leaves it out.",
        valueName: "glob"))
    var include: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "In a folder walk, leave out files and folders that match GLOB (repeatable; gitignore syntax, 'drafts/' for folders only). Wins over --include.",
        valueName: "glob"))
    var exclude: [String] = []

    @Flag(name: .customLong("no-default-ignore"), help: "Walk folders without the default ignore list (below); .lecternignore files, --include and --exclude still apply.")
    var noDefaultIgnore = false

    func validate() throws {
        for (option, globs) in [("--include", include), ("--exclude", exclude)] {
            for glob in globs {
                if let problem = InputSelection.problem(withGlob: glob) { throw ValidationError("\(option) '\(glob)': \(problem)") }
            }
        }
    }

    var selection: InputSelection {
        InputSelection(includes: include, excludes: exclude, useDefaultIgnore: !noDefaultIgnore)
    }

    /// The paragraph `ingest --help` and `extract --help` end with, from the list the walk uses.
    static let discussion = """
        What a folder walk takes: a file or folder named on the command line, or
        matched by a glob there, is always read. Below a walked folder, --exclude
        leaves out, --include narrows, then a .lecternignore in any walked folder
        applies below it (gitignore syntax: *, **, ?, [abc]; a leading / anchors,
        a trailing / means folders, ! takes back, the last matching line wins),
        then this default list (--no-default-ignore turns it off):

        \(InputSelection.defaultIgnoreHelp)
        """

    /// "12 files left out by ignore rules", or nil when a walk left nothing out.
    static func leftOutLine(files: Int, folders: Int) -> String? {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        switch (files, folders) {
        case (0, 0): return nil
        case (_, 0): return count(files, "file") + " left out by ignore rules"
        case (0, _): return count(folders, "folder") + " left out by ignore rules"
        default: return count(files, "file") + " and " + count(folders, "folder") + " left out by ignore rules"
        }
    }
}
