import Foundation

/// Row ids of one library's documents and passages as another library numbers them (the same
/// document URI; the same ordinal in it): what `lectern migrate` rewrites in the curriculum
/// wing's records, which refer to passages and documents by row id. Looked up as needed, a
/// document's passages at a time, and kept.
struct MigratedIds {
    let source: any LibraryTransfer
    let target: any LibraryTransfer
    /// The source's documents' URIs by row id.
    let uris: [Int64: String]
    private var documents: [String: Int64?] = [:]
    private var ordinals: [String: [Int: Int64]] = [:]
    private var passages: [Int64: Int64?] = [:]

    init(source: any LibraryTransfer, target: any LibraryTransfer, documents: [StoredDocument]) {
        self.source = source
        self.target = target
        uris = Dictionary(documents.map { ($0.id, $0.uri) }) { first, _ in first }
    }

    /// The target's row of the source's document `id`; nil when it holds none of that URI.
    mutating func document(_ id: Int64) throws -> Int64? {
        guard let uri = uris[id] else { return nil }
        return try document(uri: uri)
    }

    private mutating func document(uri: String) throws -> Int64? {
        if let known = documents[uri] { return known }
        let id = try target.document(uri: uri)?.id
        documents[uri] = .some(id)
        return id
    }

    /// Reads where the source's passages `ids` are, and the target's passages of those
    /// documents, a thousand at a time.
    mutating func load(passages ids: [Int64]) throws {
        let missing = Array(Set(ids.filter { passages[$0] == nil }))
        for start in stride(from: 0, to: missing.count, by: 1_000) {
            let chunk = Array(missing[start..<min(start + 1_000, missing.count)])
            let locators = try source.passageLocators(chunk)
            for id in chunk {
                guard let locator = locators[id] else {
                    passages[id] = .some(nil)
                    continue
                }
                if ordinals[locator.documentURI] == nil {
                    var byOrdinal: [Int: Int64] = [:]
                    if let document = try document(uri: locator.documentURI) {
                        for passage in try target.passages(documentId: document) { byOrdinal[passage.ordinal] = passage.id }
                    }
                    ordinals[locator.documentURI] = byOrdinal
                }
                passages[id] = .some(ordinals[locator.documentURI]?[locator.ordinal])
            }
        }
    }

    /// The target's row of the source's passage `id` (after `load`); nil when it has none.
    func passage(_ id: Int64) -> Int64? {
        passages[id] ?? nil
    }

    /// A curriculum's records with the target's rows: its sources' documents, its topics'
    /// passages (those the target lacks left out, as a removed passage is) and key terms'.
    mutating func map(_ records: CurriculumRecords) throws -> CurriculumRecords {
        var records = records
        try load(passages: records.units.flatMap { unit in
            unit.topics.flatMap { $0.passages.map(\.passageId) + $0.keyTerms.compactMap(\.passageId) }
        })
        for index in records.sources.indices {
            records.sources[index].documentId = try document(records.sources[index].documentId) ?? 0
        }
        for unit in records.units.indices {
            for topic in records.units[unit].topics.indices {
                var content = records.units[unit].topics[topic]
                content.passages = content.passages.compactMap { reference in
                    passage(reference.passageId).map { id in
                        var reference = reference
                        reference.passageId = id
                        return reference
                    }
                }
                for term in content.keyTerms.indices {
                    content.keyTerms[term].passageId = content.keyTerms[term].passageId.flatMap { passage($0) }
                }
                records.units[unit].topics[topic] = content
            }
        }
        return records
    }

    /// Cards with the target's rows of the passages and documents they cite (0 where it has
    /// none: the card is kept, as the source keeps a card whose passage was removed).
    mutating func map(_ cards: [CardRecord]) throws -> [CardRecord] {
        try load(passages: cards.flatMap { [$0.passageId, $0.source.passageId] })
        var mapped: [CardRecord] = []
        for var card in cards {
            card.id = nil
            card.passageId = passage(card.passageId) ?? 0
            card.documentId = try document(card.documentId) ?? 0
            card.source.passageId = passage(card.source.passageId) ?? 0
            card.source.documentId = try document(card.source.documentId) ?? 0
            mapped.append(card)
        }
        return mapped
    }
}
