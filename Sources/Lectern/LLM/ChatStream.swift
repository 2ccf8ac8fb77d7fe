import Foundation

/// How a provider frames a streamed answer: server-sent events (`data: {…}` lines and a blank
/// line between events: OpenAI-compatible servers, Anthropic) or one JSON object a line (Ollama).
enum StreamFraming: Sendable {
    case serverSentEvents
    case jsonLines
}

/// What a streamed answer has said so far: its text, the model, the tokens counted and why it
/// stopped, as the events carry them.
struct ChatStreamState: Sendable {
    var text = ""
    var model: String?
    var inputTokens = 0
    var outputTokens = 0
    var finishReason: String?
    /// An error the server reported inside the stream.
    var error: String?
}

/// Cuts a streamed body into its events as the bytes arrive (a piece may end mid-line, or
/// mid-character). Used on the one thread that receives the body.
final class StreamEventReader {
    let framing: StreamFraming
    private var pending = Data()
    private var dataLines: [String] = []
    /// Whether any event was read: a server that ignored `stream` answers with one JSON body.
    private(set) var sawEvents = false

    init(framing: StreamFraming) { self.framing = framing }

    /// The events completed by `data`.
    func feed(_ data: Data) -> [JSONValue] {
        pending.append(data)
        var events: [JSONValue] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if line.hasSuffix("\r") { line.removeLast() }
            if let event = take(line) { events.append(event) }
        }
        return events
    }

    /// The last event, when the body did not end with a line break.
    func finish() -> [JSONValue] {
        var events: [JSONValue] = []
        if !pending.isEmpty, let event = take(String(decoding: pending, as: UTF8.self)) { events.append(event) }
        pending.removeAll()
        if let event = take("") { events.append(event) }
        return events
    }

    private func take(_ line: String) -> JSONValue? {
        switch framing {
        case .jsonLines:
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty, let value = JSONValue.parse(line) else { return nil }
            sawEvents = true
            return value
        case .serverSentEvents:
            if line.isEmpty {
                defer { dataLines = [] }
                let payload = dataLines.joined(separator: "\n")
                guard !dataLines.isEmpty, payload != "[DONE]" else {
                    if payload == "[DONE]" { sawEvents = true }
                    return nil
                }
                guard let value = JSONValue.parse(payload) else { return nil }
                sawEvents = true
                return value
            }
            if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.hasPrefix(" ") { value = value.dropFirst() }
                dataLines.append(String(value))
            }
            // `event:`, `id:`, `retry:` and `:` comments carry nothing the payload lacks.
            return nil
        }
    }
}

/// Hands each event of a stream to the caller's code on the receiving thread.
// Safe: the transport calls `receive` on the one thread that reads the body, and `finish` after
// the body has ended; nothing else touches the reader meanwhile.
final class StreamSink: @unchecked Sendable {
    private let reader: StreamEventReader
    private let deliver: (JSONValue) -> Void

    init(reader: StreamEventReader, deliver: @escaping (JSONValue) -> Void) {
        self.reader = reader
        self.deliver = deliver
    }

    func receive(_ data: Data) { reader.feed(data).forEach(deliver) }
    func finish() { reader.finish().forEach(deliver) }
}
