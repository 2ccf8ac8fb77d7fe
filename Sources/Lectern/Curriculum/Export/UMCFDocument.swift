import Foundation

// The parts of UMCF (the UnaMentis tutoring app's curriculum format, ../shared/formats/umcf)
// that Lectern writes, as Codable values. Every field is what BOTH the schema and the app's
// decoder take (NOTES.md there): optional fields are left out when nil, never written as null.

/// A whole UMCF file: the schema's top-level object.
struct UMCFDocument: Codable, Equatable, Sendable {
    /// The schema requires `formatIdentifier: "umcf"`; the app's decoder requires `umcf: "1.0.0"`.
    var formatIdentifier = "umcf"
    var umcf = "1.0.0"
    var id: UMCFIdentifier
    var title: String
    var description: String?
    var version: UMCFVersion
    var lifecycle: UMCFLifecycle?
    var metadata: UMCFMetadata?
    var educational: UMCFEducational?
    var rights: UMCFRights?
    var sourceProvenance: UMCFSourceProvenance?
    var content: [UMCFNode]
    var glossary: UMCFGlossary?
}

/// `{catalog, value}`: the app reads `value`, and replaces a curriculum on re-import by it.
struct UMCFIdentifier: Codable, Equatable, Sendable {
    var catalog: String?
    var value: String

    /// Lectern's own ids (stable ids of the curriculum model).
    static func lectern(_ value: String) -> UMCFIdentifier { UMCFIdentifier(catalog: "lectern", value: value) }
}

struct UMCFVersion: Codable, Equatable, Sendable {
    var number: String
    /// ISO 8601 date-time with a zone.
    var date: String?
}

struct UMCFLifecycle: Codable, Equatable, Sendable {
    var status: String?
    var contributors: [UMCFContributor]?
    /// The only dates the app parses: full ISO 8601 with a zone, else it silently takes "now".
    var created: String?
    var modified: String?
}

struct UMCFContributor: Codable, Equatable, Sendable {
    var name: String
    /// One of the schema's LOM roles ("author", "publisher", "technical implementer" …).
    var role: String
    var organization: String?
}

/// No `coverage`: a string in the schema, an array in the app.
struct UMCFMetadata: Codable, Equatable, Sendable {
    var language: String?
    var keywords: [String]?
    var structure: String?
    var aggregationLevel: Int?
}

struct UMCFEducational: Codable, Equatable, Sendable {
    var intendedEndUserRole: [String]?
    var learningResourceType: [String]?
    /// ISO 8601 duration in one unit (PT45M).
    var typicalLearningTime: String?
}

struct UMCFRights: Codable, Equatable, Sendable {
    struct License: Codable, Equatable, Sendable {
        /// An SPDX-like name ("CC-BY-NC-SA-4.0") or the licence as its source states it.
        var type: String
        var url: String?
    }

    var copyrightAndOtherRestrictions: Bool?
    var description: String?
    var license: License?
    var attributionRequirements: String?
}

struct UMCFGlossary: Codable, Equatable, Sendable {
    var terms: [UMCFGlossaryTerm]
}

struct UMCFGlossaryTerm: Codable, Equatable, Sendable {
    var id: String?
    var term: String
    /// Required by the schema (the app needs only `term`).
    var definition: String
}
