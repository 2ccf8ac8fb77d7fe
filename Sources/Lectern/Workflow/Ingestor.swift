import Foundation

/// What an ingest did, for the exit status and the closing line.
public struct IngestSummary: Codable, Sendable, Equatable, BatchOutcome {
    public var stored = 0
    public var unchanged = 0
    public var failed = 0
    public var warnings = 0
    public var passages = 0
    var run: Int64?
    /// Why the batch ended early (a signal, a library that cannot be written), and how many
    /// inputs it left unread; a document in hand when it stopped was not written.
    public var stopped: BatchStop?
    public var notRead = 0
    /// Files and folders that folder walks left out by ignore rules (the default list, a
    /// `.lecternignore`, `--include`/`--exclude`), counted rather than listed.
    public var leftOut = 0
    public var foldersLeftOut = 0
    /// Passage texts sent to the embedder, and passages whose vector the embedding cache held
    /// (the work an interrupted ingest of the same document had done): hits and misses.
    public var embedded = 0
    public var cacheHits = 0
    public var cacheMisses = 0
}

/// The ingest pipeline: expand inputs → read bytes → pick a reader by content → extract →
/// chunk → embed → write each document in one transaction. Unchanged documents (same skip
/// key) are reported and not written. A bad input is reported and the batch goes on.
public struct Ingestor: Sendable {
    /// The library, on either backend (`Library`).
    var store: any LibraryBackend
    var registry: ReaderRegistry
    var embedder: any Embedder
    var chunkSettings: ChunkSettings
    var options: ExtractOptions
    /// Files larger than this are refused before reading.
    var maxFileBytes: Int = 1 << 30
    var batchSize = 32
    /// Fetches URLs and web specs (rate limit per host, conditional GET); one for the whole run.
    public var fetcher: WebFetcher?
    /// Where `openstax:` specs find a book's repository and its archive.
    public var openstax = OpenStaxSettings()
    /// Where `wikipedia:` and `ocw:` specs are fetched from.
    public var webSources = WebSourceSettings()
    /// Checked before each input and each embedding batch: a stop leaves only whole documents.
    public var cancellation: Cancellation?
    /// What a folder walk takes (ignore rules, --include/--exclude).
    public var selection = InputSelection()
    /// The title every document of this ingest is stored under, instead of the reader's
    /// (`ingest --title`); also given to an unchanged document.
    public var title: String?
    /// Passwords per file (`--password-file`), before the options' one password.
    public var passwords: PasswordFile?
    /// Where this ingest may read from (`lectern mcp --allow-ingest`); nil: anywhere the user can.
    public var scope: IngestScope?
    /// Inputs read and embedded side by side (`lectern run --jobs`); 1 for `ingest`.
    public var parallelism = 1
    /// `lectern run --shard I/N`: only the inputs whose identity (a file's absolute path, a web
    /// source as written) falls in this shard are read; nil: all of them.
    public var shard: RunShard?
    /// A queue job names one file its source's folder walk found: it is read as the walk reads
    /// what it finds (a file of a shape no reader knows is passed over with a warning, not failed).
    public var namedFilesFoundInFolder = false
    /// The embedding work of one `ingest` call, a document abandoned by a stop included.
    var tally: EmbeddingTally?
    /// What the run has said once (how to install a missing OCR language); nil outside `ingest`.
    var advice: RunAdvice?
    /// The batch's progress in bytes of input, and the input this worker reads in it.
    var batch: BatchProgress?
    var batchIndex = 0

    public init(store: LibraryStore, registry: ReaderRegistry = .standard, embedder: any Embedder,
                chunkSettings: ChunkSettings = ChunkSettings(), options: ExtractOptions = ExtractOptions()) {
        self.init(library: Library(store), registry: registry, embedder: embedder, chunkSettings: chunkSettings, options: options)
    }

    public init(library: Library, registry: ReaderRegistry = .standard, embedder: any Embedder,
                chunkSettings: ChunkSettings = ChunkSettings(), options: ExtractOptions = ExtractOptions()) {
        self.store = library.backend
        self.registry = registry
        self.embedder = embedder
        self.chunkSettings = chunkSettings
        self.options = options
    }

    var chunker: Chunker { Chunker(settings: chunkSettings, tokenCounter: embedder.tokenCounter) }

