import ArgumentParser
import Foundation
import Lectern

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a library into another: a library file into PostgreSQL, or back.",
        discussion: """
            Copies every document with its blocks, passages and vectors (as stored: nothing is \
            read or embedded again, so the same search finds the same passages in both), the \
            runs with their failures, web sources' validators and the embedding cache, the \
            curricula with their topics, the cards with their reports, the summaries, the \
            model's answers and calls, and the files runs wrote (so the next `lectern run` on \
            the copy finds its decks and exports up to date), then prints each count in both \
            libraries. Each document, curriculum, curriculum's cards and document's summaries \
            is written in one transaction: an interrupted copy loses nothing, and running it \
            again skips what the target holds already. The target is made when it is a new \
            file or an empty database; it may not hold vectors of another embedder. \
            Exit status: 0 copied and every count agrees, 1 a document failed or a count \
            differs, 2 bad arguments, 130 / 143 stopped by SIGINT / SIGTERM.

              lectern migrate --from library.db --to postgres://lectern@db.example/library
              lectern migrate --from postgres://lectern@db.example/library --to copy.db
            """
    )

    @Option(help: ArgumentHelp("The library to copy: a file, or a PostgreSQL URL.", valueName: "library"))
    var from: String

    @Option(help: ArgumentHelp("The library to copy into: a file (made if missing), or a PostgreSQL URL.", valueName: "library"))
    var to: String

    @Option(help: "How progress and problems reach stderr: text, or json (one JSON object a line).")
    var events: EventFormat?

    @Flag(help: "Print what was copied and the counts as JSON.")
    var json = false

    var eventFormat: EventFormat { events ?? .text }

    func validate() throws {
        if Self.location(from) == Self.location(to) { throw ValidationError("--from and --to name the same library") }
    }

    /// A URL as given; a path made absolute (relative to where lectern runs).
    static func location(_ text: String) -> String {
        LibraryURL.isPostgres(text) ? text : Configuration.resolvePath(text, base: nil)
    }

    static func shown(_ text: String) -> String {
        LibraryURL.isPostgres(text) ? LibraryURL.shown(text) : DisplayPath.of(location(text))
    }

    func run() throws {
        let terminal = Terminal(events: eventFormat)
        let source = try Library.open(Self.location(from), display: Self.shown(from), access: .read)
        let target = try Library.open(Self.location(to), display: Self.shown(to), access: .create)
        if !LibraryURL.isPostgres(to), let store = try? target.sqliteStore(for: "") { OpenLibraries.opened(store) }
        var migration = LibraryMigration(from: source, to: target)
        migration.cancellation = StopSignals.cancellation
        let summary = try migration.run { terminal.event($0) }
        terminal.finishProgress()
        if json {
            terminal.json(summary)
        } else {
            var line = "\(Plural.counted(summary.copied, "document")) copied, \(summary.present) already there"
            if summary.failed > 0 { line += ", \(summary.failed) failed" }
            if summary.stopped == .interrupted { line += ", \(StopSignals.cancellation.reason): \(summary.notCopied) not copied" }
            line += "; \(Plural.counted(summary.runs, "run")), \(summary.webValidators) web validators, \(Plural.counted(summary.cachedVectors, "cached vector"))"
            let wing: [String] = [
                "\(summary.curricula) \(summary.curricula == 1 ? "curriculum" : "curricula")", Plural.counted(summary.cards, "card"),
                "\(summary.summaries) \(summary.summaries == 1 ? "summary" : "summaries")", Plural.counted(summary.modelAnswers, "model answer"),
                Plural.counted(summary.modelCalls, "model call"), Plural.counted(summary.runOutputs, "run output"),
            ]
            line += ", " + wing.joined(separator: ", ")
            terminal.out(TerminalText(line + " — \(Self.shown(from)) → \(Self.shown(to))"))
            let width = summary.counts.map(\.name.count).max() ?? 0
            terminal.out(TerminalText("  " + "".padding(toLength: width, withPad: " ", startingAt: 0) + "      from        to"))
            for count in summary.counts {
                let mark = count.from == count.to ? "" : "   differs"
                terminal.out(TerminalText("  " + count.name.padding(toLength: width, withPad: " ", startingAt: 0)
                                          + String(count.from).leftPadded(10) + String(count.to).leftPadded(10) + mark))
            }
            terminal.out(TerminalText(summary.countsMatch ? "every count agrees" : "the counts differ (see above): the target held other rows, or a copy failed"))
        }
        if summary.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if summary.failed > 0 || !summary.countsMatch { throw ExitCode(1) }
    }
}

extension MigrateCommand: ReportsEvents, StopsAtDocumentBoundaries {}
