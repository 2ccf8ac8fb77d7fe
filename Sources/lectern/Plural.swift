/// English plurals of the counted words the commands print: "1 passage", "2 passages".
enum Plural {
    static func word(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }

    /// The count and its word: `counted(1, "warning")` is "1 warning".
    static func counted(_ count: Int, _ word: String) -> String { "\(count) " + Self.word(count, word) }
}