    /// Picks the reader by content and extracts: exactly what `lectern extract` shows.
    func extract(_ input: SourceInput, display: String) throws -> (reader: any Extractor, document: ExtractedDocument) {
        try reader.extract(input, display: display)
    }

    /// The storeless first half of the pipeline, shared with `lectern extract`.
    var reader: DocumentReader {
        var reader = DocumentReader(registry: registry, options: options)
        reader.maxFileBytes = maxFileBytes
        reader.passwords = passwords
        reader.cancellation = cancellation
        return reader
    }

    /// Hash of a file's bytes, or of every file in a folder source (paths and bytes).
    func contentHash(_ input: SourceInput) -> String {
        guard input.isDirectory, let root = input.path else { return ContentHash.sha256(input.data) }
        var lines: [String] = []
        if let enumerator = FileManager.default.enumerator(atPath: root) {
            while let relative = enumerator.nextObject() as? String {
                let path = root + "/" + relative
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   let data = FileManager.default.contents(atPath: path) {
                    lines.append(relative + " " + ContentHash.sha256(data))
                }
            }
        }
        return ContentHash.sha256(lines.sorted().joined(separator: "\n"))
    }

    /// content hash + reader and version + chunk settings (with the tokenizer that counts
    /// them), and the embedder: same key, same passages and vectors. The embedder is a part of
    /// its own, so that `reembed` can move every document to its new embedder in the switching
    /// transaction (`LibraryStore.switchEmbedder`) without the next ingest doing everything again.
    ///
    /// The fifth part holds the OCR settings, for a document read with OCR only (`ocr: true`):
    /// it was empty in every key made before OCR, so a document that needs none keeps its key
    /// whatever the settings, and one OCR'd under other settings is read again.
    func skipKey(contentHash: String, reader: any Extractor, ocr: Bool = false) -> SkipKey {
        var parts = [contentHash, "\(reader.name)@\(reader.version)", chunkSettings.key,
                     embedder.tokenCounter.countingKey, ocr ? options.ocr.key : "", "headers\(ContextualHeader.version)"]
        // A named text encoding reads other text; only then is it in the key (old keys stay valid).
        if let encoding = options.encoding { parts.append("encoding=" + encoding.rawValue) }
        return SkipKey(passages: ContentHash.sha256(parts.joined(separator: "|")), embedder: embedder.info.key)
    }

