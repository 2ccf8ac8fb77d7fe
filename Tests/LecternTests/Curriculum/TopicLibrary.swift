import Foundation
import XCTest
@testable import Lectern

/// Real documents ingested the way `lectern ingest` does (in process), read back as the
/// curriculum builder sees them: each document's passages as the store gives them, with their stored
/// vectors. One library per embedder and document set, built once per test process.
final class TopicLibrary: @unchecked Sendable {
    struct Document {
        var title: String
        var uri: String
        var passages: [Passage]
        var vectors: [[Float]]

        var tokenCounts: [Int] { passages.map(\.tokenCount) }
    }

    let folder: TemporaryFolder
    let store: LibraryStore
    let embedder: any Embedder
    private(set) var documents: [Document] = []

    init(paths: [String], embedder: any Embedder) throws {
        folder = try TemporaryFolder()
        store = try LibraryStore(path: folder.file("library.db").path)
        self.embedder = embedder
        let summary = Ingestor(store: store, embedder: embedder).ingest(paths, recorder: nil) { _ in }
        XCTAssertEqual(summary.failed, 0, "every document ingests")
        let index = try store.vectorIndex(for: embedder.info)
        var slot: [Int64: Int] = [:]
        for (position, id) in index.ids.enumerated() { slot[id] = position }
        for stored in try store.allDocuments() {
            let passages = try store.passages(documentId: stored.id)
            let vectors = passages.map { passage -> [Float] in
                guard let position = slot[passage.id] else { return [] }
                return Array(index.vectors[(position * index.dimension)..<((position + 1) * index.dimension)])
            }
            documents.append(Document(title: stored.title, uri: stored.uri, passages: passages, vectors: vectors))
        }
    }

    /// The document whose URI ends with `suffix` (a file name, or an OpenStax module's path).
    func document(_ suffix: String) throws -> Document {
        try XCTUnwrap(documents.first { $0.uri.hasSuffix(suffix) }, "\(suffix) is in the library: \(documents.map(\.uri))")
    }

