import Foundation

/// Why a phrase is a key term: the source's own glossary, a sentence of the text that defines
/// it, the text's emphasis (a term set in bold or italics with its definition nearby), or a
/// heading. Objectives and prerequisites build on `glossary` and `defined` terms.
public enum KeyTermBasis: String, Codable, Sendable, Equatable, CaseIterable {
    case glossary
    case defined
    case emphasised
    case heading
}
