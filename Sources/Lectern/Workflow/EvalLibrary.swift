import Foundation

/// A library built from a BEIR corpus for `lectern eval`: each corpus record is written to a
/// file of its own under `DIR/records/` and ingested through the ordinary pipeline (chunker,
/// embedder, store), so what is measured is what `lectern search` does. Built again in the same
/// folder, unchanged records are skipped and records no longer in the corpus are removed. The
/// library is a file in the folder, or a PostgreSQL database (`--db`), measured alike.
public struct EvalLibrary: Sendable {
    let directory: String
    public let library: Library
    /// The stored document's path → the corpus id of its record.
    let corpusIds: [String: String]

    static let databaseName = "eval.db"

    /// Opens or makes `directory/eval.db` (or the PostgreSQL library at `database`) and ingests
    /// `corpus` into it with `embedder` and the configuration's chunk settings.
    public static func build(_ corpus: [BEIRDataset.Record], in directory: String, database: String? = nil, embedder: any Embedder,
                             configuration: Configuration, events: @escaping EventHandler = { _ in })
        throws -> (library: EvalLibrary, summary: IngestSummary) {
        let records = directory + "/records"
        do {
            try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        } catch {
            throw LecternError(.unreadable, records, "cannot make the folder: \(error.localizedDescription)")
        }
        let library = try database.map { try Library.open($0, access: .create) } ?? Library(try LibraryStore(path: directory + "/" + databaseName))
        let store = library.backend
        if let recorded = try library.translated({ try store.recordedEmbedder() }), recorded != embedder.info {
            throw LecternError(.embedderMismatch, database == nil ? directory : library.display,
                               "this eval library was built with \(recorded.key), not \(embedder.info.key): use another \(database == nil ? "--keep folder" : "database")")
        }
        var corpusIds: [String: String] = [:]
        var paths: [String] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for record in corpus {
            let path = records + "/" + fileName(for: record.id)
            // Sorted keys put `_id` first, which is how `BEIRRecordReader` knows the file.
            let data = try encoder.encode(record)
            if FileManager.default.contents(atPath: path) != data {
                guard FileManager.default.createFile(atPath: path, contents: data) else {
                    throw LecternError(.unreadable, path, "cannot write the corpus record")
                }
            }
            corpusIds[path] = record.id
            paths.append(path)
        }
        // Records of an earlier corpus in the same folder would skew BM25's statistics and the ranks.
        let stale = try library.translated { try store.allDocuments().filter { $0.path.map { corpusIds[$0] == nil } ?? true } }
        try library.translated { try store.removeDocuments(stale) }
        for document in stale { if let path = document.path { try? FileManager.default.removeItem(atPath: path) } }

        var ingestor = LibraryServices(configuration: configuration, library: library)
            .ingestor(embedder: embedder, registry: ReaderRegistry([BEIRRecordReader()]))
        ingestor.batchSize = 64
        let summary = ingestor.ingest(paths, recorder: nil, events: events)
        return (EvalLibrary(directory: directory, library: library, corpusIds: corpusIds), summary)
    }

    /// The id, made safe as a file name: `/`, `%`, `:` and other bytes become `%XX`.
    static func fileName(for id: String) -> String {
        var name = ""
        for byte in id.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "._-@#".unicodeScalars.contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else {
                name += String(format: "%%%02X", byte)
            }
        }
        if name.hasPrefix(".") { name = "%2E" + name.dropFirst() }
        return String(name.prefix(200)) + (name.count > 200 ? "-" + String(ContentHash.sha256(id).prefix(12)) : "") + ".json"
    }

    /// Every passage of the library with the corpus id of its record, in corpus-file order:
    /// what the peers in `bench/` rank, so that they rank the same units.
    public func passages() throws -> [(corpusId: String, passage: Passage)] {
        var out: [(String, Passage)] = []
        let store = library.backend
        for document in try library.translated({ try store.allDocuments() }) {
            guard let path = document.path, let id = corpusIds[path] else { continue }
            for passage in try library.translated({ try store.passages(documentId: document.id) }) { out.append((id, passage)) }
        }
        return out
    }
}
