import Foundation

/// Names the model behind a `LanguageModel` and how much text it can read at once.
public struct LanguageModelInfo: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `openai`, `anthropic`, `ollama` (or `extractive` for the offline summariser).
    public var provider: String
    public var model: String
    /// The context window in tokens: prompts are trimmed to fit it with the answer.
    public var contextTokens: Int

    public init(provider: String, model: String, contextTokens: Int) {
        self.provider = provider
        self.model = model
        self.contextTokens = contextTokens
    }

    public var description: String { "\(provider)/\(model)" }
}

public struct ChatMessage: Codable, Sendable, Hashable {
    public enum Role: String, Codable, Sendable {
        case system
        case user
        case assistant
    }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }

    public static func system(_ text: String) -> ChatMessage { ChatMessage(.system, text) }
    public static func user(_ text: String) -> ChatMessage { ChatMessage(.user, text) }
    public static func assistant(_ text: String) -> ChatMessage { ChatMessage(.assistant, text) }
}

/// One call to a chat model.
public struct ChatRequest: Sendable, Hashable {
    public var messages: [ChatMessage]
    public var maxTokens: Int
    public var temperature: Double
    /// When set, the answer must be JSON conforming to it (providers that can constrain
    /// decoding are told; every answer is validated).
    public var schema: JSONSchema?
    /// Names the prompt and its version (`summary/1`): part of the response-cache key, so a
    /// changed prompt never returns answers to the old one.
    public var template: String

    public init(messages: [ChatMessage], maxTokens: Int = 512, temperature: Double = 0, schema: JSONSchema? = nil, template: String = "chat/1") {
        self.messages = messages
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.schema = schema
        self.template = template
    }

    /// The system messages joined (APIs that take the system prompt apart need it so).
    var systemText: String? {
        let parts = messages.filter { $0.role == .system }.map(\.content)
        return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
    }

    var conversation: [ChatMessage] { messages.filter { $0.role != .system } }
}

/// What a model answered, with what the call cost in tokens.
public struct ChatResponse: Codable, Sendable, Equatable {
    public var text: String
    public var inputTokens: Int
    public var outputTokens: Int
    /// The model that answered, as the provider names it.
    public var model: String
    /// True when the answer came from the response cache (no request was sent).
    public var cached: Bool
    /// True when the model stopped at `maxTokens`, so the text is cut off.
    public var truncated: Bool

    public init(text: String, inputTokens: Int, outputTokens: Int, model: String, cached: Bool = false, truncated: Bool = false) {
        self.text = text
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.model = model
        self.cached = cached
        self.truncated = truncated
    }
}

/// A chat model behind one small interface: messages in, text out. Implementations block
/// the calling thread and may be called from several threads at once.
public protocol LanguageModel: Sendable {
    var info: LanguageModelInfo { get }
    func complete(_ request: ChatRequest) throws -> ChatResponse
}

/// A value decoded from a schema-constrained answer, with the calls it took.
public struct Generated<T: Sendable>: Sendable {
    public var value: T
    public var responses: [ChatResponse]
}

extension LanguageModel {
    /// Asks for JSON conforming to `schema`, validates it and decodes `T`. When the answer is
    /// not JSON or breaks the schema, asks ONCE more with the validation error; a second
    /// failure is an error naming what was wrong.
    public func generate<T: Decodable & Sendable>(_ type: T.Type, request: ChatRequest, schema: JSONSchema) throws -> Generated<T> {
        var request = request
        request.schema = schema
        let first = try complete(request)
        switch Self.decode(type, from: first.text, schema: schema) {
        case .success(let value):
            return Generated(value: value, responses: [first])
        case .failure(let problem):
            if first.truncated {
                // A re-ask would be cut off the same way.
                throw LecternError(.languageModel, info.description, "the answer was cut off at \(request.maxTokens) tokens before its JSON was complete (raise llm.max_tokens)")
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
                    throw LecternError(.languageModel, info.description, "the answer was cut off at \(request.maxTokens) tokens before its JSON was complete (raise llm.max_tokens)")
                }
                throw LecternError(.languageModel, info.description, "the answer did not conform to the \(schema.name) schema after one repair: \(again.reason)")
            }
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String, schema: JSONSchema) -> Result<T, LecternError> {
        guard let value = JSONSchema.extractJSON(from: text) else {
            return .failure(LecternError(.languageModel, nil, "the answer is not JSON"))
        }
        let problems = schema.violations(of: value)
        if !problems.isEmpty {
            return .failure(LecternError(.languageModel, nil, problems.prefix(5).joined(separator: "; ")))
        }
        do {
            return .success(try JSONDecoder().decode(type, from: value.canonicalData))
        } catch {
            return .failure(LecternError(.languageModel, nil, "the JSON does not decode: \(error)"))
        }
    }
}
