import Foundation

/// One line of a `.lecternignore` in gitignore syntax, or one `--include`/`--exclude` glob.
///
/// A pattern without a slash (other than a trailing one) matches a file or folder name at any
/// depth; one with a slash matches the path relative to the folder that holds the rules (a
/// leading slash only anchors). A trailing slash matches folders only, `!` takes back what an
/// earlier line left out, `*` and `?` never cross a slash, `**` between slashes does.
struct IgnorePattern: Sendable, Equatable {
    /// The line as written, for messages ("README.* (default ignore list)").
    let text: String
    /// Where the line comes from: "default ignore list", "notes/.lecternignore:3", "--exclude".
    let origin: String
    /// `!`: a match takes the path back in.
    let negated: Bool
    let directoryOnly: Bool
    /// Matched against the whole relative path rather than the last name in it.
    let anchored: Bool
    /// Letters match in either case (the default list: `readme.md` as well as `README.md`).
    let anyCase: Bool
    private let glob: [Unicode.Scalar]

    /// Nil for what gitignore reads as no pattern: a blank line, a `#` comment, a lone `/` or `!`.
    init?(_ line: String, origin: String, anyCase: Bool = false) {
        var body = Substring(line.hasSuffix("\r") ? String(line.dropLast()) : line)
        if body.isEmpty || body.hasPrefix("#") { return nil }
        // Trailing spaces go, unless the last is escaped with a backslash.
        while body.hasSuffix(" ") && !body.hasSuffix("\\ ") { body = body.dropLast() }
        let text = String(body)
        var negated = false
        if body.hasPrefix("!") {
            negated = true
            body = body.dropFirst()
        }
        var directoryOnly = false
        if body.hasSuffix("/") {
            directoryOnly = true
            body = body.dropLast()
        }
        let anchored = body.contains("/")
        if body.hasPrefix("/") { body = body.dropFirst() }
        guard !body.isEmpty else { return nil }
        self.text = text
        self.origin = origin
        self.negated = negated
        self.directoryOnly = directoryOnly
        self.anchored = anchored
        self.anyCase = anyCase
        glob = Array(body.unicodeScalars)
    }

    /// Whether the pattern names `relativePath` (relative to the folder holding the rules,
    /// `/`-separated, no leading slash); `!` is the caller's business.
    func matches(_ relativePath: String, isDirectory: Bool) -> Bool {
        if directoryOnly && !isDirectory { return false }
        let subject = anchored ? Substring(relativePath) : (relativePath.split(separator: "/").last ?? "")
        var matcher = Wildmatch(pattern: glob, text: Array(subject.unicodeScalars), anyCase: anyCase)
        return matcher.matches()
    }

    /// "README.* (default ignore list)": which line decided, for `--events json` and messages.
    var described: String { "\(text) (\(origin))" }
}

/// Git's wildmatch with pathname semantics, over Unicode scalars (so `?` is one character).
/// Failed (pattern, text) positions are remembered: `*a*a*a*b` cannot take exponential time.
private struct Wildmatch {
    let pattern: [Unicode.Scalar]
    let text: [Unicode.Scalar]
    let anyCase: Bool
    private var failed = Set<Int>()

    init(pattern: [Unicode.Scalar], text: [Unicode.Scalar], anyCase: Bool) {
        self.pattern = pattern
        self.text = text
        self.anyCase = anyCase
    }

    mutating func matches() -> Bool { match(0, 0) }

    private mutating func match(_ start: Int, _ at: Int) -> Bool {
        let key = start * (text.count + 1) + at
        if failed.contains(key) { return false }
        let result = matchUncached(start, at)
        if !result { failed.insert(key) }
        return result
    }

    private mutating func matchUncached(_ start: Int, _ at: Int) -> Bool {
        var p = start, t = at
        while p < pattern.count {
            switch pattern[p] {
            case "*":
                var end = p
                while end < pattern.count && pattern[end] == "*" { end += 1 }
                let boundedBefore = p == 0 || pattern[p - 1] == "/"
                let boundedAfter = end == pattern.count || pattern[end] == "/"
                if end - p >= 2 && boundedBefore && boundedAfter {
                    // `**` as a whole component: any number of folders, none included.
                    if end == pattern.count { return true }
                    if match(end + 1, t) { return true }
                    var k = t
                    while k < text.count {
                        if text[k] == "/" && match(end + 1, k + 1) { return true }
                        k += 1
                    }
                    return false
                }
                // `*` (and `**` inside a name): any run of characters within one name.
                var k = t
                while true {
                    if match(end, k) { return true }
                    if k >= text.count || text[k] == "/" { return false }
                    k += 1
                }
            case "?":
                guard t < text.count, text[t] != "/" else { return false }
                p += 1
                t += 1
            case "[":
                guard t < text.count, text[t] != "/", let (matched, next) = bracket(at: p, against: text[t]), matched else { return false }
                p = next
                t += 1
            case "\\" where p + 1 < pattern.count:
                guard t < text.count, same(pattern[p + 1], text[t]) else { return false }
                p += 2
                t += 1
            default:
                guard t < text.count, same(pattern[p], text[t]) else { return false }
                p += 1
                t += 1
            }
        }
        return t == text.count
    }

