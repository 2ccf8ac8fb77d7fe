import ArgumentParser
import Foundation
import Lectern

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the library into one file, consistently, while it is in use.",
        discussion: """
            Copies the library with SQLite's online backup API: the copy holds every write made \
            before it started, the write-ahead log's latest ones included, even while other \
            commands (a `lectern run`, `lectern mcp`) read or write the library. It is written \
            to a temporary file beside FILE and renamed over it, so FILE is never half a copy; \
            the copy is a library of its own (`--db FILE` opens it). FILE may not be the \
            library, its -wal, -shm or run lock, a folder or a device. Exit status: 0 copied, \
            1 the copy could not be written, 2 FILE refused.

              lectern backup ~/backups/library-$(date +%F).db
              lectern backup biology-copy.db --db biology.db --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The file to write the copy to (replaced when it exists).", valueName: "file"))
    var file: String

    @Flag(help: "Print what was copied as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, store) = try global.openForReading()
        let summary = try LibraryBackup.make(store, to: Configuration.resolvePath(file, base: nil))
        if json {
            terminal.json(summary)
        } else {
            let size = FileSizeText.of(summary.bytes)
            terminal.out("\(summary.library) copied to \(DisplayPath.of(summary.backup)): \(Plural.counted(summary.documents, "document")), \(Plural.counted(summary.passages, "passage")), \(size)")
        }
    }
}

extension BackupCommand: SharesGlobalOptions {}
