import Foundation
import GRDB

/// A SQLite library as the source or the target of `lectern migrate`.
extension LibraryStore: LibraryTransfer {
    /// Nothing to defer: the vectors are scanned, not indexed.
    func beginCopy() throws {}
    func finishCopy() throws {}

    /// Where each vector is (its block and row), from the blocks' id lists alone; a lookup
    /// reads the blocks it needs, keeping the last call's (a document's passages were stored
    /// together): a copy of a million passages holds a few blocks of vectors, not 1.5 GB.
    func passageVectors(embedder: EmbedderInfo) throws -> PassageVectors {
        let places = try read { db in
            var places: [Int64: (block: Int64, slot: Int)] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, passage_ids FROM vector_blocks WHERE embedder = ?", arguments: [embedder.key])
            while let row = try rows.next() {
                let block: Int64 = row["id"]
                for (slot, id) in VectorBlocks.array(row["passage_ids"] as Data, of: Int64.self).enumerated() { places[id] = (block, slot) }
            }
            return places
        }
        let dimension = embedder.dimension
        var recent: [Int64: [Float]] = [:]
        return PassageVectors { ids in
            var blocks: [Int64: [Float]] = [:]
            for block in Set(ids.compactMap { places[$0]?.block }) {
                blocks[block] = try recent[block] ?? self.read { db in
                    try Data.fetchOne(db, sql: "SELECT vectors FROM vector_blocks WHERE id = ?", arguments: [block])
                }.map { VectorBlocks.array($0, of: Float.self) }
            }
            recent = blocks
            return ids.map { id in
                guard let place = places[id], let flat = blocks[place.block], flat.count >= (place.slot + 1) * dimension else { return nil }
                return Array(flat[place.slot * dimension..<(place.slot + 1) * dimension])
            }
        }
    }

    func fetchCacheEntries() throws -> [FetchCacheEntry] {
        try read { db in try FetchCacheEntry.fetchAll(db, sql: "SELECT * FROM fetch_cache ORDER BY url") }
    }

    func allCachedVectors(embedder: EmbedderInfo) throws -> [String: [Float]] {
        try read { db in
            var found: [String: [Float]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT text_hash, vector FROM embedding_cache WHERE embedder = ?", arguments: [embedder.key])
            while let row = try rows.next() {
                let vector = VectorBlocks.array(row["vector"] as Data, of: Float.self)
                if vector.count == embedder.dimension { found[row["text_hash"]] = vector }
            }
            return found
        }
    }

    func importRun(_ run: RunRecord) throws -> Bool {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM runs WHERE id = ?", arguments: [run.id]) == nil else { return false }
            var entry = RunEntryRecord(id: run.id, command: run.command, arguments: run.arguments, startedAt: run.startedAt,
                                       endedAt: run.endedAt, status: run.status, counts: run.counts, pid: nil, processStart: nil)
            try entry.insert(db)
            for failure in run.failures {
                var record = RunFailureRecord(runId: run.id, input: failure.input, stage: failure.stage, reason: failure.reason,
                                              severity: failure.severity, at: run.endedAt ?? run.startedAt)
                try record.insert(db)
            }
            return true
        }
    }

    func transferCounts() throws -> [String: Int] {
        try read { db in
            var counts: [String: Int] = [:]
            for (name, from) in LibraryTransferCounts.tables {
                let table = String(from.prefix { $0 != " " })
                counts[name] = try db.tableExists(table) ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(from)") ?? 0 : 0
            }
            return counts
        }
    }

    // MARK: The curriculum wing's rows

    func cardReportRecords() throws -> [CardReportRecord] {
        try read { db in try CardReportRecord.fetchAll(db, sql: "SELECT * FROM card_reports ORDER BY run_id") }
    }

    func modelCacheRecords() throws -> [ModelCacheRecord] {
        try read { db in try ModelCacheRecord.fetchAll(db, sql: "SELECT * FROM llm_cache ORDER BY key") }
    }

    func modelCallRecords() throws -> [ModelCallRecord] {
        try read { db in try ModelCallRecord.fetchAll(db, sql: "SELECT * FROM llm_calls ORDER BY id") }
    }

    func runOutputRecords() throws -> [RunOutputRecord] {
        try read { db in try RunOutputRecord.fetchAll(db, sql: "SELECT * FROM run_outputs ORDER BY id") }
    }

    func cardBasisRecords() throws -> [CardBasisRecord] {
        try read { db in try CardBasisRecord.fetchAll(db, sql: "SELECT * FROM card_bases ORDER BY curriculum") }
    }

    func importCards(_ cards: [CardRecord], curriculum name: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM cards WHERE curriculum = ?", arguments: [name])
            for var card in cards {
                (card.id, card.curriculum) = (nil, name)
                try card.insert(db, onConflict: .ignore)
            }
        }
    }

    func importCardReports(_ reports: [CardReportRecord]) throws -> Int { try insertMissing(reports) }

    func importModelCache(_ answers: [ModelCacheRecord]) throws -> Int { try insertMissing(answers) }

    func importModelCalls(_ calls: [ModelCallRecord]) throws -> Int { try insertMissing(calls) }

    func importRunOutputs(_ outputs: [RunOutputRecord]) throws -> Int { try insertMissing(outputs) }

    func importCardBases(_ bases: [CardBasisRecord]) throws -> Int { try insertMissing(bases) }

    /// Inserts, in one transaction, the records this library does not hold yet (a row already
    /// there is kept as it is): how many were added.
    private func insertMissing<Record: MutablePersistableRecord>(_ records: [Record]) throws -> Int {
        try write { db in
            try records.reduce(0) { added, record in
                var record = record
                try record.insert(db, onConflict: .ignore)
                return added + db.changesCount
            }
        }
    }
}
