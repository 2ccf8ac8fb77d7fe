import Foundation

/// Curricula in a PostgreSQL library, as the SQLite library keeps them (`LibraryStore+Curricula`):
/// the same records, written in one transaction and read back in the same order. Rows are
/// written from the records' own JSON (`json_populate_recordset`, one statement a table, every
/// value bound), so a column is named once, by the record's coding keys.
extension PostgresLibrary {
    /// A library on a server has no files beside it for an export to overwrite.
    var protectedPaths: ProtectedPaths { ProtectedPaths() }

    static let topicColumns = """
        id, curriculum_id, unit_id, position, stable_id, title, title_origin, summary, summary_origin, study_minutes,
        objectives, key_terms
        """

    // MARK: Writing

    func saveCurriculum(_ records: CurriculumRecords) throws {
        try transaction {
            // Builders of the same curriculum (two machines, a run beside a hand-started build)
            // take turns, the second replacing the first's, as SQLite's one writer does; else the
            // second would stop at the name's unique index.
            try connection.query("select pg_advisory_xact_lock(hashtextextended($1, 1))", [records.curriculum.name])
            try deleteCurriculum(name: records.curriculum.name)
            var curriculum = records.curriculum
            curriculum.id = nil
            let curriculumId = try insert([curriculum], into: "curricula", columns: [
                "name", "stable_id", "title", "model_name", "build_key", "created_at", "modified_at", "summary",
            ], returning: "id").scalar!
            let id = Int64(curriculumId)!
            try insert(records.sources.enumerated().map { position, source in
                var source = source
                (source.curriculumId, source.position) = (id, position)
                return source
            }, into: "curriculum_sources", columns: [
                "curriculum_id", "position", "document_id", "uri", "title", "type", "licence", "licence_url", "content_hash", "tags",
            ])
            let unitRows = try insert(records.units.enumerated().map { position, unit in
                var record = unit.unit
                (record.id, record.curriculumId, record.position) = (nil, id, position)
                return record
            }, into: "curriculum_units", columns: ["curriculum_id", "position", "stable_id", "title"], returning: "id, position")
            var unitIds: [Int: Int64] = [:]
            for row in unitRows.rows { unitIds[Int(row[1]!)!] = Int64(row[0]!)! }
            // Each topic's keywords: its columns' stems, weighted A (title) to D (summary).
            var topicRows: [String] = []
            for (unitPosition, unit) in records.units.enumerated() {
                for (position, topic) in unit.topics.enumerated() {
                    var record = topic.topic
                    (record.id, record.curriculumId, record.unitId, record.position) = (nil, id, unitIds[unitPosition]!, position)
                    let keywords = PostgresKeywords.topicVector(title: record.title, objectives: record.objectives,
                                                                keyTerms: record.keyTerms, summary: record.summary)
                    topicRows.append(Self.object(record, adding: ["keywords": keywords.literal, "keyword_length": keywords.length]))
                }
            }
            let topicIdRows = try insert(objects: topicRows, into: "topics", columns: [
                "curriculum_id", "unit_id", "position", "stable_id", "title", "title_origin", "summary", "summary_origin",
                "study_minutes", "objectives", "key_terms", "keywords", "keyword_length",
            ], returning: "id, unit_id, position")
            var topicIds: [String: Int64] = [:]
            for row in topicIdRows.rows { topicIds["\(row[1]!)/\(row[2]!)"] = Int64(row[0]!)! }
            var objectives: [TopicObjectiveRecord] = [], keyTerms: [TopicKeyTermRecord] = []
            var passages: [TopicPassageRecord] = [], links: [TopicLinkRecord] = []
            var topicPassages: [(topic: Int64, passages: [Int64])] = []
            for (unitPosition, unit) in records.units.enumerated() {
                for (position, topic) in unit.topics.enumerated() {
                    let topicId = topicIds["\(unitIds[unitPosition]!)/\(position)"]!
                    objectives += Self.numbered(topic.objectives, topic: topicId)
                    keyTerms += Self.numbered(topic.keyTerms, topic: topicId)
                    passages += Self.numbered(topic.passages, topic: topicId)
                    links += Self.numbered(topic.links, topic: topicId)
                    topicPassages.append((topicId, topic.passages.map(\.passageId)))
                }
            }
            try insert(objectives, into: "topic_objectives", columns: ["topic_id", "position", "stable_id", "statement", "origin", "stand_in"])
            try insert(keyTerms, into: "topic_key_terms", columns: [
                "topic_id", "position", "term", "definition", "origin", "passage_id", "basis",
            ])
            try insert(passages, into: "topic_passages", columns: ["topic_id", "position", "passage_id"])
            try insert(links, into: "topic_links", columns: ["topic_id", "position", "target_stable_id", "term", "reason"])
            try storeTopicVectors(topicPassages)
        }
    }

