import ArgumentParser
import Dispatch
import Foundation
import Lectern
import MCP

struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the library to MCP clients (assistants, IDEs, tutoring apps) over stdio.",
        discussion: """
            A Model Context Protocol server on stdin and stdout, for a client to start. Tools: \
            search, context, curriculum, topic, cards, ingest (only with --allow-ingest). \
            Resources: each curriculum's syllabus (Markdown) and UMCF export, each document's \
            outline. The library is opened read-only unless --allow-ingest; the embedding model \
            stays loaded between calls. A tool that fails answers with an error result holding \
            the line the command line would print; the server keeps serving. It stops when its \
            input closes.

              lectern mcp --db ~/study/biology.db
              lectern mcp --allow-ingest
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Let clients add sources with the ingest tool (the library is then opened for writing).")
    var allowIngest = false

    func run() throws {
        let configuration = try global.configuration()
        let store = try global.openStore(configuration, access: allowIngest ? .create : .read)
        let library = MCPLibrary(configuration: configuration, store: store, allowIngest: allowIngest)
        // The commands are synchronous; the SDK is async: this thread waits for the server.
        let stopped = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do {
                try await MCPServer.serve(library)
            } catch {
                failure.error = error
            }
            stopped.signal()
        }
        stopped.wait()
        if let error = failure.error {
            throw LecternError(.unreadable, "stdin", "the MCP connection failed: \(error)")
        }
    }
}

extension McpCommand: SharesGlobalOptions {}

/// The error that ended the server, handed from its task to the waiting command.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
