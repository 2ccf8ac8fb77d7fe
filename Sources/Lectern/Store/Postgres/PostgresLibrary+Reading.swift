import Foundation

/// Reading a PostgreSQL library back as the SQLite library reads its own: the same records
/// (`DocumentRecord`, `PassageRecord`, `BlockRecord` …) in the same order. Text is ordered
/// byte-wise (`collate "C"`), as SQLite orders it, whatever the database's own collation.
extension PostgresLibrary {
    /// A passage with its document's facts, as `Passage.selection` selects it in SQLite.
    static let passageSelection = """
        p.id, p.document_id, p.ordinal, p.text, p.kind, p.section_path::json as section_path, p.page_start, p.page_end,
        p.time_start, p.time_end, p.speaker, p.char_start, p.char_end, p.token_count, p.timeline::json as timeline, p.page_label,
        d.title as doc_title, d.uri as doc_uri, d.path as doc_path, d.type as doc_type, d.short_id as doc_short_id
        from passages p join documents d on d.id = p.document_id
        """

    private func documents(_ sql: String, _ parameters: [String?]) throws -> [StoredDocument] {
        try connection.records(DocumentRecord.self, sql, parameters).map(StoredDocument.init)
    }

    func document(uri: String) throws -> StoredDocument? {
        try session { try documents("select * from documents where uri = $1", [uri]).first }
    }

    func documents(matching reference: String, absolutePath: String) throws -> [StoredDocument] {
        try session {
            var found = try documents("""
                select d.* from documents d join sources s on s.id = d.source_id
                where d.uri = $1 or d.path = $2 or s.uri = $1 or d.short_id = $1
                order by d.uri collate "C"
                """, [reference, absolutePath])
            if found.isEmpty && reference.count >= 4 && reference.allSatisfy(\.isHexDigit) {
                found = try documents("select * from documents where starts_with(short_id, $1) order by uri collate \"C\"",
                                      [reference.lowercased()])
            }
            if found.isEmpty {
                let folder = absolutePath.hasSuffix("/") ? absolutePath : absolutePath + "/"
                found = try documents("select * from documents where starts_with(path, $1) order by uri collate \"C\"", [folder])
                if found.isEmpty {
                    let prefix = reference.hasSuffix("/") ? reference : reference + "/"
                    found = try documents("select * from documents where starts_with(uri, $1) order by uri collate \"C\"", [prefix])
                }
            }
            return found
        }
    }

    func allDocuments() throws -> [StoredDocument] {
        try session { try documents("select * from documents order by uri collate \"C\"", []) }
    }

    func sources() throws -> [SourceSummary] {
        try session {
            var types: [Int64: [DocumentType]] = [:]
            for pair in try connection.records(SourceTypeRecord.self,
                                               "select source_id, type from (select distinct source_id, type from documents) pairs order by type collate \"C\"") {
                types[pair.sourceId, default: []].append(pair.type)
            }
            return try connection.records(SourceTotalsRecord.self, """
                select s.id, s.uri, s.kind, s.updated_at, count(d.id) as documents,
                    coalesce(sum(d.passage_count), 0) as passages, min(d.title collate "C") as title
                from sources s left join documents d on d.source_id = s.id
                group by s.id order by s.uri collate "C"
                """).map { source in
                SourceSummary(id: source.id, uri: source.uri, kind: source.kind, documents: source.documents,
                              passages: source.passages, types: types[source.id] ?? [], title: source.title,
                              updatedAt: source.updatedAt)
            }
        }
    }

    /// The totals `lectern stats` prints; the size is the database's on the server. Vectors are
    /// rows of `passages` here, not blocks (`vectorBlocks` 0).
    func stats() throws -> LibraryStats {
        try session {
            var byType: [String: Int] = [:]
            for row in try connection.query("select type, count(*) from documents group by type").rows {
                if let type = row[0] { byType[type] = Int(row[1] ?? "0") ?? 0 }
            }
            let totals = try connection.query("""
                select pg_database_size(current_database()),
                    (select count(*) from sources), (select count(*) from documents),
                    (select passages from keyword_totals), (select count(*) from blocks),
                    (select coalesce(sum(passage_count), 0) from documents),
                    (select coalesce(sum(token_count), 0) from passages),
                    (select count(*) from passages where exact is not null),
                    (select value from settings where key = 'embedder'), (select count(*) from runs)
                """).rows[0]
            func number(_ index: Int) -> Int { Int(totals[index] ?? "0") ?? 0 }
            return LibraryStats(
                path: display, fileBytes: Int64(number(0)), sources: number(1), documents: number(2), passages: number(3),
                blocks: number(4), tokens: number(6), vectors: number(7), vectorBlocks: 0,
                embedder: LibraryStore.decode(EmbedderInfo.self, totals[8])?.description, documentsByType: byType,
                runs: number(9))
        }
    }

