import Foundation

/// A JSON Schema for structured model output, and a validator for the subset Lectern's
/// prompts use: `type`, `properties`, `required`, `additionalProperties: false`, `items`,
/// `enum`, `minItems`/`maxItems`, `minLength`/`maxLength`, `minimum`/`maximum`.
///
/// Providers enforce schemas unevenly (llama.cpp and Ollama constrain decoding, Anthropic has
/// only the prompt), so every answer is checked here before anyone trusts it.
struct JSONSchema: Sendable, Hashable {
    /// A short name some APIs require (`response_format.json_schema.name`).
    var name: String
    var value: JSONValue

    init(name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }

    /// Every way `instance` breaks the schema, as "$.path: reason"; empty when it conforms.
    func violations(of instance: JSONValue) -> [String] {
        var problems: [String] = []
        Self.check(instance, against: value, path: "$", into: &problems)
        return problems
    }

    static func check(_ instance: JSONValue, against schema: JSONValue, path: String, into problems: inout [String]) {
        guard case .object(let rules) = schema else { return }
        if let type = rules["type"] {
            let allowed: [String] = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
            let actual = instance.typeName
            let ok = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !ok {
                problems.append("\(path): expected \(allowed.joined(separator: " or ")), found \(actual)")
                return
            }
        }
        if let options = rules["enum"]?.arrayValue, !options.contains(instance) {
            problems.append("\(path): must be one of \(options.map(\.description).joined(separator: ", "))")
        }
        switch instance {
        case .string(let s):
            if let min = rules["minLength"]?.intValue, s.count < min {
                problems.append("\(path): must have at least \(min) character\(min == 1 ? "" : "s")")
            }
            if let max = rules["maxLength"]?.intValue, s.count > max {
                problems.append("\(path): must have at most \(max) characters")
            }
        case .number(let n):
            if case .number(let min) = rules["minimum"] ?? .null, n < min { problems.append("\(path): must be at least \(JSONValue.number(min))") }
            if case .number(let max) = rules["maximum"] ?? .null, n > max { problems.append("\(path): must be at most \(JSONValue.number(max))") }
        case .array(let items):
            if let min = rules["minItems"]?.intValue, items.count < min {
                problems.append("\(path): must have at least \(min) item\(min == 1 ? "" : "s"), found \(items.count)")
            }
            if let max = rules["maxItems"]?.intValue, items.count > max {
                problems.append("\(path): must have at most \(max) items, found \(items.count)")
            }
            if let itemSchema = rules["items"] {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, path: "\(path)[\(index)]", into: &problems)
                }
            }
        case .object(let members):
            let properties = rules["properties"]?.objectValue ?? [:]
            for name in rules["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(path): missing required property '\(name)'")
            }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let propertySchema = properties[name] {
                    check(member, against: propertySchema, path: "\(path).\(name)", into: &problems)
                } else if rules["additionalProperties"] == .bool(false) {
                    problems.append("\(path): unexpected property '\(name)'")
                }
            }
        default:
            break
        }
    }

    /// The JSON value in a model's answer: the whole text, else the text inside a ```json
    /// fence, else the span from the first `{` or `[` to the last matching close.
    static func extractJSON(from text: String) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let value = JSONValue.parse(trimmed) { return value }
        if let fence = trimmed.range(of: "```") {
            var inner = trimmed[fence.upperBound...]
            if let newline = inner.firstIndex(of: "\n") { inner = inner[inner.index(after: newline)...] }
            if let close = inner.range(of: "```") { inner = inner[..<close.lowerBound] }
            if let value = JSONValue.parse(String(inner)) { return value }
        }
        // The outermost value is the one that opens first: never an array inside a cut-off object.
        guard let start = trimmed.firstIndex(where: { $0 == "{" || $0 == "[" }) else { return nil }
        let close: Character = trimmed[start] == "{" ? "}" : "]"
        guard let end = trimmed.lastIndex(of: close), start < end else { return nil }
        return JSONValue.parse(String(trimmed[start...end]))
    }
}