    /// Ingests every input, reporting through `events` and recording in `recorder`. Files,
    /// folders and globs are read from disk; URLs and `wikipedia:` / `openstax:` / `ocw:` specs
    /// are fetched (see `SourceSpec`).
    public func ingest(_ arguments: [String], recorder: RunRecorder?, events: EventHandler) -> IngestSummary {
        var summary = IngestSummary(run: recorder?.id)
        let (items, remote) = inputs(arguments, summary: &summary, recorder: recorder, events: events)
        let web = remote.isEmpty ? nil : (fetcher ?? WebFetcher())
        let jobs = items.map(Job.local) + remote.map(Job.remote)
        var worker = self
        let tally = EmbeddingTally()
        worker.tally = tally
        worker.advice = RunAdvice()
        let progress = BatchProgress(sizes: jobs.map { job in
            if case .local(let item) = job { return BatchProgress.size(of: item.path) }
            return 0
        })
        worker.batch = progress
        var ahead: [Int: Result<[Outcome], any Error>] = [:]
        for (index, job) in jobs.enumerated() {
            if cancellation?.isCancelled == true {
                summary.stopped = .interrupted
                summary.notRead = jobs.count - index
                break
            }
            do {
                let outcomes: [Outcome]
                if parallelism > 1 {
                    // `lectern run --jobs N`: N inputs are read and embedded side by side, a window
                    // at a time (the store stays the one writer); their outcomes are taken in order here.
                    if ahead[index] == nil {
                        let window = Array(index..<min(index + parallelism, jobs.count)), reader = worker
                        let results = ParallelWork.map(window.count, workers: window.count) { slot -> [Outcome] in
                            let job = jobs[window[slot]]
                            try reader.cancellation?.check(job.display)
                            events(PipelineEvent(.inputStarted, input: job.display, index: window[slot] + 1, total: jobs.count,
                                                 work: progress?.work))
                            var one = reader
                            one.batchIndex = window[slot]
                            return try one.ingestJob(job, fetcher: web, recorder: recorder, events: events)
                        }
                        for (slot, result) in results.enumerated() { ahead[window[slot]] = result }
                    }
                    outcomes = try ahead.removeValue(forKey: index)!.get()
                } else {
                    events(PipelineEvent(.inputStarted, input: job.display, index: index + 1, total: jobs.count, work: progress?.work))
                    worker.batchIndex = index
                    outcomes = try worker.ingestJob(job, fetcher: web, recorder: recorder, events: events)
                }
                progress?.finish(index, unchanged: outcomes.allSatisfy { if case .unchanged = $0 { return true } else { return false } })
                count(outcomes, of: job, index: index, total: jobs.count, summary: &summary, recorder: recorder, events: events)
            } catch let stop where BatchStop.of(stop) != nil {
                // An interruption abandons this input; a library that cannot be written fails it
                // once, naming the library, and no later input is read (nothing could be stored).
                summary.stopped = BatchStop.of(stop)
                summary.notRead = jobs.count - index
                if summary.stopped == .libraryUnwritable, let lectern = stop as? LecternError {
                    summary.failed += 1
                    summary.notRead -= 1
                    recorder?.fail(input: lectern.subject ?? store.display, stage: "write", reason: lectern.reason)
                    events(PipelineEvent(.failed, input: lectern.subject, message: lectern.reason))
                }
                break
            } catch let lectern as LecternError where lectern.code == .unknownShape && job.foundInFolder && selection.useDefaultIgnore {
                // JSON no reader recognises (settings, metadata) is on the default ignore list.
                summary.leftOut += 1
                events(PipelineEvent(.leftOut, input: job.display, message: InputSelection.unrecognisedJSON + " (" + InputSelection.defaultOrigin + ")"))
            } catch let lectern as LecternError where lectern.code == .unknownShape && job.foundInFolder {
                // A file of a shape no reader knows, met while walking a folder, is passed over.
                summary.warnings += 1
                recorder?.fail(input: job.display, stage: "ingest", reason: "skipped: " + lectern.reason, warning: true)
                events(PipelineEvent(.warning, input: lectern.subject ?? job.display, message: "skipped: " + lectern.reason))
            } catch {
                let lectern = error as? LecternError ?? LecternError(.corrupt, job.display, "\(error)")
                summary.failed += 1
                recorder?.count("failed")
                recorder?.fail(input: job.display, stage: "ingest", reason: lectern.located)
                events(PipelineEvent(.failed, input: lectern.subject ?? job.display, line: lectern.line, message: lectern.reason))
            }
            // A failed or left-out input took its time too: done (a stored or unchanged one was said above).
            progress?.finish(index, unchanged: false)
            recorder?.checkpoint()
        }
        if summary.leftOut + summary.foldersLeftOut > 0 {
            recorder?.count("left_out", by: summary.leftOut + summary.foldersLeftOut)
        }
        (summary.embedded, summary.cacheHits, summary.cacheMisses) = tally.counts
        return summary
    }

    /// The inputs the arguments name: files and folders on disk (globs and folder walks
    /// expanded, each judged by the scope) and web sources. A refused or unreadable argument is
    /// a failure and an input the selection leaves out a `leftOut` event, both counted in `summary`.
    func inputs(_ arguments: [String], summary: inout IngestSummary, recorder: RunRecorder?,
                events: EventHandler) -> (local: [InputExpander.Item], remote: [SourceSpec]) {
        var local: [String] = []
        var remote: [SourceSpec] = []
        var refused: [LecternError] = []
        for argument in arguments {
            if let refusal = scope?.refusal(of: argument) {
                refused.append(refusal)
            } else if let spec = SourceSpec.parse(argument) {
                if let shard, !shard.takes(argument) { continue }
                remote.append(webSources.resolve(spec))
            } else {
                local.append(argument)
            }
        }
        let expansion = InputExpander(registry: registry, selection: selection).walk(local)
        var items = expansion.items
        if let shard { items = items.filter { shard.takes($0.path) } }
        if namedFilesFoundInFolder {
            for index in items.indices where !items[index].isDirectory { items[index].foundInFolder = true }
        }
        if let scope {
            // What globs matched and folder walks met is judged by its real path too (a link out).
            items = items.filter { item in
                guard let refusal = scope.refusal(ofFound: item.path, display: item.display, isDirectory: item.isDirectory) else { return true }
                refused.append(refusal)
                return false
            }
        }
        for error in refused + expansion.failures {
            summary.failed += 1
            recorder?.fail(input: error.subject ?? "", stage: "expand", reason: error.reason)
            events(PipelineEvent(.failed, input: error.subject, message: error.reason))
        }
        for left in expansion.leftOut {
            if left.isDirectory { summary.foldersLeftOut += 1 } else { summary.leftOut += 1 }
            events(PipelineEvent(.leftOut, input: left.display + (left.isDirectory ? "/" : ""), message: left.rule))
        }
        return (items, remote)
    }

