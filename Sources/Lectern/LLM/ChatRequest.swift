/// One call to a chat model.
public struct ChatRequest: Sendable, Hashable {
    var messages: [ChatMessage]
    var maxTokens: Int
    var temperature: Double
    /// When set, the answer must be JSON conforming to it (providers that can constrain
    /// decoding are told; every answer is validated).
    var schema: JSONSchema?
    /// Names the prompt and its version (`summary/1`): part of the response-cache key, so a
    /// changed prompt never returns answers to the old one.
    var template: String
    /// What the call is about, for the call log (`lectern logs`): the question, the section
    /// summarised. Not part of the cache key.
    var subject: String?

    init(messages: [ChatMessage], maxTokens: Int = 512, temperature: Double = 0, schema: JSONSchema? = nil, template: String = "chat/1",
         subject: String? = nil) {
        self.subject = subject
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
