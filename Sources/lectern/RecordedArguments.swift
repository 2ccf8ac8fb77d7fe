/// The command line as a run records it: the value of a secret option (`--password X`,
/// `--password=X`) is replaced by `***`, so `lectern runs` and the library never hold it.
enum RecordedArguments {
    static let secretOptions: Set<String> = ["--password"]

    static func redacting(_ arguments: some Sequence<String>) -> [String] {
        var recorded: [String] = []
        var hideNext = false
        for argument in arguments {
            if hideNext {
                recorded.append("***")
                hideNext = false
            } else if secretOptions.contains(argument) {
                recorded.append(argument)
                hideNext = true
            } else if let equals = argument.firstIndex(of: "="), secretOptions.contains(String(argument[..<equals])) {
                recorded.append(argument[..<equals] + "=***")
            } else {
                recorded.append(argument)
            }
        }
        return recorded
    }
}
