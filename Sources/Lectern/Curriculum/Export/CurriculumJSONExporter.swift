import Foundation

/// Lectern's own complete record of a curriculum: the model as stored, with the assessments
/// export was given, for scripts and for reading back (`CurriculumJSONDocument` decodes it).
struct CurriculumJSONExporter {
    init() {}

    func export(_ curriculum: Curriculum, assessments: [String: [TopicAssessment]] = [:]) throws -> Data {
        try CurriculumExportEncoding.json(CurriculumJSONDocument(curriculum: curriculum, assessments: assessments))
    }
}

/// The JSON export's top level: `format` names it, so a reader knows what it holds.
struct CurriculumJSONDocument: Codable, Equatable, Sendable {
    var format = "lectern-curriculum"
    var version = 1
    var curriculum: Curriculum
    /// Questions by topic stable id.
    var assessments: [String: [TopicAssessment]]

    /// Reads a JSON export back.
    static func decode(_ data: Data) throws -> CurriculumJSONDocument {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(CurriculumJSONDocument.self, from: data)
    }
}
