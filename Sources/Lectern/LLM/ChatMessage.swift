/// One turn of a chat: who says it and what.
struct ChatMessage: Codable, Sendable, Hashable {
    enum Role: String, Codable, Sendable {
        case system
        case user
        case assistant
    }

    var role: Role
    var content: String

    init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }

    static func system(_ text: String) -> ChatMessage { ChatMessage(.system, text) }
    static func user(_ text: String) -> ChatMessage { ChatMessage(.user, text) }
    static func assistant(_ text: String) -> ChatMessage { ChatMessage(.assistant, text) }

    /// `{"role", "content"}`: how every provider's API takes a message.
    var json: JSONValue { ["role": .string(role.rawValue), "content": .string(content)] }
}
