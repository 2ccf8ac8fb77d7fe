import Foundation
import GRDB

/// A document as the store keeps it.
public struct StoredDocument: Codable, Sendable, FetchableRecord, TableRecord {
    public static let databaseTableName = "documents"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    public var id: Int64
    public var sourceId: Int64
    public var uri: String
    public var shortId: String
    public var path: String?
    public var type: String
    public var extractor: String
    public var extractorVersion: Int
    public var title: String
    public var contentHash: String
    public var skipKey: String
    public var metadata: String
    public var warnings: String
    public var blockCount: Int
    public var passageCount: Int
    public var createdAt: String
    public var updatedAt: String

    public var metadataDictionary: [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8))) ?? [:]
    }

    public var warningList: [String] {
        (try? JSONDecoder().decode([String].self, from: Data(warnings.utf8))) ?? []
    }
}

/// A source with what came of it, for `lectern sources`.
public struct SourceSummary: Codable, Sendable {
    public var id: Int64
    public var uri: String
    public var kind: String
    public var documents: Int
    public var passages: Int
    public var types: String
    public var title: String?
    public var updatedAt: String
}

/// A passage as the store keeps it, with its document's title and location facts.
public struct StoredPassage: Codable, Sendable {
    public var id: Int64
    public var documentId: Int64
    public var ordinal: Int
    public var text: String
    public var kind: String
    public var sectionPath: [String]
    public var pageStart: Int?
    public var pageEnd: Int?
    public var timeStart: Double?
    public var timeEnd: Double?
    public var speaker: String?
    public var charStart: Int?
    public var charEnd: Int?
    public var tokenCount: Int
    /// See `Passage.timeline`.
    public var timeline: [TimePoint]?
    public var documentTitle: String
    public var documentURI: String
    public var documentPath: String?
    public var documentType: String
    public var documentShortId: String

    init(row: Row) {
        id = row["id"]
        documentId = row["document_id"]
        ordinal = row["ordinal"]
        text = row["text"]
        kind = row["kind"]
        let path: String = row["section_path"]
        sectionPath = (try? JSONDecoder().decode([String].self, from: Data(path.utf8))) ?? []
        pageStart = row["page_start"]
        pageEnd = row["page_end"]
        timeStart = row["time_start"]
        timeEnd = row["time_end"]
        speaker = row["speaker"]
        charStart = row["char_start"]
        charEnd = row["char_end"]
        tokenCount = row["token_count"]
        let timelineJSON: String? = row["timeline"]
        timeline = timelineJSON.flatMap { try? JSONDecoder().decode([TimePoint].self, from: Data($0.utf8)) }
        documentTitle = row["doc_title"]
        documentURI = row["doc_uri"]
        documentPath = row["doc_path"]
        documentType = row["doc_type"]
        documentShortId = row["doc_short_id"]
    }

    static let selection = """
        p.id, p.document_id, p.ordinal, p.text, p.kind, p.section_path, p.page_start, p.page_end,
        p.time_start, p.time_end, p.speaker, p.char_start, p.char_end, p.token_count, p.timeline,
        d.title AS doc_title, d.uri AS doc_uri, d.path AS doc_path, d.type AS doc_type, d.short_id AS doc_short_id
        """
}

/// One recorded run of a command that did work.
public struct RunRecord: Codable, Sendable {
    public var id: Int64
    public var command: String
    public var arguments: [String]
    public var startedAt: String
    public var endedAt: String?
    public var status: String
    public var counts: [String: Int]
    public var failures: [RunFailure]
}

public struct RunFailure: Codable, Sendable, Equatable {
    public var input: String
    public var stage: String
    public var reason: String
    public var severity: String
}

/// What `lectern stats` shows.
public struct LibraryStats: Codable, Sendable {
    public var path: String
    public var fileBytes: Int64
    public var sources: Int
    public var documents: Int
    public var passages: Int
    public var blocks: Int
    public var tokens: Int
    public var vectors: Int
    public var vectorBlocks: Int
    public var embedder: String?
    public var documentsByType: [String: Int]
    public var runs: Int
}
