import XCTest
@testable import Lectern

/// Exports of a curriculum made of real passages: the shared OpenStax philosophy book ingested
/// into one library for the class (hashing embedder), its chapters as units and its sections as
/// topics with the book's own objectives and glossary, assembled here from the stored passages
/// and blocks. Every UMCF file made is checked with the schema (jsonschema) and the app's rules
/// (Tests/Support/umcf_check.py).
final class CurriculumExportTests: XCTestCase {
    nonisolated(unsafe) static var library: (folder: TemporaryFolder, store: LibraryStore)?
    nonisolated(unsafe) static var book: Curriculum?

    static let created = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
    static let modified = Date(timeIntervalSince1970: 1_800_003_600)

    /// The library, ingested by the `lectern` binary (the command-line test builds and exports
    /// from it too) and opened here as well.
    static func bookLibrary() throws -> (folder: TemporaryFolder, store: LibraryStore) {
        let book = try TestPaths.sharedCorpus("openstax/introduction-philosophy")
        try TestPaths.requireLecternBinary()
        if let library { return library }
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", book.path, TestPaths.corpora.path], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let store = try LibraryStore(path: folder.file("lectern.db").path)
        library = (folder, store)
        return (folder, store)
    }

    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    func document(_ type: DocumentType, uriSuffix: String = "") throws -> StoredDocument {
        let store = try Self.bookLibrary().store
        return try XCTUnwrap(try store.allDocuments().first { $0.type == type && $0.uri.hasSuffix(uriSuffix) }, "no \(type) document in the library")
    }

    static func source(_ document: StoredDocument) -> CurriculumSource {
        let metadata = document.metadataDictionary
        return CurriculumSource(documentId: document.id, uri: document.uri, title: document.title, type: document.type,
                                licence: metadata["license"], licenceURL: metadata["license_url"], contentHash: document.contentHash)
    }

    /// The book as a curriculum: each numbered chapter a unit, each of its sections (and its
    /// introduction) a topic holding the section's passages, the book's objectives and glossary
    /// terms, an offline summary (its first sentence), and a prerequisite link where a section
    /// uses a term an earlier one defines. The preface is left out, as the builder leaves it out.
    func bookCurriculum() throws -> Curriculum {
        if let book = Self.book { return book }
        let store = try Self.bookLibrary().store
        let book = try document(.openstax)
        let passages = try store.passages(documentId: book.id).filter { $0.sectionPath.count >= 2 && $0.sectionPath[0].first?.isNumber == true }
        let blocks = try store.blocks(documentId: book.id)
        var units: [CurriculumUnit] = []
        var definedBy: [(term: String, topic: String)] = []
        for stored in passages {
            let chapter = stored.sectionPath[0], section = stored.sectionPath[1]
            if units.last?.title != chapter {
                units.append(CurriculumUnit(stableId: "u-" + UMCFExporter.slug(chapter), title: chapter, topics: []))
            }
            if units[units.count - 1].topics.last?.title != section {
                let topicId = "t-" + UMCFExporter.slug(chapter + " " + section)
                let here = blocks.filter { $0.sectionPath.count >= 2 && $0.sectionPath[0] == chapter && $0.sectionPath[1] == section }
                let objectives = here.filter { $0.kind == .objective }.map {
                    LearningObjective(stableId: "o-" + ContentHash.sha256(topicId + "\n" + $0.text).prefix(12), statement: $0.text, origin: .source)
                }
                let terms = here.filter { $0.kind == .glossary }.compactMap { block -> KeyTerm? in
                    guard let term = block.attributes["term"] else { return nil }
                    return KeyTerm(term: term, definition: block.attributes["meaning"] ?? "", origin: .source, passageId: nil)
                }
                units[units.count - 1].topics.append(Topic(
                    stableId: topicId, title: section, summary: "", summaryOrigin: .offline, objectives: objectives, keyTerms: terms,
                    studyMinutes: 0, passages: [], prerequisites: []))
            }
            units[units.count - 1].topics[units[units.count - 1].topics.count - 1].passages.append(stored)
        }
        for u in units.indices {
            for t in units[u].topics.indices {
                var topic = units[u].topics[t]
                let words = topic.passages.reduce(0) { $0 + $1.text.split(whereSeparator: \.isWhitespace).count }
                topic.studyMinutes = max(1, words / 200)
                let firstText = topic.passages.first { $0.kind == .text }?.text ?? topic.title
                topic.summary = SentenceSplitter.split(firstText).first?.text ?? firstText
                let vocabulary = TermWords(topic.passages.map(\.text).joined(separator: "\n"))
                topic.prerequisites = definedBy.filter { $0.topic != topic.stableId && vocabulary.contains(TermWords($0.term)) }
                    .prefix(2).map { TopicLink(topicStableId: $0.topic, term: $0.term) }
                definedBy += topic.keyTerms.map { ($0.term, topic.stableId) }
                units[u].topics[t] = topic
            }
        }
        let curriculum = Curriculum(name: "philosophy-assembled", title: book.title, stableId: "c-philosophy", sources: [Self.source(book)], units: units,
                                    modelName: nil, createdAt: Self.created, modifiedAt: Self.modified)
        Self.book = curriculum
        return curriculum
    }

    /// Writes `data` to a file of the test's folder and returns it.
    func write(_ data: Data, _ name: String) throws -> URL {
        try folder.write(name, data)
    }

    func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: UMCF

