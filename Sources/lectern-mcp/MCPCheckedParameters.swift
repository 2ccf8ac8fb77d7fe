import Foundation
import MCP

/// A method whose params reach the handler as plain JSON, to be read by `read`: the SDK decodes
/// a typed method's params before its handler runs and answers params of the wrong shape
/// (`tools/call` with `name: null`) with -32603, an internal error; JSON-RPC's answer is -32602.
enum MCPCheckedParameters<M: MCP.Method>: MCP.Method {
    static var name: String { M.name }
    typealias Parameters = Value
    typealias Result = M.Result

    /// `params` as `M` takes them, or -32602 naming what is wrong with them.
    static func read(_ params: Value) throws -> M.Parameters {
        do {
            if params.isNull, let none = (M.Parameters.self as? any NotRequired.Type)?.init() as? M.Parameters { return none }
            return try JSONDecoder().decode(M.Parameters.self, from: JSONEncoder().encode(params))
        } catch let error as DecodingError {
            throw MCPError.invalidParams("\(M.name): \(describe(error))")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "params" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .valueNotFound(let type, let context): return "\(place(context.codingPath)) must be \(kind(type)), not null"
        case .typeMismatch(let type, let context): return "\(place(context.codingPath)) must be \(kind(type))"
        case .keyNotFound(let key, let context): return "\(place(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context): return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "params do not match the method"
        }
    }

    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "an object"
        }
    }
}

extension Server {
    /// `withMethodHandler` with params of the wrong shape answered -32602 (see `MCPCheckedParameters`).
    @discardableResult
    func withCheckedMethodHandler<M: MCP.Method>(_ type: M.Type, handler: @escaping @Sendable (M.Parameters) async throws -> M.Result) -> Self {
        withMethodHandler(MCPCheckedParameters<M>.self) { params in
            try await handler(try MCPCheckedParameters<M>.read(params))
        }
    }
}
