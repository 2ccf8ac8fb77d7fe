import Foundation

/// What a `lectern run` did, for the closing line, `--json` and the exit status.
public struct PipelineRunSummary: Codable, Sendable, Equatable {
    public var sources = 0
    public var stored = 0
    public var unchanged = 0
    public var failed = 0
    public var warnings = 0
    public var passages = 0
    public var embedded = 0
    /// Sources a stop left unread.
    public var notRead = 0
    public var stopped: BatchStop?
    /// The curricula built (or found unchanged).
    public var curricula: [CurriculumBuildResult] = []
    /// Output files written (curricula, decks, exports); unchanged ones are not rewritten.
    public var outputsWritten: [String] = []
    /// Stages the pipeline asks for that this build cannot run, with why.
    public var stagesSkipped: [String] = []
    public var run: Int64?
}

extension PipelineRunSummary: BatchOutcome {}

/// One step of a run's plan (`--dry-run`), as the command prints it.
public struct PipelineStep: Codable, Sendable, Equatable {
    public var stage: String
    public var subject: String
    public var detail: String
}

/// The nightly job: brings the library (and the pipeline's outputs) up to date with its
/// sources. Ingest does the checking (conditional GET, content hashes, skip keys), so a run
/// where nothing changed reads no document and writes nothing but its run record. Documents
/// are fetched, read and embedded side by side, up to `jobs` at once; the store is the one
/// writer (one SQLite connection, one transaction a document), so a run killed at any moment
/// leaves whole documents only, and the next run does just what is missing.
public struct PipelineRun: Sendable {
    public var pipeline: PipelineFile
    public var configuration: Configuration
    public var jobs: Int
    /// The most inputs read at once (`[run] jobs`, `--jobs`): each holds a document and its
    /// vectors in memory; more than this is a typo, not a machine.
    public static let maxJobs = 64
    public var cancellation: Cancellation?
    /// `--shard I/N`: only the sources this shard takes are read, and no finishing stage runs.
    public var shard: RunShard?
    /// `--finish`: no source is read; only the finishing stages run, over the library as it is.
    public var finishOnly = false
    /// A queue job (`lectern worker`): only this input of the plan is read, as the whole run
    /// reads it, and no finishing stage runs (the run's finish job does them).
    public var input: PipelineInput?

    public init(pipeline: PipelineFile, configuration: Configuration, jobs: Int) {
        self.pipeline = pipeline
        self.configuration = configuration
        self.jobs = max(1, jobs)
    }

    /// The stages after ingest, which curricula and cards provide when they are in the build.
    static let laterStagesMissing = "not available in this build"
    /// The stages this build runs; the plan names the others as not available.
    static let availableStages: Set<String> = ["ingest", "summarise", "curriculum", "cards", "export"]
    /// Why an input was skipped: its server said 304 to a conditional GET, or its bytes hash
    /// to the stored document's with the same reader, chunk settings and embedder.
    static let unchangedReason = "skipped: not modified since the last run (conditional GET or same content hash and settings)"

    /// What a run would do, changing nothing.
    public func plan() -> [PipelineStep] {
        if let shard { return shardPlan(shard) }
        var steps = finishOnly ? [finishCheckStep] : pipeline.sources.map { source -> PipelineStep in
            var detail = source.kind.rawValue
            if source.name != source.value { detail += ", named \(source.name)" }
            if source.password != nil { detail += ", with a password" }
            if let licence = source.licence { detail += ", licence \(licence)" }
            if !source.tags.isEmpty { detail += ", tags " + source.tags.joined(separator: ", ") }
            return PipelineStep(stage: "ingest", subject: source.kind == .path ? DisplayPath.of(source.argument) : source.argument,
                                detail: detail + " (read if changed: content hash, conditional GET)")
        }
        if pipeline.summarise {
            steps.append(PipelineStep(stage: "summarise", subject: "the sources' documents", detail: "(those whose summaries are missing or older than their content)"))
        }
        steps += pipeline.curricula.map {
            PipelineStep(stage: "curriculum", subject: $0.name, detail: "from " + $0.sources.joined(separator: ", ") + " (rebuilt if a source changed)")
        }
        // An output's folder that is not there yet is made: the plan says which.
        func folderNote(_ output: String) -> String {
            let folder = (output as NSString).deletingLastPathComponent
            return FileManager.default.fileExists(atPath: folder) ? "" : "; its folder \(DisplayPath.of(folder))/ is made"
        }
        steps += pipeline.decks.map {
            PipelineStep(stage: "cards", subject: $0.curriculum, detail: "\($0.format) → \(DisplayPath.of($0.output)) (cards made again if the curriculum changed; the file written if its bytes change\(folderNote($0.output)))")
        }
        steps += pipeline.exports.map {
            PipelineStep(stage: "export", subject: $0.curriculum, detail: "\($0.format) → \(DisplayPath.of($0.output)) (written if its bytes change\(folderNote($0.output)))")
        }
        return steps
    }

