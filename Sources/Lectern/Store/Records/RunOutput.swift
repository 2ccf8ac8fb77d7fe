import Foundation

/// A file a run wrote (a deck, an export), or found already as it would write it: its format,
/// the SHA-256 of its bytes and what they were made from (the curriculum's build key and the
/// build key its cards were made from). The newest of a path tells the next run whether the
/// file is up to date.
public struct RunOutput: Codable, Sendable, Equatable {
    public var path: String
    /// `apkg`, `csv`, `umcf`, … (nil for an output recorded before v9).
    public var format: String?
    public var contentHash: String?
    public var buildKey: String?
    public var cardsBasis: String?
    /// False when the file there already held these bytes.
    public var written: Bool

    init(path: String, format: String?, contentHash: String?, buildKey: String?, cardsBasis: String?, written: Bool) {
        self.path = path
        self.format = format
        self.contentHash = contentHash
        self.buildKey = buildKey
        self.cardsBasis = cardsBasis
        self.written = written
    }

    /// Whether `other` holds the same bytes, made from the same things.
    func sameContent(as other: RunOutput) -> Bool {
        (path, format, contentHash, buildKey, cardsBasis) == (other.path, other.format, other.contentHash, other.buildKey, other.cardsBasis)
    }
}

/// A `run_outputs` row. `runId` is nil for an output remembered before v9 (in the settings).
struct RunOutputRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var runId: Int64?
    var path: String
    var format: String?
    var contentHash: String?
    var buildKey: String?
    var cardsBasis: String?
    var written: Bool

    enum CodingKeys: String, CodingKey {
        case id, runId = "run_id", path, format, contentHash = "content_hash", buildKey = "build_key", cardsBasis = "cards_basis", written
    }

    var output: RunOutput {
        RunOutput(path: path, format: format, contentHash: contentHash, buildKey: buildKey, cardsBasis: cardsBasis, written: written)
    }
}

// In an extension, so the record keeps its memberwise initializer.
extension RunOutputRecord {
    init(run: Int64?, _ output: RunOutput) {
        self.init(id: nil, runId: run, path: output.path, format: output.format, contentHash: output.contentHash,
                  buildKey: output.buildKey, cardsBasis: output.cardsBasis, written: output.written)
    }
}

/// A `card_bases` row: the curriculum build key the cards of a curriculum were last made from
/// (a run killed between building a curriculum and making its cards leaves an older one).
struct CardBasisRecord: Codable, Sendable, Equatable {
    var curriculum: String
    var buildKey: String

    enum CodingKeys: String, CodingKey {
        case curriculum, buildKey = "build_key"
    }
}
