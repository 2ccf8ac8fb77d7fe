import Foundation

/// Summarises one stored document: each top-level section, then the whole document (from
/// its section summaries when it has several sections and a model is used, else from its
/// text), and stores them together with the provider and model.
public struct DocumentSummaries: Sendable {
    let store: any LibraryBackend
    let summarizer: any Summarizer
    /// Sections summarised at once (a model's calls are also limited per provider).
    var parallelism: Int
    /// Leaves out a document whose summaries this summariser already made from its current
    /// content (`lectern run`: only what changed since the last run is summarised again).
    public var skipsCurrent = false

    public init(store: LibraryStore, summarizer: any Summarizer, parallelism: Int = 2) {
        self.init(backend: store, summarizer: summarizer, parallelism: parallelism)
    }

    public init(library: Library, summarizer: any Summarizer, parallelism: Int = 2) {
        self.init(backend: library.backend, summarizer: summarizer, parallelism: parallelism)
    }

    init(backend: any LibraryBackend, summarizer: any Summarizer, parallelism: Int) {
        self.store = backend
        self.summarizer = summarizer
        self.parallelism = max(1, parallelism)
    }

    /// Block kinds whose text a summary draws on (not headings, furniture, code, tables, captions,
    /// exercises, objectives or glossary entries, which are not the text's own argument).
    static let summarisedKinds: Set<BlockKind> = [.paragraph, .listItem, .cue, .quote, .keyTerm]

    /// Sections that list sources or exercises rather than teach: left out of summaries.
    static let apparatus: Set<String> = [
        "references", "bibliography", "further reading", "suggested reading", "suggested readings", "works cited",
        "review questions", "exercises", "problems", "footnotes", "notes and references", "sources",
    ]

    /// A document's text as (top-level section, paragraphs). Top level is the first heading
    /// level at which the document divides: a note under one title divides at its second level.
    static func sections(of blocks: [Block]) -> [(name: String?, paragraphs: [String])] {
        let content = blocks.filter { block in
            summarisedKinds.contains(block.kind) && !block.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                && !block.sectionPath.contains { apparatus.contains($0.lowercased()) }
        }
        var depth = 0
        while true {
            let names = Set(content.map { $0.sectionPath.count > depth ? $0.sectionPath[depth] : "" })
            if names.count == 1, let only = names.first, !only.isEmpty { depth += 1 } else { break }
        }
        var result: [(name: String?, paragraphs: [String])] = []
        var previousCue = false
        for block in content {
            let name: String? = block.sectionPath.count > depth ? block.sectionPath[depth] : nil
            if result.last.map({ $0.name != name }) ?? true {
                result.append((name: name, paragraphs: [String]()))
                previousCue = false
            }
            // Transcript cues are pieces of sentences: joined into one running text.
            if block.kind == .cue, previousCue, let last = result[result.count - 1].paragraphs.popLast() {
                result[result.count - 1].paragraphs.append(last + " " + block.text)
            } else {
                result[result.count - 1].paragraphs.append(block.text)
            }
            previousCue = block.kind == .cue
        }
        // A section that recurs later (rare) is merged with its first appearance.
        var merged: [(name: String?, paragraphs: [String])] = []
        for section in result {
            if let index = merged.firstIndex(where: { $0.name == section.name }) {
                merged[index].paragraphs += section.paragraphs
            } else {
                merged.append(section)
            }
        }
        return merged
    }

    /// Summarises `document` and replaces its stored summaries. Throws when no summary at all
    /// could be made; a section that fails is left out with its error returned.
    @discardableResult
    func summarize(_ document: StoredDocument) throws -> (summaries: [StoredSummary], failures: [LecternError]) {
        let blocks = try store.blocks(documentId: document.id)
        let sections = Self.sections(of: blocks)
        let named = sections.compactMap { section in section.name.map { (name: $0, paragraphs: section.paragraphs) } }
        let summarizer = self.summarizer
        let title = document.title

        // Top-level sections, in parallel; results come back in section order.
        let results = named.count > 1 ? ParallelWork.map(named.count, workers: parallelism) { index in
            try summarizer.summarize(SummaryInput(title: title, section: named[index].name, paragraphs: named[index].paragraphs))
        } : []
        var sectionSummaries: [(section: String, summary: Summary)] = []
        var failures: [LecternError] = []
        for (section, result) in zip(named, results) {
            switch result {
            case .success(let summary): sectionSummaries.append((section.name, summary))
            case .failure(let error):
                // A model that cannot be asked fails every later call alike: the batch stops.
                if let down = LecternError.modelUnavailable(error) { throw down }
                // Named after its section; a model's own failure keeps its code and reason.
                let lectern = error as? LecternError
                failures.append(LecternError(lectern?.code ?? .languageModel, "\(title) § \(section.name)", lectern?.reason ?? "\(error)"))
            }
        }

        // The whole document from its sections' summaries (map-reduce: it fits any context
        // window and covers every section rather than the most central one), else its text.
        let allParagraphs = sections.flatMap(\.paragraphs)
        guard !allParagraphs.isEmpty else {
            throw LecternError(.empty, document.path.map(DisplayPath.of) ?? document.uri, "the document has no text to summarise")
        }
        let fromSections = sectionSummaries.count > 1
        let now = ISO8601DateFormatter().string(from: Date())
        var stored: [StoredSummary] = []
        do {
            let whole = try summarizer.summarize(SummaryInput(
                title: title, paragraphs: fromSections ? sections.filter { $0.name == nil }.flatMap(\.paragraphs) : allParagraphs,
                sectionSummaries: fromSections ? sectionSummaries : []))
            stored.append(StoredSummary(section: nil, text: whole.text, keyPoints: whole.keyPoints, provider: summarizer.provider,
                                        model: summarizer.model, contentHash: document.contentHash, createdAt: now))
        } catch {
            // The sections' summaries are worth keeping; with none, the document failed.
            guard !sectionSummaries.isEmpty, LecternError.modelUnavailable(error) == nil else { throw error }
            let reason = (error as? LecternError)?.reason ?? "\(error)"
            failures.append(LecternError(.languageModel, title, "no summary of the whole document: \(reason)"))
        }
        stored += sectionSummaries.map {
            StoredSummary(section: $0.section, text: $0.summary.text, keyPoints: $0.summary.keyPoints, provider: summarizer.provider,
                          model: summarizer.model, contentHash: document.contentHash, createdAt: now)
        }
        try store.replaceSummaries(documentId: document.id, stored)
        return (stored, failures)
    }
}

