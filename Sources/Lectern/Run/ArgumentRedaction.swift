/// A command line as a run records it: secrets become `***`, so `lectern runs` and the library
/// file never hold them. Every run is recorded through this (`RunRecorder` applies it to the
/// arguments, and `Redaction.urls(in:)` to each failure's input and reason).
///
/// - the value of a secret option (`--password X`, `--api-key=X`, `--access-token X`: an option
///   whose last word is password, secret, token, key …; `--api-key-env NAME` names a variable
///   and is kept);
/// - URL credentials, wherever a URL appears, through `Redaction.urls(in:)` (the one URL
///   redaction): the login goes, key-like query values become `***` (`?api_key=***`).
enum ArgumentRedaction {
    static let secretWords: Set<String> = ["password", "passwd", "pass", "secret", "token", "key", "apikey", "credentials", "auth"]

    static func redact(_ arguments: some Sequence<String>) -> [String] {
        var recorded: [String] = []
        var hideNext = false
        for argument in arguments {
            if hideNext {
                recorded.append("***")
                hideNext = false
            } else if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") {
                let name = String(argument[..<equals])
                let value = String(argument[argument.index(after: equals)...])
                recorded.append(name + "=" + (isSecretOption(name) ? "***" : Redaction.urls(in: value)))
            } else if argument.hasPrefix("-") {
                recorded.append(argument)
                hideNext = isSecretOption(argument)
            } else {
                recorded.append(Redaction.urls(in: argument))
            }
        }
        return recorded
    }

    /// `--password`, `--api-key`, `--access-token`; not `--api-key-env` or `--max-tokens`.
    static func isSecretOption(_ option: String) -> Bool {
        guard option.hasPrefix("--") else { return false }
        let words = option.dropFirst(2).lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        return words.last.map { secretWords.contains(String($0)) } ?? false
    }
}
