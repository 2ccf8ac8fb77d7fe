import Foundation

extension PipelineRun {
    /// Cards for every curriculum a `[[deck]]` names, then each deck and `[[export]]` file.
    /// Cards are made again only for a curriculum that was rebuilt (or has none yet); a file
    /// whose bytes would not change is not written, so an unchanged run rewrites nothing.
    func writeOutputs(library: Library, recorder: RunRecorder?, events: @escaping EventHandler, into summary: inout PipelineRunSummary) {
        var stage = OutputStage(store: library.backend, recorder: recorder, events: events,
                                services: services(library: library, recorder: recorder), summary: summary)
        defer { summary = stage.summary }
        var carded = Set<String>()
        for deck in pipeline.decks where !carded.contains(deck.curriculum) && stage.summary.stopped == nil {
            if stopRequested(&stage.summary) { return }
            carded.insert(deck.curriculum)
            do {
                try stage.makeCards(deck.curriculum)
            } catch {
                stage.fail(deck.curriculum, stage: "cards", error)
            }
        }
        for deck in pipeline.decks where stage.summary.stopped == nil {
            if stopRequested(&stage.summary) { return }
            do {
                try stage.write(deck)
            } catch {
                stage.fail(deck.output, stage: "export", error)
            }
        }
        for export in pipeline.exports where stage.summary.stopped == nil {
            if stopRequested(&stage.summary) { return }
            do {
                try stage.write(export)
            } catch {
                stage.fail(export.output, stage: "export", error)
            }
        }
    }

    /// Writes `data` to `path` (`OutputFile`: a temporary file synced and renamed over it, a
    /// device written through) unless the file there holds the same bytes.
    /// A missing folder is made first.
    static func writeIfChanged(_ data: Data, to path: String) throws -> Bool {
        if let existing = OutputFile.currentContents(path), existing == data { return false }
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw LecternError(.outputFailed, path, "cannot be written: its folder \(DisplayPath.of(folder)) cannot be made (\((error as NSError).localizedDescription))")
            }
        }
        try OutputFile.write(data, to: path)
        return true
    }
}

/// The output steps of one run (cards, decks, curriculum exports) and what they share: which
/// curricula got new cards in this run, and the run's summary.
private struct OutputStage {
    let store: any LibraryBackend
    let recorder: RunRecorder?
    let events: EventHandler
    let services: LibraryServices
    let cards: Flashcards
    var summary: PipelineRunSummary
    /// Curricula whose cards this run made again: their files are rendered again too.
    var recarded = Set<String>()

    init(store: any LibraryBackend, recorder: RunRecorder?, events: @escaping EventHandler, services: LibraryServices,
         summary: PipelineRunSummary) {
        self.store = store
        self.recorder = recorder
        self.events = events
        self.services = services
        var cards = Flashcards(backend: store)
        cards.cancellation = services.cancellation
        self.cards = cards
        self.summary = summary
    }

    /// A step that failed: counted and said, or the stop of the whole run (a full disk …).
    mutating func fail(_ subject: String, stage: String, _ error: any Error) {
        let lectern = LecternError.translating(error) as? LecternError ?? LecternError(.corrupt, subject, "\(error)")
        if let stop = BatchStop.of(lectern) {
            summary.stopped = stop
            return
        }
        summary.failed += 1
        recorder?.fail(input: subject, stage: stage, reason: lectern.reason)
        events(PipelineEvent(.failed, input: subject, message: lectern.reason))
    }

    // What a curriculum's cards and outputs were made from: its build key when the cards
    // were made. A run killed between building a curriculum and making its cards (or
    // writing its files) leaves them on an older basis, so the next run makes them again.

    func basis(_ curriculum: String) -> String { ((try? store.curriculumBuildKey(named: curriculum)) ?? nil) ?? "" }

    func cardsBasis(_ curriculum: String) -> String? { (try? store.cardsBasis(curriculum: curriculum)) ?? nil }

    func output(_ data: Data, _ path: String, _ curriculum: String, format: String, written: Bool) -> RunOutput {
        RunOutput(path: path, format: format, contentHash: ContentHash.sha256(data), buildKey: basis(curriculum),
                  cardsBasis: cardsBasis(curriculum) ?? "", written: written)
    }

    /// An output whose curriculum and cards did not change, and whose file is as this
    /// library last wrote it, is not even rendered again.
    func upToDate(_ path: String, curriculum: String, format: String) -> Bool {
        guard summary.curricula.first(where: { $0.name == curriculum })?.unchanged == true, !recarded.contains(curriculum),
              let bytes = OutputFile.currentContents(path) else { return false }
        guard let latest = (try? store.latestOutput(path: path)) ?? nil else { return false }
        return latest.sameContent(as: output(bytes, path, curriculum, format: format, written: false))
    }