    /// The whole book as UMCF passes the schema and the app's rules, and holds every chapter,
    /// section, passage (as segments, in order, with where each comes from), objective and
    /// glossary term, the study times in one unit, the licence as the book states it, and the
    /// curriculum's own dates.
    func testTheBookAsUMCFValidatesAndHoldsEveryPart() throws {
        let curriculum = try bookCurriculum()
        XCTAssertEqual(curriculum.units.count, 12, curriculum.units.map(\.title).description)
        XCTAssertEqual(curriculum.topics.count, 65, "12 introductions and 53 sections")
        let data = try UMCFExporter().export(curriculum)
        try UMCFCheck.assertValid([try write(data, "philosophy.umcf")], analyzer: true)

        let umcf = try json(data)
        XCTAssertEqual(umcf["formatIdentifier"] as? String, "umcf")
        XCTAssertEqual(umcf["umcf"] as? String, "1.0.0")
        XCTAssertEqual(umcf["id"] as? [String: String], ["catalog": "lectern", "value": "c-philosophy"])
        XCTAssertEqual(umcf["title"] as? String, "Introduction to Philosophy 2e")
        let lifecycle = try XCTUnwrap(umcf["lifecycle"] as? [String: Any])
        XCTAssertEqual(lifecycle["created"] as? String, "2027-01-15T08:00:00Z")
        XCTAssertEqual(lifecycle["modified"] as? String, "2027-01-15T09:00:00Z")
        XCTAssertEqual((umcf["version"] as? [String: Any])?["date"] as? String, "2027-01-15T09:00:00Z")

        let decoded = try JSONDecoder().decode(UMCFDocument.self, from: data)
        XCTAssertEqual(decoded.content.count, 1)
        let root = try XCTUnwrap(decoded.content.first)
        XCTAssertEqual(root.type, .curriculum)
        let units = try XCTUnwrap(root.children)
        XCTAssertEqual(units.map(\.title), curriculum.units.map(\.title), "chapters in the book's order")
        XCTAssertEqual(Set(units.map(\.type)), [.unit])
        let total = curriculum.topics.reduce(0) { $0 + max(1, $1.studyMinutes) }
        XCTAssertEqual(root.timeEstimates?.intermediate, "PT\(total)M", "the whole course in minutes, one unit")
        XCTAssertGreaterThan(total, 120, "the course's time is not written as hours and minutes")

        var objectives = 0, glossaryTerms = 0
        for (unit, node) in zip(curriculum.units, units) {
            XCTAssertEqual(node.id.value, unit.stableId)
            let topicNodes = try XCTUnwrap(node.children)
            XCTAssertEqual(topicNodes.map(\.title), unit.topics.map(\.title))
            for (topic, topicNode) in zip(unit.topics, topicNodes) {
                XCTAssertEqual(topicNode.type, .topic)
                XCTAssertEqual(topicNode.id, UMCFIdentifier(catalog: "lectern", value: topic.stableId))
                let segments = try XCTUnwrap(topicNode.transcript?.segments, topic.title)
                // The passages cut for speech, in reading order: each segment opens on one of the
                // topic's passages (or a later part of one) and is named by it.
                let planned = SpokenSegments.plan(topic.passages)
                XCTAssertEqual(segments.map(\.content), planned.map(\.text), "\(topic.title): the passages, in reading order")
                XCTAssertEqual(planned.flatMap(\.passages), planned.flatMap(\.passages).sorted(), "in reading order")
                XCTAssertEqual(segments.first?.type, .introduction)
                XCTAssertEqual(segments.map(\.id), planned.map {
                    UMCFExporter.segmentId(topic: topic.stableId, documentURI: curriculum.sources[0].uri,
                                           ordinal: topic.passages[$0.passages[0]].ordinal) + ($0.part > 1 ? "-\($0.part)" : "")
                })
                let provenance = try XCTUnwrap(topicNode.extensions?[UMCFExporter.provenanceNamespace]?.segments)
                XCTAssertEqual(Set(provenance.keys), Set(segments.map(\.id)), "each segment is mapped to its document")
                for (segment, plan) in zip(segments, planned) {
                    let place = try XCTUnwrap(provenance[segment.id])
                    XCTAssertEqual(place.document.uri, curriculum.sources[0].uri)
                    XCTAssertEqual(place.document.title, "Introduction to Philosophy 2e")
                    XCTAssertEqual(place.section, topic.passages[plan.passages[0]].sectionPath)
                    XCTAssertTrue((100...2000).contains(segment.content.count), "\(segment.content.count) characters")
                    XCTAssertFalse(segment.content.contains("(credit:"), segment.content)
                }
                if topic.objectives.isEmpty {
                    // A chapter's introduction carries those of its chapter's objectives about its text, marked inherited.
                    let inherited = InheritedObjectives.objectives(for: topic, candidates: InheritedObjectives.unitObjectives(unit)) {
                        InheritedObjectives.overall(of: unit)
                    }
                    XCTAssertFalse(inherited.isEmpty, topic.title)
                    XCTAssertEqual(topicNode.learningObjectives?.map(\.statement), inherited.map(\.statement))
                    XCTAssertEqual(Set(topicNode.learningObjectives?.compactMap(\.id.catalog) ?? []), [UMCFExporter.inheritedCatalog])
                } else {
                    XCTAssertEqual(topicNode.learningObjectives?.map(\.id.value) ?? [], topic.objectives.map(\.stableId))
                    XCTAssertEqual(topicNode.learningObjectives?.map(\.statement) ?? [], topic.objectives.map(\.statement))
                }
                XCTAssertEqual(topicNode.glossaryTerms?.map(\.term) ?? [], topic.keyTerms.map(\.term))
                XCTAssertEqual(topicNode.timeEstimates?.intermediate, "PT\(max(1, topic.studyMinutes))M")
                XCTAssertEqual(topicNode.prerequisites?.map(\.nodeId) ?? [], topic.prerequisites.map(\.topicStableId))
                objectives += topic.objectives.count
                glossaryTerms += topic.keyTerms.count
            }
        }
        XCTAssertGreaterThan(objectives, 150, "the book's own objectives")
        XCTAssertGreaterThan(glossaryTerms, 300, "the book's own glossary")
        let whatIs = try XCTUnwrap(curriculum.topics.first { $0.title == "1.1 What Is Philosophy?" })
        XCTAssertTrue(whatIs.objectives.contains { $0.statement.hasPrefix("Identify") }, whatIs.objectives.map(\.statement).description)

        // The curriculum's glossary: every term with its definition, in term order.
        let glossary = try XCTUnwrap(decoded.glossary?.terms)
        for term in curriculum.topics.flatMap(\.keyTerms) {
            XCTAssertTrue(glossary.contains { $0.term == term.term && $0.definition == term.definition }, term.term)
        }
        XCTAssertEqual(glossary.map { $0.term.lowercased() }, glossary.map { $0.term.lowercased() }.sorted())
        XCTAssertEqual(Set(glossary.compactMap(\.id)).count, glossary.count, "glossary ids are distinct")

        // Provenance and rights: the book as an imported primary source, its licence as its
        // collection file states it.
        let provenance = try XCTUnwrap(decoded.sourceProvenance)
        XCTAssertEqual(provenance.originType, "imported")
        let source = try XCTUnwrap(provenance.primarySources.first)
        XCTAssertEqual(source.title, "Introduction to Philosophy 2e")
        XCTAssertEqual(source.type, "textbook")
        XCTAssertEqual(source.license, "Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International")
        XCTAssertEqual(source.sectionsUsed, curriculum.topics.map(\.stableId))
        XCTAssertEqual(decoded.rights?.license, .init(type: "CC-BY-NC-SA-4.0", url: "http://creativecommons.org/licenses/by-nc-sa/4.0/"))
        XCTAssertTrue(decoded.rights?.description?.contains("Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International") == true)
        XCTAssertTrue(decoded.rights?.attributionRequirements?.contains("CC-BY-NC-SA-4.0") == true)
        // The summaries here are offline: named as generated, by Lectern's offline methods.
        let generated = try XCTUnwrap(provenance.aiGenerationMetadata)
        XCTAssertEqual(generated.model, "lectern-offline")
        XCTAssertEqual(generated.generatedParts?.filter { $0.field == "description" }.map(\.nodeId), curriculum.topics.map(\.stableId))
        XCTAssertFalse(generated.generatedParts?.contains { $0.field == "learningObjectives" } ?? true, "the book's own objectives are not generated")

        // No field the app cannot decode.
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertFalse(text.contains("pauseAfter"))
        XCTAssertFalse(text.contains("\"coverage\""))
        XCTAssertFalse(text.contains("\"feedback\""))
    }

