import Foundation
import GRDB

/// One curriculum as `lectern curriculum list` shows it.
public struct CurriculumSummary: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    public var units: Int
    public var topics: Int
    /// When it was last built (ISO 8601 with zone).
    public var updated: String
}

extension LibraryStore {
    // MARK: Writing

    /// Stores `c`, replacing any curriculum of the same name, in ONE transaction: its units,
    /// topics (objectives, key terms, passages, links), their keyword rows and their vectors
    /// (each the normalised mean of its passages' vectors from the library's embedder, so no
    /// model is called). `buildKey` names the options it was built with (a rebuild compares it).
    func saveCurriculum(_ c: Curriculum, buildKey: String = "") throws {
        try write { db in
            try Self.deleteCurriculum(db, name: c.name)
            try db.execute(sql: """
                INSERT INTO curricula(name, stable_id, title, model_name, build_key, created_at, modified_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [c.name, c.stableId, c.title, c.modelName, buildKey,
                                 Self.timestamp(c.createdAt), Self.timestamp(c.modifiedAt)])
            let curriculumId = db.lastInsertedRowID
            for (position, source) in c.sources.enumerated() {
                try db.execute(sql: """
                    INSERT INTO curriculum_sources(curriculum_id, position, document_id, uri, title, type, licence, licence_url, content_hash, tags)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [curriculumId, position, source.documentId, source.uri, source.title, source.type.rawValue,
                                     source.licence, source.licenceURL, source.contentHash,
                                     source.tags.isEmpty ? nil : source.tags.joined(separator: "\n")])
            }
            let objective = try db.makeStatement(sql: "INSERT INTO topic_objectives(topic_id, position, stable_id, statement, origin) VALUES (?, ?, ?, ?, ?)")
            let keyTerm = try db.makeStatement(sql: "INSERT INTO topic_key_terms(topic_id, position, term, definition, origin, passage_id, basis) VALUES (?, ?, ?, ?, ?, ?, ?)")
            let passage = try db.makeStatement(sql: "INSERT INTO topic_passages(topic_id, position, passage_id) VALUES (?, ?, ?)")
            let link = try db.makeStatement(sql: "INSERT INTO topic_links(topic_id, position, target_stable_id, term) VALUES (?, ?, ?, ?)")
            var topicIds: [Int64] = []
            var topicPassages: [[Int64]] = []
            for (unitPosition, unit) in c.units.enumerated() {
                try db.execute(sql: "INSERT INTO curriculum_units(curriculum_id, position, stable_id, title) VALUES (?, ?, ?, ?)",
                               arguments: [curriculumId, unitPosition, unit.stableId, unit.title])
                let unitId = db.lastInsertedRowID
                for (position, topic) in unit.topics.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO topics(curriculum_id, unit_id, position, stable_id, title, title_origin, summary, summary_origin,
                            study_minutes, objectives, key_terms)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [curriculumId, unitId, position, topic.stableId, topic.title, topic.titleOrigin?.rawValue, topic.summary,
                                         topic.summaryOrigin.rawValue, topic.studyMinutes,
                                         topic.objectives.map(\.statement).joined(separator: "\n"),
                                         topic.keyTerms.map { "\($0.term): \($0.definition)" }.joined(separator: "\n")])
                    let topicId = db.lastInsertedRowID
                    for (index, item) in topic.objectives.enumerated() {
                        try objective.execute(arguments: [topicId, index, item.stableId, item.statement, item.origin.rawValue])
                    }
                    for (index, item) in topic.keyTerms.enumerated() {
                        try keyTerm.execute(arguments: [topicId, index, item.term, item.definition, item.origin.rawValue, item.passageId, item.basis.rawValue])
                    }
                    for (index, item) in topic.passages.enumerated() {
                        try passage.execute(arguments: [topicId, index, item.passageId])
                    }
                    for (index, item) in topic.prerequisites.enumerated() {
                        try link.execute(arguments: [topicId, index, item.topicStableId, item.term])
                    }
                    topicIds.append(topicId)
                    topicPassages.append(topic.passages.map(\.passageId))
                }
            }
            try Self.storeTopicVectors(db, topicIds: topicIds, passages: topicPassages)
        }
    }

    /// Removes the curriculum named `name`; false when there is none.
    func removeCurriculum(named name: String) throws -> Bool {
        try write { db in try Self.deleteCurriculum(db, name: name) }
    }

    @discardableResult
    private static func deleteCurriculum(_ db: Database, name: String) throws -> Bool {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM curricula WHERE name = ?", arguments: [name]) else { return false }
        let topicIds = try Int64.fetchSet(db, sql: "SELECT id FROM topics WHERE curriculum_id = ?", arguments: [id])
        try TopicVectors.remove(db, topicIds: topicIds)
        // Units, topics and their rows go by cascade; the FTS rows by the topics' trigger.
        try db.execute(sql: "DELETE FROM curricula WHERE id = ?", arguments: [id])
        return true
    }

    // MARK: Reading

    /// The curriculum named `name` with everything it holds; nil when there is none. A passage
    /// removed from the library since the build (its document re-read or removed) is left out.
    func curriculum(named name: String) throws -> Curriculum? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM curricula WHERE name = ?", arguments: [name]) else { return nil }
            return try Self.curriculum(db, row: row)
        }
    }

    /// The build key `name` was stored with (see `saveCurriculum`), nil when there is none.
    func curriculumBuildKey(named name: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT build_key FROM curricula WHERE name = ?", arguments: [name]) }
    }

    /// Every curriculum, by name.
    func curriculumSummaries() throws -> [CurriculumSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.name, c.title, c.modified_at,
                    (SELECT COUNT(*) FROM curriculum_units u WHERE u.curriculum_id = c.id) AS units,
                    (SELECT COUNT(*) FROM topics t WHERE t.curriculum_id = c.id) AS topics
                FROM curricula c ORDER BY c.name
                """).map { row in
                CurriculumSummary(name: row["name"], title: row["title"], units: row["units"], topics: row["topics"], updated: row["modified_at"])
            }
        }
    }

    /// The topic with this stable id and the name of its curriculum.
    func topic(stableId: String) throws -> (curriculum: String, topic: Topic)? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT t.*, c.name AS curriculum_name FROM topics t JOIN curricula c ON c.id = t.curriculum_id WHERE t.stable_id = ?
                """, arguments: [stableId]) else { return nil }
            return (row["curriculum_name"], try Self.topics(db, rows: [row])[0])
        }
    }

    /// The passage ids of topics, in reading order: by curriculum name, narrowed to the topics
    /// whose stable id is in `topicIds` when given (`TopicReferences` reads what a user typed). Nil when the
    /// curriculum (or a topic id) names nothing; `lectern search --curriculum --topic` filters by these.
    func topicPassageIds(curriculum name: String?, topicIds: [String] = []) throws -> [Int64]? {
        try read { db in
            var topics: [Int64] = []
            if let name {
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM curricula WHERE name = ?", arguments: [name]) else { return nil }
                topics = try Int64.fetchAll(db, sql: "SELECT id FROM topics WHERE curriculum_id = ? ORDER BY unit_id, position", arguments: [id])
            }
            if !topicIds.isEmpty {
                var chosen: [Int64] = []
                for stableId in topicIds {
                    let matched = try Int64.fetchAll(db, sql: "SELECT id FROM topics WHERE stable_id = ?", arguments: [stableId])
                    guard !matched.isEmpty else { return nil }
                    chosen += matched.filter { name == nil || topics.contains($0) }
                }
                if chosen.isEmpty { return nil }
                topics = chosen
            }
            var ids: [Int64] = []
            for topic in topics {
                ids += try Int64.fetchAll(db, sql: "SELECT passage_id FROM topic_passages WHERE topic_id = ? ORDER BY position", arguments: [topic])
            }
            return ids
        }
    }

    private static func curriculum(_ db: Database, row: Row) throws -> Curriculum {
        let id: Int64 = row["id"]
        let sources = try Row.fetchAll(db, sql: "SELECT * FROM curriculum_sources WHERE curriculum_id = ? ORDER BY position", arguments: [id]).map { source in
            CurriculumSource(documentId: source["document_id"], uri: source["uri"], title: source["title"],
                             type: try StoredValue.decode(source["type"], as: DocumentType.self), licence: source["licence"],
                             licenceURL: source["licence_url"], contentHash: source["content_hash"],
                             tags: (source["tags"] as String?)?.split(separator: "\n").map(String.init) ?? [])
        }
        let topicRows = try Row.fetchAll(db, sql: "SELECT * FROM topics WHERE curriculum_id = ? ORDER BY unit_id, position", arguments: [id])
        let topics = try Self.topics(db, rows: topicRows)
        var byUnit: [Int64: [Topic]] = [:]
        for (topicRow, topic) in zip(topicRows, topics) { byUnit[topicRow["unit_id"], default: []].append(topic) }
        let units = try Row.fetchAll(db, sql: "SELECT * FROM curriculum_units WHERE curriculum_id = ? ORDER BY position", arguments: [id]).map { unit in
            CurriculumUnit(stableId: unit["stable_id"], title: unit["title"], topics: byUnit[unit["id"]] ?? [])
        }
        return Curriculum(name: row["name"], title: row["title"], stableId: row["stable_id"], sources: sources, units: units,
                          modelName: row["model_name"], createdAt: date(row["created_at"]), modifiedAt: date(row["modified_at"]))
    }

    /// Topics from their rows, with their objectives, key terms, passages and links.
    private static func topics(_ db: Database, rows: [Row]) throws -> [Topic] {
        let ids: [Int64] = rows.map { $0["id"] }
        var objectives: [Int64: [LearningObjective]] = [:]
        var keyTerms: [Int64: [KeyTerm]] = [:]
        var passages: [Int64: [TopicPassage]] = [:]
        var links: [Int64: [TopicLink]] = [:]
        let topics = idSet(ids)
        for row in try SQLRequest<Row>("SELECT * FROM topic_objectives WHERE topic_id IN \(topics) ORDER BY topic_id, position").fetchAll(db) {
            objectives[row["topic_id"], default: []].append(LearningObjective(
                stableId: row["stable_id"], statement: row["statement"], origin: try StoredValue.decode(row["origin"], as: ContentOrigin.self)))
        }
        for row in try SQLRequest<Row>("SELECT * FROM topic_key_terms WHERE topic_id IN \(topics) ORDER BY topic_id, position").fetchAll(db) {
            keyTerms[row["topic_id"], default: []].append(KeyTerm(
                term: row["term"], definition: row["definition"], origin: try StoredValue.decode(row["origin"], as: ContentOrigin.self),
                passageId: row["passage_id"],
                basis: (row["basis"] as String?).flatMap(KeyTermBasis.init(rawValue:)) ?? .defined))
        }
        for row in try SQLRequest<Row>("""
            SELECT tp.topic_id, p.id, p.document_id, p.ordinal, p.text, p.kind, p.section_path, p.page_start, p.page_end,
                p.page_label, p.time_start, p.time_end, p.token_count
            FROM topic_passages tp JOIN passages p ON p.id = tp.passage_id
            WHERE tp.topic_id IN \(topics) ORDER BY tp.topic_id, tp.position
            """).fetchAll(db) {
            passages[row["topic_id"], default: []].append(TopicPassage(
                passageId: row["id"], documentId: row["document_id"], ordinal: row["ordinal"], text: row["text"],
                kind: PassageKind(rawValue: row["kind"]) ?? .text, sectionPath: decode([String].self, row["section_path"]) ?? [],
                pageStart: row["page_start"], pageEnd: row["page_end"], pageLabel: row["page_label"],
                timeStart: row["time_start"], timeEnd: row["time_end"], tokenCount: row["token_count"]))
        }
        for row in try SQLRequest<Row>("SELECT * FROM topic_links WHERE topic_id IN \(topics) ORDER BY topic_id, position").fetchAll(db) {
            links[row["topic_id"], default: []].append(TopicLink(topicStableId: row["target_stable_id"], term: row["term"]))
        }
        return try rows.map { row in
            let id: Int64 = row["id"]
            return Topic(stableId: row["stable_id"], title: row["title"], summary: row["summary"],
                         summaryOrigin: try StoredValue.decode(row["summary_origin"], as: ContentOrigin.self),
                         objectives: objectives[id] ?? [], keyTerms: keyTerms[id] ?? [], studyMinutes: row["study_minutes"],
                         passages: passages[id] ?? [], prerequisites: links[id] ?? [],
                         titleOrigin: try (row["title_origin"] as String?).map { try StoredValue.decode($0, as: ContentOrigin.self) })
        }
    }

    // MARK: Topic search

    /// Topics that hold any of the query's words in their title, objectives, key terms or
    /// summary, best BM25 first (higher is better), at most `limit`; only the curriculum's when named.
    func topicKeywordMatches(_ query: SearchQuery, limit: Int, curriculum: String? = nil) throws -> [(id: Int64, score: Double)] {
        let any = (query.words.map { [$0] } + query.phrases).map { "\"" + $0.joined(separator: " ").replacingOccurrences(of: "\"", with: "") + "\"" }
            .joined(separator: " OR ")
        guard !any.isEmpty else { return [] }
        // A topic's title and key terms say what it is about more than its summary does.
        var sql: SQL = """
            SELECT t.id, -bm25(topics_fts, 3.0, 1.0, 2.0, 1.0) AS score
            FROM topics_fts JOIN topics t ON t.id = topics_fts.rowid
            WHERE topics_fts MATCH \(any)
            """
        if let curriculum {
            sql += " AND t.curriculum_id = (SELECT id FROM curricula WHERE name = \(curriculum))"
        }
        sql += " ORDER BY score DESC, t.id LIMIT \(limit)"
        return try read { db in try Row.fetchAll(db, SQLRequest<Row>(literal: sql)).map { (id: $0[0], score: $0[1]) } }
    }

    /// Row ids of the topics of a curriculum (all topics when nil); nil when no curriculum has that name.
    func topicRowIds(curriculum: String?) throws -> Set<Int64>? {
        try read { db in
            guard let curriculum else { return try Int64.fetchSet(db, sql: "SELECT id FROM topics") }
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM curricula WHERE name = ?", arguments: [curriculum]) else { return nil }
            return try Int64.fetchSet(db, sql: "SELECT id FROM topics WHERE curriculum_id = ?", arguments: [id])
        }
    }

    /// Every topic vector of `embedder`, for exact nearest-neighbour search over topics.
    func topicVectorIndex(for embedder: EmbedderInfo) throws -> VectorIndex {
        try read { db in try TopicVectors.index(db, embedder: embedder) }
    }

    /// Topics by row id, in the order of `ids`, with their curriculum's name and unit title.
    func topicsWithPlace(rowIds ids: [Int64]) throws -> [(curriculum: String, unit: String, topic: Topic)] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let rows = try SQLRequest<Row>("""
                SELECT t.*, c.name AS curriculum_name, u.title AS unit_title FROM topics t
                JOIN curricula c ON c.id = t.curriculum_id JOIN curriculum_units u ON u.id = t.unit_id
                WHERE t.id IN \(Self.idSet(ids))
                """).fetchAll(db)
            let topics = try Self.topics(db, rows: rows)
            var byId: [Int64: (String, String, Topic)] = [:]
            for (row, topic) in zip(rows, topics) { byId[row["id"]] = (row["curriculum_name"], row["unit_title"], topic) }
            return ids.compactMap { byId[$0] }
        }
    }

    // MARK: Vectors

    /// The library embedder's vectors of these passages (those that have one).
    func passageVectors(ids: Set<Int64>) throws -> [Int64: [Float]] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            guard let embedder = Self.decode(EmbedderInfo.self, try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'")) else { return [:] }
            var vectors: [Int64: [Float]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT passage_ids, vectors FROM vector_blocks WHERE embedder = ?", arguments: [embedder.key])
            while let row = try rows.next() {
                let blockIds = VectorBlocks.array(row["passage_ids"] as Data, of: Int64.self)
                guard blockIds.contains(where: ids.contains) else { continue }
                let flat = VectorBlocks.array(row["vectors"] as Data, of: Float.self)
                for (slot, id) in blockIds.enumerated() where ids.contains(id) {
                    vectors[id] = Array(flat[(slot * embedder.dimension)..<((slot + 1) * embedder.dimension)])
                }
            }
            return vectors
        }
    }

    /// Each topic's vector: the normalised mean of its passages' vectors from the library's
    /// embedder. Topics whose passages have none get no vector.
    private static func storeTopicVectors(_ db: Database, topicIds: [Int64], passages: [[Int64]]) throws {
        guard let embedder = decode(EmbedderInfo.self, try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'")),
              !topicIds.isEmpty else { return }
        let wanted = Set(passages.joined())
        var vectors: [Int64: ArraySlice<Float>] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT passage_ids, vectors FROM vector_blocks WHERE embedder = ?", arguments: [embedder.key])
        while let row = try rows.next() {
            let ids = VectorBlocks.array(row["passage_ids"] as Data, of: Int64.self)
            guard ids.contains(where: wanted.contains) else { continue }
            let flat = VectorBlocks.array(row["vectors"] as Data, of: Float.self)
            for (slot, id) in ids.enumerated() where wanted.contains(id) {
                vectors[id] = flat[(slot * embedder.dimension)..<((slot + 1) * embedder.dimension)]
            }
        }
        var keptIds: [Int64] = []
        var means: [[Float]] = []
        for (topicId, passageIds) in zip(topicIds, passages) {
            guard let mean = TopicVectors.mean(passageIds.compactMap { vectors[$0] }, dimension: embedder.dimension) else { continue }
            keptIds.append(topicId)
            means.append(mean)
        }
        try TopicVectors.append(db, topicIds: keptIds, vectors: means, embedder: embedder)
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    private static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }
}

