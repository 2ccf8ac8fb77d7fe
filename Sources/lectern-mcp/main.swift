import Foundation
import Lectern

// `lectern mcp` runs this program (see McpCommand): the MCP SDK brings FoundationNetworking,
// which the `lectern` executable must not link (every command would pay to load it), so the
// server lives in its own executable beside it. Arguments arrive already checked by `lectern`.

/// A startup failure: one line on stderr, as `lectern` prints its errors, and exit 1.
func stop(_ message: String) -> Never {
    FileHandle.standardError.write(Data("lectern: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var database: String?
var allowIngest = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--allow-ingest": allowIngest = true
    case "--db":
        guard !arguments.isEmpty else { stop("--db needs a file") }
        database = arguments.removeFirst()
    default:
        if argument.hasPrefix("--db=") { database = String(argument.dropFirst(5)); continue }
        stop("lectern-mcp: unknown argument '\(argument)' (run it as `lectern mcp [--db FILE] [--allow-ingest]`)")
    }
}

do {
    let configuration = try Configuration.load(flags: database.map { ["database": .string($0)] } ?? [:])
    for warning in configuration.warnings { FileHandle.standardError.write(Data("lectern: warning: \(warning)\n".utf8)) }
    let path = Configuration.resolvePath(configuration.database, base: nil)
    if allowIngest, configuration.usesDefaultDatabase {
        // The default library's folder is made by the first command that writes to it.
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    }
    let store = try LibraryStore(path: path, display: DisplayPath.of(path), access: allowIngest ? .create : .read)
    try await MCPServer.serve(MCPLibrary(configuration: configuration, store: store, allowIngest: allowIngest))
} catch let error as LecternError {
    stop(error.description)
} catch {
    stop("the MCP connection failed: \(error)")
}
