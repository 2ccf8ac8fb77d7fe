import ArgumentParser
import Foundation
import Lectern

/// `lectern worker --db postgres://…`: does the jobs of queued runs (`lectern run --queue`).
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Do the jobs of runs queued in a library on PostgreSQL (`lectern run --queue`), one at a time.",
        discussion: """
            Takes one job at a time (SELECT … FOR UPDATE SKIP LOCKED: workers never wait for each \\
            other), holds it with a lease it renews while it works, and does it exactly as \\
            `lectern run` does that input; the worker that ends a run's last source job makes its \\
            finishing stages (summaries, curricula, cards, exports) a job, which one worker runs \\
            under the library's run lock. A worker that dies loses its lease, and its job goes \\
            to another worker once the lease ends; a job that fails 3 times is recorded as failed \\
            with its reason and the run goes on. `lectern runs show N` lists who did what.

            It runs until stopped, or with --exit-when-idle until no job of any run is pending or \\
            leased (a job leased by a dead worker counts until its lease ends and another worker \\
            finishes it). SIGINT or SIGTERM: the job in hand is finished, or abandoned and given \\
            back (its lease released), and the worker exits 130 / 143.

              lectern worker --db postgres://lectern@db.school.org/library
              lectern worker --db "$LECTERN_DB" --exit-when-idle --lease 120
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Exit (0) once no job of any run is pending or leased, instead of waiting for more.")
    var exitWhenIdle = false

    @Option(help: ArgumentHelp("How long a job stays with this worker without a renewal (renewed every third of it); a killed worker's job goes to another this long after.",
                               valueName: "seconds"))
    var lease: Int = 60

    @Flag(help: "Print what the worker did as JSON when it stops.")
    var json = false

    /// JSON-lines events when stderr is no terminal (a Kubernetes pod), unless --events says.
    var eventFormat: EventFormat { global.events ?? (isatty(STDERR_FILENO) == 1 ? .text : .json) }

    func validate() throws {
        if lease < 2 || lease > 86_400 { throw ValidationError("--lease must be from 2 to 86400 seconds, not \(lease)") }
    }

    func run() throws {
        let terminal = Terminal(events: eventFormat)
        let configuration = try global.configuration()
        guard LibraryURL.isPostgres(configuration.database) else {
            let shown = DisplayPath.of(Configuration.resolvePath(configuration.database, base: nil))
            terminal.stop(LecternError(.invalidInput, shown, "`lectern worker` takes jobs from a library on PostgreSQL (--db postgres://…); "
                                       + "a library file has no queue: run the pipeline with `lectern run`"))
            throw ExitCode(2)
        }
        var worker = QueueWorker(location: configuration.database, lease: Double(lease))
        worker.exitWhenIdle = exitWhenIdle
        worker.cancellation = StopSignals.cancellation
        let summary = try worker.run { terminal.event($0) }
        terminal.finishProgress()
        if json {
            terminal.json(summary)
        } else {
            var parts = ["worker \(worker.owner): \(Plural.counted(summary.done, "job")) done"]
            if summary.failed > 0 { parts.append("\(summary.failed) failed") }
            if summary.released > 0 { parts.append("\(summary.released) given back") }
            if summary.leaseLost > 0 { parts.append("\(summary.leaseLost) taken over by others") }
            if summary.stopped == .interrupted { parts.append(StopSignals.cancellation.reason) }
            terminal.out(TerminalText(parts.joined(separator: ", ") + " — \(LibraryURL.shown(configuration.database))"))
        }
        if summary.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
    }
}

extension WorkerCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
