import XCTest
@testable import Lectern

/// A curriculum built with a language model configured (llama.cpp's server with Gemma 3 270M on
/// 127.0.0.1): the topics of a recording without structure, found by content, get the model's
/// titles and objectives instead of the offline key phrases, the UMCF export names them as the
/// model's, and building the same topics again costs no new model call.
final class CurriculumModelTests: LocalModelTestCase {
    func testATranscriptTopicGetsTheModelsTitleAndObjectivesAndARebuildIsFree() throws {
        let server = try runningServer()
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        let lecture = try Self.recording(in: folder)
        XCTAssertEqual(Ingestor(store: store, embedder: try MiniLMFixtures.embedder()).ingest([lecture], recorder: nil) { _ in }.stored, 1)

        // Offline first: key-phrase titles, offline objectives; topics where the subject shifts.
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "offline", sources: [lecture], recorder: nil) { _ in }
        let offlineTopics = try XCTUnwrap(try store.curriculum(named: "offline")?.topics)
        print("offline: \(offlineTopics.map(\.title)), passages \(offlineTopics.map(\.passages.count))")
        XCTAssertGreaterThanOrEqual(offlineTopics.count, 2, "\(offlineTopics.map(\.title))")
        XCTAssertTrue(offlineTopics.allSatisfy { $0.titleOrigin == .offline })

        func build(_ name: String) throws -> (Curriculum, [ModelCallRecord], [PipelineEvent]) {
            let recorder = try RunRecorder(store: store, command: "curriculum build", arguments: [name])
            let model = LibraryModel(try server.languageModel(), store: store, recorder: recorder, useCache: true)
            // The summary's answer is cut off at 24 tokens (the call is still made, recorded and
            // cached; the offline summary stands): this test reads the titles and objectives, and
            // RealModelTests reads whole summaries. At 512, Gemma wrote ~430 tokens a summary.
            let summarizer = ModelSummarizer(model, maxTokens: 24)
            let log = EventLog()
            _ = try CurriculumBuilder(store: store, summarizer: summarizer, modelName: summarizer.model)
                .build(name: name, sources: [lecture], recorder: recorder) { log.append($0) }
            recorder.finish()
            return (try XCTUnwrap(try store.curriculum(named: name)), try store.modelCalls(run: recorder.id), log.events)
        }
        let (curriculum, calls, events) = try build("model")
        let warnings = events.filter { $0.event == .warning }.compactMap(\.message)
        for (topic, offline) in zip(curriculum.topics, offlineTopics) {
            print("model: \(topic.title) \(topic.objectives.map(\.statement)) (offline: \(offline.title) \(offline.objectives.map(\.statement)))")
        }
        print("warnings: \(warnings)")
        XCTAssertEqual(calls.count, 2 * curriculum.topics.count, "per topic, one call for the title and objectives and one for the summary")
        XCTAssertEqual(curriculum.topics.count, offlineTopics.count, "the same cut")
        // What the model wrote is used where it is about the text; where not, the offline one
        // stands and the build says so.
        let titled = curriculum.topics.filter { $0.titleOrigin == .model }
        XCTAssertFalse(titled.isEmpty, "the model titled a topic")
        XCTAssertEqual(warnings.count, curriculum.topics.filter { $0.titleOrigin != .model || $0.objectives.contains { $0.origin != .model } }.count, "\(warnings)")
        for (topic, offline) in zip(curriculum.topics, offlineTopics) where topic.titleOrigin == .model {
            XCTAssertNotEqual(topic.title, offline.title, "the model's title, not the key phrases")
            XCTAssertFalse(topic.title.isEmpty)
            XCTAssertLessThanOrEqual(topic.title.split(separator: " ").count, KeyPhrases.maximumWords + 2, topic.title)
        }
        for objective in curriculum.topics.flatMap(\.objectives) where objective.origin == .model {
            XCTAssertTrue(ModelTopicWriter.verbs.contains(String(objective.statement.split(separator: " ").first ?? "")), objective.statement)
        }
        let topic = try XCTUnwrap(titled.first)

        // The UMCF export says which parts the model wrote.
        let umcf = try JSONSerialization.jsonObject(with: UMCFExporter().export(curriculum)) as? [String: Any]
        let provenance = try XCTUnwrap(umcf?["sourceProvenance"] as? [String: Any])
        let parts = try XCTUnwrap((provenance["aiGenerationMetadata"] as? [String: Any])?["generatedParts"] as? [[String: Any]])
        XCTAssertTrue(parts.contains { $0["nodeId"] as? String == topic.stableId && $0["field"] as? String == "title" && $0["method"] as? String == "model" },
                      "\(parts)")

        // The same topics built again (another curriculum of the same lecture): the cache answers.
        let (again, repeated, _) = try build("model-again")
        XCTAssertEqual(repeated.count, calls.count)
        XCTAssertTrue(repeated.allSatisfy(\.cached), "no new model call")
        XCTAssertEqual(again.topics.map(\.title), curriculum.topics.map(\.title))
        XCTAssertEqual(again.topics.map { $0.objectives.map(\.statement) }, curriculum.topics.map { $0.objectives.map(\.statement) })
    }

    /// A recording of three subjects without any structure: the project's photosynthesis,
    /// printing-press and chain-rule notes read aloud one after the other, a sentence per cue.
    static func recording(in folder: TemporaryFolder) throws -> String {
        var cues: [String] = []
        var second = 0
        for name in ["notes/photosynthesis.md", "notes/printing-press.txt", "notes/chain-rule.md"] {
            let text = try String(contentsOf: TestPaths.corpora.appendingPathComponent(name), encoding: .utf8)
            let prose = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("- ") }.joined(separator: " ")
            for sentence in prose.components(separatedBy: ". ") where sentence.split(separator: " ").count > 3 {
                func clock(_ s: Int) -> String { String(format: "00:%02d:%02d,000", s / 60, s % 60) }
                cues.append("\(cues.count + 1)\n\(clock(second)) --> \(clock(second + 5))\n\(sentence.trimmingCharacters(in: .whitespaces))")
                second += 5
            }
        }
        try folder.write("recording.srt", cues.joined(separator: "\n\n") + "\n")
        return folder.file("recording.srt").path
    }
}