/// One document `summarize` summarised, with what it stored.
public struct SummarizedDocument: Codable, Sendable {
    var documentId: String
    var title: String
    var summaries: [StoredSummary]
}

/// What summarising a set of documents did.
public struct SummaryBatch: Codable, Sendable, BatchOutcome {
    /// Who wrote the summaries: a model's provider and name, or `extractive`.
    public var provider: String
    public var model: String
    public var documents: [SummarizedDocument] = []
    /// Documents (and references naming none) that failed.
    public var failed = 0
    public var stopped: BatchStop?
    public var notRead = 0

    /// Top-level sections summarised, over all documents.
    public var sections: Int { documents.reduce(0) { $0 + $1.summaries.filter { $0.section != nil }.count } }
}

extension DocumentSummaries {
    /// Summarises the documents `references` name (short ids, paths, folders, URIs, globs; every
    /// document when there are none), one after the other. A reference that names nothing and a
    /// document that cannot be summarised are reported (`failed` events, failures in `recorder`)
    /// and the batch goes on; a section that fails is a warning. A model that cannot be asked
    /// (a wrong key, a timeout, 429 past the retries) throws: the batch stops with its one line.
    /// `cancellation` is checked between documents.
    public func summarize(_ references: [String], recorder: RunRecorder?, cancellation: Cancellation? = nil,
                          events: EventHandler) throws -> SummaryBatch {
        var batch = SummaryBatch(provider: summarizer.provider, model: summarizer.model)
        var documents: [StoredDocument] = []
        if references.isEmpty {
            // A document stored without text (a scan) has nothing to summarise: not a failure.
            documents = try store.allDocuments().filter { $0.passageCount > 0 }
        } else {
            let (found, notFound) = try DocumentReferences(backend: store).documents(references)
            for reference in notFound {
                batch.failed += 1
                let reason = DocumentReferences.notFound(reference)
                recorder?.fail(input: reference, stage: "summarize", reason: reason)
                events(PipelineEvent(.failed, input: reference, message: reason))
            }
            documents = found
        }
        for (index, document) in documents.enumerated() {
            if cancellation?.isCancelled == true {
                batch.stopped = .interrupted
                batch.notRead = documents.count - index
                break
            }
            let name = document.path.map { DisplayPath.of($0) } ?? document.uri
            if skipsCurrent, try isCurrent(document) {
                recorder?.count("summaries_current")
                events(PipelineEvent(.unchanged, input: name, message: "summaries: skipped, made from this content by \(summarizer.provider)/\(summarizer.model)"))
                continue
            }
            events(PipelineEvent(.inputStarted, input: name, index: index + 1, total: documents.count))
            do {
                let (summaries, failures) = try summarize(document)
                for failure in failures {
                    recorder?.fail(input: name, stage: "summarize", reason: failure.description, warning: true)
                    events(PipelineEvent(.warning, input: failure.subject, message: failure.reason))
                }
                recorder?.count("documents")
                recorder?.count("sections", by: summaries.filter { $0.section != nil }.count)
                batch.documents.append(SummarizedDocument(documentId: document.shortId, title: document.title, summaries: summaries))
                events(PipelineEvent(.stored, input: name, title: document.title, index: index + 1, total: documents.count))
            } catch let stop where BatchStop.of(stop) != nil {
                batch.stopped = BatchStop.of(stop)
                batch.notRead = documents.count - index
                if let lectern = stop as? LecternError, lectern.code == .writeFailed {
                    batch.failed += 1
                    batch.notRead -= 1
                    recorder?.fail(input: lectern.subject ?? store.display, stage: "write", reason: lectern.reason)
                    events(PipelineEvent(.failed, input: lectern.subject, message: lectern.reason))
                }
                break
            } catch let error where LecternError.modelUnavailable(error) != nil {
                // One line for the stage, not one per document: every document would fail alike.
                throw error
            } catch {
                batch.failed += 1
                let reason = (error as? LecternError)?.reason ?? "\(error)"
                recorder?.fail(input: name, stage: "summarize", reason: reason)
                events(PipelineEvent(.failed, input: name, message: reason))
            }
            recorder?.checkpoint()
        }
        return batch
    }

    /// Summaries exist for `document`, all made by this summariser from its current content.
    func isCurrent(_ document: StoredDocument) throws -> Bool {
        let stored = try store.summaries(documentId: document.id)
        return !stored.isEmpty && stored.allSatisfy {
            $0.contentHash == document.contentHash && $0.provider == summarizer.provider && $0.model == summarizer.model
        }
    }
}