    /// A file written is recorded with the run; one found as it would be written only when
    /// the record of what it was made from changes.
    func remember(_ data: Data, _ path: String, curriculum: String, format: String, written: Bool) throws {
        let made = output(data, path, curriculum, format: format, written: written)
        if !written, let latest = try store.latestOutput(path: path), latest.sameContent(as: made) { return }
        try store.recordOutput(run: recorder?.id, made)
    }

    /// Makes a curriculum's cards again unless it is unchanged and its cards were made from it.
    mutating func makeCards(_ curriculum: String) throws {
        let rebuilt = summary.curricula.first { $0.name == curriculum }.map { !$0.unchanged } ?? true
        if !rebuilt, cardsBasis(curriculum) == basis(curriculum), try !store.cards(curriculum: curriculum).isEmpty {
            recorder?.count("cards_unchanged")
            events(PipelineEvent(.unchanged, input: curriculum, message: "cards: skipped, the curriculum did not change"))
            return
        }
        recarded.insert(curriculum)
        let made = try timed(.cards) { try services.generateCards(curriculum: curriculum, model: try services.languageModel()) }
        try store.setCardsBasis(curriculum: curriculum, buildKey: basis(curriculum))
        recorder?.count(.cards, by: made.cards)
        events(PipelineEvent(.note, input: curriculum, message: "cards made: \(made.notes) notes, \(made.cards) cards"))
    }

    /// A `[[deck]]`: the curriculum's stored cards in the deck's format.
    mutating func write(_ deck: PipelineDeck) throws {
        if upToDate(deck.output, curriculum: deck.curriculum, format: deck.format) {
            record(false, deck.output)
            return
        }
        guard let format = CardExportFormat(rawValue: deck.format), let curriculum = try store.curriculum(named: deck.curriculum) else {
            throw LecternError(.notFound, deck.curriculum, "no curriculum of that name was built")
        }
        let stored = try store.cards(curriculum: deck.curriculum).map(\.card)
        guard !stored.isEmpty else {
            // Text with nothing to ask about makes no cards: worth saying, not a failure.
            let reason = "not written: no cards were made from curriculum \(deck.curriculum)"
            recorder?.fail(input: deck.output, stage: "cards", reason: reason, warning: true)
            events(PipelineEvent(.warning, input: DisplayPath.of(deck.output), message: reason))
            return
        }
        // The curriculum's own time, not the clock: an unchanged deck has the same bytes.
        let data = try timed(.export) {
            try format.render(stored, layout: CardDeckLayout(curriculum: curriculum), now: curriculum.modifiedAt)
        }
        let written = try PipelineRun.writeIfChanged(data, to: deck.output)
        record(written, deck.output)
        try remember(data, deck.output, curriculum: deck.curriculum, format: deck.format, written: written)
    }

    /// An `[[export]]`: the curriculum in its format, with its cards as assessments.
    mutating func write(_ export: PipelineExport) throws {
        if upToDate(export.output, curriculum: export.curriculum, format: export.format) {
            record(false, export.output)
            return
        }
        guard let format = CurriculumExportFormat(rawValue: export.format) else {
            throw LecternError(.unsupported, export.format, "not a curriculum format")
        }
        var exporter = CurriculumExport(backend: store)
        // The curriculum's cards go into UMCF and JSON as its assessments.
        let cards = cards
        exporter.assessments = { try cards.assessments(curriculum: $0.name) }
        let data = try timed(.export) { try exporter.export(curriculumNamed: export.curriculum, format: format).data }
        let written = try PipelineRun.writeIfChanged(data, to: export.output)
        record(written, export.output)
        try remember(data, export.output, curriculum: export.curriculum, format: export.format, written: written)
    }

    mutating func record(_ written: Bool, _ path: String) {
        if written {
            summary.outputsWritten.append(path)
            recorder?.count("outputs_written")
            events(PipelineEvent(.note, input: DisplayPath.of(path), message: "written"))
        } else {
            recorder?.count("outputs_unchanged")
            events(PipelineEvent(.unchanged, input: DisplayPath.of(path), message: "skipped: the same bytes as the file there"))
        }
    }

    func timed<T>(_ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        guard let recorder else { return try work() }
        return try recorder.time(stage, work)
    }
}
