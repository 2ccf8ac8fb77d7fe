import Foundation
import MCP

/// The JSON-RPC errors the server answers itself, before the MCP SDK sees a line: the SDK
/// answers unparseable JSON with a made-up id, and takes a request whose id is neither a string
/// nor a number for a notification and never answers it. JSON-RPC 2.0 answers both with an
/// error whose id is null, so the client is not left waiting.
enum MCPMessageCheck {
    static let parseError = -32700
    static let invalidRequest = -32600

    /// Where a line goes.
    enum Route: Equatable {
        /// An error the transport answers itself.
        case answer(Data)
        /// A plain `tools/call` request, answered without the SDK (`MCPToolAnswer`).
        case toolCall(MCPToolCall)
        /// Everything else: the SDK's.
        case sdk
    }

    /// Where `line` goes; parsed once, without the SDK's decoder (see `PlainValue`).
    static func route(_ line: Data) -> Route {
        guard let message = try? PlainValue.decode(line) else {
            return .answer(error(parseError, "Parse error: the line is not JSON"))
        }
        switch message {
        case .object(let fields):
            if let id = fields["id"], !isUsableId(id) {
                return .answer(error(invalidRequest, "Invalid Request: an id is a string or a whole number"))
            }
            return MCPToolCall(fields).map(Route.toolCall) ?? .sdk
        case .array:
            return .sdk  // a batch is the SDK's to take apart
        default:
            return .answer(error(invalidRequest, "Invalid Request: a message is a JSON object"))
        }
    }

    /// The answer to a line longer than the server takes.
    static func tooLong(bytes: Int, limit: Int) -> Data {
        error(invalidRequest, "Invalid Request: the message is \(bytes) bytes; this server takes messages of at most \(limit) bytes (\(limit >> 20) MiB)")
    }

    /// A string or a whole number (null too: the SDK reads it as the empty string and answers it).
    static func isUsableId(_ id: Value) -> Bool {
        switch id {
        case .string, .int, .null: return true
        default: return false
        }
    }

    static func error(_ code: Int, _ message: String) -> Data {
        let answer: Value = ["jsonrpc": "2.0", "id": .null, "error": ["code": .int(code), "message": .string(message)]]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(answer)) ?? Data()
    }
}

/// A `tools/call` request of the plain shape every client sends: `jsonrpc` 2.0, a string or
/// number id, params with a string `name` and `arguments` that are an object (or absent).
/// Any other shape goes to the SDK, which answers it as before (-32602 for params it cannot read).
struct MCPToolCall: Equatable, Sendable {
    var id: MCPRequestId
    var name: String
    var arguments: [String: Value]?

    init(id: MCPRequestId, name: String, arguments: [String: Value]?) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }

    /// The call a request's fields make, or nil when they are not of the plain shape.
    init?(_ fields: [String: Value]) {
        guard fields["jsonrpc"] == .string("2.0"), fields["method"] == .string(CallTool.name),
              Set(fields.keys).isSubset(of: ["jsonrpc", "id", "method", "params"]),
              case .object(let params)? = fields["params"],
              Set(params.keys).isSubset(of: ["name", "arguments", "_meta"]),
              case .string(let name)? = params["name"] else { return nil }
        switch fields["id"] {
        case .string(let text)?: id = .string(text)
        case .int(let number)?: id = .number(number)
        default: return nil
        }
        switch params["arguments"] {
        case nil, .null?: arguments = nil
        case .object(let values)?: arguments = values
        default: return nil
        }
        self.name = name
    }
}