/// Topic vectors in blocks like passage vectors (`VectorBlocks`), in `topic_vector_blocks`.
enum TopicVectors {
    /// The mean of `vectors` scaled to unit length; nil for none (or a zero mean).
    static func mean<C: Collection>(_ vectors: [C], dimension: Int) -> [Float]? where C.Element == Float {
        guard !vectors.isEmpty else { return nil }
        var sum = [Float](repeating: 0, count: dimension)
        for vector in vectors {
            for (j, value) in vector.enumerated() where j < dimension { sum[j] += value }
        }
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return nil }
        return sum.map { $0 / norm }
    }

    /// Through the store's one vector write path, so topics get compact blocks like passages.
    static func append(_ db: Database, topicIds: [Int64], vectors: [[Float]], embedder: EmbedderInfo) throws {
        try VectorBlocks.append(db, ids: topicIds, vectors: vectors, embedder: embedder, set: .topics)
    }

    static func remove(_ db: Database, topicIds: Set<Int64>) throws {
        try VectorBlocks.remove(db, ids: topicIds, set: .topics)
    }

    static func index(_ db: Database, embedder: EmbedderInfo) throws -> VectorIndex {
        var index = VectorIndex(dimension: embedder.dimension)
        let rows = try Row.fetchCursor(db, sql: "SELECT topic_ids, vectors FROM topic_vector_blocks WHERE embedder = ? ORDER BY id", arguments: [embedder.key])
        while let row = try rows.next() {
            index.add(ids: VectorBlocks.array(row["topic_ids"] as Data, of: Int64.self), vectors: VectorBlocks.array(row["vectors"] as Data, of: Float.self))
        }
        return index
    }
}