    /// Counts what one input stored or found unchanged, and says so.
    func count(_ outcomes: [Outcome], of job: Job, index: Int, total: Int, summary: inout IngestSummary,
               recorder: RunRecorder?, events: EventHandler) {
        for outcome in outcomes {
            switch outcome {
            case .unchanged(let note):
                summary.unchanged += 1
                recorder?.count("unchanged")
                events(PipelineEvent(.unchanged, input: job.display, message: note, index: index + 1, total: total))
            case .stored(let title, let passages, let warnings, let embedding):
                summary.stored += 1
                summary.passages += passages
                summary.warnings += warnings
                recorder?.count("documents")
                recorder?.count("passages", by: passages)
                events(PipelineEvent(.stored, input: job.display, title: title, passages: passages, index: index + 1, total: total,
                                     counts: ["embedded": embedding.embedded, "cache_hits": embedding.cacheHits,
                                              "cache_misses": passages - embedding.cacheHits]))
            }
        }
    }

    /// One input of a batch: a file or folder found on disk, or a web source.
    enum Job: Sendable {
        case local(InputExpander.Item)
        case remote(SourceSpec)
        var display: String {
            switch self {
            case .local(let item): return item.display
            case .remote(let spec): return spec.display
            }
        }
        var foundInFolder: Bool {
            if case .local(let item) = self { return item.foundInFolder }
            return false
        }
    }

    /// Reads one input of a batch.
    func ingestJob(_ job: Job, fetcher: WebFetcher?, recorder: RunRecorder?, events: EventHandler) throws -> [Outcome] {
        switch job {
        case .local(let item): return try ingestOne(item, recorder: recorder, events: events)
        case .remote(let spec): return try ingestRemote(spec, fetcher: fetcher ?? WebFetcher(), recorder: recorder, events: events)
        }
    }

    /// What became of one document; a source of several (an OpenStax bundle) gives one each.
    /// An unchanged document stored without text says why (`no text layer`), once per run.
    enum Outcome {
        case unchanged(note: String?)
        case stored(title: String, passages: Int, warnings: Int, embedding: EmbeddingWork)
        static let unchanged = Outcome.unchanged(note: nil)
    }

    /// How a document's vectors were made: texts embedded now, passages found in the cache.
    struct EmbeddingWork { var embedded = 0, cacheHits = 0 }

    /// What a whole `ingest` call embedded and found in the cache, counted as it goes, so that
    /// the summary of a stopped run includes the work of the document it abandoned (kept in
    /// the cache for the next run).
    final class EmbeddingTally: Sendable {
        private let tally = Locked((embedded: 0, hits: 0, misses: 0))

        func looked(hits: Int, misses: Int) {
            tally.withLock {
                $0.hits += hits
                $0.misses += misses
            }
        }

        func embedded(_ count: Int) { tally.withLock { $0.embedded += count } }

        var counts: (embedded: Int, hits: Int, misses: Int) { tally.current }
    }

    func ingestOne(_ item: InputExpander.Item, recorder: RunRecorder?, events: EventHandler) throws -> [Outcome] {
        let input = try reader.load(item)
        return try ingestInput(input, display: item.display, storedPath: item.path,
                               sourceKind: item.isDirectory ? .folder : .file, recorder: recorder, events: events)
    }

