import Foundation

// Cards to and from the rows the store keeps them in (`CardRecord`, `CardReportRecord`).

/// A stored note with the curriculum (by name) it belongs to.
struct StoredCard: Sendable, Equatable {
    var id: Int64
    var curriculum: String
    var card: Flashcard
}

extension LibraryBackend {
    /// Replaces the cards of `topics` (every topic when nil) of curriculum `name` with `cards`,
    /// and keeps `report` under `run`, in ONE transaction: a failed generate leaves the cards
    /// as they were.
    func replaceCards(_ cards: [Flashcard], curriculum name: String, topics: Set<String>?,
                      report: CardGenerationReport, run: Int64?) throws {
        let reportRecord = run.map { CardReportRecord(runId: $0, curriculum: name, report: LibraryStore.json(report), createdAt: LibraryStore.now()) }
        try replaceCards(cards.map { CardRecord($0, curriculum: name, run: run) }, curriculum: name, topics: topics, report: reportRecord)
    }

    /// Stored cards in generation order, of curriculum `name` (every one when nil), narrowed to
    /// `topics` (stable ids or their first 4+ characters) when given.
    func cards(curriculum name: String? = nil, topics: [String] = []) throws -> [StoredCard] {
        try cardRecords(curriculum: name, topics: topics).map { record in
            StoredCard(id: record.id ?? 0, curriculum: record.curriculum, card: Flashcard(record))
        }
    }

    /// The newest generate report of each curriculum (of `name` only when given).
    func latestCardReports(curriculum name: String? = nil) throws -> [String: CardGenerationReport] {
        var reports: [String: CardGenerationReport] = [:]
        for record in try latestCardReportRecords(curriculum: name) {
            reports[record.curriculum] = LibraryStore.decode(CardGenerationReport.self, record.report)
        }
        return reports
    }
}

extension CardRecord {
    /// The store numbers the cards (`ordinal`) in the order it is given them.
    init(_ card: Flashcard, curriculum: String, run: Int64?) {
        self.init(id: nil, curriculum: curriculum, guid: card.guid, curriculumStableId: card.curriculumStableId,
                  topicStableId: card.topicStableId, noteType: card.noteType, origin: card.origin, front: card.front, back: card.back,
                  passageId: card.source.passageId, documentId: card.source.documentId, pageStart: card.source.pageStart,
                  pageLabel: card.source.pageLabel, timeStart: card.source.timeStart, source: card.source, tags: card.tags,
                  grounding: card.grounding, ordinal: 0, runId: run, modifiedAt: card.modifiedAt.timeIntervalSince1970,
                  quality: card.quality)
    }
}

extension Flashcard {
    init(_ record: CardRecord) {
        self.init(guid: record.guid, curriculumStableId: record.curriculumStableId, topicStableId: record.topicStableId,
                  noteType: record.noteType, front: record.front, back: record.back, origin: record.origin, source: record.source,
                  tags: record.tags, grounding: record.grounding, quality: record.quality,
                  modifiedAt: Date(timeIntervalSince1970: record.modifiedAt))
    }
}
