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
var ingestFolders: [String] = []
var allowURLs = false
let usage = "run it as `lectern mcp [--db FILE] [--allow-ingest DIR…] [--allow-urls]`"
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--allow-ingest":
        let named = ingestFolders.count
        while let folder = arguments.first, !folder.hasPrefix("--") { ingestFolders.append(arguments.removeFirst()) }
        if ingestFolders.count == named { stop("--allow-ingest needs the folders the ingest tool may read (\(usage))") }
    case "--allow-urls": allowURLs = true
    case "--db":
        guard !arguments.isEmpty else { stop("--db needs a file") }
        database = arguments.removeFirst()
    default:
        if argument.hasPrefix("--db=") { database = String(argument.dropFirst(5)); continue }
        stop("lectern-mcp: unknown argument '\(argument)' (\(usage))")
    }
}

do {
    // The ingest tool is there only when asked for, and reads only what was named.
    let scope = ingestFolders.isEmpty && !allowURLs ? nil : try IngestScope(folders: ingestFolders, allowsWeb: allowURLs)
    let configuration = try Configuration.load(flags: database.map { ["database": .string($0)] } ?? [:])
    for warning in configuration.warnings { FileHandle.standardError.write(Data("lectern: warning: \(warning)\n".utf8)) }
    if LibraryURL.isPostgres(configuration.database) {
        // A library on PostgreSQL: read-only unless the ingest tool is there (a read writes nothing).
        let library = try Library.open(configuration.database, access: scope != nil ? .create : .read)
        try await MCPServer.serve(MCPLibrary(configuration: configuration, library: library, scope: scope))
        exit(0)
    }
    let path = Configuration.resolvePath(configuration.database, base: nil)
    if scope != nil, configuration.usesDefaultDatabase {
        // The default library's folder is made by the first command that writes to it.
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    }
    let store = try LibraryStore(path: path, display: DisplayPath.of(path), access: scope != nil ? .create : .read,
                                 vectorSidecar: configuration.vectorSidecarMinimum)
    try await MCPServer.serve(MCPLibrary(configuration: configuration, store: store, scope: scope))
    // What ingest calls wrote is in the library file itself when the server ends.
    store.checkpoint()
    store.refreshVectorSidecar()
} catch let error as LecternError {
    stop(error.description)
} catch {
    stop("the MCP connection failed: \(error)")
}