    /// `run(library:…)` on a SQLite library.
    public func run(store: LibraryStore, embedder: any Embedder, recorder: RunRecorder?, events: @escaping EventHandler) -> PipelineRunSummary {
        run(library: Library(store), embedder: embedder, recorder: recorder, events: events)
    }

    /// Ingests every source (changed ones only are read and written), then the later stages.
    public func run(library: Library, embedder: any Embedder, recorder: RunRecorder?, events: @escaping EventHandler) -> PipelineRunSummary {
        var summary = PipelineRunSummary(sources: pipeline.sources.count, run: recorder?.id)
        let services = LibraryServices(configuration: configuration, library: library, recorder: recorder, cancellation: cancellation)
        // A finishing run reads no source: `--finish` checked they are all stored.
        var ingested = finishOnly ? [] : pipeline.sources.map { (source: $0, argument: $0.argument) }
        if let input {
            // The one file the job names (its source's walk found it at enqueueing), or the web source.
            ingested = pipeline.sources.filter { $0.name == input.source }.prefix(1)
                .map { (source: $0, argument: $0.kind == .path ? input.identity : $0.argument) }
        }
        // One ingest for all sources (one with its own password apart), `jobs` documents at once.
        var groups: [(password: String?, arguments: [String])] = []
        for (source, argument) in ingested {
            if let last = groups.indices.last, groups[last].password == source.password {
                groups[last].arguments.append(argument)
            } else {
                groups.append((source.password, [argument]))
            }
        }
        for (index, group) in groups.enumerated() {
            guard summary.stopped == nil else {
                summary.notRead += groups[index...].map(\.arguments.count).reduce(0, +)
                break
            }
            var ingestor = services.ingestor(embedder: embedder, options: ExtractOptions(password: group.password, ocr: configuration.ocr))
            ingestor.parallelism = jobs
            ingestor.shard = shard
            ingestor.namedFilesFoundInFolder = input?.foundInFolder ?? false
            let done = ingestor.ingest(group.arguments, recorder: recorder) { event in
                // A nightly log says what was skipped and why, for every input.
                var event = event
                if event.event == .unchanged, event.message == nil { event.message = Self.unchangedReason }
                events(event)
            }
            summary.stored += done.stored
            summary.unchanged += done.unchanged
            summary.failed += done.failed
            summary.warnings += done.warnings
            summary.passages += done.passages
            summary.embedded += done.embedded
            summary.notRead += done.notRead
            summary.stopped = done.stopped
        }
        recorder?.count("pipeline_sources", by: pipeline.sources.count)
        // A shard's part ends with its sources: the finishing stages need every shard's
        // documents, and `--finish` runs them once all shards are done.
        if shard != nil || input != nil {
            recorder?.checkpoint()
            return summary
        }
        // A signal is honoured between every stage (and within them, between curricula,
        // topics, decks and outputs), not only while sources are read.
        if !stopRequested(&summary) { orderKeywords(library: library, events: events) }
        if !stopRequested(&summary) { applyLabels(library: library, events: events, into: &summary) }
        if !stopRequested(&summary), pipeline.summarise {
            summariseDocuments(library: library, recorder: recorder, events: events, into: &summary)
        }
        if !stopRequested(&summary) {
            buildCurricula(library: library, recorder: recorder, events: events, into: &summary)
        }
        if !stopRequested(&summary) {
            writeOutputs(library: library, recorder: recorder, events: events, into: &summary)
        }
        if !stopRequested(&summary) {
            for step in plan() where !Self.availableStages.contains(step.stage) {
                let note = "\(step.stage) \(step.subject): skipped, \(Self.laterStagesMissing)"
                summary.stagesSkipped.append(note)
                recorder?.count("skipped_\(step.stage)")
                events(PipelineEvent(.note, message: note))
            }
        }
        recorder?.checkpoint()
        return summary
    }

