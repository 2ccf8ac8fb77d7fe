import ArgumentParser
import Foundation
import Lectern

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Remove documents whose file or folder no longer exists, and the cached vectors of interrupted ingests.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only list what would be removed.")
    var dryRun = false

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    func run() throws {
        let (terminal, library, removal) = try global.openLibraryForRemoval()
        let result: RemovalResult
        if dryRun {
            result = try removal.prune(dryRun: true, recorder: nil)
        } else {
            let recorder = try global.startRun(library, command: "prune")
            result = try recorder.run { try removal.prune(dryRun: false, recorder: recorder) }
        }
        if json { terminal.json(result.removed) } else {
            for uri in result.removed { terminal.out("\(dryRun ? "would remove" : "removed") \(uri)") }
            if result.cachedVectors > 0 {
                terminal.out("\(dryRun ? "would remove" : "removed") \(result.cachedVectors) cached vectors of interrupted ingests")
            }
            if result.removed.isEmpty && result.cachedVectors == 0 && result.stopped == nil { terminal.out("nothing to prune") }
        }
        if result.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
    }
}

extension PruneCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
