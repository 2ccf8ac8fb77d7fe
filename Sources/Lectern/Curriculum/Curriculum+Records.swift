import Foundation

// A curriculum to and from the rows the store keeps it in (`CurriculumRecords`): the store
// knows rows, this file knows what they mean.

extension LibraryBackend {
    /// Stores `c`, replacing any curriculum of the same name, in one transaction (see
    /// `saveCurriculum(_: CurriculumRecords)`). `buildKey` names the options it was built with.
    func saveCurriculum(_ c: Curriculum, buildKey: String = "") throws {
        try saveCurriculum(CurriculumRecords(c, buildKey: buildKey))
    }

    /// The curriculum named `name` with everything it holds; nil when there is none. A passage
    /// removed from the library since the build (its document re-read or removed) is left out.
    func curriculum(named name: String) throws -> Curriculum? {
        guard let records = try curriculumRecords(named: name) else { return nil }
        let topics = records.units.flatMap(\.topics)
        let passages = try topicPassages(topics)
        return Curriculum(records, passages: passages)
    }

    /// The topic with this stable id and the name of its curriculum.
    func topic(stableId: String) throws -> (curriculum: String, topic: Topic)? {
        guard let (curriculum, records) = try topicRecords(stableId: stableId) else { return nil }
        return (curriculum, Topic(records, passages: try topicPassages([records])))
    }

    /// Topics by row id, in the order of `ids`, with their curriculum's name and unit title.
    func topicsWithPlace(rowIds ids: [Int64]) throws -> [(curriculum: String, unit: String, topic: Topic)] {
        let found = try topicRecordsWithPlace(rowIds: ids)
        let passages = try topicPassages(found.map(\.topic))
        return found.map { ($0.curriculum, $0.unit, Topic($0.topic, passages: passages)) }
    }

    /// The passages `topics` refer to, by id.
    private func topicPassages(_ topics: [TopicRecords]) throws -> [Int64: Passage] {
        var ids: [Int64] = []
        var seen = Set<Int64>()
        for topic in topics { for reference in topic.passages where seen.insert(reference.passageId).inserted { ids.append(reference.passageId) } }
        return Dictionary(uniqueKeysWithValues: try passages(ids: ids).map { ($0.id, $0) })
    }
}

extension CurriculumRecords {
    init(_ c: Curriculum, buildKey: String) {
        // Row ids and positions are the store's to set.
        curriculum = CurriculumRecord(id: nil, name: c.name, stableId: c.stableId, title: c.title, modelName: c.modelName,
                                      buildKey: buildKey, createdAt: Self.timestamp(c.createdAt), modifiedAt: Self.timestamp(c.modifiedAt),
                                      summary: c.summary)
        sources = c.sources.map { source in
            CurriculumSourceRecord(curriculumId: 0, position: 0, documentId: source.documentId, uri: source.uri, title: source.title,
                                   type: source.type, licence: source.licence, licenceURL: source.licenceURL,
                                   contentHash: source.contentHash, tags: source.tags)
        }
        units = c.units.map { unit in
            Unit(unit: CurriculumUnitRecord(id: nil, curriculumId: 0, position: 0, stableId: unit.stableId, title: unit.title),
                 topics: unit.topics.map(TopicRecords.init))
        }
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }
}

extension TopicRecords {
    init(_ topic: Topic) {
        self.topic = TopicRecord(
            id: nil, curriculumId: 0, unitId: 0, position: 0, stableId: topic.stableId, title: topic.title, titleOrigin: topic.titleOrigin,
            summary: topic.summary, summaryOrigin: topic.summaryOrigin, studyMinutes: topic.studyMinutes,
            // What the keyword index reads: one objective, one "term: definition" a line.
            objectives: topic.objectives.map(\.statement).joined(separator: "\n"),
            keyTerms: topic.keyTerms.map { "\($0.term): \($0.definition)" }.joined(separator: "\n"))
        objectives = topic.objectives.map {
            TopicObjectiveRecord(topicId: 0, position: 0, stableId: $0.stableId, statement: $0.statement, origin: $0.origin, standIn: $0.standIn)
        }
        keyTerms = topic.keyTerms.map {
            TopicKeyTermRecord(topicId: 0, position: 0, term: $0.term, definition: $0.definition, origin: $0.origin,
                               passageId: $0.passageId, basis: $0.basis)
        }
        passages = topic.passages.map { TopicPassageRecord(topicId: 0, position: 0, passageId: $0.id) }
        links = topic.prerequisites.map {
            TopicLinkRecord(topicId: 0, position: 0, targetStableId: $0.topicStableId, term: $0.term, reason: $0.reason.rawValue)
        }
    }
}

extension Curriculum {
    /// `passages`: the passages the topics refer to, by id (one missing is left out).
    init(_ records: CurriculumRecords, passages: [Int64: Passage]) {
        let row = records.curriculum
        self.init(
            name: row.name, title: row.title, stableId: row.stableId,
            sources: records.sources.map { source in
                CurriculumSource(documentId: source.documentId, uri: source.uri, title: source.title, type: source.type,
                                 licence: source.licence, licenceURL: source.licenceURL, contentHash: source.contentHash, tags: source.tags)
            },
            units: records.units.map { unit in
                CurriculumUnit(stableId: unit.unit.stableId, title: unit.unit.title, topics: unit.topics.map { Topic($0, passages: passages) })
            },
            modelName: row.modelName, createdAt: CurriculumRecords.date(row.createdAt), modifiedAt: CurriculumRecords.date(row.modifiedAt),
            summary: row.summary)
    }
}

extension Topic {
    init(_ records: TopicRecords, passages: [Int64: Passage]) {
        let row = records.topic
        self.init(
            stableId: row.stableId, title: row.title, summary: row.summary, summaryOrigin: row.summaryOrigin,
            objectives: records.objectives.map {
                LearningObjective(stableId: $0.stableId, statement: $0.statement, origin: $0.origin, standIn: $0.standIn == true ? true : nil)
            },
            keyTerms: records.keyTerms.map {
                // Built before key terms had a basis: a definition read from the text.
                KeyTerm(term: $0.term, definition: $0.definition, origin: $0.origin, passageId: $0.passageId, basis: $0.basis ?? .defined)
            },
            studyMinutes: row.studyMinutes, passages: records.passages.compactMap { passages[$0.passageId] },
            prerequisites: records.links.map {
                // Built before links had a reason: a term's.
                TopicLink(topicStableId: $0.targetStableId, term: $0.term, reason: $0.reason.flatMap(TopicLinkReason.init(rawValue:)) ?? .term)
            },
            titleOrigin: row.titleOrigin)
    }
}
