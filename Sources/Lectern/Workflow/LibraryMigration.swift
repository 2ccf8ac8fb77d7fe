import Foundation

/// What `lectern migrate` did, for its closing lines, `--json` and the exit status.
public struct LibraryMigrationSummary: Codable, Sendable, Equatable {
    /// Documents written into the target (with their blocks, passages and vectors).
    public var copied = 0
    /// Documents the target held already, as the source holds them (a rerun's).
    public var present = 0
    public var failed = 0
    /// Documents a stop left uncopied.
    public var notCopied = 0
    public var runs = 0
    public var webValidators = 0
    public var cachedVectors = 0
    /// Curricula written into the target (one the target held as the source holds it is not).
    public var curricula = 0
    /// Cards written, of the curricula whose cards the target lacked or held otherwise.
    public var cards = 0
    /// Summaries written, of the documents whose summaries the target lacked or held otherwise.
    public var summaries = 0
    /// The model's answers and calls, and the files runs wrote, added to the target.
    public var modelAnswers = 0
    public var modelCalls = 0
    public var runOutputs = 0
    public var stopped: BatchStop?
    /// Each count on both sides, in the order printed: what the comparison saw.
    public var counts: [LibraryCount] = []

    /// Whether every count agrees.
    public var countsMatch: Bool { counts.allSatisfy { $0.from == $0.to } }
}

/// One row of the comparison: a kind of row and how many each library holds.
public struct LibraryCount: Codable, Sendable, Equatable {
    public var name: String
    public var from: Int
    public var to: Int
}

extension LibraryMigrationSummary: BatchOutcome {}

/// Copies a library into another, either backend to either: every document with its blocks,
/// passages and vectors (one transaction a document, as an ingest writes it, so a stop loses
/// nothing and a rerun skips what is there), the runs with their failures, web sources'
/// validators and the embedding cache, then the curriculum wing (curricula with their topics,
/// cards and their reports, summaries, the model's answers and calls) and the files runs wrote
/// with their cards' bases; then compares the two libraries' counts. Nothing is read again,
/// embedded again or asked of a model: the vectors are copied as stored, so the same query
/// finds the same passages in both, and a curriculum shows, lists and exports the same.
public struct LibraryMigration: Sendable {
    public let from: Library
    public let to: Library
    public var cancellation: Cancellation?

    public init(from: Library, to: Library) {
        self.from = from
        self.to = to
    }

    public func run(events: EventHandler) throws -> LibraryMigrationSummary {
        try from.translated { try copy(events: events) }
    }

    private func copy(events: EventHandler) throws -> LibraryMigrationSummary {
        guard let source = from.backend as? any LibraryTransfer, let target = to.backend as? any LibraryTransfer else {
            throw LecternError(.unsupported, from.display, "cannot be copied by this Lectern")
        }
        var summary = LibraryMigrationSummary()
        let documents = try source.allDocuments()
        if let embedder = try source.recordedEmbedder() {
            if let other = try target.recordedEmbedder(), other != embedder {
                throw LecternError(.embedderMismatch, to.display, "holds vectors of \(other.name), the library to copy holds \(embedder.name)'s: copy into an empty library")
            }
            let vectors = try source.passageVectors(embedder: embedder)
            let sources = Dictionary(try source.sources().map { ($0.id, $0) }) { first, _ in first }
            try target.beginCopy()
            for (index, document) in documents.enumerated() {
                if cancellation?.isCancelled == true {
                    summary.stopped = .interrupted
                    summary.notCopied = documents.count - index
                    break
                }
                do {
                    if let there = try target.document(uri: document.uri), there.contentHash == document.contentHash,
                       there.skipKey == document.skipKey, there.passageCount == document.passageCount, there.title == document.title {
                        summary.present += 1
                        continue
                    }
                    guard let origin = sources[document.sourceId] else {
                        throw LecternError(.corrupt, document.uri, "its source is missing from the library")
                    }
                    try target.replaceDocument(try write(document, source: origin, from: source, vectors: vectors, embedder: embedder))
                    summary.copied += 1
                    events(PipelineEvent(.stored, input: document.uri, index: index + 1, total: documents.count))
                } catch {
                    // One document that cannot be written is one line; the others are copied.
                    guard let lectern = LecternError.translating(error) as? LecternError else { throw error }
                    summary.failed += 1
                    events(PipelineEvent(.failed, input: document.uri, message: lectern.reason))
                }
            }
            if summary.stopped == nil {
                try target.finishCopy()
                let cached = try source.allCachedVectors(embedder: embedder).sorted { $0.key < $1.key }
                try target.cacheVectors(embedder: embedder, textHashes: cached.map(\.key), vectors: cached.map(\.value))
                summary.cachedVectors = cached.count
            }
        }
        if summary.stopped == nil {
            // Oldest first, under their own ids.
            for run in try source.runs(limit: Int(Int32.max), id: nil).reversed() {
                if try target.importRun(run) { summary.runs += 1 }
            }
            for entry in try source.fetchCacheEntries() {
                try target.recordFetch(entry)
                summary.webValidators += 1
            }
            try copyCurriculumWing(source, target, documents: documents, into: &summary)
        }
        summary.counts = try compare(source, target)
        return summary
    }

