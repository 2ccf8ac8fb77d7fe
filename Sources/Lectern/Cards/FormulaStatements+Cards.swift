import Foundation

extension FormulaStatements {
    /// "Newton's second law: \(F\) = ?": the relation's name and its left side. A summary line's
    /// name of one or two words ("Velocity") says where it holds with its topic's title.
    static func front(of statement: FormulaStatement, topicTitle: String = "") -> String {
        var name = statement.name.prefix(1).uppercased() + statement.name.dropFirst()
        let title = topicTitle.replacingOccurrences(of: #"^[\d.]+\s+"#, with: "", options: .regularExpression)
        if statement.fromSummaryLine, WordTokenizer.words(name).count <= 2, !title.isEmpty,
           !title.lowercased().contains(name.lowercased()) {
            name += " (\(title))"
        }
        return "\(name): \\(\(statement.lhs)\\) = ?"
    }

    /// "\(p = m\,v\) (m: the mass; v: the velocity)".
    static func back(of statement: FormulaStatement) -> String {
        statement.meanings.isEmpty ? statement.display : "\(statement.display) (\(statement.meanings.joined(separator: "; ")))"
    }

    /// Whether `text` states the relation `card` asks for: a formula card is checked by reading
    /// its passage again, as its symbols are not words the passage holds.
    static func states(_ text: String, card: Flashcard) -> Bool {
        statements(in: text).contains { card.front.hasSuffix("\\(\($0.lhs)\\) = ?") && back(of: $0) == card.back }
    }
}
