import Foundation

/// Where a piece of a curriculum's text comes from: the source itself (an OpenStax book's own
/// objectives and glossary), the offline methods, or a language model (named in
/// `Curriculum.modelName`). UMCF export names the generated parts in `aiGenerationMetadata`.
enum ContentOrigin: String, Codable, Sendable, Equatable {
    case source
    case offline
    case model
}
