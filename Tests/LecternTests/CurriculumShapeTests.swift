import XCTest
@testable import Lectern

/// The shape a curriculum takes from real sources other than the book: an OCW course (weekly
/// pages of lectures with their transcripts), a PDF with an outline (chapters → sections, its
/// front and back matter left out), a long transcript without structure (cut where the subject
/// shifts), and a rebuild after one source changed (only its topics made again, ids kept).
/// The library (hashing embedder) is SharedCorpusLibrary's, with the recording added once.
final class CurriculumShapeTests: XCTestCase {
    nonisolated(unsafe) static var library: (folder: TemporaryFolder, store: LibraryStore)?
    static let lectures = ["hf-course-01_the-pipeline-function", "hf-course-02_the-carbon-footprint-of-transformers",
                           "hf-course-03_what-is-transfer-learning", "hf-course-05_transformer-models-encoders"]

    static func shared() throws -> (folder: TemporaryFolder, store: LibraryStore) {
        let corpus = try TestPaths.sharedCorpus()
        if let library { return library }
        let folder = try TemporaryFolder()
        // Four real lecture subtitle files played one after another: one recording of four subjects.
        var cues: [String] = []
        var offset = 0.0
        for name in lectures {
            let text = try String(contentsOf: corpus.appendingPathComponent("transcripts/\(name).srt"), encoding: .utf8)
            var end = offset
            for block in text.replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
                let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                guard lines.count >= 3, let arrow = lines[1].range(of: " --> ") else { continue }
                let start = seconds(String(lines[1][..<arrow.lowerBound])) + offset
                let stop = seconds(String(lines[1][arrow.upperBound...])) + offset
                end = max(end, stop)
                cues.append("\(cues.count + 1)\n\(clock(start)) --> \(clock(stop))\n" + lines[2...].joined(separator: "\n"))
            }
            offset = end + 2
        }
        try folder.write("recording/lectures.srt", cues.joined(separator: "\n\n") + "\n")
        // The course and the PDF are in the shared library already; the recording joins them.
        let store = try SharedCorpusLibrary.load().store
        let ingest = Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("recording/lectures.srt").path], recorder: nil) { _ in }
        XCTAssertEqual(ingest.stored, 1)
        library = (folder, store)
        return (folder, store)
    }

    static func seconds(_ stamp: String) -> Double {
        let parts = stamp.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        return (Double(parts[0]) ?? 0) * 3600 + (Double(parts[1]) ?? 0) * 60 + (Double(parts[2]) ?? 0)
    }

    static func clock(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d,%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }

    func build(_ name: String, _ sources: [String]) throws -> Curriculum {
        _ = try Self.shared()
        return try SharedCorpusLibrary.load().curriculum(name, sources: sources)
    }

    func testAnOCWCourseGivesItsWeeksAsUnitsAndItsLecturePagesAsTopics() throws {
        _ = try Self.shared()
        let course = try build("mechanics", [try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path])
        let units = course.units.map(\.title)
        XCTAssertEqual(units.first, "Review: Vectors")
        XCTAssertEqual(Array(units.dropFirst().prefix(3)), ["Week 1: Kinematics", "Week 2: Newton's Laws", "Week 3: Circular Motion"], "\(units)")
        // The course site's own pages are not units.
        for page in ["Syllabus", "Course Home", "Course Description", "Readings", "Assignments"] {
            XCTAssertFalse(units.contains(page), page)
        }
        let week1 = try XCTUnwrap(course.units.first { $0.title == "Week 1: Kinematics" })
        let velocity = try XCTUnwrap(week1.topics.first { $0.title == "1.4 Average Velocity in 1D" }, "\(week1.topics.map(\.title))")
        // A lecture topic holds its transcript, timed.
        XCTAssertTrue(velocity.passages.contains { $0.timeStart != nil && $0.kind == .transcript }, "\(velocity.passages.map(\.kind))")
        XCTAssertLessThan(week1.topics.firstIndex { $0.title == "1.4 Average Velocity in 1D" } ?? 99,
                          week1.topics.firstIndex { $0.title == "3.4 Projectile Motion" } ?? -1)
    }

    func testAPDFWithAnOutlineGivesItsChaptersAndSections() throws {
        _ = try Self.shared()
        let notes = try build("geotopo", [try TestPaths.sharedCorpus("pdf/pypdf-GeoTopo-komprimiert.pdf").path])
        XCTAssertEqual(notes.units.map(\.title).prefix(5), ["1 Topologische Grundbegriffe", "2 Mannigfaltigkeiten und Simplizialkomplexe",
                                                            "3 Fundamentalgruppe und Überlagerungen", "4 Euklidische und nichteuklidische Geometrie",
                                                            "5 Krümmung"])
        XCTAssertEqual(notes.units[0].topics.map(\.title).prefix(3), ["1.1 Topologische Räume", "1.2 Metrische Räume", "1.3 Stetigkeit"])
        // The title page and foreword, the index and the picture credits are not taught.
        let titles = notes.units.map(\.title) + notes.topics.map(\.title)
        for matter in ["Geometrie und Topologie", "Stichwortverzeichnis", "Bildquellen", "Abkürzungsverzeichnis"] {
            XCTAssertFalse(titles.contains(matter), matter)
        }
        XCTAssertTrue(notes.topics.allSatisfy { $0.passages.allSatisfy { $0.pageStart != nil } })
    }

    func testATranscriptWithoutStructureIsCutWhereItsSubjectShifts() throws {
        let (folder, _) = try Self.shared()
        let recording = try build("recording", [folder.file("recording/lectures.srt").path])
        let topics = recording.topics
        let passages = topics.flatMap(\.passages)
        XCTAssertGreaterThanOrEqual(passages.count, 12)
        XCTAssertGreaterThanOrEqual(topics.count, 3, "\(topics.map(\.title))")
        XCTAssertLessThan(topics.count, passages.count / 2, "\(topics.map(\.title))")
        // In reading order, every passage once, each topic titled by its key phrases.
        XCTAssertEqual(passages.map(\.ordinal), Array(passages.map(\.ordinal).sorted()))
        XCTAssertEqual(Set(passages.map(\.id)).count, passages.count)
        XCTAssertEqual(Set(topics.map(\.title)).count, topics.count, "\(topics.map(\.title))")
        XCTAssertFalse(topics.contains { $0.title == "lectures" })
    }

    func testAChangedSourceRebuildsOnlyItsTopicsAndKeepsTheirIds() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("notes.db").path)
        let notes = ["chain-rule.md", "photosynthesis.md"]
        for name in notes {
            try folder.write("notes/" + name, try Data(contentsOf: TestPaths.corpora.appendingPathComponent("notes/" + name)))
        }
        let ingestor = Ingestor(store: store, embedder: HashingEmbedder())
        _ = ingestor.ingest([folder.file("notes").path], recorder: nil) { _ in }
        let builder = CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
        let first = try builder.build(name: "notes", sources: [folder.file("notes").path], recorder: nil) { _ in }
        let before = try XCTUnwrap(try store.curriculum(named: "notes"))
        XCTAssertEqual(before.units.map(\.title), ["Differentiation: the chain rule", "Photosynthesis"])
        XCTAssertEqual(first.rebuiltTopics, before.topics.count)

        // One line of the photosynthesis notes changes; the chain rule's topics stay as they were.
        let path = folder.file("notes/photosynthesis.md")
        let text = try String(contentsOf: path, encoding: .utf8)
        try text.replacingOccurrences(of: "Chlorophyll a is the main pigment.", with: "Chlorophyll a is the main pigment of plants.")
            .write(to: path, atomically: true, encoding: .utf8)
        _ = ingestor.ingest([folder.file("notes").path], recorder: nil) { _ in }
        let second = try builder.build(name: "notes", sources: [folder.file("notes").path], recorder: nil) { _ in }
        let after = try XCTUnwrap(try store.curriculum(named: "notes"))
        XCTAssertFalse(second.unchanged)
        XCTAssertEqual(second.keptTopics, before.units[0].topics.count)
        XCTAssertEqual(second.rebuiltTopics, before.units[1].topics.count)
        XCTAssertEqual(after.units[0].topics, before.units[0].topics.map { var topic = $0; topic.prerequisites = after.units[0].topics.first { $0.stableId == topic.stableId }?.prerequisites ?? []; return topic })
        XCTAssertEqual(after.topics.map(\.stableId), before.topics.map(\.stableId), "stable ids survive the rebuild")
        XCTAssertTrue(after.topics.contains { $0.passages.contains { $0.text.contains("main pigment of plants") } })
        XCTAssertEqual(after.createdAt, before.createdAt)
    }
}