    // MARK: Shared libraries

    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: TopicLibrary] = [:]

    /// One library per key for the whole test run: MiniLM embeds each document once.
    static func shared(_ key: String, _ make: () throws -> TopicLibrary) throws -> TopicLibrary {
        lock.lock()
        defer { lock.unlock() }
        if let library = built[key] { return library }
        let library = try make()
        built[key] = library
        return library
    }

    /// The project's corpora, two of the shared lecture subtitles, and one recording of three
    /// real lectures played one after the other (the Hugging Face course's "What is transfer
    /// learning?", OCW 8.01SC's "Friction at the Nanoscale", ~5,000 words, and the course's
    /// "The carbon footprint of Transformers"), saved as an OCW timed-transcript page; all
    /// embedded with MiniLM, once per test run.
    static func lectures() throws -> TopicLibrary {
        let embedder = try MiniLMFixtures.embedder()
        let transcripts = try TestPaths.sharedCorpus("transcripts")
        let course = try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json")
        return try shared("lectures") {
            let extra = try TemporaryFolder()
            let parts = [try srtCues(transcripts.appendingPathComponent("hf-course-03_what-is-transfer-learning.srt")),
                         try ocwCues(course: course, titlePrefix: "DD.1.1"),
                         try srtCues(transcripts.appendingPathComponent("hf-course-02_the-carbon-footprint-of-transformers.srt"))]
            try extra.write(recordingName, timedPage(title: "Lecture recording", parts: parts))
            let library = try TopicLibrary(paths: [
                TestPaths.corpora.path, extra.file(recordingName).path,
                transcripts.appendingPathComponent("hf-course-04_the-transformer-architecture.srt").path,
                transcripts.appendingPathComponent("hf-course-05_transformer-models-encoders.srt").path,
            ], embedder: embedder)
            library.keep = extra
            library.recordingStarts = parts.map { $0.first.map { $0.text.split(separator: " ").prefix(5).joined(separator: " ") } ?? "" }
            return library
        }
    }

    /// The shared OpenStax book (Introduction to Philosophy) with the hashing embedder: its
    /// passages are the point (objectives, glossaries, key terms), not its vectors.
    static func openStax() throws -> TopicLibrary {
        let book = try TestPaths.sharedCorpus("openstax/introduction-philosophy")
        return try shared("openstax") { try TopicLibrary(paths: [book.path], embedder: HashingEmbedder()) }
    }

    /// The project's corpora with the hashing embedder (for tests about text, not vectors).
    static func corpora() throws -> TopicLibrary {
        try shared("corpora") { try TopicLibrary(paths: [TestPaths.corpora.path], embedder: HashingEmbedder()) }
    }

    /// The passages of one OpenStax module, by its title ("1.2 How Do Philosophers Arrive at Truth?").
    func module(_ title: String) throws -> [Passage] {
        let passages = documents.flatMap(\.passages).filter { $0.sectionPath.count > 1 && $0.sectionPath[1] == title }
        XCTAssertFalse(passages.isEmpty, "module \(title) is in the book")
        return passages
    }

    static let recordingName = "lecture-recording.html"
    /// The first words of each lecture of the recording.
    private(set) var recordingStarts: [String] = []

    /// Where each lecture of the recording starts: the first passage holding its first words.
    func recordingJoins() throws -> (recording: Document, starts: [Int]) {
        let recording = try document(Self.recordingName)
        let starts = try recordingStarts.map { words in
            try XCTUnwrap(recording.passages.firstIndex { $0.text.contains(words) }, "the recording holds \(words)")
        }
        return (recording, starts)
    }

    typealias Cue = (seconds: Double, text: String)

    /// The spoken cues of an SRT file (sound tags such as "(logo whooshing)" left out).
    static func srtCues(_ url: URL) throws -> [Cue] {
        var text = try String(contentsOf: url, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard let timing = lines.firstIndex(where: { $0.contains(" --> ") }) else { return nil }
            let clock = lines[timing].components(separatedBy: " --> ")[0].replacingOccurrences(of: ",", with: ".")
                .split(separator: ":").compactMap { Double($0) }
            let words = lines[(timing + 1)...].joined(separator: " ").trimmingCharacters(in: .whitespaces)
            guard clock.count == 3, !words.isEmpty, !words.hasPrefix("(") else { return nil }
            let spoken = words.hasPrefix("- ") ? String(words.dropFirst(2)) : words
            return (clock[0] * 3600 + clock[1] * 60 + clock[2], spoken)
        }
    }

    /// The cues of an OCW lecture's timed transcript (`<span m='4190'>words</span>`).
    static func ocwCues(course: URL, titlePrefix: String) throws -> [Cue] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: course)) as? [String: Any]
        let media = try XCTUnwrap(json?["course_embedded_media"] as? [String: [String: Any]])
        let lecture = try XCTUnwrap(media.values.first { ($0["title"] as? String)?.hasPrefix(titlePrefix) == true })
        let transcript = try XCTUnwrap(lecture["transcript"] as? String)
        let regex = try NSRegularExpression(pattern: "<span m='(\\d+)'>([^<]*)</span>")
        return regex.matches(in: transcript, range: NSRange(transcript.startIndex..., in: transcript)).compactMap { match in
            guard let ms = Range(match.range(at: 1), in: transcript).flatMap({ Double(transcript[$0]) }),
                  let words = Range(match.range(at: 2), in: transcript).map({ String(transcript[$0]) }),
                  !words.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return (ms / 1000, words.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Lectures one after another as one timed page, each starting after the one before ends.
    static func timedPage(title: String, parts: [[Cue]]) -> String {
        var body = ""
        var offset = 0.0
        for cues in parts {
            for cue in cues {
                let escaped = cue.text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                body += "<p><span m='\(Int((offset + cue.seconds) * 1000))'>\(escaped)</span></p>\n"
            }
            offset += (cues.last?.seconds ?? 0) + 5
        }
        return "<html><head><title>\(title)</title></head><body>\(body)</body></html>"
    }

    private var keep: TemporaryFolder?
}