    /// Reader by content → extract → chunk → embed → one transaction, for a file, a folder or a
    /// download. `storedPath` is nil for web sources, whose URI is their provenance.
    ///
    /// A source that holds several documents (the books of an OpenStax bundle) is stored as one
    /// document per part, each under the source's URI + `#<part>`; `part` picks one of them.
    func ingestInput(_ input: SourceInput, display: String, storedPath: String?, sourceKind: SourceKind,
                     part: String? = nil, recorder: RunRecorder?, events: EventHandler) throws -> [Outcome] {
        // A ZIP (a downloaded course, a book's source archive) is read as the folder it holds;
        // the reader is chosen here, once, for every document of the source.
        let source = try self.reader.open(input, display: display)
        defer { withExtendedLifetime(source) {} }
        let whole = source.input, reader = source.reader
        let hash = contentHash(whole)
        let parts = reader.parts(of: whole)
        guard !parts.isEmpty else {
            return [try ingestDocument(whole, reader: reader, hash: hash, display: display, storedPath: storedPath,
                                       sourceKind: sourceKind, recorder: recorder, events: events)]
        }
        // Read before as one document (the first part), the source is now its parts.
        if let old = try store.document(uri: whole.uri) { _ = try store.removeDocuments([old]) }
        let chosen = part.flatMap { parts.contains($0) ? [$0] : nil } ?? parts
        return try chosen.map { part in
            var input = whole
            input.part = part
            input.uri = whole.uri + "#" + part
            return try ingestDocument(input, reader: reader, hash: hash, display: "\(display) › \(part)", storedPath: storedPath,
                                      sourceKind: sourceKind, sourceURI: whole.uri, recorder: recorder, events: events)
        }
    }

    /// Extract → chunk → embed → one transaction, for one document of a source.
    private func ingestDocument(_ input: SourceInput, reader: any Extractor, hash: String, display: String, storedPath: String?,
                                sourceKind: SourceKind, sourceURI: String? = nil, recorder: RunRecorder?, events: EventHandler) throws -> Outcome {
        let item = (display: display, path: storedPath)
        let key = skipKey(contentHash: hash, reader: reader)
        let ocrKey = reader is PDFExtractor ? skipKey(contentHash: hash, reader: reader, ocr: true) : nil
        if let existing = try store.document(uri: input.uri), existing.skipKey == key || existing.skipKey == ocrKey,
           !awaitsOCR(existing, storedWithoutOCR: existing.skipKey == key, isPDF: ocrKey != nil) {
            if let title, existing.title != title { try store.setTitle(documentId: existing.id, title) }
            // A document known to hold no text (a scan) is not read again; the re-run says why.
            guard existing.passageCount == 0 else { return .unchanged }
            return .unchanged(note: existing.warningList.contains { $0.contains("no text layer") } ? "no text layer" : "no text")
        }
        // Each stage is timed and counted in the run (`lectern runs`): where a slow import goes.
        func stage<T>(_ name: RunStage, _ work: () throws -> T) rethrows -> T {
            guard let recorder else { return try work() }
            return try recorder.time(name, work)
        }
        var document = try stage(.extract) { try self.reader.read(input, with: reader, display: item.display) }
        recorder?.count("blocks", by: document.blocks.count)
        if embedder.isEnglishOnly, EnglishTextCheck.isMostlyNonEnglish(document.blocks.map(\.text)) {
            document.warnings.append(ExtractionWarning("mostly non-English text: \(embedder.info.model) is an English model, so semantic search will miss much here (keyword search still works)"))
        }
        let passages = stage(.chunk) { chunker.chunk(document.blocks) }
        if passages.isEmpty && document.warnings.isEmpty {
            document.warnings.append(ExtractionWarning("no text found: nothing to search"))
        }
        // A document without text (a scanned PDF) is stored with no passages and its warning,
        // the same warning `extract` gives: the next ingest knows it and reports it unchanged.
        for warning in document.warnings {
            recorder?.fail(input: item.display, stage: "extract", reason: warning.description, warning: true)
        }
        (advice ?? RunAdvice()).events(for: document.warnings, input: item.display).forEach(events)
        if let title { document.title = title }
        if document.title.isEmpty { document.title = TextCleanup.titleFromPath(item.display) }
        // What is embedded (and cached) is the passage under its contextual header.
        let embedding = try embed(passages.map {
            ContextualHeader.embedded($0.text, title: document.title, sectionPath: $0.sectionPath)
        }, display: item.display, recorder: recorder, events: events)
        recorder?.count("vectors", by: embedding.vectors.count)
        // A document read with OCR keeps the settings it was read under in its key.
        let storedKey = document.metadata[PDFExtractor.ocrMetadataKey] != nil ? ocrKey ?? key : key
        var write = LibraryStore.DocumentWrite(
            sourceURI: sourceURI ?? input.uri, sourceKind: sourceKind, uri: input.uri, path: item.path,
            extractor: reader.name, extractorVersion: reader.version, contentHash: hash, skipKey: storedKey,
            document: document, passages: passages, vectors: embedding.vectors, embedder: embedder.info)
        write.cachedTextHashes = embedding.cachedTextHashes
        _ = try stage(.write) { try store.replaceDocument(write) }
        return .stored(title: document.title, passages: passages.count, warnings: document.warnings.count, embedding: embedding.work)
    }

