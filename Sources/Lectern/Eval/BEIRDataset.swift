import Foundation

/// A retrieval test collection in the BEIR layout: `corpus.jsonl` ({_id, title, text} a line),
/// `queries.jsonl` ({_id, text} a line) and `qrels/<split>.tsv` (`query-id corpus-id score`,
/// with a header line). Only the queries the split judges are kept.
public struct BEIRDataset: Sendable {
    public struct Record: Codable, Sendable, Equatable {
        var id: String
        var title: String
        var text: String

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case title
            case text
        }
    }

    public struct Query: Sendable, Equatable {
        var id: String
        var text: String

        init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    var directory: String
    var split: String
    public var corpus: [Record]
    /// The split's queries, in the order of `queries.jsonl`.
    public var queries: [Query]
    var qrels: Qrels

    init(directory: String, split: String, corpus: [Record], queries: [Query], qrels: Qrels) {
        self.directory = directory
        self.split = split
        self.corpus = corpus
        self.queries = queries
        self.qrels = qrels
    }

    /// Reads `directory`; a malformed line is an error naming the file and line.
    public static func load(directory: String, split: String = "test") throws -> BEIRDataset {
        let corpusPath = directory + "/corpus.jsonl"
        let queriesPath = directory + "/queries.jsonl"
        let qrelsPath = directory + "/qrels/\(split).tsv"
        let corpus = try jsonLines(corpusPath).map { line, object -> Record in
            guard let id = stringValue(object["_id"]), !id.isEmpty else {
                throw LecternError(.corrupt, corpusPath, "a record without an _id", line: line)
            }
            return Record(id: id, title: stringValue(object["title"]) ?? "", text: stringValue(object["text"]) ?? "")
        }
        var seen = Set<String>()
        for record in corpus where !seen.insert(record.id).inserted {
            throw LecternError(.corrupt, corpusPath, "the _id '\(record.id)' is given twice")
        }
        let qrels = try Qrels.load(qrelsPath)
        let allQueries = try jsonLines(queriesPath).map { line, object -> Query in
            guard let id = stringValue(object["_id"]), !id.isEmpty, let text = stringValue(object["text"]) else {
                throw LecternError(.corrupt, queriesPath, "a query needs an _id and a text", line: line)
            }
            return Query(id: id, text: text)
        }
        let queries = allQueries.filter { qrels.judgements[$0.id] != nil }
        let known = Set(queries.map(\.id))
        if let missing = qrels.judgements.keys.sorted().first(where: { !known.contains($0) }) {
            throw LecternError(.corrupt, qrelsPath, "the query '\(missing)' is judged but not in queries.jsonl")
        }
        return BEIRDataset(directory: directory, split: split, corpus: corpus, queries: queries, qrels: qrels)
    }

    /// BEIR writes ids as strings, some collections as numbers: both are read as text.
    static func stringValue(_ value: Any?) -> String? {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    static func jsonLines(_ path: String) throws -> [(line: Int, object: [String: Any])] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LecternError(.notFound, path, "no such file (a BEIR dataset has corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv)")
        }
        var out: [(Int, [String: Any])] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw LecternError(.corrupt, path, "not a JSON object", line: index + 1)
            }
            out.append((index + 1, object))
        }
        return out
    }
}

/// Relevance judgements: query id → corpus id → grade (0 not relevant, higher more).
struct Qrels: Sendable, Equatable {
    var judgements: [String: [String: Int]]

    init(_ judgements: [String: [String: Int]]) {
        self.judgements = judgements
    }

    /// Reads a BEIR qrels file: tab-separated `query-id corpus-id score`, the first line a header.
    static func load(_ path: String) throws -> Qrels {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LecternError(.notFound, path, "no such file (a BEIR dataset has qrels/SPLIT.tsv)")
        }
        var judgements: [String: [String: Int]] = [:]
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || (index == 0 && line.hasPrefix("query-id")) { continue }
            let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 3, let grade = Int(fields[2]) else {
                throw LecternError(.corrupt, path, "expected 'query-id<TAB>corpus-id<TAB>score', got '\(line)'", line: index + 1)
            }
            judgements[fields[0], default: [:]][fields[1]] = grade
        }
        return Qrels(judgements)
    }
}