    /// Before the other finishing stages (a `--finish` run, or a queue's finish job, reads no
    /// source but follows the shards' writes): the keyword postings put back in term order where the
    /// library keeps them apart (PostgreSQL, grown by a quarter since they last were). A
    /// failure is a note: the run's documents are stored, and the next run tries again.
    func orderKeywords(library: Library, events: EventHandler) {
        do {
            if try library.orderKeywordPostings() {
                events(PipelineEvent(.note, message: "the keyword postings were put back in term order"))
            }
        } catch {
            events(PipelineEvent(.note, message: "the keyword postings were not put in order: \(error)"))
        }
    }

    /// Whether the run is to stop: a stop already recorded, or a signal that asked for one
    /// (recorded as `interrupted`).
    func stopRequested(_ summary: inout PipelineRunSummary) -> Bool {
        if summary.stopped == nil, cancellation?.isCancelled == true { summary.stopped = .interrupted }
        return summary.stopped != nil
    }

    /// Refuses, before any work, an output that would overwrite what the run depends on: the
    /// library (or its -wal, -shm, run lock), the pipeline file, or a file a path source reads
    /// (the next run would read the export back as a source). Paths are compared after their
    /// symbolic links are resolved.
    /// `library` nil: the library is no file (PostgreSQL).
    public func checkOutputs(library: String?) throws {
        var protected = library.map { ProtectedPaths(library: $0) } ?? ProtectedPaths()
        protected.addFile(Configuration.resolvePath(pipeline.path, base: nil), what: "the pipeline file")
        for source in pipeline.sources where source.kind == .path {
            protected.addSource(source.argument, what: "source '\(source.name)'")
        }
        let outputs = pipeline.decks.enumerated().map { ("deck[\($0 + 1)].output", $1.output, $1.outputLine ?? $1.line) }
            + pipeline.exports.enumerated().map { ("export[\($0 + 1)].output", $1.output, $1.outputLine ?? $1.line) }
        for (key, output, line) in outputs {
            if let reason = protected.refusal(for: output) {
                throw LecternError(.configuration, pipeline.path, "\(key) \(DisplayPath.of(output)) \(reason)", line: line)
            }
        }
    }

    /// The run's working parts, made as every other caller makes them.
    func services(library: Library, recorder: RunRecorder?) -> LibraryServices {
        LibraryServices(configuration: configuration, library: library, recorder: recorder, cancellation: cancellation)
    }

    /// Summarises the documents of the pipeline's sources whose summaries are missing or were
    /// made from older content (by the configured model, else offline).
    func summariseDocuments(library: Library, recorder: RunRecorder?, events: @escaping EventHandler, into summary: inout PipelineRunSummary) {
        do {
            var writer = try services(library: library, recorder: recorder).documentSummaries()
            writer.skipsCurrent = true
            let references = pipeline.sources.map(reference)
            let work = { try writer.summarize(references, recorder: recorder, cancellation: self.cancellation, events: events) }
            let batch = try recorder.map { try $0.time(.summarise, work) } ?? work()
            summary.failed += batch.failed
            if let stopped = batch.stopped { summary.stopped = stopped }
            if !batch.documents.isEmpty {
                events(PipelineEvent(.note, input: "summaries", message: "\(batch.documents.count) document\(batch.documents.count == 1 ? "" : "s") summarised with \(batch.provider)/\(batch.model)"))
            }
        } catch {
            let lectern = error as? LecternError ?? LecternError(.corrupt, "summaries", "\(error)")
            if let stop = BatchStop.of(lectern) {
                summary.stopped = stop
                return
            }
            summary.failed += 1
            recorder?.fail(input: "summaries", stage: "summarise", reason: lectern.reason)
            events(PipelineEvent(.failed, input: "summaries", message: lectern.reason))
        }
    }

