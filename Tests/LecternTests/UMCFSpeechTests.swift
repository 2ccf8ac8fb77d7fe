import XCTest
@testable import Lectern

/// A UMCF topic as the UnaMentis tutor speaks it, from generated passages (no shared corpus):
/// segments of 100–2,000 characters cut at sentence ends, no figure credits or licence lines,
/// no sentence said twice, a checkpoint after every third segment asking a card about what was
/// just said, objectives on every topic, and the importer's analyzer rules
/// (Tests/Support/umcf_check.py --analyzer, ../shared/formats/umcf/NOTES.md) finding nothing.
final class UMCFSpeechTests: XCTestCase {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)
    static let uri = "file:///notes/cells.md"

    /// Sentence `n` of the generated text: distinct, about 90 characters, ending with a full stop.
    static func sentence(_ n: Int) -> String {
        "Statement \(n) says that the mitochondrion of cell number \(n) turns glucose into usable energy."
    }

    static func passage(_ ordinal: Int, _ text: String) -> Passage {
        Passage(id: Int64(100 + ordinal), documentId: 1, ordinal: ordinal, text: text, kind: .text,
                     sectionPath: ["Cells"], pageStart: nil, pageEnd: nil, pageLabel: nil, timeStart: nil, timeEnd: nil,
                     tokenCount: text.count / 4)
    }

    /// Seven passages: an opening, a 5,000-character one, a short one, one with a figure caption
    /// and its credit and a licence line, one repeating the last two sentences of that one (the
    /// chunker's overlap), and two plain ones.
    static let passages: [Passage] = [
        passage(0, (1...4).map(sentence).joined(separator: " ")),
        passage(1, (10...64).map(sentence).joined(separator: " ")),
        passage(2, "See the figure below."),
        passage(3, "Figure 3.2 A cell seen under a light microscope. (credit: “Cell (micrograph)” by A. Person/Flickr, CC BY 2.0)\n\n"
            + (70...73).map(sentence).joined(separator: " ") + "\n\nAccess for free at openstax.org"),
        passage(4, (72...76).map(sentence).joined(separator: " ")),
        passage(5, (80...83).map(sentence).joined(separator: " ")),
        passage(6, (90...93).map(sentence).joined(separator: " ")),
    ]

    /// Every sentence a learner should hear, once each, in order.
    static let spokenSentences = [1, 2, 3, 4] + Array(10...64) + [70, 71, 72, 73, 74, 75, 76] + Array(80...83) + Array(90...93)

    static func card(_ id: String, passage ordinal: Int) -> TopicAssessment {
        TopicAssessment(stableId: id, question: "What does statement \(ordinal) say?", answer: "Glucose becomes energy \(ordinal).",
                        hint: nil, passageId: Int64(100 + ordinal))
    }

    static func curriculum(objectives: Bool = true) -> Curriculum {
        let term = KeyTerm(term: "mitochondrion", definition: "The organelle that makes a cell's energy.", origin: .offline, passageId: 100)
        let taught = Topic(stableId: "t-cells", title: "Cells and energy", summary: "Cells turn glucose into energy.",
                           summaryOrigin: .offline,
                           objectives: objectives ? [LearningObjective(stableId: "o-1", statement: "Explain how a cell turns glucose into energy.",
                                                                       origin: .source)] : [],
                           keyTerms: [term], studyMinutes: 12, passages: passages, prerequisites: [])
        let introduction = Topic(stableId: "t-intro", title: "Introduction", summary: "", summaryOrigin: .offline, objectives: [],
                                 keyTerms: [], studyMinutes: 1,
                                 passages: [passage(9, (200...203).map(sentence).joined(separator: " "))], prerequisites: [])
        let source = CurriculumSource(documentId: 1, uri: uri, title: "Cell notes", type: .markdown, licence: nil, licenceURL: nil,
                                      contentHash: "0")
        return Curriculum(name: "cells", title: "Cells", stableId: "c-cells", sources: [source],
                          units: [CurriculumUnit(stableId: "u-cells", title: "Cells", topics: [introduction, taught])],
                          modelName: nil, createdAt: date, modifiedAt: date)
    }

    func topicNode(_ document: UMCFDocument, _ id: String) throws -> UMCFNode {
        try XCTUnwrap(document.content[0].children?.flatMap { $0.children ?? [] }.first { $0.id.value == id })
    }

    /// Segments a tutor can speak: each of 100–2,000 characters, the long passage cut between
    /// sentences, the short one joined to a neighbour, the caption, its credit and the licence
    /// line gone, every sentence said once in reading order; ids distinct and each part named
    /// in the provenance.
    func testSegmentsAreSpeakableAndSayEverySentenceOnce() throws {
        let document = UMCFExporter().document(Self.curriculum())
        let topic = try topicNode(document, "t-cells")
        let segments = try XCTUnwrap(topic.transcript?.segments)
        for segment in segments {
            XCTAssertTrue((100...2000).contains(segment.content.count), "\(segment.content.count) characters: \(segment.content.prefix(80))")
            XCTAssertTrue(segment.content.hasSuffix("."), "ends at a sentence end: …\(segment.content.suffix(60))")
        }
        let spoken = segments.map(\.content).joined(separator: "\n\n")
        for furniture in ["credit", "Flickr", "Access for free", "Figure 3.2"] {
            XCTAssertFalse(spoken.contains(furniture), "“\(furniture)” is not spoken")
        }
        XCTAssertTrue(spoken.contains("See the figure below."), "the short passage is kept, joined to a neighbour")
        var position = spoken.startIndex
        for n in Self.spokenSentences {
            let sentence = Self.sentence(n)
            XCTAssertEqual(spoken.components(separatedBy: sentence).count - 1, 1, "statement \(n) is said once")
            guard let found = spoken.range(of: sentence, range: position..<spoken.endIndex) else {
                XCTFail("statement \(n) comes after the ones before it"); continue
            }
            position = found.upperBound
        }
        XCTAssertGreaterThanOrEqual(segments.count, 6, "the 5,000 characters are cut into parts")
        XCTAssertEqual(Set(segments.map(\.id)).count, segments.count)
        let hash = ContentHash.shortId(Self.uri)
        XCTAssertTrue(segments.map(\.id).contains("t-cells-\(hash)-1-2"), segments.map(\.id).description)
        let provenance = try XCTUnwrap(topic.extensions?[UMCFExporter.provenanceNamespace]?.segments)
        XCTAssertEqual(Set(provenance.keys), Set(segments.map(\.id)))
        XCTAssertEqual(provenance["t-cells-\(hash)-1-2"]?.part, 2)
        XCTAssertTrue(provenance.values.contains { $0.joinedOrdinals?.contains(2) == true }, "the short passage is named where it was joined")

        // A recording's credit line alone is not spoken either (OCW's demonstration pages).
        XCTAssertEqual(SpokenText.clean("Instructor: Caleb Bonyun\n\nThe wheel keeps spinning. Instructor: the lab is open."),
                       "The wheel keeps spinning. Instructor: the lab is open.")
    }

    /// A checkpoint after every third segment, in both spellings, asking a card grounded in what
    /// the learner has heard (the card about the last passage is never asked before it is said),
    /// each card once; where no card fits, a teachback naming the key terms just spoken.
    func testCheckpointsAskCardsAboutWhatWasJustSaid() throws {
        let cards = ["t-cells": [Self.card("late", passage: 6), Self.card("first", passage: 0), Self.card("long", passage: 1)]]
        let document = UMCFExporter().document(Self.curriculum(), checkpointCards: cards)
        let topic = try topicNode(document, "t-cells")
        let segments = try XCTUnwrap(topic.transcript?.segments)
        let provenance = try XCTUnwrap(topic.extensions?[UMCFExporter.provenanceNamespace]?.segments)
        var heard = Set<Int>()
        var asked: [String] = []
        for (index, segment) in segments.enumerated() {
            let place = try XCTUnwrap(provenance[segment.id])
            heard.insert(place.ordinal)
            heard.formUnion(place.joinedOrdinals ?? [])
            XCTAssertEqual(segment.checkpoint != nil, (index + 1) % 3 == 0, "segment \(index + 1): a checkpoint after every third")
            guard let checkpoint = segment.checkpoint else { continue }
            XCTAssertEqual(checkpoint.prompt, checkpoint.question, "the schema's prompt and the app's question")
            if checkpoint.type == .comprehensionCheck {
                let ordinal = try XCTUnwrap(Int(checkpoint.question.filter(\.isNumber)))
                XCTAssertTrue(heard.contains(ordinal), "segment \(index + 1) asks about passage \(ordinal) only once it is said")
                XCTAssertEqual(checkpoint.expectedResponsePatterns, ["Glucose becomes energy \(ordinal)."])
                asked.append(checkpoint.question)
            } else {
                XCTAssertEqual(checkpoint.type, .teachback)
                XCTAssertEqual(checkpoint.evaluationCriteria?.requiredConcepts, ["mitochondrion"])
                XCTAssertTrue(checkpoint.question.contains("mitochondrion"), checkpoint.question)
            }
        }
        XCTAssertEqual(asked.count, Set(asked).count, "each card asked once")
        XCTAssertEqual(asked.count, min(3, segments.count / 3), "every card fits a checkpoint")

        // The introduction (one segment) has no checkpoint; without cards, every checkpoint is a teachback.
        XCTAssertNil(try topicNode(document, "t-intro").transcript?.segments.first?.checkpoint)
        let bare = try topicNode(UMCFExporter().document(Self.curriculum()), "t-cells")
        let kinds = bare.transcript?.segments.compactMap(\.checkpoint?.type) ?? []
        XCTAssertEqual(kinds.count, segments.count / 3)
        XCTAssertEqual(Set(kinds), [.teachback])
    }

    /// A topic without objectives of its own carries its unit's, marked inherited with ids of
    /// its own; a topic with its own keeps only those.
    func testATopicWithoutObjectivesCarriesItsUnits() throws {
        let document = UMCFExporter().document(Self.curriculum())
        let introduction = try XCTUnwrap(try topicNode(document, "t-intro").learningObjectives)
        XCTAssertEqual(introduction.map(\.statement), ["Explain how a cell turns glucose into energy."])
        XCTAssertEqual(introduction.map(\.id), [UMCFIdentifier(catalog: UMCFExporter.inheritedCatalog, value: "t-intro-o-1")])
        XCTAssertEqual(introduction.first?.bloomsLevel, "understand")
        XCTAssertEqual(try topicNode(document, "t-cells").learningObjectives?.map(\.id), [.lectern("o-1")])
    }

    /// The importer's analyzer rules find nothing in the export; and the checker catches each
    /// rule when the export is broken one rule at a time.
    func testTheAnalyzerFindsNothingAndCatchesEachRule() throws {
        let cards = ["t-cells": [Self.card("first", passage: 0)]]
        let data = try UMCFExporter().export(Self.curriculum(), checkpointCards: cards)
        let folder = try TemporaryFolder()
        let file = try folder.write("cells.umcf", data)
        try UMCFCheck.assertValid([file], schema: false, analyzer: true)

        func broken(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> URL {
            var doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            var root = (doc["content"] as! [[String: Any]])[0]
            var units = root["children"] as! [[String: Any]]
            var topics = units[0]["children"] as! [[String: Any]]
            change(&topics[1])
            units[0]["children"] = topics
            root["children"] = units
            doc["content"] = [root]
            return try folder.write(name, try JSONSerialization.data(withJSONObject: doc))
        }
        func segments(_ topic: inout [String: Any], _ change: (inout [[String: Any]]) -> Void) {
            var transcript = topic["transcript"] as! [String: Any]
            var list = transcript["segments"] as! [[String: Any]]
            change(&list)
            transcript["segments"] = list
            topic["transcript"] = transcript
        }
        let cases: [(String, String, (inout [String: Any]) -> Void)] = [
            ("long", "over 2,000", { topic in segments(&topic) { $0[1]["content"] = String(repeating: "Word and word. ", count: 150) } }),
            ("short", "under 100", { topic in segments(&topic) { $0[1]["content"] = "Too short." } }),
            ("no-checkpoint", "no checkpoint", { topic in segments(&topic) { list in for i in list.indices { list[i]["checkpoint"] = nil } } }),
            ("no-objectives", "no learningObjectives", { $0["learningObjectives"] = nil }),
            ("no-time", "no time estimate", { $0["timeEstimates"] = nil }),
        ]
        for (name, expected, change) in cases {
            let result = try UMCFCheck.run([try broken(name + ".umcf", change)], schema: false, analyzer: true)
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.stdout.contains("analyzer: ") && result.stdout.contains(expected), "\(name): \(result.stdout)")
        }
    }
}

