import Foundation
import MCP

/// A tool call's answer: its text, its structured result as the JSON it was encoded to, and
/// whether it is an error. A call that arrives as a plain `tools/call` line is answered with
/// `response(to:)`, the result's JSON written into the response as it is: the SDK's path
/// encodes a result three times and parses it back twice, each parse matching every string
/// against a data-URL pattern it builds again, which was more of a warm search call than the
/// search itself.
struct MCPToolAnswer: Sendable {
    var text: String
    /// The structured result, one JSON object (nil for an error).
    var structured: Data?
    var isError: Bool

    static func failure(_ message: String) -> MCPToolAnswer {
        MCPToolAnswer(text: message, structured: nil, isError: true)
    }

    /// A structured result, with its JSON as the text too (for clients that read only text).
    static func success<T: Encodable>(_ value: T, text: String? = nil) throws -> MCPToolAnswer {
        let data = try encoder.encode(value)
        return MCPToolAnswer(text: text ?? String(decoding: data, as: UTF8.self), structured: data, isError: false)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The answer as the SDK carries it, for a call that came through the SDK (`MCPServer`).
    func result() throws -> CallTool.Result {
        CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)],
                        structuredContent: try structured.map(PlainValue.decode), isError: isError)
    }

    /// The JSON-RPC response to request `id`, one line without its end: the keys in the order
    /// the SDK writes them (sorted), the structured result's bytes as they were encoded.
    func response(to id: MCPRequestId) throws -> Data {
        var line = Data(#"{"id":"#.utf8)
        line.append(try id.json())
        line.append(contentsOf: #","jsonrpc":"2.0","result":{"content":[{"text":"#.utf8)
        line.append(try Self.encoder.encode(text))
        line.append(contentsOf: #","type":"text"}],"isError":"#.utf8)
        line.append(contentsOf: (isError ? "true" : "false").utf8)
        if let structured {
            line.append(contentsOf: #","structuredContent":"#.utf8)
            line.append(structured)
        }
        line.append(contentsOf: "}}".utf8)
        return line
    }
}

/// A JSON-RPC request id: a string or a whole number.
enum MCPRequestId: Sendable, Equatable {
    case string(String)
    case number(Int)

    func json() throws -> Data {
        switch self {
        case .string(let text): return try MCPToolAnswer.encoder.encode(text)
        case .number(let number): return Data(String(number).utf8)
        }
    }
}