    func blocks(documentId: Int64) throws -> [Block] {
        try session {
            try connection.records(BlockRecord.self, """
                select document_id, ordinal, kind, text, level, section_path::json as section_path, page, time_start, time_end,
                    speaker, char_offset, attributes::json as attributes, page_label
                from blocks where document_id = $1 order by ordinal
                """, [String(documentId)]).map(\.block)
        }
    }

    func passages(documentId: Int64) throws -> [Passage] {
        try session {
            try connection.records(PassageRecord.self, "select \(Self.passageSelection) where p.document_id = $1 order by p.ordinal",
                                   [String(documentId)]).map(Passage.init)
        }
    }

    func passages(ids: [Int64]) throws -> [Passage] {
        guard !ids.isEmpty else { return [] }
        let found = try session {
            try connection.records(PassageRecord.self, "select \(Self.passageSelection) where p.id = any($1::bigint[])",
                                   [Self.bigintArray(ids)]).map(Passage.init)
        }
        let byId = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
        return ids.compactMap { byId[$0] }
    }

    func passageWithNeighbours(id: Int64, context: Int) throws -> [Passage] {
        try session {
            try connection.records(PassageRecord.self, """
                select \(Self.passageSelection)
                join passages hit on hit.id = $1 and hit.document_id = p.document_id
                where p.ordinal between hit.ordinal - $2 and hit.ordinal + $2 order by p.ordinal
                """, [String(id), String(context)]).map(Passage.init)
        }
    }

    func speaker(documentId: Int64, at time: Double) throws -> String? {
        try session {
            try connection.query("""
                select speaker from blocks where document_id = $1 and time_start is not null and time_start <= $2
                order by time_start desc, ordinal desc limit 1
                """, [String(documentId), String(time + 0.0005)]).scalar
        }
    }

    func sectionFacts(documentId: Int64, sectionPath: [String]) throws -> [[String]: [String: String]] {
        guard !sectionPath.isEmpty else { return [:] }
        let prefixes = (1...sectionPath.count).map { LibraryStore.json(Array(sectionPath.prefix($0))) }
        return try session {
            var facts: [[String]: [String: String]] = [:]
            for row in try connection.query("""
                select section_path, attributes from blocks
                where document_id = $1 and kind = 'heading' and attributes is not null and section_path = any($2::text[])
                order by ordinal
                """, [String(documentId), Self.textArray(prefixes)]).rows {
                let path = LibraryStore.decode([String].self, row[0]) ?? []
                guard facts[path] == nil else { continue }
                facts[path] = LibraryStore.decode([String: String].self, row[1]) ?? [:]
            }
            return facts
        }
    }

    func cueAttributes(documentId: Int64, sectionPath: [String]) throws -> [String: String] {
        try session {
            LibraryStore.decode([String: String].self, try connection.query("""
                select attributes from blocks
                where document_id = $1 and kind = 'cue' and section_path = $2 and attributes is not null
                order by ordinal limit 1
                """, [String(documentId), LibraryStore.json(sectionPath)]).scalar) ?? [:]
        }
    }

    func metadata(documentId: Int64) throws -> [String: String] {
        try session {
            LibraryStore.decode([String: String].self,
                                try connection.query("select metadata from documents where id = $1", [String(documentId)]).scalar) ?? [:]
        }
    }

    func shortPassages(_ ids: [Int64], under tokens: Int) throws -> [Int64: Int] {
        guard !ids.isEmpty else { return [:] }
        return try session {
            var short: [Int64: Int] = [:]
            for row in try connection.query("select id, token_count from passages where id = any($1::bigint[]) and token_count < $2",
                                            [Self.bigintArray(ids), String(tokens)]).rows {
                if let id = row[0].flatMap({ Int64($0) }) { short[id] = Int(row[1] ?? "0") ?? 0 }
            }
            return short
        }
    }

    func documentIds(types: [String]) throws -> Set<Int64> {
        try session {
            Set(try connection.query("select id from documents where lower(type) = any($1::text[])",
                                     [Self.textArray(types.map { $0.lowercased() })]).rows.compactMap { $0[0].flatMap { Int64($0) } })
        }
    }

    func passageLocators(_ ids: [Int64]) throws -> [Int64: PassageLocator] {
        guard !ids.isEmpty else { return [:] }
        return try session {
            let rows = try connection.query("""
                select p.id, d.uri, p.ordinal from passages p join documents d on d.id = p.document_id where p.id = any($1::bigint[])
                """, [Self.bigintArray(ids)])
            var found: [Int64: PassageLocator] = [:]
            for row in rows.rows { found[Int64(row[0]!)!] = PassageLocator(documentURI: row[1]!, ordinal: Int(row[2]!)!) }
            return found
        }
    }
}
