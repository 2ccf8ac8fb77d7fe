import ArgumentParser
import Foundation
import Lectern

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Bring a library up to date with a pipeline file: the nightly import job.",
        discussion: """
            A pipeline file (TOML) names the library, the sources (paths and globs, URLs, \
            wikipedia:, openstax:, ocw: specs, each with a password, a licence, tags), stage \
            settings ([chunk], embedder, [llm], [http], [openstax], [wikipedia], [ocw]) and the \
            curricula, decks and exports to build; relative paths are relative to the file. \
            Only what changed is read (conditional GET, content hashes); a run where nothing \
            changed writes nothing but its run record. Sources are read side by side, up to \
            --jobs at once; a run killed at any moment leaves whole documents only, and the \
            next run does the rest.

            One run at a time per library: a second one exits 3 ("another run (pid N, started T) \
            holds the lock") unless --wait; a lock left by a killed run is taken over. On a \
            terminal, progress shows the rate and the time left; otherwise stderr carries JSON \
            lines (as --events json). Exit status: 0 all done, 1 some sources or outputs failed (the rest \
            were done), 2 an error in the pipeline file (file:line: key and why; nothing is done), \
            3 another run holds the lock, 130 / 143 stopped by SIGINT / SIGTERM.

            Across machines (or processes): --shard I/N reads only the sources in shard I of N \
            (chosen by a stable hash of each file's path or web source, so a new file moves no \
            other) and runs no finishing stage; shards of a SQLite library take the run lock in \
            turn. Once every shard is done, --finish runs the finishing stages (licences and \
            tags, summaries, curricula, cards, exports) once, after checking that every source is \
            stored and up to date (else exit 1 naming how many are missing, unless --force).

              lectern run pipelines/nightly.toml
              lectern run pipelines/notes.toml --dry-run
              lectern run pipelines/nightly.toml --shard 0/3
              lectern run pipelines/nightly.toml --finish
              lectern run pipelines/nightly.toml --queue --db postgres://lectern@db/library
              lectern runs show 12

            On a library on PostgreSQL, --queue plans the run and enqueues each input as a job \
            in the library, reading nothing: `lectern worker` processes on any machine take the \
            jobs one at a time with a lease, and the worker that sees the last source job end \
            runs the finishing stages once; `lectern runs show N` lists the jobs.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The pipeline file (TOML).", completion: .file(extensions: ["toml"]))
    var file: String

    @Flag(help: "Print the plan and change nothing.")
    var dryRun = false

    @Option(help: "Sources read and embedded at once (default: [run] jobs, else the cores).")
    var jobs: Int?

    @Flag(help: "Wait for another run of the same library to finish instead of exiting 3.")
    var wait = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Read only the sources in shard I of N (I from 0 to N-1), by a stable hash of each file's path or web source; no finishing stage.",
                               valueName: "I/N"))
    var shard: String?

    @Flag(help: "Run only the finishing stages (summaries, curricula, cards, exports), once every source is stored and up to date.")
    var finish = false

    @Flag(help: "With --finish: run them even if some sources are missing or out of date.")
    var force = false

    @Flag(help: "On a library on PostgreSQL: enqueue the plan's inputs as jobs for `lectern worker` processes, and read nothing here.")
    var queue = false

    /// JSON-lines events when stderr is no terminal (cron, systemd), unless --events says.
    var eventFormat: EventFormat { global.events ?? (isatty(STDERR_FILENO) == 1 ? .text : .json) }

    func validate() throws {
        if let jobs, jobs < 1 || jobs > PipelineRun.maxJobs { throw ValidationError("--jobs must be from 1 to \(PipelineRun.maxJobs), not \(jobs)") }
    }

    /// `--shard` read, and the options that do not go together refused, before any work.
    func runShard() throws -> RunShard? {
        if shard != nil, finish { throw LecternError(.invalidInput, "--shard", "goes with no --finish: shards read sources, --finish runs once after them") }
        if force, !finish { throw LecternError(.invalidInput, "--force", "goes with --finish only") }
        if queue, shard != nil || finish {
            throw LecternError(.invalidInput, "--queue", "goes with no --shard or --finish: the workers split the run, and its finish job runs the finishing stages")
        }
        return try shard.map { try RunShard(parsing: $0) }
    }

    func run() throws {
        let terminal = Terminal(events: eventFormat)
        let shard = try runShard()
        let pipeline: PipelineFile
        let configuration: Configuration
        do {
            pipeline = try PipelineFile(contentsOf: file)
            var flags: [String: ConfigValue] = [:]
            if let db = global.db { flags["database"] = .string(db) }
            configuration = try Configuration.load(pipelineFile: pipeline.settings, flags: flags)
        } catch let error as LecternError {
            terminal.stop(error)
            throw ExitCode(2)
        }
        for warning in configuration.warnings { terminal.event(PipelineEvent(.warning, input: warning.file, message: warning.message)) }
        var work = PipelineRun(pipeline: pipeline, configuration: configuration,
                               jobs: jobs ?? pipeline.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        work.cancellation = StopSignals.cancellation
        work.shard = shard
        work.finishOnly = finish
        // A library file's path, or a PostgreSQL URL (shown without its password).
        let onServer = LibraryURL.isPostgres(configuration.database)
        let path = onServer ? nil : Configuration.resolvePath(configuration.database, base: nil)
        let shown = path.map(DisplayPath.of) ?? LibraryURL.shown(configuration.database)
        if queue, !onServer {
            terminal.stop(LecternError(.invalidInput, "--queue", "needs a library on PostgreSQL (postgres://…), which workers on several machines share; "
                                       + "\(shown) is a library file, with one writer: run the pipeline without --queue"))
            throw ExitCode(2)
        }
        do {
            try work.checkOutputs(library: path)
        } catch let error as LecternError {
            terminal.stop(error)
            throw ExitCode(2)
        }
        if dryRun {
            if json { terminal.json(work.plan()) } else {
                if let shard {
                    let inputs = work.inputs()
                    let taken = inputs.filter { shard.takes($0.identity) }.count
                    terminal.out("plan for \(shown), shard \(shard): \(taken) of \(Plural.counted(inputs.count, "input")) (\(Plural.counted(pipeline.sources.count, "source"))), up to \(work.jobs) at once:")
                } else if queue {
                    terminal.out("plan for \(shown), queued for workers: \(Plural.counted(work.inputs().count, "job")) (\(Plural.counted(pipeline.sources.count, "source"))), then the finishing stages once:")
                } else if finish {
                    terminal.out("plan for \(shown), finishing stages only (\(Plural.counted(pipeline.sources.count, "source"))):")
                } else {
                    terminal.out("plan for \(shown) (\(Plural.counted(pipeline.sources.count, "source")), up to \(work.jobs) at once):")
                }
                for step in work.plan() {
                    terminal.out(TerminalText("  \(step.stage)  \(step.subject)  \(step.detail)"))
                }
            }
            return
        }

        let library = try global.openLibrary(configuration, access: .create)
        if queue {
            // The plan enqueued, nothing read: no run lock (workers' source jobs take none).
            let queued = try work.enqueue(library: library, arguments: Array(CommandLine.arguments.dropFirst()))
            if json {
                terminal.json(["run": Int(queued.run), "jobs": queued.jobs])
            } else {
                terminal.out(TerminalText("run #\(queued.run): \(Plural.counted(queued.jobs, "job")) queued (\(Plural.counted(pipeline.sources.count, "source"))) "
                                          + "for `lectern worker`, then the finishing stages — \(shown)"))
            }
            return
        }
        // One run at a time: a lock file beside a library file, an advisory lock on PostgreSQL.
        do {
            // Shards of one SQLite library (one writer) take the lock in turn rather than exit 3.
            try library.withWriterLock(wait: wait || shard != nil, cancellation: StopSignals.cancellation, waiting: { holder in
                terminal.note("another run (\(holder?.description ?? "pid unknown")) holds the lock: waiting", input: shown)
            }) { previous in
                if let previous {
                    terminal.note("took over the run lock left by a run that is gone (\(previous))", input: shown)
                }
                try perform(work, pipeline: pipeline, configuration: configuration, library: library, shown: shown, terminal: terminal)
            }
        } catch let held as RunLock.Held {
            terminal.stop(LecternError(.invalidInput, shown, held.description))
            throw ExitCode(3)
        }
    }

    /// The run itself, holding the library's lock: recorded, with its closing line.
    private func perform(_ work: PipelineRun, pipeline: PipelineFile, configuration: Configuration, library: Library, shown: String,
                     terminal: Terminal) throws {
        if finish, !force {
            // Before the run's record: a refused finish did nothing.
            let unfinished = work.unfinishedInputs(library: library, embedder: try EmbedderCatalog.resolve(library: library, configuration: configuration))
            if let example = unfinished.first {
                terminal.stop(LecternError(.invalidInput, file, "--finish: \(Plural.counted(unfinished.count, "input")) of the plan not stored or not up to date "
                                           + "(e.g. \(example)): run the shards first, or --force"))
                throw ExitCode(1)
            }
        }
        let recorder = try global.startRun(library, command: "run")
        terminal.event(PipelineEvent(.runStarted, input: file, total: pipeline.sources.count, run: recorder.id))
        let summary = try recorder.run { () throws -> PipelineRunSummary in
            let embedder = try EmbedderCatalog.resolve(library: library, configuration: configuration)
            return work.run(library: library, embedder: embedder, recorder: recorder) { terminal.event($0) }
        }
        terminal.finishProgress()
        terminal.event(PipelineEvent(.runFinished, message: summary.stopped.map(\.rawValue),
                                     counts: ["sources": summary.sources, "stored": summary.stored, "unchanged": summary.unchanged,
                                              "failed": summary.failed, "passages": summary.passages, "embedded": summary.embedded,
                                              "not_read": summary.notRead, "outputs_written": summary.outputsWritten.count],
                                     run: recorder.id))
        if json {
            terminal.json(summary)
        } else {
            let name = "run #\(recorder.id)" + (shard.map { " (shard \($0))" } ?? "")
            var parts = finish ? ["\(name): finishing stages"]
                : ["\(name): \(summary.stored) stored (\(Plural.counted(summary.passages, "passage")))", "\(summary.unchanged) unchanged"]
            if summary.failed > 0 { parts.append("\(summary.failed) failed") }
            if summary.warnings > 0 { parts.append(Plural.counted(summary.warnings, "warning")) }
            // A shard writes no output: the finishing run does.
            if shard == nil { parts.append("\(summary.outputsWritten.count) outputs written") }
            if summary.stopped == .interrupted { parts.append("\(StopSignals.cancellation.reason): \(summary.notRead) not read") }
            terminal.out(TerminalText(parts.joined(separator: ", ") + " — \(shown)"))
        }
        if summary.stopped == .interrupted, let exit = StopSignals.interruptedExit { throw exit }
        if summary.failed > 0 || summary.stopped == .libraryUnwritable { throw ExitCode(1) }
    }
}

extension RunCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}
