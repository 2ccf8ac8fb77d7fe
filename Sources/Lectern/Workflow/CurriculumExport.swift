import Foundation

/// The formats `lectern curriculum export` writes.
public enum CurriculumExportFormat: String, CaseIterable, Sendable {
    /// UMCF, the UnaMentis tutoring app's curriculum format (plain JSON, `.umcf`).
    case umcf
    /// A readable syllabus.
    case markdown = "md"
    /// Lectern's own complete record.
    case json

    /// The format a file name's extension names (`.umcf`, `.md` or `.markdown`, `.json`), in any case.
    public init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "umcf": self = .umcf
        case "md", "markdown": self = .markdown
        case "json": self = .json
        default: return nil
        }
    }
}

/// What an export made: the bytes and what they hold, for the line the CLI prints.
public struct CurriculumExportResult: Sendable {
    public var data: Data
    public var title: String
    public var units: Int
    public var topics: Int
}

/// Exports a stored curriculum: reads it from the library and writes it in one format. Reads
/// stored records only (no model, no clock), so an unchanged curriculum exports to the same bytes.
public struct CurriculumExport {
    let store: any LibraryBackend
    /// The questions of each topic (by stable id) that the UMCF and JSON exports carry.
    var assessments: (Curriculum) throws -> [String: [TopicAssessment]] = { _ in [:] }

    public init(store: LibraryStore) {
        self.init(backend: store)
    }

    public init(library: Library) {
        self.init(backend: library.backend)
    }

    init(backend: any LibraryBackend) {
        store = backend
        // The flashcards stored for the curriculum (`lectern cards generate`) are its questions.
        assessments = { curriculum in try Flashcards(backend: backend).assessments(curriculum: curriculum.name) }
    }

    public func export(curriculumNamed name: String, format: CurriculumExportFormat) throws -> CurriculumExportResult {
        guard let curriculum = try store.curriculum(named: name) else {
            throw LecternError(.notFound, name, "no curriculum of that name in this library (`lectern curriculum list` names them)")
        }
        try CurriculumFreshness(backend: store).requireCurrent(curriculum)
        let questions = try assessments(curriculum)
        let data: Data
        switch format {
        case .umcf:
            // Checkpoints ask the stored cards; a curriculum without any asks the offline cards
            // `lectern cards generate` would make (dated by the curriculum, so the bytes stay the same).
            let checkpoints = questions.isEmpty
                ? Flashcards.assessments(CardGeneration.offline(curriculum, now: curriculum.modifiedAt).cards) : questions
            data = try UMCFExporter().export(curriculum, assessments: questions, checkpointCards: checkpoints)
        case .markdown: data = CurriculumMarkdownExporter().export(curriculum)
        case .json: data = try CurriculumJSONExporter().export(curriculum, assessments: questions)
        }
        return CurriculumExportResult(data: data, title: UMCFExporter.title(curriculum), units: curriculum.units.count,
                                      topics: curriculum.topics.count)
    }
}
