import XCTest
@testable import Lectern

/// A curriculum saved to a real library comes back whole (units, topics, objectives, key terms,
/// passages in order, links), replaces one of its name, is listed, found by a topic's stable id
/// and by its words, and removed with its rows and topic vectors.
final class CurriculumStoreTests: XCTestCase {
    func makeCurriculum(_ store: LibraryStore, title: String) throws -> Curriculum {
        let document = try XCTUnwrap(try store.allDocuments().first)
        let passages = try store.passages(documentId: document.id)
        XCTAssertGreaterThan(passages.count, 1)
        let first = Topic(stableId: "t-light", title: "Light reactions", summary: "Light splits water.", summaryOrigin: .offline,
                          objectives: [LearningObjective(stableId: "o1", statement: "Explain the light reactions", origin: .offline)],
                          keyTerms: [KeyTerm(term: "chlorophyll", definition: "the green pigment", origin: .source, passageId: passages[0].id)],
                          studyMinutes: 4, passages: [passages[1], passages[0]], prerequisites: [])
        let second = Topic(stableId: "t-calvin", title: "Calvin cycle", summary: "Carbon is fixed.", summaryOrigin: .offline,
                           objectives: [LearningObjective("Describe the Calvin cycle", origin: .offline, topicId: "t-calvin", standIn: true)],
                           keyTerms: [], studyMinutes: 2, passages: Array(passages.dropFirst(2)),
                           prerequisites: [TopicLink(topicStableId: "t-light", term: "chlorophyll")])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        return Curriculum(name: "plants", title: title, stableId: "c-plants",
                          sources: [CurriculumSource(documentId: document.id, uri: document.uri, title: document.title, type: document.type,
                                                     licence: nil, licenceURL: nil, contentHash: document.contentHash)],
                          units: [CurriculumUnit(stableId: "u1", title: "Photosynthesis", topics: [first, second])],
                          modelName: nil, createdAt: now, modifiedAt: now)
    }

    func testSavedCurriculumComesBackWholeAndGoesWithItsRows() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("c.db").path)
        let note = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        _ = Ingestor(store: store, embedder: HashingEmbedder()).ingest([note], recorder: nil) { _ in }
        let curriculum = try makeCurriculum(store, title: "Plants")
        try store.saveCurriculum(curriculum)
        XCTAssertEqual(try store.curriculum(named: "plants"), curriculum)
        XCTAssertNil(try store.curriculum(named: "animals"))

        // Saving again under the name replaces it: one curriculum, the new title.
        try store.saveCurriculum(try makeCurriculum(store, title: "Plants 2"))
        let listed = try store.curriculumSummaries()
        XCTAssertEqual(listed.map(\.name), ["plants"])
        XCTAssertEqual(listed.first?.title, "Plants 2")
        XCTAssertEqual(listed.first?.units, 1)
        XCTAssertEqual(listed.first?.topics, 2)

        let found = try XCTUnwrap(try store.topic(stableId: "t-calvin"))
        XCTAssertEqual(found.curriculum, "plants")
        XCTAssertEqual(found.topic.prerequisites, [TopicLink(topicStableId: "t-light", term: "chlorophyll")])
        XCTAssertEqual(try store.topicPassageIds(curriculum: "plants", topicIds: ["t-light"]), curriculum.units[0].topics[0].passages.map(\.id))
        XCTAssertNil(try store.topicPassageIds(curriculum: "animals"))

        // Its words find it; each topic has a vector (the mean of its passages').
        let matches = try store.topicKeywordMatches(SearchQuery(parsing: "calvin cycle"), limit: 5, curriculum: "plants")
        XCTAssertEqual(try store.topicsWithPlace(rowIds: matches.map(\.id)).first?.topic.stableId, "t-calvin")
        XCTAssertEqual(try store.topicVectorIndex(for: HashingEmbedder().info).count, 2)

        XCTAssertTrue(try store.removeCurriculum(named: "plants"))
        XCTAssertFalse(try store.removeCurriculum(named: "plants"))
        XCTAssertEqual(try store.curriculumSummaries().count, 0)
        XCTAssertNil(try store.topic(stableId: "t-calvin"))
        XCTAssertEqual(try store.topicVectorIndex(for: HashingEmbedder().info).count, 0)
        XCTAssertTrue(try store.topicKeywordMatches(SearchQuery(parsing: "calvin"), limit: 5).isEmpty)
    }
}