    /// Each topic's vector: the normalised mean of its passages' vectors (`TopicVectors.mean`),
    /// as the SQLite library makes it; topics whose passages have none get none.
    private func storeTopicVectors(_ topics: [(topic: Int64, passages: [Int64])]) throws {
        guard let embedder = try recordedEmbedder(), !topics.isEmpty else { return }
        let vectors = try passageVectors(ids: Set(topics.flatMap(\.passages)))
        var ids: [Int64] = []
        var literals: [String] = []
        for topic in topics {
            guard let mean = TopicVectors.mean(topic.passages.compactMap { vectors[$0] }, dimension: embedder.dimension) else { continue }
            ids.append(topic.topic)
            literals.append(Self.vectorLiteral(mean))
        }
        guard !ids.isEmpty else { return }
        try connection.query("""
            update topics t set embedder = $1, exact = v.vector::vector
            from unnest($2::bigint[], $3::text[]) as v(id, vector) where t.id = v.id
            """, [embedder.key, Self.bigintArray(ids), Self.textArray(literals)])
    }

    func removeCurriculum(named name: String) throws -> Bool {
        try transaction { try deleteCurriculum(name: name) }
    }

    /// Units, topics and their rows go by cascade.
    @discardableResult
    private func deleteCurriculum(name: String) throws -> Bool {
        try connection.query("delete from curricula where name = $1", [name]).affected > 0
    }

    // MARK: Reading

    func curriculumRecords(named name: String) throws -> CurriculumRecords? {
        try session {
            guard let curriculum = try connection.records(CurriculumRecord.self, "select * from curricula where name = $1", [name]).first,
                  let id = curriculum.id.map(String.init) else { return nil }
            let sources = try connection.records(CurriculumSourceRecord.self, """
                select curriculum_id, position, document_id, uri, title, type, licence, licence_url, content_hash, tags::json as tags
                from curriculum_sources where curriculum_id = $1 order by position
                """, [id])
            let topics = try topicRecords(try connection.records(TopicRecord.self, """
                select \(Self.topicColumns) from topics where curriculum_id = $1 order by unit_id, position
                """, [id]))
            var byUnit: [Int64: [TopicRecords]] = [:]
            for topic in topics { byUnit[topic.topic.unitId, default: []].append(topic) }
            let units = try connection.records(CurriculumUnitRecord.self, "select * from curriculum_units where curriculum_id = $1 order by position",
                                               [id]).map { unit in
                CurriculumRecords.Unit(unit: unit, topics: unit.id.flatMap { byUnit[$0] } ?? [])
            }
            return CurriculumRecords(curriculum: curriculum, sources: sources, units: units)
        }
    }

    func curriculumBuildKey(named name: String) throws -> String? {
        try session { try connection.query("select build_key from curricula where name = $1", [name]).scalar }
    }

    func curriculumSummaries() throws -> [CurriculumSummary] {
        try session {
            try connection.records(CurriculumSummary.self, """
                select c.name, c.title, c.modified_at as updated,
                    (select count(*) from curriculum_units u where u.curriculum_id = c.id) as units,
                    (select count(*) from topics t where t.curriculum_id = c.id) as topics
                from curricula c order by c.name collate "C"
                """)
        }
    }

    func topicRecords(stableId: String) throws -> (curriculum: String, topic: TopicRecords)? {
        try session {
            guard let topic = try connection.records(TopicRecord.self, "select \(Self.topicColumns) from topics where stable_id = $1",
                                                     [stableId]).first,
                  let name = try connection.query("select name from curricula where id = $1", [String(topic.curriculumId)]).scalar
            else { return nil }
            return (name, try topicRecords([topic])[0])
        }
    }

