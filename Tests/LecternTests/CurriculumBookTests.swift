import XCTest
@testable import Lectern

/// A curriculum built from the shared OpenStax book: its chapters as units in order, its
/// modules as topics with the book's own objectives and glossary terms, no front or back
/// matter; `curriculum find` answers a learner's question with the right module; a rebuild
/// with the book unchanged writes nothing. The library (hashing embedder) and its first build are
/// BookCurriculum's, made once per test process.
final class CurriculumBookTests: XCTestCase {
    static func book() throws -> (folder: TemporaryFolder, store: LibraryStore, result: CurriculumBuildResult) {
        let book = try BookCurriculum.load()
        XCTAssertEqual(try book.store.allDocuments().count, 1, "the book alone")
        return (book.folder, book.store, book.built)
    }

    func curriculum() throws -> Curriculum {
        // Outside XCTUnwrap: a clone without the shared corpus skips rather than fails.
        let store = try Self.book().store
        return try XCTUnwrap(try store.curriculum(named: "philosophy"))
    }

    func headings(level: Int) throws -> [Block] {
        let store = try Self.book().store
        let document = try XCTUnwrap(try store.allDocuments().first)
        return try store.blocks(documentId: document.id).filter { $0.kind == .heading && $0.level == level && $0.sectionPath.first != "Preface" }
    }

    func testEveryChapterIsAUnitInOrderAndEveryModuleATopic() throws {
        let curriculum = try curriculum()
        let chapters = try headings(level: 1).map(\.text)
        XCTAssertEqual(chapters.count, 12)
        XCTAssertEqual(curriculum.units.map(\.title), chapters)
        // A module is a level-2 heading with its own page; an introduction module is named after its chapter.
        let modules = try headings(level: 2).filter { $0.attributes["url"] != nil }
        XCTAssertEqual(modules.count, 65)
        XCTAssertEqual(curriculum.topics.count, modules.count)
        for (topic, module) in zip(curriculum.topics, modules) {
            if module.text == "Introduction" {
                XCTAssertEqual(topic.title, "Introduction: " + CurriculumOutline.bare(module.sectionPath[0]))
            } else {
                XCTAssertEqual(topic.title, module.text)
            }
            XCTAssertFalse(topic.summary.isEmpty, topic.title)
            XCTAssertGreaterThan(topic.studyMinutes, 0, topic.title)
            XCTAssertFalse(topic.objectives.isEmpty, topic.title)
            XCTAssertTrue(topic.passages.allSatisfy { $0.sectionPath.count > 1 && $0.sectionPath[1] == module.sectionPath[1] }, topic.title)
        }
        // Front and back matter are not topics, and a module's references are not its passages.
        let titles = curriculum.topics.map { $0.title.lowercased() }
        for matter in ["preface", "about openstax", "reviewers", "index", "references"] {
            XCTAssertFalse(titles.contains { $0 == matter || $0.hasPrefix(matter + " ") }, matter)
        }
        XCTAssertFalse(curriculum.topics.flatMap(\.passages).contains { $0.sectionPath.contains("References") })
        XCTAssertEqual(curriculum.sources.first?.licence, "Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International")
    }

    func testEachModuleHasTheBooksOwnObjectivesAndGlossaryTerms() throws {
        let curriculum = try curriculum()
        let store = try Self.book().store
        let document = try XCTUnwrap(try store.allDocuments().first)
        let blocks = try store.blocks(documentId: document.id)
        func key(_ text: String) -> String {
            String(text.lowercased().filter { $0.isLetter }.prefix(40))
        }
        var checkedObjectives = 0, checkedTerms = 0, missedObjectives = 0
        // A term as written, and as a glossary writes it again (plural, an abbreviation in brackets).
        func termKey(_ term: String) -> String {
            let letters = term.lowercased().filter(\.isLetter)
            return letters.hasSuffix("s") ? String(letters.dropLast()) : letters
        }
        for topic in curriculum.topics {
            let module: [String] = try XCTUnwrap(topic.passages.first.map { Array($0.sectionPath.prefix(2)) })
            let own = blocks.filter { (block: Block) in Array(block.sectionPath.prefix(2)) == module }
            let objectives = own.filter { (block: Block) in block.kind == BlockKind.objective }.map { key($0.text) }
            if !objectives.isEmpty {
                XCTAssertTrue(topic.objectives.allSatisfy { $0.origin == .source }, topic.title)
                // Each is one of the book's; a two-word one ("Describe positivism.") is dropped by
                // SourceObjectives's three-word minimum (see the report), hence the count below.
                XCTAssertTrue(Set(topic.objectives.map { key($0.statement) }).isSubset(of: Set(objectives)), topic.title)
                checkedObjectives += objectives.count
                missedObjectives += Set(objectives).subtracting(topic.objectives.map { key($0.statement) }).count
            }
            let terms = own.filter { (block: Block) in block.kind == BlockKind.glossary }.compactMap { $0.text.split(separator: ":").first.map(String.init) }
            let topicTerms = Set(topic.keyTerms.map { termKey($0.term) })
            for term in terms {
                XCTAssertTrue(topicTerms.contains(termKey(term)), "\(topic.title) lacks the glossary term '\(term)'")
                checkedTerms += 1
            }
        }
        XCTAssertGreaterThan(checkedObjectives, 150)
        XCTAssertLessThanOrEqual(missedObjectives, 2)
        XCTAssertGreaterThan(checkedTerms, 250)
        XCTAssertTrue(curriculum.topics.first { $0.title == "1.1 What Is Philosophy?" }?.keyTerms.contains { $0.term == "Milesians" && $0.definition.contains("Thales") } == true)
    }

    func testFindAnswersALearnersQuestionWithTheRightModule() throws {
        let store = try Self.book().store
        let cases = [
            ("What is the sunk cost fallacy?", "2.2 Overcoming Cognitive Biases and Engaging in Critical Reflection"),
            ("What was the Socratic method?", "1.3 Socrates as a Paradigmatic Historical Philosopher"),
            ("Who were the Milesians?", "1.1 What Is Philosophy?"),
        ]
        // The hashing embedder's vectors carry no meaning: the words decide here (the mixed
        // curriculum's test ranks by meaning with MiniLM).
        for (question, expected) in cases {
            let hits = try Curricula.find(question, curriculum: "philosophy", k: 3, mode: .keyword, in: store, embedder: HashingEmbedder())
            XCTAssertEqual(hits.first?.title, expected, question)
            XCTAssertEqual(hits.first?.curriculum, "philosophy")
        }
        XCTAssertThrowsError(try Curricula.find("ethics", curriculum: "nothing", k: 3, in: store, embedder: HashingEmbedder()))
    }

    func testRebuildingTheUnchangedBookWritesNothing() throws {
        let (folder, store, first) = try Self.book()
        XCTAssertFalse(first.unchanged)
        XCTAssertEqual(first.rebuiltTopics, 65)
        let before = try curriculum()
        let files = [folder.file("book.db").path, folder.file("book.db-wal").path]
        let stamps = files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
        let sizes = files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        let again = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
            .build(name: "philosophy", sources: [try TestPaths.sharedCorpus("openstax/introduction-philosophy").path], recorder: nil) { _ in }
        XCTAssertTrue(again.unchanged)
        XCTAssertEqual(again.topics, 65)
        XCTAssertEqual(files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }, stamps)
        XCTAssertEqual(files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }, sizes)
        XCTAssertEqual(try curriculum(), before)
    }
}
