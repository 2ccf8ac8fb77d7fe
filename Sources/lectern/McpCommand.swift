import ArgumentParser
import Foundation
import Lectern

struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the library to MCP clients (assistants, IDEs, tutoring apps) over stdio.",
        discussion: """
            A Model Context Protocol server on stdin and stdout, for a client to start. Tools: \
            search, context, curriculum, topic, cards, ingest (only with --allow-ingest). \
            Resources: each curriculum's syllabus (Markdown) and UMCF export, each document's \
            outline. The library is opened read-only unless --allow-ingest; the embedding model \
            and the vectors stay loaded between calls. A tool that fails answers with an error \
            result holding the line the command line would print; the server keeps serving. It \
            stops when its input closes. (The server is the lectern-mcp program installed beside \
            lectern.)

              lectern mcp --db ~/study/biology.db
              lectern mcp --allow-ingest
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Let clients add sources with the ingest tool (the library is then opened for writing).")
    var allowIngest = false

    /// Runs `lectern-mcp` in this process's place: the MCP SDK links FoundationNetworking, which
    /// this executable keeps out so that every other command starts quickly.
    func run() throws {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lectern-mcp").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LecternError(.notFound, executable, "the MCP server is not installed beside lectern (`make install` installs both)")
        }
        let arguments = [executable] + (global.db.map { ["--db", $0] } ?? []) + (allowIngest ? ["--allow-ingest"] : [])
        let argv = arguments.map { strdup($0) } + [nil]
        execv(executable, argv)
        throw LecternError(.unreadable, executable, "cannot start the MCP server: \(String(cString: strerror(errno)))")
    }
}

extension McpCommand: SharesGlobalOptions {}
