import Foundation

/// A source's own learning objectives (an OpenStax module's "Learning Objectives" list), as
/// statements a learner reads: "Explain the difference between …".
enum SourceObjectives {
    static func objectives(in passages: [Passage]) -> [String] {
        var statements: [String] = []
        var seen = Set<String>()
        for passage in passages where passage.kind == .objective {
            for line in passage.text.split(separator: "\n") {
                let statement = clean(String(line))
                // The lead-in ("By the end of this section, you will be able to:") and heading
                // lines ("Learning Objectives") are not objectives; "Describe positivism" is.
                guard !statement.isEmpty, !statement.hasSuffix(":"), statement.split(separator: " ").count >= 2,
                      !["learning objectives", "learning objective", "objectives"].contains(statement.lowercased()) else { continue }
                if seen.insert(statement.lowercased()).inserted { statements.append(statement) }
            }
        }
        return statements
    }

    /// Without a list mark or trailing full stop, starting with a capital.
    static func clean(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        while let first = text.first, "•-*–·".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        if let match = text.range(of: #"^\d+[.)]\s+"#, options: .regularExpression) { text.removeSubrange(match) }
        while text.hasSuffix(".") || text.hasSuffix(";") { text.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        guard let first = text.first else { return "" }
        return first.uppercased() + text.dropFirst()
    }
}
