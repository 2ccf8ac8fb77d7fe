import Foundation
import GRDB
import XCTest
@testable import Lectern

/// A library whose curricula were stored before v9 (a source's tags joined with newlines, NULL
/// for none) reads back the same tags once opened: the v9 migration rewrites them as JSON arrays.
final class CurriculumRecordsUpgradeTests: XCTestCase {
    func testTagsJoinedWithNewlinesByTheOldSchemaAreReadAsTheSameTags() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("old.db").path
        let notes = try folder.write("cells.md", """
            # Cells

            A cell is the smallest unit of life. Every living thing is made of one or more cells.

            ## Membranes

            The membrane is a lipid bilayer that separates the inside of a cell from its surroundings.
            """)
        do {
            let store = try LibraryStore(path: path)
            _ = Ingestor(store: store, embedder: HashingEmbedder()).ingest([notes.path], recorder: nil) { _ in }
            let document = try XCTUnwrap(try store.allDocuments().first)
            let passages = try store.passages(documentId: document.id)
            let topic = Topic(stableId: "t-cells", title: "Cells", summary: "Cells make up life.", summaryOrigin: .offline,
                              objectives: [], keyTerms: [], studyMinutes: 1, passages: passages, prerequisites: [])
            func source(_ tags: [String]) -> CurriculumSource {
                CurriculumSource(documentId: document.id, uri: document.uri, title: document.title, type: document.type,
                                 licence: "CC BY 4.0", licenceURL: nil, contentHash: document.contentHash, tags: tags)
            }
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try store.saveCurriculum(Curriculum(name: "cells", title: "Cells", stableId: "c-cells",
                                                sources: [source(["biology", "week 1"]), source([])],
                                                units: [CurriculumUnit(stableId: "u1", title: "Cells", topics: [topic])],
                                                modelName: nil, createdAt: now, modifiedAt: now))
        }
        // Back to what v8 wrote: tags one a line, NULL for none, and no v9 in the history.
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: "UPDATE curriculum_sources SET tags = 'biology' || char(10) || 'week 1' WHERE position = 0")
            try db.execute(sql: "UPDATE curriculum_sources SET tags = NULL WHERE position = 1")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v9-json-lists'")
        }
        try old.close()

        let store = try LibraryStore(path: path)
        let curriculum = try XCTUnwrap(try store.curriculum(named: "cells"))
        XCTAssertEqual(curriculum.sources.map(\.tags), [["biology", "week 1"], []])
        XCTAssertEqual(curriculum.topics.map(\.passages.count), [try store.passages(documentId: curriculum.sources[0].documentId).count])
        let stored = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT tags FROM curriculum_sources ORDER BY position")
        }
        XCTAssertEqual(stored, [#"["biology","week 1"]"#, "[]"])
    }
}
