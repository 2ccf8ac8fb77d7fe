import Foundation

/// Lectern's own complete record of a curriculum: the model as stored, with the assessments
/// export was given, for scripts and for reading back (`CurriculumJSONDocument` decodes it).
struct CurriculumJSONExporter {
    init() {}

    func export(_ curriculum: Curriculum, assessments: [String: [TopicAssessment]] = [:]) throws -> Data {
        try CurriculumExportEncoding.json(CurriculumJSONDocument(curriculum: curriculum, assessments: assessments))
    }
}

/// The JSON export's top level: `format` names it and `version` its shape, so a reader knows
/// what it holds.
///
/// Version 2: a topic's passages are the passage as `show DOC --json` lists it (its own id
/// as `id`, with its speaker, character offsets, timeline and document's facts). Version 1
/// named the id `passageId` and held fewer facts; it still reads (see `Passage.init(from:)`).
struct CurriculumJSONDocument: Codable, Equatable, Sendable {
    static let format = "lectern-curriculum"
    static let version = 2
    /// The versions `decode` reads.
    static let readable = 1...version

    var format = Self.format
    var version = Self.version
    var curriculum: Curriculum
    /// Questions by topic stable id.
    var assessments: [String: [TopicAssessment]]

    /// Reads a JSON export back, of this version or an earlier one; `name` (the file) is what
    /// an error names.
    static func decode(_ data: Data, name: String = "curriculum JSON") throws -> CurriculumJSONDocument {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let header = try? decoder.decode(Header.self, from: data)
        guard let header, header.format == format else {
            throw LecternError(.unknownShape, name, "not a Lectern curriculum (`lectern curriculum export --format json` writes one)")
        }
        guard readable.contains(header.version) else {
            throw LecternError(.unsupported, name, "curriculum JSON of version \(header.version); this Lectern reads versions "
                               + "\(readable.lowerBound)–\(readable.upperBound) (a newer Lectern wrote it)")
        }
        var document = try decoder.decode(CurriculumJSONDocument.self, from: data)
        // Read into this version's shape: an export of it writes the current version.
        document.version = version
        return document
    }

    private struct Header: Decodable {
        var format: String
        var version: Int
    }
}
