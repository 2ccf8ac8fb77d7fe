import XCTest
@testable import Lectern

/// A curriculum from several documents of different kinds (the project's cell-biology PDF,
/// cellular-respiration lecture and photosynthesis notes), with the real MiniLM embedder, since
/// here the vectors are the point: one unit per document in name order, a later source's topic
/// on an earlier topic's subject joins it, distinct subjects stay apart, and `curriculum find`
/// ranks topics by meaning.
final class CurriculumMixedTests: XCTestCase {
    func testSharedSubjectsJoinAcrossSourcesAndDistinctOnesStayApart() throws {
        let embedder = try MiniLMFixtures.embedder()
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("mixed.db").path)
        let sources = ["pdf/cell-biology-notes.pdf", "transcripts/cell-respiration-lecture.vtt", "notes/photosynthesis.md"]
            .map { TestPaths.corpora.appendingPathComponent($0).path }
        XCTAssertEqual(Ingestor(store: store, embedder: embedder).ingest(sources, recorder: nil) { _ in }.stored, 3)
        let log = EventLog()
        let result = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
            .build(name: "biology", sources: sources, recorder: nil) { log.append($0) }
        let curriculum = try XCTUnwrap(try store.curriculum(named: "biology"))
        let documents = Dictionary(uniqueKeysWithValues: try store.allDocuments().map { ($0.id, $0.title) })

        // One unit per document in name order (notes/ before pdf/); the lecture, on the subject
        // of the notes' mitochondria section (pyruvate in the mitochondrion, the electron
        // transport chain, ATP), is no unit of its own: it joins that topic, not the Calvin
        // cycle, which MiniLM alone puts nearer (sugar, CO₂, ATP and cycles in both).
        XCTAssertEqual(curriculum.units.map(\.title), ["Photosynthesis", "Cell Biology: Lecture Notes"])
        XCTAssertEqual(result.mergedTopics, 1)
        let joined = curriculum.topics.filter { Set($0.passages.map(\.documentId)).count > 1 }
        XCTAssertEqual(joined.map(\.title), ["2 Mitochondria"], "\(curriculum.topics.map(\.title))")
        let shared = try XCTUnwrap(joined.first)
        XCTAssertEqual(Set(shared.passages.map { documents[$0.documentId] ?? "" }),
                       ["Cell Biology: Lecture Notes", "Biology 101, lecture 7: cellular respiration"])
        XCTAssertTrue(shared.passages.allSatisfy { $0.text.contains("ATP") })
        // The first source's place and title win; its own passages come first.
        XCTAssertEqual(documents[shared.passages[0].documentId], "Cell Biology: Lecture Notes")
        // The build says what joined what.
        let notes = log.events.filter { $0.event == .note }.compactMap(\.message)
        XCTAssertEqual(notes.filter { $0.contains(" joins ") }.count, 1, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("“Biology 101, lecture 7: cellular respiration” joins “2 Mitochondria” (similarity 0.") }, "\(notes)")

        // Distinct subjects stay apart, each with its own source only.
        for title in ["The chloroplast", "The Calvin cycle", "The light-dependent reactions", "1 The Cell Membrane", "3 The Nucleus"] {
            let topic = try XCTUnwrap(curriculum.topics.first { $0.title == title }, "\(curriculum.topics.map(\.title))")
            XCTAssertEqual(Set(topic.passages.map(\.documentId)).count, 1, title)
        }
        // Every passage of every source is in exactly one topic (the PDF's title line aside).
        let held = curriculum.topics.flatMap(\.passages).map(\.id)
        XCTAssertEqual(Set(held).count, held.count)

        // A learner's questions find their topics by meaning as well as words.
        let cases = [("How do mitochondria make ATP?", "2 Mitochondria"), ("What does the nucleus contain?", "3 The Nucleus"),
                     ("Why do leaves look green?", "The chloroplast")]
        for (question, expected) in cases {
            let hits = try Curricula.find(question, curriculum: "biology", k: 3, in: store, embedder: embedder)
            XCTAssertEqual(hits.first?.title, expected, question)
        }
    }
}