    /// Exporting again gives the same bytes, also after the curriculum goes through the library
    /// (saved and read back, as a rebuild leaves it); a changed topic keeps every other topic's,
    /// objective's and segment's id, so the app replaces rather than duplicates.
    func testAnUnchangedCurriculumExportsTheSameBytesAndIdsSurviveAChange() throws {
        let store = try Self.bookLibrary().store
        let curriculum = try bookCurriculum()
        let first = try UMCFExporter().export(curriculum)
        XCTAssertEqual(try UMCFExporter().export(curriculum), first)

        try store.saveCurriculum(curriculum)
        defer { _ = try? store.removeCurriculum(named: curriculum.name) }
        let stored = try XCTUnwrap(try store.curriculum(named: "philosophy-assembled"))
        XCTAssertEqual(try UMCFExporter().export(stored), first, "the library keeps everything the export reads")
        let viaWorkflow = try CurriculumExport(store: store).export(curriculumNamed: "philosophy-assembled", format: .umcf)
        // The workflow's checkpoints ask the offline cards (none are stored), dated by the curriculum.
        let offline = Flashcards.assessments(CardGeneration.offline(stored, now: stored.modifiedAt).cards)
        XCTAssertEqual(viaWorkflow.data, try UMCFExporter().export(stored, checkpointCards: offline))
        XCTAssertEqual(viaWorkflow.units, 12)
        XCTAssertEqual(viaWorkflow.topics, 65)

        // One topic changes (a passage fewer, a new title); the others keep their ids.
        var changed = stored
        changed.units[4].topics[2].title = "5.2 Statements"
        changed.units[4].topics[2].passages.removeLast()
        changed.modifiedAt = Self.modified.addingTimeInterval(86_400)
        let second = try UMCFExporter().export(changed)
        try UMCFCheck.assertValid([try write(first, "first.umcf"), try write(second, "second.umcf")])
        let before = try JSONDecoder().decode(UMCFDocument.self, from: first)
        let after = try JSONDecoder().decode(UMCFDocument.self, from: second)
        XCTAssertEqual(ids(after), ids(before, droppingLastSegmentOf: "5.2 "), "node, objective and segment ids (all but the dropped segment)")
        XCTAssertEqual(after.id, before.id)
        XCTAssertEqual(after.lifecycle?.created, before.lifecycle?.created)
        XCTAssertEqual(after.lifecycle?.modified, "2027-01-16T09:00:00Z")
    }

    /// Every id in a document, but for the last segment of the topic titled `prefix…`.
    private func ids(_ document: UMCFDocument, droppingLastSegmentOf prefix: String? = nil) -> [String] {
        var result: [String] = []
        func walk(_ node: UMCFNode) {
            result.append(node.id.value)
            result += node.learningObjectives?.map(\.id.value) ?? []
            var segments = node.transcript?.segments.map(\.id) ?? []
            if let prefix, node.title.hasPrefix(prefix) { segments.removeLast() }
            result += segments
            node.children?.forEach(walk)
        }
        document.content.forEach(walk)
        return result
    }

    /// Segment types come from the passages: a section's first segment introduces it, its
    /// "Summary" passages sum up, a segment opening "For instance" is an example, a closing
    /// recap sums up, the rest explains; checkpoints ride on segments, none is a segment of its own.
    func testSegmentTypesFollowThePassages() throws {
        let curriculum = try bookCurriculum()
        let brain = try XCTUnwrap(curriculum.topics.first { $0.title == "2.1 The Brain Is an Inference Machine" })
        let umcf = try JSONDecoder().decode(UMCFDocument.self, from: try UMCFExporter().export(curriculum))
        let node = try XCTUnwrap(umcf.content[0].children?.flatMap { $0.children ?? [] }.first { $0.id.value == brain.stableId })
        let segments = try XCTUnwrap(node.transcript?.segments)
        let planned = SpokenSegments.plan(brain.passages)
        XCTAssertEqual(segments.count, planned.count)
        for (index, (segment, plan)) in zip(segments, planned).enumerated() {
            let passage = brain.passages[plan.passages[0]]
            let expected: UMCFTranscriptSegment.Kind
            if index == 0 {
                expected = .introduction
            } else if passage.sectionPath.last == "Summary" {
                expected = .summary
            } else if plan.text.hasPrefix("For instance") || plan.text.hasPrefix("For example") {
                expected = .example
            } else {
                expected = .explanation
            }
            XCTAssertEqual(segment.type, expected, "\(passage.sectionPath): \(plan.text.prefix(60))")
        }
        XCTAssertTrue(segments.contains { $0.type == .summary }, "2.1 ends with its Summary")
        var instance = brain.passages[1]
        instance.text = "For instance, a stick in water looks bent although it is straight."
        XCTAssertEqual(UMCFExporter.segmentType(instance, at: 1, of: 3), .example)
        let all = umcf.content[0].children?.flatMap { $0.children ?? [] }.flatMap { $0.transcript?.segments ?? [] } ?? []
        XCTAssertFalse(all.contains { $0.type == .checkpoint })

        // "Summarize Your Argument in the Conclusion" only mentions a conclusion: it explains.
        let papers = try XCTUnwrap(curriculum.topics.first { $0.title == "2.6 Writing Philosophy Papers" })
        let advice = try XCTUnwrap(papers.passages.firstIndex { $0.sectionPath.last == "Summarize Your Argument in the Conclusion" })
        XCTAssertEqual(UMCFExporter.segmentType(papers.passages[advice], at: advice, of: papers.passages.count), .explanation)
        // A recap closing a topic sums it up; the same words earlier do not make a summary.
        var recap = papers.passages[advice]
        recap.text = "In summary, a philosophy paper states a thesis and defends it. " + recap.text
        XCTAssertEqual(UMCFExporter.segmentType(recap, at: 5, of: 6), .summary)
        XCTAssertEqual(UMCFExporter.segmentType(recap, at: 2, of: 6), .explanation)
    }

