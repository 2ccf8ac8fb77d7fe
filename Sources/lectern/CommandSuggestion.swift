import ArgumentParser
import Lectern

/// "Did you mean": for `lectern serach foo`, the word that is no subcommand where one was
/// expected, and the subcommands it is a typing slip away from.
enum CommandSuggestion {
    struct Unknown: Equatable {
        /// The word typed.
        var word: String
        /// The command it was typed after (`lectern`, `lectern curriculum`).
        var command: String
        /// The closest subcommand names, nearest first; empty when none is close.
        var suggestions: [String]

        var message: String {
            let hint = suggestions.isEmpty ? "`\(command) --help` lists them"
                : "did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
            return "\(command): '\(word)' is not a command: \(hint)"
        }
    }

    /// Walks the leading words of `arguments` down the command tree; nil when they name
    /// commands all the way (the error is then about something else).
    static func unknownSubcommand(_ arguments: [String]) -> Unknown? {
        var command: ParsableCommand.Type = LecternCommand.self
        var path = [LecternCommand._commandName]
        for argument in arguments {
            if argument.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty || command.configuration.defaultSubcommand != nil { return nil }
            if let next = subcommands.first(where: { $0._commandName == argument || $0.configuration.aliases.contains(argument) }) {
                command = next
                path.append(argument)
                continue
            }
            return Unknown(word: argument, command: path.joined(separator: " "),
                           suggestions: closest(argument, among: subcommands.map { $0._commandName }))
        }
        return nil
    }

    /// At most two names a few edits from `word` (or that it begins), nearest first.
    static func closest(_ word: String, among names: [String]) -> [String] {
        let typed = word.lowercased()
        let limit = max(1, min(3, typed.count / 3))
        var scored: [(String, Int)] = []
        for name in names {
            let distance = transposingDistance(typed, name)
            if distance <= limit || (typed.count >= 2 && name.hasPrefix(typed)) { scored.append((name, distance)) }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return scored.prefix(2).map { $0.0 }
    }

    /// Edits between two words where swapping two neighbouring letters is one edit (the usual
    /// slip: "serach"), not two as in `EditDistance`.
    static func transposingDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
