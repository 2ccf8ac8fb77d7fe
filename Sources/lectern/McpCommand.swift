import ArgumentParser
import Foundation
import Lectern

struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the library to MCP clients (assistants, IDEs, tutoring apps) over stdio.",
        discussion: """
            A Model Context Protocol server on stdin and stdout, for a client to start. Tools: \
            search, context, curriculum, topic, cards, and ingest (only with --allow-ingest or \
            --allow-urls). Resources: each curriculum's syllabus (Markdown) and UMCF export, each \
            document's outline. The library is opened read-only unless ingest is on; the \
            embedding model and the vectors stay loaded between calls. A tool that fails answers \
            with an error result holding the line the command line would print; the server keeps \
            serving. A message longer than 4 MiB is answered with a JSON-RPC error (-32600) and \
            skipped. It stops when its input closes. (The server is the lectern-mcp program \
            installed beside lectern.)

            What ingest exposes: a client (often a language model, whose input may carry a \
            prompt injection) reads back through search whatever ingest stored. --allow-ingest \
            DIR… lets it read files, folders and globs under those folders only, judged after \
            symbolic links and `..` are resolved (a link inside DIR to a file outside is \
            refused); give folders that hold nothing private. --allow-urls also lets it fetch \
            http(s) URLs and wikipedia:, openstax:, ocw: specs, from any host this machine \
            reaches, loopback and intranet included. While a `lectern run` updates the library, \
            an ingest call is refused (try again after it).

              lectern mcp --db ~/study/biology.db
              lectern mcp --allow-ingest ~/study/notes ~/study/slides
              lectern mcp --allow-ingest ~/study/notes --allow-urls
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("allow-ingest"), parsing: .upToNextOption,
            help: ArgumentHelp("Turn on the ingest tool, for files under these folders only (the library is then opened for writing).",
                               valueName: "dir"))
    var ingestFolders: [String] = []

    @Flag(help: "Let the ingest tool fetch URLs and wikipedia:, openstax:, ocw: specs too (any host this machine reaches).")
    var allowUrls = false

    func validate() throws {
        for folder in ingestFolders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Configuration.resolvePath(folder, base: nil), isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--allow-ingest: \(folder): no such folder")
            }
        }
    }

    /// Runs `lectern-mcp` in this process's place: the MCP SDK links FoundationNetworking, which
    /// this executable keeps out so that every other command starts quickly.
    func run() throws {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lectern-mcp").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LecternError(.notFound, executable, "the MCP server is not installed beside lectern (`make install` installs both; in a clone, `make mcp` builds it)")
        }
        let arguments = [executable] + (global.db.map { ["--db", $0] } ?? []) + (ingestFolders.isEmpty ? [] : ["--allow-ingest"] + ingestFolders)
            + (allowUrls ? ["--allow-urls"] : [])
        let argv = arguments.map { strdup($0) } + [nil]
        execv(executable, argv)
        throw LecternError(.unreadable, executable, "cannot start the MCP server: \(String(cString: strerror(errno)))")
    }
}

extension McpCommand: SharesGlobalOptions {}
