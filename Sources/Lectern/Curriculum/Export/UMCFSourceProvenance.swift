import Foundation

/// Where a curriculum comes from: its documents as primary sources, imported by Lectern, and
/// which parts were written by a model or by the offline methods rather than read from them.
struct UMCFSourceProvenance: Codable, Equatable, Sendable {
    struct ImportMetadata: Codable, Equatable, Sendable {
        var importDate: String?
        var importTool: String?
        var transformations: [String]?
    }

    /// What was generated rather than read from the sources. `generatedParts` is Lectern's own
    /// key (the schema allows more keys here, the app's decoder ignores them).
    struct AIGenerationMetadata: Codable, Equatable, Sendable {
        var model: String
        var generationDate: String?
        var humanReviewed: Bool?
        var generatedParts: [UMCFGeneratedPart]?
    }

    var originType: String
    var primarySources: [UMCFSourceReference]
    var importMetadata: ImportMetadata?
    var aiGenerationMetadata: AIGenerationMetadata?
}

struct UMCFSourceReference: Codable, Equatable, Sendable {
    var id: UMCFIdentifier?
    var title: String
    /// One of the schema's kinds (textbook, encyclopedia, course, video, website …).
    var type: String?
    var url: String?
    var publisher: String?
    /// The licence as the source states it.
    var license: String?
    var relationshipToContent: String?
    /// The topic nodes (`id.value`) that draw on this source.
    var sectionsUsed: [String]?
}

/// One generated part of a topic: its description (summary), objectives or key terms.
struct UMCFGeneratedPart: Codable, Equatable, Sendable {
    /// The topic node's `id.value`.
    var nodeId: String
    /// The UMCF field that holds it: `title`, `description`, `learningObjectives`, `glossaryTerms`.
    var field: String
    /// `model` (the language model named in `model`) or `offline` (Lectern's extractive and
    /// template methods).
    var method: String
    /// The objectives' ids, or the terms, when only some of the field is generated.
    var items: [String]?
}
