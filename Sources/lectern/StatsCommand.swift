import ArgumentParser
import Foundation
import Lectern

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count what the library holds.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let stats = try library.stats()
        if json {
            terminal.json(stats)
            return
        }
        terminal.out("library    \(stats.path) (\(FileSizeText.of(stats.fileBytes)))")
        terminal.out("sources    \(stats.sources)")
        let byType = stats.documentsByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        terminal.out("documents  \(stats.documents)\(byType.isEmpty ? "" : "  (" + byType + ")")")
        terminal.out("passages   \(stats.passages)  (\(stats.tokens) tokens)")
        terminal.out("blocks     \(stats.blocks)")
        // A library on PostgreSQL keeps its vectors in rows, not blocks.
        terminal.out("vectors    \(stats.vectors)" + (stats.vectorBlocks > 0 || stats.vectors == 0 ? " in \(stats.vectorBlocks) blocks" : ""))
        terminal.out("embedder   \(stats.embedder ?? "none yet")")
        terminal.out("runs       \(stats.runs)")
    }
}

extension StatsCommand: SharesGlobalOptions {}