    /// Curricula, cards and their reports, summaries, the model's answers and calls, the files
    /// runs wrote and the cards' bases, after the documents and runs they refer to. Their
    /// passages and documents are the target's rows of the same places (`MigratedIds`). Each
    /// curriculum, curriculum's cards and document's summaries is one transaction, skipped
    /// when the target holds it as the source does: a rerun writes only what is missing.
    private func copyCurriculumWing(_ source: any LibraryTransfer, _ target: any LibraryTransfer, documents: [StoredDocument],
                                    into summary: inout LibraryMigrationSummary) throws {
        var ids = MigratedIds(source: source, target: target, documents: documents)
        let there = Dictionary(try target.curriculumSummaries().map { ($0.name, $0) }) { first, _ in first }
        for listed in try source.curriculumSummaries() {
            guard let records = try source.curriculumRecords(named: listed.name) else { continue }
            if there[listed.name] == listed, try target.curriculumBuildKey(named: listed.name) == records.curriculum.buildKey { continue }
            try target.saveCurriculum(try ids.map(records))
            summary.curricula += 1
        }
        func comparable(_ cards: [CardRecord]) -> [CardRecord] {
            cards.map { card in
                var card = card
                card.id = nil
                return card
            }
        }
        for (name, cards) in Dictionary(grouping: try source.cardRecords(curriculum: nil, topics: []), by: \.curriculum).sorted(by: { $0.key < $1.key }) {
            let mapped = try ids.map(cards)
            if comparable(try target.cardRecords(curriculum: name, topics: [])) == mapped { continue }
            try target.importCards(mapped, curriculum: name)
            summary.cards += mapped.count
        }
        _ = try target.importCardReports(try source.cardReportRecords())
        for document in documents {
            let summaries = try source.summaries(documentId: document.id)
            guard !summaries.isEmpty, let id = try ids.document(document.id), try target.summaries(documentId: id) != summaries else { continue }
            try target.replaceSummaries(documentId: id, summaries)
            summary.summaries += summaries.count
        }
        summary.modelAnswers = try target.importModelCache(try source.modelCacheRecords())
        summary.modelCalls = try target.importModelCalls(try source.modelCallRecords())
        summary.runOutputs = try target.importRunOutputs(try source.runOutputRecords())
        _ = try target.importCardBases(try source.cardBasisRecords())
    }

    /// The document as `target.replaceDocument` takes it, from what `source` stored.
    private func write(_ document: StoredDocument, source origin: SourceSummary, from source: any LibraryTransfer,
                       vectors: PassageVectors, embedder: EmbedderInfo) throws -> LibraryStore.DocumentWrite {
        let passages = try source.passages(documentId: document.id)
        let found = try vectors.lookup(passages.map(\.id))
        guard let missing = found.firstIndex(where: { $0 == nil }) else {
            let extracted = ExtractedDocument(
                type: document.type.rawValue, title: document.title, blocks: try source.blocks(documentId: document.id),
                metadata: try source.metadata(documentId: document.id),
                // Kept as their lines: a warning made from its line reads back the same.
                warnings: document.warningList.map { ExtractionWarning($0) })
            var write = LibraryStore.DocumentWrite(
                sourceURI: origin.uri, sourceKind: origin.kind, uri: document.uri, path: document.path, extractor: document.extractor,
                extractorVersion: document.extractorVersion, contentHash: document.contentHash, skipKey: document.skipKey,
                document: extracted, passages: passages, vectors: found.map { $0! }, embedder: embedder)
            // A copy is the same library elsewhere: when each document was ingested stays as it was.
            write.recordedTimes = .init(created: document.createdAt, updated: document.updatedAt, sourceUpdated: origin.updatedAt)
            return write
        }
        throw LecternError(.corrupt, document.uri, "passage \(passages[missing].ordinal) has no vector of \(embedder.name): run `lectern reembed` on the library to copy first")
    }

    private func compare(_ source: any LibraryTransfer, _ target: any LibraryTransfer) throws -> [LibraryCount] {
        let a = try source.stats(), b = try target.stats()
        let extraA = try source.transferCounts(), extraB = try target.transferCounts()
        var counts = [
            LibraryCount(name: "sources", from: a.sources, to: b.sources),
            LibraryCount(name: "documents", from: a.documents, to: b.documents),
            LibraryCount(name: "blocks", from: a.blocks, to: b.blocks),
            LibraryCount(name: "passages", from: a.passages, to: b.passages),
            LibraryCount(name: "vectors", from: a.vectors, to: b.vectors),
            LibraryCount(name: "runs", from: a.runs, to: b.runs),
        ]
        for name in LibraryTransferCounts.names {
            counts.append(LibraryCount(name: name, from: extraA[name] ?? 0, to: extraB[name] ?? 0))
        }
        return counts
    }
}
