import Foundation
import Logging
import MCP

/// Newline-delimited JSON-RPC on stdin and stdout, read by a thread that blocks on stdin. The
/// SDK's `StdioTransport` polls a non-blocking stdin every 10 ms, which alone would take half of
/// a warm call's 20 ms; a blocked read wakes the moment a request arrives. A plain `tools/call`
/// line is answered by `toolCalls` without the SDK (`MCPToolAnswer` says why); every other
/// line goes to the SDK.
actor MCPStdioTransport: Transport {
    nonisolated let logger = Logger(label: "lectern.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var reader: Thread?
    private let output = FileHandle.standardOutput
    /// The response line to a tool call.
    private let toolCalls: @Sendable (MCPToolCall) async -> Data

    init(toolCalls: @escaping @Sendable (MCPToolCall) async -> Data) {
        (messages, continuation) = AsyncThrowingStream.makeStream()
        self.toolCalls = toolCalls
    }

    func connect() async throws {
        guard reader == nil else { return }
        let continuation = self.continuation
        let thread = Thread { [self] in
            var framer = MCPLineFramer()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }  // end of input (or an error): the client is gone
                for frame in framer.append(buffer[..<count]) {
                    switch frame {
                    case .message(let line):
                        switch MCPMessageCheck.route(line) {
                        case .answer(let answer): answerDirectly(answer)
                        case .toolCall(let call): answer(call)
                        case .sdk: continuation.yield(line)
                        }
                    case .tooLong(let bytes):
                        answerDirectly(MCPMessageCheck.tooLong(bytes: bytes, limit: framer.limit))
                    }
                }
            }
            continuation.finish()
        }
        thread.name = "lectern mcp stdin"
        reader = thread
        thread.start()
    }

    /// An error the transport answers itself (`MCPMessageCheck`), written by the actor like
    /// every other line, so that two lines never interleave on stdout.
    private nonisolated func answerDirectly(_ answer: Data) {
        Task { try? await self.send(answer) }
    }

    /// A tool call, answered as the SDK answers requests: in a task of its own, so the reader
    /// goes on reading (a `notifications/cancelled`, the next call) while it runs.
    private nonisolated func answer(_ call: MCPToolCall) {
        let toolCalls = self.toolCalls
        Task { try? await self.send(await toolCalls(call)) }
    }

    func disconnect() async {
        continuation.finish()
    }

    /// One message a line; the write blocks until the client has taken it (a pipe's back-pressure).
    func send(_ data: Data) async throws {
        var line = data
        line.append(UInt8(ascii: "\n"))
        do {
            try output.write(contentsOf: line)
        } catch {
            throw MCPError.transportError(error)
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }
}
