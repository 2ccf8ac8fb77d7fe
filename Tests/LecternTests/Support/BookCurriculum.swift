import Foundation
import XCTest
@testable import Lectern

/// The shared OpenStax book ingested once (hashing embedder) into a library that lives for the
/// test process, and a curriculum assembled from its stored passages and blocks: a unit per
/// chapter, a topic per module, key terms from the book's glossary blocks (each with the glossary
/// passage holding it) and objectives from its objective blocks. The card tests, the book's
/// curriculum tests (CurriculumBookTests) and the graded cards' checks (CardFixtureChecksTests)
/// stand on it: one ingest and one build of the book per test process (.ci/test-seconds puts
/// them in one process).
final class BookCurriculum: @unchecked Sendable {
    let folder: TemporaryFolder
    let store: LibraryStore
    let document: StoredDocument
    /// The curriculum `CurriculumBuilder` builds from the stored book (saved as "philosophy").
    let curriculum: Curriculum
    /// What that first build of "philosophy" did (every topic made).
    let built: CurriculumBuildResult
    /// One assembled by hand from the same stored passages and blocks (a topic per module).
    let assembled: Curriculum
    /// Every glossary term of the book, as its blocks hold them.
    let glossaryTerms: [String]

    /// The offline cards of the whole book (made once: every test that only reads them shares them).
    lazy var offline: (cards: [Flashcard], report: CardGenerationReport, seconds: Double) = {
        let started = Date()
        let (cards, report) = CardGeneration.offline(curriculum, now: Date(timeIntervalSince1970: 1_800_000_000))
        return (cards, report, Date().timeIntervalSince(started))
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: BookCurriculum?

    static func load() throws -> BookCurriculum {
        let book = try TestPaths.sharedCorpus("openstax/introduction-philosophy")
        return try lock.withLock {
            if let shared { return shared }
            let made = try BookCurriculum(book: book)
            shared = made
            return made
        }
    }

    private init(book: URL) throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("book.db").path)
        _ = Ingestor(store: store, embedder: HashingEmbedder(), chunkSettings: ChunkSettings()).ingest([book.path], recorder: nil) { _ in }
        document = try XCTUnwrap(try store.allDocuments().first)
        let passages = try store.passages(documentId: document.id)
        let blocks = try store.blocks(documentId: document.id)
        let metadata = (try? JSONSerialization.jsonObject(with: Data(document.metadata.utf8))) as? [String: Any]
        let source = CurriculumSource(documentId: document.id, uri: document.uri, title: document.title, type: document.type,
                                      licence: metadata?["license"] as? String ?? "CC BY-NC-SA 4.0",
                                      licenceURL: metadata?["license_url"] as? String, contentHash: document.contentHash)
        var unitOrder: [String] = []
        var topicOrder: [String: [[String]]] = [:]
        var topicPassages: [[String]: [Passage]] = [:]
        for stored in passages where stored.sectionPath.count >= 2 {
            let key = Array(stored.sectionPath.prefix(2))
            if topicPassages[key] == nil {
                if topicOrder[key[0]] == nil { unitOrder.append(key[0]) }
                topicOrder[key[0], default: []].append(key)
            }
            topicPassages[key, default: []].append(stored)
        }
        var terms: [[String]: [KeyTerm]] = [:]
        var objectives: [[String]: [LearningObjective]] = [:]
        var glossary: [String] = []
        for block in blocks where block.sectionPath.count >= 2 {
            let key = Array(block.sectionPath.prefix(2))
            if block.kind == .glossary, let term = block.attributes["term"], let meaning = block.attributes["meaning"], !meaning.isEmpty {
                glossary.append(term)
                let holder = topicPassages[key]?.first { $0.kind == .glossary && $0.text.contains(term) }
                terms[key, default: []].append(KeyTerm(term: term, definition: meaning, origin: .source, passageId: holder?.id))
            } else if block.kind == .objective {
                objectives[key, default: []].append(LearningObjective(stableId: "o\(objectives[key, default: []].count)-\(key[1])",
                                                                      statement: block.text, origin: .source))
            }
        }
        glossaryTerms = glossary
        let units = unitOrder.map { unit in
            CurriculumUnit(stableId: "u-" + ContentHash.sha256(unit).prefix(8), title: unit, topics: topicOrder[unit, default: []].map { key in
                Topic(stableId: "t-" + ContentHash.sha256(key.joined(separator: "/")).prefix(10), title: key[1], summary: "",
                      summaryOrigin: .offline, objectives: objectives[key] ?? [], keyTerms: terms[key] ?? [], studyMinutes: 10,
                      passages: topicPassages[key] ?? [], prerequisites: [])
            })
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        assembled = Curriculum(name: "philosophy", title: "Introduction to Philosophy", stableId: "c-philosophy",
                               sources: [source], units: units, modelName: nil, createdAt: now, modifiedAt: now)
        // The real thing: `lectern curriculum build` (offline) over the stored book.
        built = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(
            name: "philosophy", sources: [], all: true, recorder: nil, events: { _ in })
        curriculum = try XCTUnwrap(try store.curriculum(named: "philosophy"))
    }
}
