import ArgumentParser
import Foundation
import Lectern

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove sources (and their passages and vectors) from the library.",
        discussion: """
            SOURCE is a path (a folder removes everything under it), a URI, a document id, or a \
            glob as ingest takes it: quoted, it matches the stored paths (and what is under a \
            folder it matches) and URIs; * and ? stop at a slash.

              lectern rm notes/cells.md
              lectern rm 'corpus/wikipedia/*/expected.html'
              lectern rm https://example.org/page.html 3fa2c1
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to remove: paths, folders, globs, URIs or document ids.", completion: .file())
    var sources: [String]

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    func run() throws {
        let (terminal, library, removal) = try global.openLibraryForRemoval()
        let recorder = try global.startRun(library, command: "rm")
        let result = try recorder.run { try removal.remove(sources, recorder: recorder) { terminal.event($0) } }
        if json { terminal.json(result.removed) } else { for uri in result.removed { terminal.out("removed \(uri)") } }
        if result.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if !result.notFound.isEmpty { throw ExitCode(1) }
    }
}

extension RemoveCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
