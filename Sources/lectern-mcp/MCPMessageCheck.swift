import Foundation
import MCP

/// The JSON-RPC errors the server answers itself, before the MCP SDK sees a line: the SDK
/// answers unparseable JSON with a made-up id, and takes a request whose id is neither a string
/// nor a number for a notification and never answers it. JSON-RPC 2.0 answers both with an
/// error whose id is null, so the client is not left waiting.
enum MCPMessageCheck {
    static let parseError = -32700
    static let invalidRequest = -32600

    /// The error answer for `line`, or nil when it is for the SDK to handle.
    static func answer(to line: Data) -> Data? {
        guard let message = try? JSONDecoder().decode(Value.self, from: line) else {
            return error(parseError, "Parse error: the line is not JSON")
        }
        switch message {
        case .object(let fields):
            if let id = fields["id"], !isUsableId(id) {
                return error(invalidRequest, "Invalid Request: an id is a string or a whole number")
            }
            return nil
        case .array:
            return nil  // a batch is the SDK's to take apart
        default:
            return error(invalidRequest, "Invalid Request: a message is a JSON object")
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
