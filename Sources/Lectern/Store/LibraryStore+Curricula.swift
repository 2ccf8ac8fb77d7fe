import Foundation
import GRDB

/// One curriculum as `lectern curriculum list` shows it.
public struct CurriculumSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var name: String
    public var title: String
    public var units: Int
    public var topics: Int
    /// When it was last built (ISO 8601 with zone).
    public var updated: String
}

extension LibraryStore {
    /// A topic's list rows, numbered in order under the topic's row id.
    static func insert<Item: TopicListRecord & PersistableRecord>(_ rows: [Item], topic: Int64, _ db: Database) throws {
        for (index, var row) in rows.enumerated() {
            (row.topicId, row.position) = (topic, index)
            try row.insert(db)
        }
    }

    // MARK: Writing

    /// Stores a curriculum's records, replacing any curriculum of the same name, in ONE
    /// transaction: its units, topics (objectives, key terms, passages, links), their keyword
    /// rows and their vectors (each the normalised mean of its passages' vectors from the
    /// library's embedder, so no model is called). Row ids and foreign keys are set here.
    func saveCurriculum(_ records: CurriculumRecords) throws {
        try write { db in
            try Self.deleteCurriculum(db, name: records.curriculum.name)
            var curriculum = records.curriculum
            curriculum.id = nil
            try curriculum.insert(db)
            let curriculumId = db.lastInsertedRowID
            for (position, var source) in records.sources.enumerated() {
                source.curriculumId = curriculumId
                source.position = position
                try source.insert(db)
            }
            var topicIds: [Int64] = []
            var topicPassages: [[Int64]] = []
            for (unitPosition, unit) in records.units.enumerated() {
                var unitRecord = unit.unit
                unitRecord.id = nil
                unitRecord.curriculumId = curriculumId
                unitRecord.position = unitPosition
                try unitRecord.insert(db)
                let unitId = db.lastInsertedRowID
                for (position, topic) in unit.topics.enumerated() {
                    var topicRecord = topic.topic
                    topicRecord.id = nil
                    topicRecord.curriculumId = curriculumId
                    topicRecord.unitId = unitId
                    topicRecord.position = position
                    try topicRecord.insert(db)
                    let topicId = db.lastInsertedRowID
                    try Self.insert(topic.objectives, topic: topicId, db)
                    try Self.insert(topic.keyTerms, topic: topicId, db)
                    try Self.insert(topic.passages, topic: topicId, db)
                    try Self.insert(topic.links, topic: topicId, db)
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

    /// The records of the curriculum named `name`; nil when there is none. A passage removed
    /// from the library since the build (its document re-read or removed) is left out.
    func curriculumRecords(named name: String) throws -> CurriculumRecords? {
        try read { db in
            guard let curriculum = try CurriculumRecord.filter(Column("name") == name).fetchOne(db), let id = curriculum.id else { return nil }
            let sources = try CurriculumSourceRecord.filter(Column("curriculum_id") == id).order(Column("position")).fetchAll(db)
            let topics = try Self.topicRecords(db, TopicRecord.filter(Column("curriculum_id") == id).order(Column("unit_id"), Column("position")).fetchAll(db))
            var byUnit: [Int64: [TopicRecords]] = [:]
            for topic in topics { byUnit[topic.topic.unitId, default: []].append(topic) }
            let units = try CurriculumUnitRecord.filter(Column("curriculum_id") == id).order(Column("position")).fetchAll(db).map { unit in
                CurriculumRecords.Unit(unit: unit, topics: unit.id.flatMap { byUnit[$0] } ?? [])
            }
            return CurriculumRecords(curriculum: curriculum, sources: sources, units: units)
        }
    }

    /// The build key `name` was stored with (see `CurriculumRecord.buildKey`), nil when there is none.
    func curriculumBuildKey(named name: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT build_key FROM curricula WHERE name = ?", arguments: [name]) }
    }

    /// Every curriculum, by name.
    func curriculumSummaries() throws -> [CurriculumSummary] {
        try read { db in
            try CurriculumSummary.fetchAll(db, sql: """
                SELECT c.name, c.title, c.modified_at AS updated,
                    (SELECT COUNT(*) FROM curriculum_units u WHERE u.curriculum_id = c.id) AS units,
                    (SELECT COUNT(*) FROM topics t WHERE t.curriculum_id = c.id) AS topics
                FROM curricula c ORDER BY c.name
                """)
        }
    }

    /// The topic with this stable id and the name of its curriculum.
    func topicRecords(stableId: String) throws -> (curriculum: String, topic: TopicRecords)? {
        try read { db in
            guard let topic = try TopicRecord.filter(Column("stable_id") == stableId).fetchOne(db),
                  let name = try String.fetchOne(db, sql: "SELECT name FROM curricula WHERE id = ?", arguments: [topic.curriculumId])
            else { return nil }
            return (name, try Self.topicRecords(db, [topic])[0])
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

    /// Topics with their objectives, key terms, passage references (those whose passage is
    /// still in the library) and links, in the order of `topics`.
    private static func topicRecords(_ db: Database, _ topics: [TopicRecord]) throws -> [TopicRecords] {
        let ids = topics.compactMap(\.id)
        let order = [Column("topic_id"), Column("position")]
        let objectives = Dictionary(grouping: try TopicObjectiveRecord.filter(ids.contains(Column("topic_id"))).order(order).fetchAll(db), by: \.topicId)
        let keyTerms = Dictionary(grouping: try TopicKeyTermRecord.filter(ids.contains(Column("topic_id"))).order(order).fetchAll(db), by: \.topicId)
        let passages = Dictionary(grouping: try TopicPassageRecord.fetchAll(db, SQLRequest<TopicPassageRecord>("""
            SELECT tp.* FROM topic_passages tp JOIN passages p ON p.id = tp.passage_id
            WHERE tp.topic_id IN \(idSet(ids)) ORDER BY tp.topic_id, tp.position
            """)), by: \.topicId)
        let links = Dictionary(grouping: try TopicLinkRecord.filter(ids.contains(Column("topic_id"))).order(order).fetchAll(db), by: \.topicId)
        return topics.map { topic in
            let id = topic.id ?? -1
            return TopicRecords(topic: topic, objectives: objectives[id] ?? [], keyTerms: keyTerms[id] ?? [],
                                passages: passages[id] ?? [], links: links[id] ?? [])
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
            SELECT t.id, -bm25(topics_fts, 8.0, 1.0, 2.0, 1.0) AS score
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
    func topicRecordsWithPlace(rowIds ids: [Int64]) throws -> [(curriculum: String, unit: String, topic: TopicRecords)] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let topics = try Self.topicRecords(db, TopicRecord.filter(ids.contains(Column("id"))).fetchAll(db))
            let places = try Row.fetchAll(db, SQLRequest<Row>("""
                SELECT t.id, c.name, u.title FROM topics t
                JOIN curricula c ON c.id = t.curriculum_id JOIN curriculum_units u ON u.id = t.unit_id
                WHERE t.id IN \(Self.idSet(ids))
                """))
            var place: [Int64: (String, String)] = [:]
            for row in places { place[row[0]] = (row[1], row[2]) }
            var byId: [Int64: (String, String, TopicRecords)] = [:]
            for topic in topics {
                guard let id = topic.topic.id, let (curriculum, unit) = place[id] else { continue }
                byId[id] = (curriculum, unit, topic)
            }
            return ids.compactMap { byId[$0] }
        }
    }

    // MARK: Vectors

    /// The library embedder's vectors of these documents' passages (those that have one), in ONE
    /// pass over the vector blocks. A build that asked document by document read every block's
    /// id list, and a shared block's 393 KB of floats, once per document: 870 documents of a
    /// 100,000-passage library read ~450 blocks 870 times.
    func passageVectors(documentIds: [Int64]) throws -> [Int64: [Float]] {
        guard !documentIds.isEmpty else { return [:] }
        return try read { db in
            guard let embedder = Self.decode(EmbedderInfo.self, try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'")) else { return [:] }
            let wanted = try SQLRequest<Int64>("SELECT id FROM passages WHERE document_id IN \(Self.idSet(documentIds))").fetchSet(db)
            var vectors: [Int64: [Float]] = [:]
            vectors.reserveCapacity(wanted.count)
            try Self.forEachPassageVector(db, embedder: embedder, wanted: wanted) { id, vector in vectors[id] = Array(vector) }
            return vectors
        }
    }

    /// Hands `body` each of `wanted`'s vectors (a slice of its block's floats), each block read
    /// once; a block none of them is in is left unread past its id list.
    private static func forEachPassageVector(_ db: Database, embedder: EmbedderInfo, wanted: Set<Int64>,
                                             _ body: (Int64, ArraySlice<Float>) -> Void) throws {
        guard !wanted.isEmpty else { return }
        let rows = try Row.fetchCursor(db, sql: "SELECT passage_ids, vectors FROM vector_blocks WHERE embedder = ?", arguments: [embedder.key])
        while let row = try rows.next() {
            let ids = VectorBlocks.array(row["passage_ids"] as Data, of: Int64.self)
            guard ids.contains(where: wanted.contains) else { continue }
            let flat = VectorBlocks.array(row["vectors"] as Data, of: Float.self)
            for (slot, id) in ids.enumerated() where wanted.contains(id) {
                body(id, flat[(slot * embedder.dimension)..<((slot + 1) * embedder.dimension)])
            }
        }
    }

    /// Each topic's vector: the normalised mean of its passages' vectors from the library's
    /// embedder. Topics whose passages have none get no vector.
    private static func storeTopicVectors(_ db: Database, topicIds: [Int64], passages: [[Int64]]) throws {
        guard let embedder = decode(EmbedderInfo.self, try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'embedder'")),
              !topicIds.isEmpty else { return }
        var vectors: [Int64: ArraySlice<Float>] = [:]
        try forEachPassageVector(db, embedder: embedder, wanted: Set(passages.joined())) { id, vector in vectors[id] = vector }
        var keptIds: [Int64] = []
        var means: [[Float]] = []
        for (topicId, passageIds) in zip(topicIds, passages) {
            guard let mean = TopicVectors.mean(passageIds.compactMap { vectors[$0] }, dimension: embedder.dimension) else { continue }
            keptIds.append(topicId)
            means.append(mean)
        }
        try TopicVectors.append(db, topicIds: keptIds, vectors: means, embedder: embedder)
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
