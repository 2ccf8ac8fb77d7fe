import Foundation

/// Passwords for encrypted documents, chosen per file (`--password-file`): one
/// `glob<TAB>password` a line, `#` comments and blank lines ignored. A glob matches the path as
/// the user gave it, the absolute path or the file name; the first matching line wins, and a file
/// no line matches gets `--password` (if any). Passwords never appear in a message: an error
/// names the file and the line number only.
public struct PasswordFile: Sendable {
    struct Entry: Sendable {
        var glob: String
        var password: String
    }

    var entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads `path` (as the user typed it, relative to the working folder).
    public init(contentsOf path: String) throws {
        let absolute = Configuration.resolvePath(path, base: nil)
        guard let data = FileManager.default.contents(atPath: absolute) else {
            let exists = FileManager.default.fileExists(atPath: absolute)
            throw LecternError(.invalidInput, path, exists ? "cannot read the password file" : "no such password file")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), name: path)
    }

    /// Parses the lines of a password file called `name` in messages.
    init(text: String, name: String) throws {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            // The line itself is never quoted back: it holds a password.
            guard let tab = line.firstIndex(of: "\t") else {
                throw LecternError(.invalidInput, name, "expected `glob<TAB>password` (no tab on this line)", line: index + 1)
            }
            let glob = line[..<tab].trimmingCharacters(in: .whitespaces)
            guard !glob.isEmpty else {
                throw LecternError(.invalidInput, name, "expected `glob<TAB>password` (no glob before the tab)", line: index + 1)
            }
            entries.append(Entry(glob: glob, password: String(line[line.index(after: tab)...])))
        }
        self.entries = entries
    }

    /// The password of the first line whose glob matches `display` (the path as given), the
    /// absolute `path` or the file name; nil when none does.
    func password(path: String, display: String) -> String? {
        let name = (path as NSString).lastPathComponent
        return entries.first { entry in
            [display, path, name].contains { (candidate: String) in fnmatch(entry.glob, candidate, 0) == 0 }
        }?.password
    }
}

extension DocumentReader {
    /// The options for one file: its password from the password file, else `--password`.
    func options(for item: InputExpander.Item) -> ExtractOptions {
        guard let password = passwords?.password(path: item.path, display: item.display) else { return options }
        var chosen = options
        chosen.password = password
        return chosen
    }
}
