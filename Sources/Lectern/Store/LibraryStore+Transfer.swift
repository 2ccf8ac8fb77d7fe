import Foundation
import GRDB

/// A SQLite library as the source or the target of `lectern migrate`.
extension LibraryStore: LibraryTransfer {
    func passageVectors(embedder: EmbedderInfo) throws -> PassageVectors {
        let index = try vectorIndex(for: embedder)
        var slots: [Int64: Int] = [:]
        slots.reserveCapacity(index.count)
        for (slot, id) in index.ids.enumerated() { slots[id] = slot }
        let dimension = index.dimension
        return PassageVectors { ids in
            ids.map { id in slots[id].map { slot in Array(index.vectors[slot * dimension..<(slot + 1) * dimension]) } }
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
            [
                "run failures": try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM run_failures") ?? 0,
                "web validators": try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fetch_cache") ?? 0,
                "cached vectors": try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM embedding_cache") ?? 0,
            ]
        }
    }
}
