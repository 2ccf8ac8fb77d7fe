import Foundation

/// What an ingest did, for the exit status and the closing line.
public struct IngestSummary: Codable, Sendable, Equatable {
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
}

/// The ingest pipeline: expand inputs → read bytes → pick a reader by content → extract →
/// chunk → embed → write each document in one transaction. Unchanged documents (same skip
/// key) are reported and not written. A bad input is reported and the batch goes on.
public struct Ingestor: Sendable {
    var store: LibraryStore
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
    /// Checked before each input and each embedding batch: a stop leaves only whole documents.
    public var cancellation: Cancellation?

    public init(store: LibraryStore, registry: ReaderRegistry = .standard, embedder: any Embedder,
                chunkSettings: ChunkSettings = ChunkSettings(), options: ExtractOptions = ExtractOptions()) {
        self.store = store
        self.registry = registry
        self.embedder = embedder
        self.chunkSettings = chunkSettings
        self.options = options
    }

    var chunker: Chunker { Chunker(settings: chunkSettings, tokenCounter: embedder.tokenCounter) }

    /// Reads one file or folder into a `SourceInput`.
    func load(_ item: InputExpander.Item) throws -> SourceInput { try reader.load(item) }

    /// Picks the reader by content and extracts: exactly what `lectern extract` shows.
    func extract(_ input: SourceInput, display: String) throws -> (reader: any Extractor, document: ExtractedDocument) {
        try reader.extract(input, display: display)
    }

    /// The storeless first half of the pipeline, shared with `lectern extract`.
    var reader: DocumentReader {
        var reader = DocumentReader(registry: registry, options: options)
        reader.maxFileBytes = maxFileBytes
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
    func skipKey(contentHash: String, reader: any Extractor) -> SkipKey {
        var parts = [contentHash, "\(reader.name)@\(reader.version)", chunkSettings.key,
                     embedder.tokenCounter.countingKey, options.ocr ? "ocr" : "", "headers\(ContextualHeader.version)"]
        // A named text encoding reads other text; only then is it in the key (old keys stay valid).
        if let encoding = options.encoding { parts.append("encoding=" + encoding.rawValue) }
        return SkipKey(passages: ContentHash.sha256(parts.joined(separator: "|")), embedder: embedder.info.key)
    }

    /// Ingests every input, reporting through `events` and recording in `recorder`. Files,
    /// folders and globs are read from disk; URLs and `wikipedia:` / `openstax:` / `ocw:` specs
    /// are fetched (see `SourceSpec`).
    public func ingest(_ arguments: [String], recorder: RunRecorder?, events: EventHandler) -> IngestSummary {
        var summary = IngestSummary(run: recorder?.id)
        var local: [String] = []
        var remote: [SourceSpec] = []
        for argument in arguments {
            if let spec = SourceSpec.parse(argument) { remote.append(spec) } else { local.append(argument) }
        }
        let (items, missing) = InputExpander(registry: registry).expand(local)
        for error in missing {
            summary.failed += 1
            recorder?.fail(input: error.subject ?? "", stage: "expand", reason: error.reason)
            events(PipelineEvent(.failed, input: error.subject, message: error.reason))
        }
        let web = remote.isEmpty ? nil : (fetcher ?? WebFetcher())
        enum Job {
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
        let jobs = items.map(Job.local) + remote.map(Job.remote)
        for (index, job) in jobs.enumerated() {
            if cancellation?.isCancelled == true {
                summary.stopped = .interrupted
                summary.notRead = jobs.count - index
                break
            }
            events(PipelineEvent(.inputStarted, input: job.display, index: index + 1, total: jobs.count))
            do {
                let outcomes: [Outcome]
                switch job {
                case .local(let item): outcomes = try ingestOne(item, recorder: recorder, events: events)
                case .remote(let spec): outcomes = try ingestRemote(spec, fetcher: web ?? WebFetcher(), recorder: recorder, events: events)
                }
                for outcome in outcomes {
                    switch outcome {
                    case .unchanged:
                        summary.unchanged += 1
                        recorder?.count("unchanged")
                        events(PipelineEvent(.unchanged, input: job.display, index: index + 1, total: jobs.count))
                    case .stored(let title, let passages, let warnings):
                        summary.stored += 1
                        summary.passages += passages
                        summary.warnings += warnings
                        recorder?.count("documents")
                        recorder?.count("passages", by: passages)
                        events(PipelineEvent(.stored, input: job.display, title: title, passages: passages, index: index + 1, total: jobs.count))
                    }
                }
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
            recorder?.checkpoint()
        }
        return summary
    }

    /// What became of one document; a source of several (an OpenStax bundle) gives one each.
    enum Outcome { case unchanged, stored(title: String, passages: Int, warnings: Int) }

    func ingestOne(_ item: InputExpander.Item, recorder: RunRecorder?, events: EventHandler) throws -> [Outcome] {
        let input = try load(item)
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
        if let existing = try store.document(uri: input.uri), existing.skipKey == key {
            return .unchanged
        }
        // Each stage is timed and counted in the run (`lectern runs`): where a slow import goes.
        func stage<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            guard let recorder else { return try work() }
            return try recorder.time(name, work)
        }
        var document = try stage("extract") { try self.reader.read(input, with: reader, display: item.display) }
        recorder?.count("blocks", by: document.blocks.count)
        if embedder.isEnglishOnly, EnglishTextCheck.isMostlyNonEnglish(document.blocks.map(\.text)) {
            document.warnings.append(ExtractionWarning("mostly non-English text: \(embedder.info.model) is an English model, so semantic search will miss much here (keyword search still works)"))
        }
        let passages = stage("chunk") { chunker.chunk(document.blocks) }
        if passages.isEmpty {
            // One line: the warnings say why there is no text (a scanned PDF's pages).
            throw LecternError(.empty, item.display, (["no text found"] + document.warnings.map(\.description)).joined(separator: ": "))
        }
        for warning in document.warnings {
            recorder?.fail(input: item.display, stage: "extract", reason: warning.description, warning: true)
            events(PipelineEvent(.warning, input: item.display, line: warning.line, message: warning.message))
        }
        if document.title.isEmpty { document.title = TextCleanup.titleFromPath(item.display) }
        var vectors: [[Float]] = []
        vectors.reserveCapacity(passages.count)
        for start in stride(from: 0, to: passages.count, by: batchSize) {
            try cancellation?.check(item.display)
            let batch = passages[start..<min(start + batchSize, passages.count)].map {
                ContextualHeader.embedded($0.text, title: document.title, sectionPath: $0.sectionPath)
            }
            vectors += try stage("embed") { try embedder.embed(batch) }
            if passages.count > batchSize {
                events(PipelineEvent(.progress, input: item.display, message: "embedding", index: vectors.count, total: passages.count))
            }
        }
        recorder?.count("vectors", by: vectors.count)
        _ = try stage("write") { try store.replaceDocument(LibraryStore.DocumentWrite(
            sourceURI: sourceURI ?? input.uri, sourceKind: sourceKind, uri: input.uri, path: item.path,
            extractor: reader.name, extractorVersion: reader.version, contentHash: hash, skipKey: key,
            document: document, passages: passages, vectors: vectors, embedder: embedder.info)) }
        return .stored(title: document.title, passages: passages.count, warnings: document.warnings.count)
    }
}