    func topicPassageIds(curriculum name: String?, topicIds: [String]) throws -> [Int64]? {
        try session {
            var topics: [Int64] = []
            if let name {
                guard let id = try connection.query("select id from curricula where name = $1", [name]).scalar else { return nil }
                topics = try Self.ids(connection.query("select id from topics where curriculum_id = $1 order by unit_id, position", [id]))
            }
            if !topicIds.isEmpty {
                var chosen: [Int64] = []
                for stableId in topicIds {
                    let matched = try Self.ids(connection.query("select id from topics where stable_id = $1", [stableId]))
                    guard !matched.isEmpty else { return nil }
                    chosen += matched.filter { name == nil || topics.contains($0) }
                }
                if chosen.isEmpty { return nil }
                topics = chosen
            }
            guard !topics.isEmpty else { return [] }
            // In the order of `topics`, each topic's passages in its reading order.
            return try Self.ids(connection.query("""
                select tp.passage_id from unnest($1::bigint[]) with ordinality as t(id, place)
                join topic_passages tp on tp.topic_id = t.id order by t.place, tp.position
                """, [Self.bigintArray(topics)]))
        }
    }

    func topicRowIds(curriculum: String?) throws -> Set<Int64>? {
        try session {
            guard let curriculum else { return Set(try Self.ids(connection.query("select id from topics"))) }
            guard let id = try connection.query("select id from curricula where name = $1", [curriculum]).scalar else { return nil }
            return Set(try Self.ids(connection.query("select id from topics where curriculum_id = $1", [id])))
        }
    }

    /// Topics are few (hundreds a curriculum): their vectors are read whole and scanned exactly,
    /// as the SQLite library scans them.
    func topicVectorIndex(for embedder: EmbedderInfo) throws -> VectorIndex {
        try session {
            var index = VectorIndex(dimension: embedder.dimension)
            for row in try connection.query("select id, exact from topics where embedder = $1 and exact is not null order by id",
                                            [embedder.key]).rows {
                let vector = Self.floats(row[1] ?? "")
                guard vector.count == embedder.dimension, let id = row[0].flatMap({ Int64($0) }) else { continue }
                index.add(ids: [id], vectors: vector)
            }
            return index
        }
    }

    func topicRecordsWithPlace(rowIds ids: [Int64]) throws -> [(curriculum: String, unit: String, topic: TopicRecords)] {
        guard !ids.isEmpty else { return [] }
        return try session {
            let topics = try topicRecords(try connection.records(TopicRecord.self, "select \(Self.topicColumns) from topics where id = any($1::bigint[])",
                                                                 [Self.bigintArray(ids)]))
            var place: [Int64: (String, String)] = [:]
            for row in try connection.query("""
                select t.id, c.name, u.title from topics t
                join curricula c on c.id = t.curriculum_id join curriculum_units u on u.id = t.unit_id
                where t.id = any($1::bigint[])
                """, [Self.bigintArray(ids)]).rows {
                place[Int64(row[0]!)!] = (row[1]!, row[2]!)
            }
            var byId: [Int64: (String, String, TopicRecords)] = [:]
            for topic in topics {
                guard let id = topic.topic.id, let (curriculum, unit) = place[id] else { continue }
                byId[id] = (curriculum, unit, topic)
            }
            return ids.compactMap { byId[$0] }
        }
    }

    /// Topics with their objectives, key terms, passage references (those whose passage is
    /// still in the library) and links, in the order of `topics`.
    private func topicRecords(_ topics: [TopicRecord]) throws -> [TopicRecords] {
        let ids = Self.bigintArray(topics.compactMap(\.id))
        let objectives = Dictionary(grouping: try connection.records(TopicObjectiveRecord.self,
            "select * from topic_objectives where topic_id = any($1::bigint[]) order by topic_id, position", [ids]), by: \.topicId)
        let keyTerms = Dictionary(grouping: try connection.records(TopicKeyTermRecord.self,
            "select * from topic_key_terms where topic_id = any($1::bigint[]) order by topic_id, position", [ids]), by: \.topicId)
        let passages = Dictionary(grouping: try connection.records(TopicPassageRecord.self, """
            select tp.* from topic_passages tp join passages p on p.id = tp.passage_id
            where tp.topic_id = any($1::bigint[]) order by tp.topic_id, tp.position
            """, [ids]), by: \.topicId)
        let links = Dictionary(grouping: try connection.records(TopicLinkRecord.self,
            "select * from topic_links where topic_id = any($1::bigint[]) order by topic_id, position", [ids]), by: \.topicId)
        return topics.map { topic in
            let id = topic.id ?? -1
            return TopicRecords(topic: topic, objectives: objectives[id] ?? [], keyTerms: keyTerms[id] ?? [],
                                passages: passages[id] ?? [], links: links[id] ?? [])
        }
    }