    private func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || (anyCase && a.properties.lowercaseMapping == b.properties.lowercaseMapping)
    }

    /// A `[...]` class at `start`: whether `character` is in it and where the pattern goes on;
    /// nil when it never closes (git then matches nothing).
    private func bracket(at start: Int, against character: Unicode.Scalar) -> (Bool, Int)? {
        var p = start + 1
        var negated = false
        if p < pattern.count && (pattern[p] == "!" || pattern[p] == "^") {
            negated = true
            p += 1
        }
        var found = false
        var first = true
        while p < pattern.count {
            var c = pattern[p]
            if c == "]" && !first { return (found != negated, p + 1) }
            first = false
            if c == "[", p + 1 < pattern.count, pattern[p + 1] == ":",
               let close = (p + 2..<pattern.count).first(where: { pattern[$0] == ":" && $0 + 1 < pattern.count && pattern[$0 + 1] == "]" }) {
                let name = String(String.UnicodeScalarView(pattern[(p + 2)..<close]))
                if Self.inClass(name, character) { found = true }
                p = close + 2
                continue
            }
            if c == "\\" && p + 1 < pattern.count {
                p += 1
                c = pattern[p]
            }
            if p + 2 < pattern.count && pattern[p + 1] == "-" && pattern[p + 2] != "]" {
                var high = pattern[p + 2]
                var next = p + 3
                if high == "\\" && p + 3 < pattern.count {
                    high = pattern[p + 3]
                    next = p + 4
                }
                if inRange(c, high, character) { found = true }
                p = next
                continue
            }
            if same(c, character) { found = true }
            p += 1
        }
        return nil
    }

    private func inRange(_ low: Unicode.Scalar, _ high: Unicode.Scalar, _ character: Unicode.Scalar) -> Bool {
        if (low...high).contains(character) { return true }
        guard anyCase else { return false }
        let variants = [character.properties.lowercaseMapping, character.properties.uppercaseMapping]
        return variants.contains { variant in
            variant.unicodeScalars.count == 1 && (low...high).contains(variant.unicodeScalars.first!)
        }
    }

    /// The POSIX classes git knows (`[[:digit:]]`).
    private static func inClass(_ name: String, _ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        switch name {
        case "alpha": return p.isAlphabetic
        case "digit": return ("0"..."9").contains(c)
        case "alnum": return p.isAlphabetic || ("0"..."9").contains(c)
        case "upper": return p.isUppercase
        case "lower": return p.isLowercase
        case "space": return p.isWhitespace
        case "xdigit": return p.isASCIIHexDigit
        case "punct": return c.isASCII && !p.isAlphabetic && !("0"..."9").contains(c) && c.value > 0x20 && c.value < 0x7F
        case "blank": return c == " " || c == "\t"
        case "cntrl": return c.value < 0x20 || c.value == 0x7F
        case "print": return c.value >= 0x20 && c.value != 0x7F
        case "graph": return c.value > 0x20 && c.value != 0x7F
        default: return false
        }
    }
}

/// What a set of rules says of a path: left out or taken, and by which line. No decision when
/// no line matches.
enum IgnoreDecision: Sendable, Equatable {
    case ignored(IgnorePattern)
    case included(IgnorePattern)

    var isIgnored: Bool {
        if case .ignored = self { return true }
        return false
    }

    var pattern: IgnorePattern {
        switch self {
        case .ignored(let pattern), .included(let pattern): return pattern
        }
    }
}

/// The lines of one `.lecternignore` (or any list in its syntax), in order: the last line that
/// matches a path decides, as in gitignore.
struct IgnoreRules: Sendable, Equatable {
    var patterns: [IgnorePattern]

    init(_ patterns: [IgnorePattern] = []) {
        self.patterns = patterns
    }

    /// Parses a file's text; `origin` names it in messages, with the line number added.
    init(text: String, origin: String) {
        var patterns: [IgnorePattern] = []
        var number = 0
        text.enumerateLines { line, _ in
            number += 1
            if let pattern = IgnorePattern(line, origin: "\(origin):\(number)") { patterns.append(pattern) }
        }
        self.patterns = patterns
    }

    var isEmpty: Bool { patterns.isEmpty }

    func decision(for relativePath: String, isDirectory: Bool) -> IgnoreDecision? {
        for pattern in patterns.reversed() where pattern.matches(relativePath, isDirectory: isDirectory) {
            return pattern.negated ? .included(pattern) : .ignored(pattern)
        }
        return nil
    }
}
