import ArgumentParser
import Foundation
import Lectern

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Read files, folders, globs and web sources into the library.",
        discussion: """
            Readers are chosen by content, not by file name. A file whose content is unchanged since \
            the last ingest (same reader, chunk settings and embedder) is reported unchanged and not \
            written; a changed one is replaced in one transaction. Exit status (the same as \
            extract's): 0 all inputs read (warnings included: a scanned PDF without a text layer \
            is stored without passages, warned about once, then reported "unchanged (no text \
            layer)"), 1 some failed (each named on stderr), 2 usage error (a malformed \
            --password-file included), 130 / 143 stopped by SIGINT / SIGTERM.

            A long document stopped while embedding is not stored (a document is written whole \
            or not at all), but the vectors already made are kept: the next ingest embeds only \
            the passages still missing. `lectern prune` removes what such a stop left behind. \
            A first ingest whose inputs all fail removes the library file it made.

              lectern ingest ./notes/*.md
              lectern ingest ~/courses --db study.db
              lectern ingest https://example.org/page.html
              lectern ingest 'wikipedia:"Information theory"'
              lectern ingest openstax:introduction-philosophy-2e
              lectern ingest ocw:8-01sc-classical-mechanics-fall-2016

            Web sources are fetched with at most one request a second to each host \
            (http.host_interval) and conditional GET: a page whose ETag or Last-Modified is \
            unchanged is reported unchanged after a 304, unless it was stored with another reader \
            version, other chunk settings or another embedder (then it is fetched and re-read). \
            An OpenStax bundle of several books is stored as one document per book; \
            openstax:SLUG stores the one book it names.
            """ + "\n\n" + InputSelectionOptions.discussion
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files, folders (read recursively), glob patterns, URLs, and wikipedia:TITLE, openstax:SLUG, ocw:COURSE specs.", completion: .file())
    var paths: [String]

    @OptionGroup var selection: InputSelectionOptions

    @Option(help: "Embedder for a new library: minilm (default), hashing, openai:<model>, ollama:<model>. A library keeps the one it was built with.")
    var embedder: String?

    @OptionGroup var reading: ReadingOptions

    @Option(help: "The title to store the document under, instead of the one its reader found (one input only).")
    var title: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file, folder or glob") }
        if let title {
            if title.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--title is empty") }
            if paths.count > 1 { throw ValidationError("--title names one document: give one input with it") }
        }
    }

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let passwords = try reading.passwords()
        let library = try global.openLibrary(configuration, access: .create)
        // While a `lectern run` updates this library, a hand-started ingest waits for it.
        try library.waitWhileWriterLocked(cancellation: StopSignals.cancellation) { holder in
            terminal.note("a run (\(holder?.description ?? "pid unknown")) is updating this library: waiting for it to finish")
        }
        let recorder = try global.startRun(library, command: "ingest")
        terminal.event(PipelineEvent(.runStarted, run: recorder.id))
        // Inside the recorded run: an embedder that cannot start (a server that is down) leaves a
        // failed run with the reason.
        let summary = try recorder.run { () throws -> IngestSummary in
            let services = LibraryServices(configuration: configuration, library: library, recorder: recorder, cancellation: StopSignals.cancellation)
            var ingestor = services.ingestor(embedder: try services.embedder(requested: embedder), options: reading.extractOptions(configuration))
            ingestor.passwords = passwords
            ingestor.selection = selection.selection
            ingestor.title = title
            return ingestor.ingest(paths, recorder: recorder) { terminal.event($0) }
        }
        // A first ingest whose inputs all failed leaves no empty library file behind (one that
        // could not start, an embedder down, keeps its failed run for `lectern runs`).
        if summary.stored == 0 { library.discardIfUnused() }
        terminal.finishProgress()
        terminal.event(PipelineEvent(.runFinished, message: summary.stopped.map(\.rawValue),
                                     counts: ["stored": summary.stored, "unchanged": summary.unchanged, "failed": summary.failed,
                                              "passages": summary.passages, "not_read": summary.notRead, "embedded": summary.embedded,
                                              "cache_hits": summary.cacheHits, "cache_misses": summary.cacheMisses,
                                              "left_out": summary.leftOut + summary.foldersLeftOut], run: recorder.id))
        if json {
            terminal.json(summary)
        } else {
            var parts: [TerminalText] = ["\(summary.stored) stored (\(Plural.counted(summary.passages, "passage")))", "\(summary.unchanged) unchanged"]
            if summary.failed > 0 { parts.append("\(summary.failed) failed") }
            if summary.warnings > 0 { parts.append(TerminalText(Plural.counted(summary.warnings, "warning"))) }
            if let leftOut = InputSelectionOptions.leftOutLine(files: summary.leftOut, folders: summary.foldersLeftOut) {
                parts.append(TerminalText(leftOut))
            }
            if summary.stopped == .interrupted { parts.append("\(StopSignals.cancellation.reason): \(summary.notRead) not read") }
            if summary.stopped == .libraryUnwritable, summary.notRead > 0 { parts.append("stopped: \(summary.notRead) not read") }
            // A PostgreSQL library is named by its URL without the password.
            let shown = LibraryURL.isPostgres(configuration.database) ? library.display : configuration.database
            terminal.out(parts.dropFirst().reduce(parts[0]) { $0 + ", " + $1 } + " — \(shown)")
        }
        if summary.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if summary.failed > 0 { throw ExitCode(1) }
    }
}

extension IngestCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