    /// Flashcards handed to the exporter become `text_entry` assessments in both spellings,
    /// with plain-string answer and hint and no feedback object.
    func testAssessmentsAreWrittenInBothSpellings() throws {
        let curriculum = try bookCurriculum()
        let topic = try XCTUnwrap(curriculum.topics.first { $0.title == "5.5 Informal Fallacies" })
        let card = TopicAssessment(stableId: "card-ad-hominem", question: "What is an ad hominem fallacy?",
                                   answer: "Attacking the person making an argument instead of the argument.",
                                   hint: "Latin for “to the person”.", passageId: topic.passages[2].id)
        let plain = TopicAssessment(stableId: "card-strawman", question: "What does a straw man argument do?",
                                    answer: "It misrepresents an opponent's view to refute it more easily.", hint: nil, passageId: nil)
        let data = try UMCFExporter().export(curriculum, assessments: [topic.stableId: [card, plain]])
        try UMCFCheck.assertValid([try write(data, "cards.umcf")])

        let umcf = try json(data)
        let units = try XCTUnwrap((umcf["content"] as? [[String: Any]])?.first?["children"] as? [[String: Any]])
        let node = try XCTUnwrap(units.flatMap { $0["children"] as? [[String: Any]] ?? [] }.first {
            ($0["id"] as? [String: Any])?["value"] as? String == topic.stableId
        })
        let assessments = try XCTUnwrap(node["assessments"] as? [[String: Any]])
        XCTAssertEqual(assessments.count, 2)
        let first = assessments[0]
        XCTAssertEqual(first["type"] as? String, "text_entry")
        XCTAssertEqual(first["id"] as? [String: String], ["catalog": "lectern", "value": "card-ad-hominem"])
        XCTAssertEqual(first["question"] as? String, card.question, "the app reads question")
        XCTAssertEqual(first["prompt"] as? String, card.question, "the schema requires prompt")
        XCTAssertEqual(first["correctAnswer"] as? String, card.answer, "a plain string for the app")
        XCTAssertEqual(first["correctResponse"] as? [String], [card.answer])
        XCTAssertEqual(first["hint"] as? String, card.hint)
        XCTAssertNil(first["feedback"], "an object fails the app, a string fails the schema")
        XCTAssertNil(assessments[1]["hint"])
        // Only that topic has assessments.
        let withAssessments = units.flatMap { $0["children"] as? [[String: Any]] ?? [] }.filter { $0["assessments"] != nil }
        XCTAssertEqual(withAssessments.count, 1)
    }

    /// Parts a language model wrote are named with the model; a curriculum of several sources
    /// with different licences names each licence and claims none for the whole.
    func testGeneratedPartsAndMixedLicencesAreNamed() throws {
        let book = try bookCurriculum()
        let notesDocument = try document(.markdown, uriSuffix: "notes/photosynthesis.md")
        let notes = try Self.bookLibrary().store.passages(documentId: notesDocument.id)
        XCTAssertGreaterThan(notes.count, 1)
        var curriculum = book
        curriculum.units = [book.units[0]]
        curriculum.units[0].topics[1].summaryOrigin = .model
        curriculum.units[0].topics[1].objectives.append(LearningObjective(stableId: "o-generated", statement: "Explain why philosophy begins with dialogue",
                                                                          origin: .model))
        curriculum.units.append(CurriculumUnit(stableId: "u-notes", title: "Photosynthesis notes", topics: [
            Topic(stableId: "t-photosynthesis", title: "Photosynthesis", summary: "Plants turn light into sugar.", summaryOrigin: .offline,
                  objectives: [LearningObjective(stableId: "o-define-chlorophyll", statement: "Define chlorophyll", origin: .offline)],
                  keyTerms: [KeyTerm(term: "chlorophyll", definition: "the green pigment that absorbs light", origin: .offline, passageId: nil)],
                  studyMinutes: 3, passages: notes, prerequisites: []),
        ]))
        curriculum.sources.append(Self.source(notesDocument))
        curriculum.modelName = "gemma3-270m"
        let data = try UMCFExporter().export(curriculum)
        try UMCFCheck.assertValid([try write(data, "mixed.umcf")])
        let umcf = try JSONDecoder().decode(UMCFDocument.self, from: data)

        let generated = try XCTUnwrap(umcf.sourceProvenance?.aiGenerationMetadata)
        XCTAssertEqual(generated.model, "gemma3-270m")
        XCTAssertEqual(generated.humanReviewed, false)
        let parts = generated.generatedParts ?? []
        let whatIs = curriculum.units[0].topics[1].stableId
        XCTAssertTrue(parts.contains(UMCFGeneratedPart(nodeId: whatIs, field: "description", method: "model")))
        XCTAssertTrue(parts.contains(UMCFGeneratedPart(nodeId: whatIs, field: "learningObjectives", method: "model", items: ["o-generated"])))
        XCTAssertTrue(parts.contains(UMCFGeneratedPart(nodeId: "t-photosynthesis", field: "learningObjectives", method: "offline",
                                                       items: ["o-define-chlorophyll"])))
        XCTAssertTrue(parts.contains(UMCFGeneratedPart(nodeId: "t-photosynthesis", field: "glossaryTerms", method: "offline", items: ["chlorophyll"])))
        XCTAssertEqual(generated.generationDate, "2027-01-15T09:00:00Z")
        XCTAssertTrue(umcf.sourceProvenance?.importMetadata?.transformations?.contains("1 topic summary written by gemma3-270m") == true,
                      umcf.sourceProvenance?.importMetadata?.transformations?.description ?? "")

        // Two sources, one licensed: each named, no licence claimed for the whole.
        XCTAssertEqual(umcf.sourceProvenance?.primarySources.map(\.title), ["Introduction to Philosophy 2e", notesDocument.title])
        XCTAssertEqual(umcf.sourceProvenance?.primarySources.map(\.type), ["textbook", "lecture_notes"])
        XCTAssertEqual(umcf.sourceProvenance?.primarySources[1].sectionsUsed, ["t-photosynthesis"])
        XCTAssertNil(umcf.rights?.license)
        let rights = try XCTUnwrap(umcf.rights?.description)
        XCTAssertTrue(rights.contains("Introduction to Philosophy 2e: Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International"), rights)
        XCTAssertTrue(rights.contains("\(notesDocument.title): no licence stated"), rights)
        // The notes' segments point at the notes file.
        let notesNode = try XCTUnwrap(umcf.content[0].children?.last?.children?.first)
        let places = notesNode.extensions?[UMCFExporter.provenanceNamespace]?.segments.values.map(\.document.uri)
        XCTAssertEqual(Set(places ?? []), [notesDocument.uri])
        XCTAssertEqual(notesNode.glossaryTerms?.first?.term, "chlorophyll")
        XCTAssertTrue(notesNode.transcript?.segments.contains { $0.glossaryRefs == ["chlorophyll"] } == true, "segments name the terms they use")
    }

