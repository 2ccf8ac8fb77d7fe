import Foundation

extension PipelineRun {
    /// Cards for every curriculum a `[[deck]]` names, then each deck and `[[export]]` file.
    /// Cards are made again only for a curriculum that was rebuilt (or has none yet); a file
    /// whose bytes would not change is not written, so an unchanged run rewrites nothing.
    func writeOutputs(store: LibraryStore, recorder: RunRecorder?, events: @escaping EventHandler, into summary: inout PipelineRunSummary) {
        func fail(_ subject: String, stage: String, _ error: any Error) {
            let lectern = error as? LecternError ?? LecternError(.corrupt, subject, "\(error)")
            if let stop = BatchStop.of(lectern) {
                summary.stopped = stop
                return
            }
            summary.failed += 1
            recorder?.fail(input: subject, stage: stage, reason: lectern.reason)
            events(PipelineEvent(.failed, input: subject, message: lectern.reason))
        }
        let services = services(store: store, recorder: recorder)
        let cards = services.flashcards()
        var carded = Set<String>(), recarded = Set<String>()
        // What a curriculum's cards and outputs were made from: its build key when the cards
        // were made. A run killed between building a curriculum and making its cards (or
        // writing its files) leaves them on an older basis, so the next run makes them again.
        func basis(_ curriculum: String) -> String { ((try? store.curriculumBuildKey(named: curriculum)) ?? nil) ?? "" }
        func cardsBasis(_ curriculum: String) -> String? { (try? store.cardsBasis(curriculum: curriculum)) ?? nil }
        func output(_ data: Data, _ path: String, _ curriculum: String, format: String, written: Bool) -> RunOutput {
            RunOutput(path: path, format: format, contentHash: ContentHash.sha256(data), buildKey: basis(curriculum),
                      cardsBasis: cardsBasis(curriculum) ?? "", written: written)
        }
        // An output whose curriculum and cards did not change, and whose file is as this
        // library last wrote it, is not even rendered again.
        func upToDate(_ path: String, curriculum: String, format: String) -> Bool {
            guard summary.curricula.first(where: { $0.name == curriculum })?.unchanged == true, !recarded.contains(curriculum),
                  let bytes = OutputFile.currentContents(path) else { return false }
            guard let latest = (try? store.latestOutput(path: path)) ?? nil else { return false }
            return latest.sameContent(as: output(bytes, path, curriculum, format: format, written: false))
        }
        // A file written is recorded with the run; one found as it would be written only when
        // the record of what it was made from changes.
        func remember(_ data: Data, _ path: String, curriculum: String, format: String, written: Bool) throws {
            let made = output(data, path, curriculum, format: format, written: written)
            if !written, let latest = try store.latestOutput(path: path), latest.sameContent(as: made) { return }
            try store.recordOutput(run: recorder?.id, made)
        }
        for deck in pipeline.decks where !carded.contains(deck.curriculum) && summary.stopped == nil {
            if stopRequested(&summary) { return }
            carded.insert(deck.curriculum)
            do {
                let rebuilt = summary.curricula.first { $0.name == deck.curriculum }.map { !$0.unchanged } ?? true
                if !rebuilt, cardsBasis(deck.curriculum) == basis(deck.curriculum), try !store.cards(curriculum: deck.curriculum).isEmpty {
                    recorder?.count("cards_unchanged")
                    events(PipelineEvent(.unchanged, input: deck.curriculum, message: "cards: skipped, the curriculum did not change"))
                    continue
                }
                recarded.insert(deck.curriculum)
                let made = try timed(recorder, .cards) { try services.generateCards(curriculum: deck.curriculum, model: try services.languageModel()) }
                try store.setCardsBasis(curriculum: deck.curriculum, buildKey: basis(deck.curriculum))
                recorder?.count(.cards, by: made.cards)
                events(PipelineEvent(.note, input: deck.curriculum, message: "cards made: \(made.notes) notes, \(made.cards) cards"))
            } catch {
                fail(deck.curriculum, stage: "cards", error)
            }
        }
        for deck in pipeline.decks where summary.stopped == nil {
            if stopRequested(&summary) { return }
            do {
                if upToDate(deck.output, curriculum: deck.curriculum, format: deck.format) {
                    try record(false, deck.output, recorder: recorder, events: events, into: &summary)
                    continue
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
                    continue
                }
                // The curriculum's own time, not the clock: an unchanged deck has the same bytes.
                let data = try timed(recorder, .export) {
                    try format.render(stored, layout: CardDeckLayout(curriculum: curriculum), now: curriculum.modifiedAt)
                }
                let written = try Self.writeIfChanged(data, to: deck.output)
                try record(written, deck.output, recorder: recorder, events: events, into: &summary)
                try remember(data, deck.output, curriculum: deck.curriculum, format: deck.format, written: written)
            } catch {
                fail(deck.output, stage: "export", error)
            }
        }
        for export in pipeline.exports where summary.stopped == nil {
            if stopRequested(&summary) { return }
            do {
                if upToDate(export.output, curriculum: export.curriculum, format: export.format) {
                    try record(false, export.output, recorder: recorder, events: events, into: &summary)
                    continue
                }
                guard let format = CurriculumExportFormat(rawValue: export.format) else {
                    throw LecternError(.unsupported, export.format, "not a curriculum format")
                }
                var exporter = CurriculumExport(store: store)
                // The curriculum's cards go into UMCF and JSON as its assessments.
                exporter.assessments = { try cards.assessments(curriculum: $0.name) }
                let data = try timed(recorder, .export) { try exporter.export(curriculumNamed: export.curriculum, format: format).data }
                let written = try Self.writeIfChanged(data, to: export.output)
                try record(written, export.output, recorder: recorder, events: events, into: &summary)
                try remember(data, export.output, curriculum: export.curriculum, format: export.format, written: written)
            } catch {
                fail(export.output, stage: "export", error)
            }
        }
    }

    private func record(_ written: Bool, _ path: String, recorder: RunRecorder?, events: EventHandler, into summary: inout PipelineRunSummary) throws {
        if written {
            summary.outputsWritten.append(path)
            recorder?.count("outputs_written")
            events(PipelineEvent(.note, input: DisplayPath.of(path), message: "written"))
        } else {
            recorder?.count("outputs_unchanged")
            events(PipelineEvent(.unchanged, input: DisplayPath.of(path), message: "skipped: the same bytes as the file there"))
        }
    }

    private func timed<T>(_ recorder: RunRecorder?, _ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        guard let recorder else { return try work() }
        return try recorder.time(stage, work)
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
