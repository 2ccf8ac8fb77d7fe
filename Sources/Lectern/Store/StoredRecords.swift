import Foundation
import GRDB

/// A document as the store keeps it.
public struct StoredDocument: Codable, Sendable {
    var id: Int64
    var sourceId: Int64
    public var uri: String
    public var shortId: String
    public var path: String?
    public var type: DocumentType
    public var extractor: String
    var extractorVersion: Int
    public var title: String
    var contentHash: String
    var skipKey: SkipKey
    var metadata: String
    var warnings: String
    public var blockCount: Int
    public var passageCount: Int
    var createdAt: String
    public var updatedAt: String

    init(_ record: DocumentRecord) {
        id = record.id ?? 0
        sourceId = record.sourceId
        uri = record.uri
        shortId = record.shortId
        path = record.path
        type = record.type
        extractor = record.extractor
        extractorVersion = record.extractorVersion
        title = record.title
        contentHash = record.contentHash
        skipKey = SkipKey(passages: record.passageKey, embedder: record.embedderKey)
        metadata = record.metadata
        warnings = record.warnings
        blockCount = record.blockCount
        passageCount = record.passageCount
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }

    var metadataDictionary: [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8))) ?? [:]
    }

    var warningList: [String] {
        (try? JSONDecoder().decode([String].self, from: Data(warnings.utf8))) ?? []
    }
}

/// A source with what came of it, for `lectern sources`.
public struct SourceSummary: Codable, Sendable {
    var id: Int64
    public var uri: String
    var kind: SourceKind
    var documents: Int
    public var passages: Int
    /// Its documents' types, each once, in name order.
    public var types: [DocumentType]
    public var title: String?
    var updatedAt: String

    enum CodingKeys: String, CodingKey { case id, uri, kind, documents, passages, types, title, updatedAt }

    init(id: Int64, uri: String, kind: SourceKind, documents: Int, passages: Int, types: [DocumentType], title: String?, updatedAt: String) {
        self.id = id
        self.uri = uri
        self.kind = kind
        self.documents = documents
        self.passages = passages
        self.types = types
        self.title = title
        self.updatedAt = updatedAt
    }

    // In JSON (`lectern sources --json`) the types read as one word list: `"markdown,pdf"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        uri = try container.decode(String.self, forKey: .uri)
        kind = try container.decode(SourceKind.self, forKey: .kind)
        documents = try container.decode(Int.self, forKey: .documents)
        passages = try container.decode(Int.self, forKey: .passages)
        types = try container.decode(String.self, forKey: .types).split(separator: ",").map {
            guard let type = DocumentType(rawValue: String($0)) else {
                throw DecodingError.dataCorruptedError(forKey: .types, in: container, debugDescription: "unknown document type '\($0)'")
            }
            return type
        }
        title = try container.decodeIfPresent(String.self, forKey: .title)
        updatedAt = try container.decode(String.self, forKey: .updatedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(uri, forKey: .uri)
        try container.encode(kind, forKey: .kind)
        try container.encode(documents, forKey: .documents)
        try container.encode(passages, forKey: .passages)
        try container.encode(types.map(\.rawValue).joined(separator: ","), forKey: .types)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

extension Passage {
    /// A passage as the store keeps it, with its document's facts.
    init(_ record: PassageRecord) {
        // A kind a later version added reads as prose.
        self.init(id: record.id, documentId: record.documentId, ordinal: record.ordinal, text: record.text,
                  kind: PassageKind(rawValue: record.kind) ?? .text, sectionPath: record.sectionPath,
                  pageStart: record.pageStart, pageEnd: record.pageEnd, pageLabel: record.pageLabel,
                  timeStart: record.timeStart, timeEnd: record.timeEnd, speaker: record.speaker,
                  charStart: record.charStart, charEnd: record.charEnd, tokenCount: record.tokenCount,
                  timeline: record.timeline, documentTitle: record.documentTitle, documentURI: record.documentURI,
                  documentPath: record.documentPath, documentType: record.documentType,
                  documentShortId: record.documentShortId)
    }

    /// The columns of a `PassageRecord`, from `passages p JOIN documents d`.
    static let selection = """
        p.id, p.document_id, p.ordinal, p.text, p.kind, p.section_path, p.page_start, p.page_end,
        p.time_start, p.time_end, p.speaker, p.char_start, p.char_end, p.token_count, p.timeline, p.page_label,
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
    public var status: RunStatus
    /// Everything the run counted, with each timed stage's milliseconds as `<stage>_ms` and the
    /// model's usage as `llm.*` (the same numbers as `stages` and `model`).
    public var counts: [String: Int]
    public var failures: [RunFailure]
    /// The timed stages in the work's order, with their counts.
    public var stages: [RunStageReport]
    /// Nil when the run asked no language model.
    public var model: ModelUsage?
    /// The files it wrote (not those it found up to date), by path.
    public var outputs: [RunOutput]
    /// A queued run's jobs (`lectern runs show` of a run planned with `--queue`); nil otherwise.
    public var jobs: [QueueJob]?
}

public struct RunFailure: Codable, Sendable, Equatable {
    public var input: String
    public var stage: String
    public var reason: String
    public var severity: FailureSeverity

    init(input: String, stage: String, reason: String, severity: FailureSeverity) {
        self.input = input
        self.stage = stage
        self.reason = reason
        self.severity = severity
    }
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