    // MARK: Markdown and JSON

    /// The Markdown syllabus: the title, the source with its licence, every unit and topic in
    /// order with its study time, summary, objectives, key terms, prerequisites and sources.
    func testMarkdownIsAReadableSyllabus() throws {
        let curriculum = try bookCurriculum()
        let data = CurriculumMarkdownExporter().export(curriculum)
        XCTAssertEqual(CurriculumMarkdownExporter().export(curriculum), data, "deterministic")
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("# Introduction to Philosophy 2e\n\n12 units, 65 topics, about "), String(text.prefix(200)))
        XCTAssertTrue(text.contains("- **Introduction to Philosophy 2e** (openstax, `\(curriculum.sources[0].uri)`): Creative Commons "
                                    + "Attribution-NonCommercial-ShareAlike 4.0 International (<http://creativecommons.org/licenses/by-nc-sa/4.0/>)"))
        var rest = text[...]
        for unit in curriculum.units {
            let found = try XCTUnwrap(rest.range(of: "\n## \(unit.title)\n"), "unit \(unit.title) in order")
            rest = rest[found.upperBound...]
            for topic in unit.topics {
                let heading = try XCTUnwrap(rest.range(of: "\n### \(topic.title)\n\n*Study time: \(CurriculumMarkdownExporter.studyTime(max(1, topic.studyMinutes)))*\n"),
                                            "topic \(topic.title) in order")
                rest = rest[heading.upperBound...]
            }
        }
        let whatIs = try XCTUnwrap(curriculum.topics.first { $0.title == "1.1 What Is Philosophy?" })
        for objective in whatIs.objectives { XCTAssertTrue(text.contains("- \(objective.statement)\n"), objective.statement) }
        let term = try XCTUnwrap(whatIs.keyTerms.first)
        XCTAssertTrue(text.contains("- **\(term.term)**: \(term.definition)\n"), term.term)
        XCTAssertTrue(text.contains("**Sources**: Introduction to Philosophy 2e § 1 Introduction to Philosophy › 1.1 What Is Philosophy?\n"))
        let linked = try XCTUnwrap(curriculum.topics.first { !$0.prerequisites.isEmpty })
        let prerequisite = try XCTUnwrap(curriculum.topics.first { $0.stableId == linked.prerequisites[0].topicStableId })
        XCTAssertTrue(text.contains("**Builds on**: \(prerequisite.title) (“\(linked.prerequisites[0].term)”)"), linked.title)
        XCTAssertEqual(CurriculumMarkdownExporter.studyTime(130), "2 h 10 min")
        XCTAssertEqual(CurriculumMarkdownExporter.studyTime(45), "45 min")
    }

    /// The JSON export is Lectern's complete record: it reads back to the same curriculum and
    /// assessments, byte for byte the same on a second export.
    func testJSONReadsBackToTheSameCurriculum() throws {
        let curriculum = try bookCurriculum()
        let cards = [curriculum.topics[3].stableId: [TopicAssessment(stableId: "card-1", question: "Who was Socrates?", answer: "An Athenian philosopher.",
                                                                      hint: nil, passageId: curriculum.topics[3].passages[0].id)]]
        let data = try CurriculumJSONExporter().export(curriculum, assessments: cards)
        XCTAssertEqual(try CurriculumJSONExporter().export(curriculum, assessments: cards), data)
        let record = try CurriculumJSONDocument.decode(data)
        XCTAssertEqual(record.curriculum, curriculum)
        XCTAssertEqual(record.assessments, cards)
        XCTAssertEqual(record.format, "lectern-curriculum")
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"createdAt\" : \"2027-01-15T08:00:00Z\""), "dates as ISO 8601 with a zone")
    }

    func testFormatsAreKnownByTheirFileExtension() {
        XCTAssertEqual(CurriculumExportFormat(fileName: "out/philosophy.umcf"), .umcf)
        XCTAssertEqual(CurriculumExportFormat(fileName: "syllabus.MD"), .markdown)
        XCTAssertEqual(CurriculumExportFormat(fileName: "syllabus.markdown"), .markdown)
        XCTAssertEqual(CurriculumExportFormat(fileName: "record.json"), .json)
        XCTAssertNil(CurriculumExportFormat(fileName: "philosophy.umcfz"), "the compressed package is not written")
        XCTAssertNil(CurriculumExportFormat(fileName: "philosophy"))
    }

    func testAnUnknownCurriculumIsNamed() throws {
        let store = try Self.bookLibrary().store
        XCTAssertThrowsError(try CurriculumExport(store: store).export(curriculumNamed: "chemistry", format: .umcf)) { error in
            XCTAssertEqual((error as? LecternError)?.code, .notFound)
            XCTAssertEqual((error as? LecternError)?.description,
                           "chemistry: no curriculum of that name in this library (`lectern curriculum list` names them)")
        }
    }

    // MARK: From the command line

    /// The issue's "done when", as a user runs it: `curriculum build philosophy BOOK`, then
    /// `export --format umcf` gives a file that passes the schema and the app's rules, with every
    /// chapter, module, objective and glossary term of the book (counted from its own CNXML
    /// files), each topic with segments; an unchanged rebuild exports the same bytes, a rebuild
    /// under a new title keeps every id; Markdown and JSON by the file's extension; `-o -`;
    /// an unknown curriculum or format is one clear line.
    func testTheBuiltBookExportsFromTheCommandLine() throws {
        let library = try Self.bookLibrary().folder
        let book = try TestPaths.sharedCorpus("openstax/introduction-philosophy")
        func lectern(_ arguments: String...) throws -> CommandResult { try runLectern(arguments, in: library.url) }
        let build = try lectern("curriculum", "build", "philosophy", book.path)
        XCTAssertEqual(build.status, 0, build.stderr)
        let export = try lectern("curriculum", "export", "philosophy", "--format", "umcf", "-o", "philosophy.umcf")
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.hasPrefix("Introduction to Philosophy 2e: 12 units, 65 topics → philosophy.umcf (umcf, "), export.stdout)
        let file = library.file("philosophy.umcf")
        let data = try Data(contentsOf: file)
        let umcf = try JSONDecoder().decode(UMCFDocument.self, from: data)

        let expected = try bookContents(book)
        let units = umcf.content[0].children ?? []
        XCTAssertEqual(units.count, expected.chapters.count)
        for (unit, chapter) in zip(units, expected.chapters) { XCTAssertTrue(unit.title.hasSuffix(chapter), "\(unit.title) is \(chapter)") }
        let topics = units.flatMap { $0.children ?? [] }
        XCTAssertEqual(topics.count, expected.modules)
        for topic in topics {
            XCTAssertEqual(topic.type, .topic)
            XCTAssertFalse(topic.transcript?.segments.isEmpty ?? true, "\(topic.title) has segments to speak")
            XCTAssertFalse(topic.learningObjectives?.isEmpty ?? true, "\(topic.title) has objectives")
        }
        func key(_ text: String) -> String { String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let statements = Set(topics.flatMap { $0.learningObjectives ?? [] }.map { key($0.statement) })
        XCTAssertGreaterThan(expected.objectives.count, 150)
        for objective in expected.objectives { XCTAssertTrue(statements.contains(key(objective)), "objective “\(objective)”") }
        let glossary = Set((umcf.glossary?.terms ?? []).map { key($0.term) })
        let topicTerms = Set(topics.flatMap { $0.glossaryTerms ?? [] }.map { key($0.term) })
        XCTAssertGreaterThan(expected.terms.count, 300)
        for term in expected.terms {
            XCTAssertTrue(glossary.contains(key(term)), "glossary term “\(term)”")
            XCTAssertTrue(topicTerms.contains(key(term)), "topic term “\(term)”")
        }
        XCTAssertEqual(umcf.rights?.license?.type, "CC-BY-NC-SA-4.0")

        // Unchanged: the rebuild writes nothing and the export is the same bytes, on stdout too
        // (one export: each UMCF export makes the whole book's offline cards, 9 s of CPU).
        let rebuild = try lectern("curriculum", "build", "philosophy", book.path)
        XCTAssertTrue(rebuild.stdout.contains("unchanged"), rebuild.stdout)
        let piped = try lectern("curriculum", "export", "philosophy", "--format", "umcf", "-o", "-")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(Data(piped.stdout.utf8), data, "byte-identical, and -o - writes the file's bytes and nothing else")

        // Markdown and JSON, told by the extension.
        let markdown = try lectern("curriculum", "export", "philosophy", "-o", "syllabus.md")
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        let syllabus = try String(contentsOf: library.file("syllabus.md"), encoding: .utf8)
        XCTAssertTrue(syllabus.hasPrefix("# Introduction to Philosophy 2e\n"), String(syllabus.prefix(200)))
        XCTAssertTrue(syllabus.contains("\n## \(units[6].title)\n"))
        XCTAssertTrue(syllabus.contains("Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International"))
        XCTAssertEqual(try lectern("curriculum", "export", "philosophy", "-o", "record.json").status, 0)
        let record = try CurriculumJSONDocument.decode(try Data(contentsOf: library.file("record.json")))
        XCTAssertEqual(record.curriculum, try Self.bookLibrary().store.curriculum(named: "philosophy"))

        // A rebuild under a new title: the same ids, the same creation date, a later modification.
        let retitled = try lectern("curriculum", "build", "philosophy", book.path, "--title", "Philosophy 101")
        XCTAssertEqual(retitled.status, 0, retitled.stderr)
        XCTAssertEqual(try lectern("curriculum", "export", "philosophy", "-o", "retitled.umcf").status, 0)
        try UMCFCheck.assertValid([file, library.file("retitled.umcf")], analyzer: true)
        let checkpoints = topics.flatMap { $0.transcript?.segments ?? [] }.compactMap(\.checkpoint)
        // (208 since the card checks' precision rules of #30: the deck went from 641 to 515 notes.)
        XCTAssertGreaterThan(checkpoints.filter { $0.type == .comprehensionCheck }.count, 180, "the book's offline cards, asked")
        let after = try JSONDecoder().decode(UMCFDocument.self, from: try Data(contentsOf: library.file("retitled.umcf")))
        XCTAssertEqual(after.title, "Philosophy 101")
        XCTAssertEqual(ids(after), ids(umcf), "every node, objective and segment keeps its id")
        XCTAssertEqual(after.lifecycle?.created, umcf.lifecycle?.created)

        // Bad requests: one line each, nothing written.
        let unknown = try lectern("curriculum", "export", "chemistry", "-o", "chemistry.umcf")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "lectern: chemistry: no curriculum of that name in this library (`lectern curriculum list` names them)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.file("chemistry.umcf").path))
        let noFormat = try lectern("curriculum", "export", "philosophy")
        XCTAssertEqual(noFormat.status, 2)
        XCTAssertTrue(noFormat.stderr.hasPrefix("Error: give --format umcf, md or json when writing to standard output\n"), noFormat.stderr)
        let unknownExtension = try lectern("curriculum", "export", "philosophy", "-o", "notes.txt")
        XCTAssertEqual(unknownExtension.status, 2)
        XCTAssertTrue(unknownExtension.stderr.contains("cannot tell the format from 'notes.txt'"), unknownExtension.stderr)
        XCTAssertEqual(try lectern("curriculum", "export", "philosophy", "--format", "markdown", "-o", "notes.txt").status, 0,
                       "--format wins over the extension")
    }

    /// A curriculum of the project's own corpora (PDFs, notes, lecture transcripts), built and
    /// exported from the command line: valid, each PDF segment mapped to its page and each
    /// transcript segment to its time in the recording, the syllabus naming both.
    func testAMixedCurriculumExportsWithPagesAndTimes() throws {
        let library = try Self.bookLibrary().folder
        let build = try runLectern(["curriculum", "build", "biology", TestPaths.corpora.path], in: library.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        for name in ["biology.umcf", "biology.md"] {
            let export = try runLectern(["curriculum", "export", "biology", "-o", name], in: library.url)
            XCTAssertEqual(export.status, 0, export.stderr)
        }
        try UMCFCheck.assertValid([library.file("biology.umcf")], analyzer: true)
        let umcf = try JSONDecoder().decode(UMCFDocument.self, from: try Data(contentsOf: library.file("biology.umcf")))
        let places = umcf.content[0].children?.flatMap { $0.children ?? [] }
            .flatMap { $0.extensions?[UMCFExporter.provenanceNamespace]?.segments.values.map { $0 } ?? [] } ?? []
        let pdfPage = places.first { $0.document.uri.hasSuffix("cell-biology-notes.pdf") }
        XCTAssertNotNil(pdfPage?.pageStart, "a PDF segment names its page")
        let lecture = places.first { $0.document.uri.hasSuffix("cell-respiration-lecture.vtt") }
        XCTAssertNotNil(lecture?.timeStart, "a lecture segment names its time")
        XCTAssertEqual(Set(umcf.sourceProvenance?.primarySources.compactMap(\.type) ?? []), ["lecture_notes", "other", "video"])
        XCTAssertNil(umcf.rights?.license, "no source states a licence: none is claimed")
        let syllabus = try String(contentsOf: library.file("biology.md"), encoding: .utf8)
        XCTAssertTrue(syllabus.contains("Cell Biology: Lecture Notes, p"), "pages in the syllabus")
        XCTAssertTrue(syllabus.contains("Biology 101, lecture 7: cellular respiration @ 00:"), "times in the syllabus")
    }

    /// The book's chapters (collection order), module count, objectives and glossary terms,
    /// read from its collection and CNXML files with Python's ElementTree, not with Lectern.
    func bookContents(_ book: URL) throws -> (chapters: [String], modules: Int, objectives: [String], terms: [String]) {
        let script = """
            import glob, json, sys
            import xml.etree.ElementTree as ET
            root = sys.argv[1]
            COL, MD = '{http://cnx.rice.edu/collxml}', '{http://cnx.rice.edu/mdml}'
            collection = ET.parse(glob.glob(root + '/collections/*.collection.xml')[0]).getroot()
            chapters, modules = [], []
            for sub in collection.find(COL + 'content').findall(COL + 'subcollection'):
                chapters.append(sub.find(MD + 'title').text)
                modules += [m.get('document') for m in sub.iter(COL + 'module')]
            text = lambda e: ' '.join(''.join(e.itertext()).split())
            objectives, terms = [], []
            for m in modules:
                doc = ET.parse(f'{root}/modules/{m}/index.cnxml').getroot()
                for section in doc.iter():
                    if section.tag.endswith('}section') and 'learning-objectives' in (section.get('class') or ''):
                        objectives += [text(i) for i in section.iter() if i.tag.endswith('}item')]
                for glossary in doc.iter():
                    if glossary.tag.endswith('}glossary'):
                        for definition in glossary:
                            terms += [text(t) for t in definition if t.tag.endswith('}term')]
            print(json.dumps({'chapters': chapters, 'modules': len(modules), 'objectives': objectives, 'terms': terms}))
            """
        let process = Process()
        process.executableURL = try UMCFCheck.python()
        process.arguments = ["-c", script, book.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        struct Contents: Decodable { var chapters: [String]; var modules: Int; var objectives: [String]; var terms: [String] }
        let contents = try JSONDecoder().decode(Contents.self, from: data)
        return (contents.chapters, contents.modules, contents.objectives, contents.terms)
    }

    // MARK: The checker

    /// The checker catches each of the app's rules: a valid export broken one rule at a time
    /// gives, for each file, the line naming that rule (and the schema half catches what only
    /// the schema forbids).
    func testTheCheckerCatchesEachRule() throws {
        // The first chapter is enough to break every rule once (and keeps 28 files quick to check).
        var curriculum = try bookCurriculum()
        curriculum.units = [curriculum.units[0]]
        let cards = [curriculum.topics[0].stableId: [TopicAssessment(stableId: "card-1", question: "What is philosophy?",
                                                                      answer: "The love of wisdom.", hint: "Greek", passageId: nil)]]
        let valid = try UMCFExporter().export(curriculum, assessments: cards)
        typealias Breakage = (name: String, expected: String, breakIt: (inout [String: Any]) -> Void)
        // The first topic (chapter 1's introduction, with the assessment) or another (1.1, with objectives).
        func topic(_ doc: inout [String: Any], _ index: Int = 0, _ change: (inout [String: Any]) -> Void) {
            var root = (doc["content"] as! [[String: Any]])[0]
            var units = root["children"] as! [[String: Any]]
            var topics = units[0]["children"] as! [[String: Any]]
            change(&topics[index])
            units[0]["children"] = topics
            root["children"] = units
            doc["content"] = [root]
        }
        func firstSegment(_ doc: inout [String: Any], _ change: @escaping (inout [String: Any]) -> Void) {
            topic(&doc) { node in
                var transcript = node["transcript"] as! [String: Any]
                var segments = transcript["segments"] as! [[String: Any]]
                change(&segments[0])
                transcript["segments"] = segments
                node["transcript"] = transcript
            }
        }
        func firstAssessment(_ doc: inout [String: Any], _ change: @escaping (inout [String: Any]) -> Void) {
            topic(&doc) { node in
                var assessments = node["assessments"] as! [[String: Any]]
                change(&assessments[0])
                node["assessments"] = assessments
            }
        }
        let breakages: [Breakage] = [
            ("no-umcf", "`umcf` must be \"1.0.0\"", { $0["umcf"] = nil }),
            ("no-format-identifier", "`formatIdentifier` must be \"umcf\"", { $0["formatIdentifier"] = nil }),
            ("id-as-string", "$.id: an id must be an object {catalog, value}", { $0["id"] = "c-philosophy" }),
            ("root-unit", "the root node's type must be curriculum, not 'unit'", { doc in
                var root = (doc["content"] as! [[String: Any]])[0]
                root["type"] = "unit"
                doc["content"] = [root]
            }),
            ("two-roots", "must hold ONE root node", { doc in
                let content = doc["content"] as! [[String: Any]]
                var second = content[0]
                second["id"] = ["value": "another-root"]
                second["children"] = nil
                doc["content"] = content + [second]
            }),
            ("chapter-node", "'chapter' is not a node type", { doc in
                var root = (doc["content"] as! [[String: Any]])[0]
                var units = root["children"] as! [[String: Any]]
                units[0]["type"] = "chapter"
                root["children"] = units
                doc["content"] = [root]
            }),
            ("section-in-unit", "a unit's children must be topic, subtopic or lesson nodes, not 'section'", { topic(&$0) { $0["type"] = "section" } }),
            ("segment-type", "'narration' is not a segment type", { firstSegment(&$0) { $0["type"] = "narration" } }),
            ("no-segments", "a topic node needs transcript.segments (at least one)", { topic(&$0) { $0["transcript"] = ["segments": [Any]()] } }),
            ("checkpoint-prompt-only", "`question` is missing: write both `prompt` (schema) and `question` (app)", {
                firstSegment(&$0) { $0["checkpoint"] = ["type": "simple_confirmation", "prompt": "Does that make sense?"] }
            }),
            ("checkpoint-segment-bare", "a checkpoint segment needs a `checkpoint`", { firstSegment(&$0) { $0["type"] = "checkpoint" } }),
            ("feedback-object", "feedback: must be a plain string", { firstAssessment(&$0) { $0["feedback"] = ["correct": ["text": "Yes"]] } }),
            ("answer-array", "correctAnswer: must be a plain string", { firstAssessment(&$0) { $0["correctAnswer"] = ["The love of wisdom."] } }),
            ("prompt-only", "`question` is missing: write both", { firstAssessment(&$0) { $0["question"] = nil } }),
            ("hint-object", "hint: must be a plain string", { firstAssessment(&$0) { $0["hint"] = ["text": "Greek"] } }),
            ("date-without-time", "'2027-01-15' is not a full ISO 8601 date-time with a zone", { doc in
                var lifecycle = doc["lifecycle"] as! [String: Any]
                lifecycle["created"] = "2027-01-15"
                doc["lifecycle"] = lifecycle
            }),
            ("date-without-zone", "'2027-01-15T09:00:00' is not a full ISO 8601 date-time with a zone", { doc in
                var version = doc["version"] as! [String: Any]
                version["date"] = "2027-01-15T09:00:00"
                doc["version"] = version
            }),
            ("no-lifecycle", "`lifecycle` with `created` and `modified` is missing", { $0["lifecycle"] = nil }),
            ("two-units-of-time", "'PT1H30M' is not a duration in one unit", { topic(&$0) { $0["timeEstimates"] = ["intermediate": "PT1H30M"] } }),
            ("pause-after", "speakingNotes.pauseAfter: leave it out", { firstSegment(&$0) { $0["speakingNotes"] = ["pauseAfter": true] } }),
            ("coverage", "$.metadata.coverage: leave it out", { doc in
                var metadata = doc["metadata"] as! [String: Any]
                metadata["coverage"] = "global"
                doc["metadata"] = metadata
            }),
            ("content-text", "content text is never seen by the tutor", { topic(&$0) { $0["content"] = ["text": "What the tutor never sees"] } }),
            ("objective-id-string", "an id must be an object {catalog, value}", { topic(&$0, 1) { node in
                var objectives = node["learningObjectives"] as! [[String: Any]]
                objectives[0]["id"] = "o-1"
                node["learningObjectives"] = objectives
            } }),
            ("duplicate-node-id", "is also the id of $.content[0].children[0]", { topic(&$0) { $0["id"] = ["catalog": "lectern", "value": curriculum.units[0].stableId] } }),
            ("transcript-on-unit", "the app reads transcripts only from topic, subtopic and lesson nodes, not 'unit'", { doc in
                var root = (doc["content"] as! [[String: Any]])[0]
                var units = root["children"] as! [[String: Any]]
                units[0]["transcript"] = ["segments": [["id": "u-seg", "type": "lecture", "content": "Unseen"]]]
                root["children"] = units
                doc["content"] = [root]
            }),
            // Only the schema forbids these: they prove the jsonschema half runs.
            ("glossary-without-definition", "schema: 'definition' is a required property", { doc in
                var glossary = doc["glossary"] as! [String: Any]
                var terms = glossary["terms"] as! [[String: Any]]
                terms[0]["definition"] = nil
                glossary["terms"] = terms
                doc["glossary"] = glossary
            }),
            ("blooms-level", "schema: 'memorise' is not one of", { topic(&$0, 1) { node in
                var objectives = node["learningObjectives"] as! [[String: Any]]
                objectives[0]["bloomsLevel"] = "memorise"
                node["learningObjectives"] = objectives
            } }),
        ]
        var files: [URL] = [try write(valid, "valid.umcf")]
        for breakage in breakages {
            var doc = try json(valid)
            breakage.breakIt(&doc)
            let data = try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])
            files.append(try write(data, breakage.name + ".umcf"))
        }
        let result = try UMCFCheck.run(files)
        XCTAssertEqual(result.status, 1, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix(files[0].path + ": ") }, [files[0].path + ": valid"])
        for (breakage, file) in zip(breakages, files.dropFirst()) {
            let own = lines.filter { $0.hasPrefix(file.path + ": ") }
            XCTAssertTrue(own.contains { $0.contains(breakage.expected) }, "\(breakage.name): expected “\(breakage.expected)” in\n\(own.joined(separator: "\n"))")
            XCTAssertFalse(own.contains { $0.hasSuffix(": valid") }, breakage.name)
        }
        // The app's rules alone (--no-schema) still catch an app rule.
        let appOnly = try UMCFCheck.run([files[0], files[1]], schema: false)
        XCTAssertEqual(appOnly.status, 1)
        XCTAssertTrue(appOnly.stdout.contains("\(files[1].path): $: `umcf` must be \"1.0.0\""), appOnly.stdout)
    }
}
