import Lectern
import MCP

/// A tool call's arguments, read with the checks the command line makes: a missing, mistyped
/// or unknown argument is one line naming it, returned to the client as an error result.
struct MCPArguments {
    let tool: String
    let values: [String: Value]

    init(tool: String, values: [String: Value]?, allowed: [String]) throws {
        self.tool = tool
        self.values = values ?? [:]
        for name in self.values.keys.sorted() where !allowed.contains(name) {
            throw MCPArguments.problem("unknown argument '\(name)' (\(tool) takes \(allowed.joined(separator: ", ")))")
        }
    }

    static func problem(_ reason: String) -> LecternError {
        LecternError(.invalidInput, nil, reason)
    }

    func string(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw Self.problem("\(name) must be a string") }
        return text
    }

    func requiredString(_ name: String) throws -> String {
        guard let text = try string(name) else { throw Self.problem("\(name) is missing") }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw Self.problem("\(name) is empty") }
        return text
    }

    /// A whole number; `5.0` is taken as 5 (JSON has one number type).
    func int(_ name: String) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        if let number = value.intValue { return number }
        if let number = value.doubleValue, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        throw Self.problem("\(name) must be a whole number")
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw Self.problem("\(name) must be true or false") }
        return flag
    }

    /// A list of strings; one string alone is taken as a list of one.
    func strings(_ name: String) throws -> [String] {
        guard let value = values[name], !value.isNull else { return [] }
        if let text = value.stringValue { return [text] }
        guard let items = value.arrayValue else { throw Self.problem("\(name) must be a list of strings") }
        return try items.map { item in
            guard let text = item.stringValue else { throw Self.problem("\(name) must be a list of strings") }
            return text
        }
    }

    func choice<T: RawRepresentable>(_ name: String, of type: T.Type, among names: [String]) throws -> T? where T.RawValue == String {
        guard let text = try string(name) else { return nil }
        guard let chosen = T(rawValue: text.lowercased()) else {
            throw Self.problem("\(name) must be one of \(names.joined(separator: ", ")) (got '\(text)')")
        }
        return chosen
    }
}