    // MARK: Topic search

    /// FTS5's BM25 over the topics' keywords (`PostgresKeywords.topicSearch`), in SQL (`ranked`).
    func topicKeywordMatches(_ query: SearchQuery, limit: Int, curriculum: String?) throws -> [(id: Int64, score: Double)] {
        guard let search = PostgresKeywords.topicSearch(query, curriculum: curriculum) else { return [] }
        return try ranked(search, limit: limit)
    }

    // MARK: What a build reads

    /// The float32 copies of the passages' vectors: those of the library's embedder.
    func passageVectors(ids: Set<Int64>) throws -> [Int64: [Float]] {
        guard !ids.isEmpty else { return [:] }
        return try session {
            var vectors: [Int64: [Float]] = [:]
            for row in try connection.query("select id, exact from passages where id = any($1::bigint[]) and exact is not null",
                                            [Self.bigintArray(ids)]).rows {
                if let id = row[0].flatMap({ Int64($0) }) { vectors[id] = Self.floats(row[1] ?? "") }
            }
            return vectors
        }
    }

    /// The float32 copies of these documents' passages' vectors, in one query.
    func passageVectors(documentIds: [Int64]) throws -> [Int64: [Float]] {
        guard !documentIds.isEmpty else { return [:] }
        return try session {
            var vectors: [Int64: [Float]] = [:]
            for row in try connection.query("select id, exact from passages where document_id = any($1::bigint[]) and exact is not null",
                                            [Self.bigintArray(documentIds)]).rows {
                if let id = row[0].flatMap({ Int64($0) }) { vectors[id] = Self.floats(row[1] ?? "") }
            }
            return vectors
        }
    }

    func crossReferenceBlocks(documentId: Int64) throws -> [Block] {
        try session {
            try connection.records(BlockRecord.self, """
                select document_id, ordinal, kind, text, level, section_path::json as section_path, page, time_start, time_end,
                    speaker, char_offset, attributes::json as attributes, page_label
                from blocks where document_id = $1 and attributes is not null
                    and ((attributes::jsonb ->> 'references') is not null
                         or (kind = 'heading' and (attributes::jsonb ->> 'module') is not null))
                order by ordinal
                """, [String(documentId)]).map(\.block)
        }
    }

    // MARK: Rows from records

    /// Inserts `records` into `table`'s `columns` in one statement: each record's JSON (its
    /// coding keys are the column names) read back by `json_populate_recordset`; `conflict`
    /// an `on conflict …` clause.
    @discardableResult
    func insert<T: Encodable>(_ records: [T], into table: String, columns: [String], conflict: String = "",
                              returning: String? = nil) throws -> PostgresRows {
        try insert(objects: records.map { Self.object($0) }, into: table, columns: columns, conflict: conflict, returning: returning)
    }

    @discardableResult
    func insert(objects: [String], into table: String, columns: [String], conflict: String = "", returning: String? = nil) throws -> PostgresRows {
        guard !objects.isEmpty else { return PostgresRows(columns: [], rows: [], affected: 0) }
        let list = columns.joined(separator: ", ")
        return try connection.query("""
            insert into \(table) (\(list)) select \(list) from json_populate_recordset(null::\(table), $1::json)
            \(conflict) \(returning.map { "returning \($0)" } ?? "")
            """, ["[" + objects.joined(separator: ",") + "]"])
    }

    /// A record's JSON object, with `extra` values added.
    static func object<T: Encodable>(_ record: T, adding extra: [String: any Encodable & Sendable] = [:]) -> String {
        var json = LibraryStore.json(record)
        guard !extra.isEmpty, json.hasSuffix("}") else { return json }
        json.removeLast()
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
            json += (json.hasSuffix("{") ? "" : ",") + LibraryStore.json(key) + ":" + LibraryStore.json(value)
        }
        return json + "}"
    }

    /// A topic's list rows, numbered in order under the topic's row id.
    static func numbered<Item: TopicListRecord>(_ rows: [Item], topic: Int64) -> [Item] {
        rows.enumerated().map { index, row in
            var row = row
            (row.topicId, row.position) = (topic, index)
            return row
        }
    }

    static func ids(_ rows: PostgresRows) -> [Int64] {
        rows.rows.compactMap { $0[0].flatMap { Int64($0) } }
    }
}