    /// A PDF stored without OCR is read again when OCR would now read more of it: with
    /// `--ocr always`, or when it was stored with pages it could not read ("no text layer",
    /// an unusable text layer; so also those stored before Lectern had OCR) and OCR is on.
    func awaitsOCR(_ existing: StoredDocument, storedWithoutOCR: Bool, isPDF: Bool) -> Bool {
        guard isPDF, storedWithoutOCR else { return false }
        switch options.ocr.mode {
        case .never: return false
        case .always: return true
        case .auto: return existing.warningList.contains { $0.contains("no text layer") || $0.contains("mostly unmapped characters") }
        }
    }

    /// One vector per text, in order. Texts the embedding cache holds (an interrupted ingest of
    /// this document made them) are not embedded again; the others are embedded `batchSize` at a
    /// time, each batch but the last kept in the cache in its own transaction, so a stop between
    /// batches loses no embedding work. The last batch goes straight into the document's write.
    private func embed(_ texts: [String], display: String, recorder: RunRecorder?, events: EventHandler)
        throws -> (vectors: [[Float]], work: EmbeddingWork, cachedTextHashes: [String]) {
        guard !texts.isEmpty else { return ([], EmbeddingWork(), []) }
        func stage<T>(_ name: RunStage, _ work: () throws -> T) rethrows -> T {
            guard let recorder else { return try work() }
            return try recorder.time(name, work)
        }
        let info = embedder.info
        let hashes = texts.map(ContentHash.sha256)
        var known = try store.cachedVectors(embedder: info, textHashes: hashes)
        var work = EmbeddingWork(cacheHits: hashes.filter { known[$0] != nil }.count)
        tally?.looked(hits: work.cacheHits, misses: texts.count - work.cacheHits)
        var cachedTextHashes = Array(known.keys)
        // Each missing text once, in reading order (a repeated slide title is embedded once).
        var queued = Set<String>()
        let missing = hashes.indices.filter { known[hashes[$0]] == nil && queued.insert(hashes[$0]).inserted }
        let reportsProgress = texts.count > batchSize
        func progress() {
            guard reportsProgress else { return }
            let done = hashes.filter { known[$0] != nil }.count
            events(PipelineEvent(.progress, input: display, message: "embedding", index: done, total: texts.count,
                                 counts: ["embedded": work.embedded, "cache_hits": work.cacheHits],
                                 work: batch?.advance(batchIndex, done: done, total: texts.count)))
        }
        if work.cacheHits > 0 { progress() }
        for start in stride(from: 0, to: missing.count, by: batchSize) {
            try cancellation?.check(display)
            let batch = Array(missing[start..<min(start + batchSize, missing.count)])
            let made = try stage(.embed) { try embedder.embed(batch.map { texts[$0] }) }
            guard made.count == batch.count else {
                throw LecternError(.embedderMismatch, info.name, "returned \(made.count) vectors for \(batch.count) texts")
            }
            let batchHashes = batch.map { hashes[$0] }
            for (hash, vector) in zip(batchHashes, made) { known[hash] = vector }
            work.embedded += batch.count
            tally?.embedded(batch.count)
            recorder?.count("embedded", by: batch.count)
            if start + batchSize < missing.count {
                try stage(.cache) { try store.cacheVectors(embedder: info, textHashes: batchHashes, vectors: made) }
                cachedTextHashes += batchHashes
            }
            progress()
        }
        recorder?.count("cache_hits", by: work.cacheHits)
        return (hashes.map { known[$0]! }, work, cachedTextHashes)
    }
}