    /// Builds each `[[curriculum]]` from the documents its sources stored. A curriculum whose
    /// sources did not change is left as it is (the builder writes nothing).
    func buildCurricula(library: Library, recorder: RunRecorder?, events: @escaping EventHandler, into summary: inout PipelineRunSummary) {
        guard !pipeline.curricula.isEmpty else { return }
        var builder: CurriculumBuilder
        do {
            builder = try services(library: library, recorder: recorder).curriculumBuilder()
        } catch {
            let reason = (error as? LecternError)?.description ?? "\(error)"
            for curriculum in pipeline.curricula {
                summary.failed += 1
                recorder?.fail(input: curriculum.name, stage: "curriculum", reason: reason)
                events(PipelineEvent(.failed, input: curriculum.name, message: reason))
            }
            return
        }
        let byName = Dictionary(pipeline.sources.map { ($0.name, $0) }) { first, _ in first }
        for curriculum in pipeline.curricula {
            if stopRequested(&summary) { return }
            let references = curriculum.sources.compactMap { byName[$0] }.map(reference)
            do {
                let build = { try builder.build(name: curriculum.name, sources: references, recorder: recorder, events: events) }
                let result = try recorder.map { try $0.time(.curriculum, build) } ?? build()
                recorder?.count(result.unchanged ? "curricula_unchanged" : "curricula_built")
                summary.curricula.append(result)
                if !result.unchanged {
                    events(PipelineEvent(.note, input: curriculum.name,
                                         message: "curriculum built: \(result.units) units, \(result.topics) topics (\(result.rebuiltTopics) made, \(result.keptTopics) kept)"))
                }
            } catch {
                let lectern = error as? LecternError ?? LecternError(.corrupt, curriculum.name, "\(error)")
                if BatchStop.of(lectern) != nil {
                    summary.stopped = BatchStop.of(lectern)
                    return
                }
                summary.failed += 1
                recorder?.fail(input: curriculum.name, stage: "curriculum", reason: lectern.reason)
                events(PipelineEvent(.failed, input: curriculum.name, message: lectern.reason))
            }
        }
    }

    /// What the curriculum builder is given for a source: the path or glob it was read from,
    /// or the URI its documents were stored under.
    /// Gives each source's documents the licence and tags the pipeline declares for it (and
    /// takes away ones it no longer declares); writes only what differs.
    func applyLabels(library: Library, events: @escaping EventHandler, into summary: inout PipelineRunSummary) {
        let references = DocumentReferences(library: library)
        for source in pipeline.sources {
            do {
                for document in try references.documents(reference(source)) {
                    try library.translated { try library.backend.label(documentId: document.id, licence: source.licence, tags: source.tags) }
                }
            } catch {
                let reason = (error as? LecternError)?.description ?? "\(error)"
                summary.failed += 1
                events(PipelineEvent(.failed, input: source.name, message: "its licence and tags were not stored: \(reason)"))
            }
        }
    }

    func reference(_ source: PipelineSource) -> String {
        guard let spec = SourceSpec.parse(source.argument) else { return source.argument }
        switch spec {
        case .url(let url): return Redaction.url(url)
        case .wikipedia: return Redaction.url(configuration.webSources.url(of: spec))
        case .ocw: return Redaction.url(configuration.webSources.resolve(spec).url)
        // The archive's URL is the source of the book's documents (OpenStax's usual repository name).
        case .openstax(let slug): return Redaction.url(configuration.openstax.archiveURL(repository: SourceSpec.openstaxRepository(slug)))
        }
    }
}
