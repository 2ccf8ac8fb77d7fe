/// A command line as a run records it: secrets become `***`, so `lectern runs` and the library
/// file never hold them. Every run is recorded through this (`RunRecorder` applies it to the
/// arguments, and to each failure's input and reason).
///
/// - the value of a secret option (`--password X`, `--api-key=X`, `--access-token X`: an option
///   whose last word is password, secret, token, key …; `--api-key-env NAME` names a variable
///   and is kept);
/// - URL credentials, wherever a URL appears: the userinfo (`https://***@host/`) and the values
///   of key-like query parameters (`?api_key=***`).
public enum ArgumentRedaction {
    static let secretWords: Set<String> = ["password", "passwd", "pass", "secret", "token", "key", "apikey", "credentials", "auth"]

    public static func redact(_ arguments: some Sequence<String>) -> [String] {
        var recorded: [String] = []
        var hideNext = false
        for argument in arguments {
            if hideNext {
                recorded.append("***")
                hideNext = false
            } else if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") {
                let name = String(argument[..<equals])
                let value = String(argument[argument.index(after: equals)...])
                recorded.append(name + "=" + (isSecretOption(name) ? "***" : text(value)))
            } else if argument.hasPrefix("-") {
                recorded.append(argument)
                hideNext = isSecretOption(argument)
            } else {
                recorded.append(text(argument))
            }
        }
        return recorded
    }

    /// `text` (a failed input, a reason) with the credentials of every URL in it as `***`.
    public static func text(_ text: String) -> String {
        guard text.contains("://") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard let scheme = word.range(of: "://") else { return String(word) }
            // The URL runs from its scheme to the word's end, without closing marks: the
            // parentheses or quotes of `(https://…)` stay outside.
            var start = scheme.lowerBound
            while start > word.startIndex, word[word.index(before: start)].isLetter { start = word.index(before: start) }
            var end = word.endIndex
            while end > scheme.upperBound, ")]}>'\",.;".contains(word[word.index(before: end)]) { end = word.index(before: end) }
            return String(word[..<start]) + url(String(word[start..<end])) + word[end...]
        }.joined(separator: " ")
    }

    /// `--password`, `--api-key`, `--access-token`; not `--api-key-env` or `--max-tokens`.
    static func isSecretOption(_ option: String) -> Bool {
        guard option.hasPrefix("--") else { return false }
        let words = option.dropFirst(2).lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        return words.last.map { secretWords.contains(String($0)) } ?? false
    }

    static func isSecretParameter(_ name: String) -> Bool {
        let lower = name.lowercased()
        return Redaction.secretParameters.contains(lower)
            || ["key", "token", "secret", "password", "passwd", "signature", "credential"].contains { lower.contains($0) }
    }

    /// `text` with the credentials of a URL in it as `***`, byte for byte otherwise; text that is
    /// no URL comes back as it is.
    static func url(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), !text[..<scheme.lowerBound].isEmpty,
              text[..<scheme.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return text }
        var result = String(text[..<scheme.upperBound])
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            result += "***" + authority[at...]
        } else {
            result += authority
        }
        var tail = rest[authorityEnd...]
        guard let question = tail.firstIndex(of: "?") else { return result + tail }
        result += tail[...question]
        tail = tail[tail.index(after: question)...]
        let queryEnd = tail.firstIndex(of: "#") ?? tail.endIndex
        result += tail[..<queryEnd].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), isSecretParameter(String(pair[..<equals])) else { return String(pair) }
            return pair[...equals] + "***"
        }.joined(separator: "&")
        return result + tail[queryEnd...]
    }
}
