import Foundation
import Logging
import MCP

/// Newline-delimited JSON-RPC on stdin and stdout, read by a thread that blocks on stdin. The
/// SDK's `StdioTransport` polls a non-blocking stdin every 10 ms, which alone would take half of
/// a warm call's 20 ms; a blocked read wakes the moment a request arrives.
actor MCPStdioTransport: Transport {
    nonisolated let logger = Logger(label: "lectern.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var reader: Thread?
    private let output = FileHandle.standardOutput

    init() {
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard reader == nil else { return }
        let continuation = self.continuation
        let thread = Thread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }  // end of input (or an error): the client is gone
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending = pending[(newline + 1)...]
                    if !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) { continuation.yield(Data(line)) }
                }
            }
            continuation.finish()
        }
        thread.name = "lectern mcp stdin"
        reader = thread
        thread.start()
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
