import Foundation

/// A chat model behind one small interface: messages in, text out. Implementations block
/// the calling thread and may be called from several threads at once.
public protocol LanguageModel: Sendable {
    var info: LanguageModelInfo { get }
    func complete(_ request: ChatRequest) throws -> ChatResponse
    /// As `complete`, handing each piece of the answer's text to `onText` as it arrives (on the
    /// calling thread, before this returns).
    func stream(_ request: ChatRequest, onText: @escaping (String) -> Void) throws -> ChatResponse
}

extension LanguageModel {
    /// A model that cannot stream hands over its whole answer at once.
    public func stream(_ request: ChatRequest, onText: @escaping (String) -> Void) throws -> ChatResponse {
        let response = try complete(request)
        if !response.text.isEmpty { onText(response.text) }
        return response
    }
}

/// A value decoded from a schema-constrained answer, with the calls it took.
struct Generated<T: Sendable>: Sendable {
    var value: T
    var responses: [ChatResponse]
}

extension LanguageModel {
    /// Asks for JSON conforming to `schema`, validates it and decodes `T`. When the answer is
    /// not JSON or breaks the schema, asks ONCE more with the validation error; a second
    /// failure is an error naming what was wrong.
    func generate<T: Decodable & Sendable>(_ type: T.Type, request: ChatRequest, schema: JSONSchema) throws -> Generated<T> {
        var request = request
        request.schema = schema
        let first = try complete(request)
        switch Self.decode(type, from: first.text, schema: schema) {
        case .success(let value):
            return Generated(value: value, responses: [first])
        case .failure(let problem):
            if first.truncated {
                // A re-ask would be cut off the same way.
                throw LecternError(.modelAnswer, info.description, "the answer was cut off at \(request.maxTokens) tokens before its JSON was complete (raise llm.max_tokens)")
            }
            var repair = request
            repair.messages.append(.assistant(first.text))
            repair.messages.append(.user("""
                That answer is not valid: \(problem.reason). Reply again with only the JSON value, \
                conforming to this JSON Schema:
                \(schema.value)
                """))
            let second = try complete(repair)
            switch Self.decode(type, from: second.text, schema: schema) {
            case .success(let value):
                return Generated(value: value, responses: [first, second])
            case .failure(let again):
                if second.truncated {
                    throw LecternError(.modelAnswer, info.description, "the answer was cut off at \(request.maxTokens) tokens before its JSON was complete (raise llm.max_tokens)")
                }
                throw LecternError(.modelAnswer, info.description, "the answer did not conform to the \(schema.name) schema after one repair: \(again.reason)")
            }
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String, schema: JSONSchema) -> Result<T, LecternError> {
        guard let value = JSONSchema.extractJSON(from: text) else {
            return .failure(LecternError(.modelAnswer, nil, "the answer is not JSON"))
        }
        let problems = schema.violations(of: value)
        if !problems.isEmpty {
            return .failure(LecternError(.modelAnswer, nil, problems.prefix(5).joined(separator: "; ")))
        }
        do {
            return .success(try JSONDecoder().decode(type, from: value.canonicalData))
        } catch {
            return .failure(LecternError(.modelAnswer, nil, "the JSON does not decode: \(error)"))
        }
    }
}
