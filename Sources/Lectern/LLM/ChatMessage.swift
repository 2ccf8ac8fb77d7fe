/// One turn of a chat: who says it and what.
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

    /// `{"role", "content"}`: how every provider's API takes a message.
    var json: JSONValue { ["role": .string(role.rawValue), "content": .string(content)] }
}