/// The project's own corpora (PDFs, notes, lecture transcripts) built and exported from the
/// command line as a user does it: the importer's analyzer finds nothing (no segment over
/// 2,000 characters, no topic of three or more segments without a checkpoint, none without
/// objectives or a time estimate), and the file passes the schema where ../shared has it.
final class UMCFCorporaAnalyzerTests: XCTestCase {
    func testTheCorporaExportPassesTheImportersAnalyzer() throws {
        try TestPaths.requireLecternBinary()
        let folder = try TemporaryFolder()
        func lectern(_ arguments: String...) throws -> CommandResult { try runLectern(arguments, in: folder.url) }
        let ingest = try lectern("ingest", TestPaths.corpora.path)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let build = try lectern("curriculum", "build", "corpora", TestPaths.corpora.path)
        XCTAssertEqual(build.status, 0, build.stderr)
        let export = try lectern("curriculum", "export", "corpora", "-o", "corpora.umcf")
        XCTAssertEqual(export.status, 0, export.stderr)
        let file = folder.file("corpora.umcf")
        let schema = (try? UMCFCheck.schema()) != nil
        try UMCFCheck.assertValid([file], schema: schema, analyzer: true)

        let umcf = try JSONDecoder().decode(UMCFDocument.self, from: try Data(contentsOf: file))
        let topics = umcf.content[0].children?.flatMap { $0.children ?? [] } ?? []
        let segments = topics.flatMap { $0.transcript?.segments ?? [] }
        XCTAssertGreaterThan(topics.count, 5)
        XCTAssertFalse(segments.contains { $0.content.count > 2000 })
        let long = topics.filter { ($0.transcript?.segments.count ?? 0) >= 3 }
        XCTAssertFalse(long.isEmpty, "a topic of three or more segments to check")
        for topic in long {
            let checkpoints = topic.transcript?.segments.compactMap(\.checkpoint) ?? []
            XCTAssertFalse(checkpoints.isEmpty, topic.title)
            XCTAssertTrue(checkpoints.allSatisfy { $0.prompt == $0.question && !$0.question.isEmpty }, topic.title)
        }
        XCTAssertTrue(topics.allSatisfy { !($0.learningObjectives ?? []).isEmpty }, "every topic has objectives")
    }
}
