import Foundation
import XCTest
@testable import Lectern

/// A hit's snippet: the window of its passage with the most query words, and where they stand.
/// The window is found on Unicode scalars where each is a Character of its own (most text), and
/// on Characters otherwise; both must give the same snippet, offsets counted in Characters.
final class SnippetTests: XCTestCase {
    /// Paragraphs of the project's notes and transcripts, and of the shared corpus's Wikipedia
    /// and OpenStax pages when it is there.
    private func realTexts() throws -> [String] {
        var texts: [String] = []
        let files = FileManager.default.enumerator(at: TestPaths.corpora, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { ["md", "srt", "vtt", "txt"].contains($0.pathExtension) } ?? []
        for file in files {
            texts += try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n\n")
        }
        if let shared = try? TestPaths.sharedCorpus("wikipedia") {
            let pages = FileManager.default.enumerator(at: shared, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" }.prefix(6) ?? []
            for page in pages {
                let html = try String(contentsOf: page, encoding: .utf8)
                // Tags out, roughly: the point is real non-ASCII prose, not clean text.
                let text = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
                texts += stride(from: 0, to: text.count, by: 1500).prefix(40).map { start in
                    String(text.dropFirst(start).prefix(1500))
                }
            }
        }
        return texts.filter { $0.count > 40 }
    }

    /// Query terms from a text's own words (as search folds them), so that most snippets have hits.
    private func terms(of text: String, every step: Int) -> [String] {
        let words = WordTokenizer.words(text).map(WordTokenizer.fold)
        return stride(from: 3, to: words.count, by: step).prefix(3).map { words[$0] }
    }

    func testScalarWindowIsTheCharacterWindowOnRealText() throws {
        let texts = try realTexts()
        XCTAssertGreaterThan(texts.count, 50)
        var scalarPath = 0
        var withHighlights = 0
        for text in texts {
            for step in [7, 31] {
                let words = terms(of: text, every: step)
                let fast = Snippet.make(text, terms: words)
                let reference = Snippet.makeByCharacters(text, terms: words)
                XCTAssertEqual(fast.text, reference.text, String(text.prefix(80)))
                XCTAssertEqual(fast.highlights, reference.highlights, String(text.prefix(80)))
                if !fast.highlights.isEmpty { withHighlights += 1 }
            }
            if Snippet.singleScalarCharacters(TextCleanup.collapseWhitespace(text)) != nil { scalarPath += 1 }
        }
        XCTAssertGreaterThan(scalarPath, texts.count / 2, "most real text takes the scalar path")
        XCTAssertGreaterThan(withHighlights, texts.count, "most snippets show the query's words")
    }

    /// Scalars that join the Character before them (a combining accent, a joiner, a variation
    /// selector, a second regional indicator) send the text to the Character path, and the
    /// offsets still count Characters.
    func testTextWhoseCharactersSpanScalarsKeepsCharacterOffsets() {
        let padding = String(repeating: "filler words around the point ", count: 12)
        let cases: [(text: String, term: String, scalarPath: Bool)] = [
            (padding + "the café’s “energy” budget, 5 µm and Δx ≥ 0 " + padding, "energy", true),
            (padding + "the cafe\u{301} sells energy bars " + padding, "energy", false),
            (padding + "a family 👩‍👩‍👧 spends energy " + padding, "energy", false),
            (padding + "🇫🇷 flags and energy ❤️ here " + padding, "energy", false),
            (padding + "Ελληνικά λόγια για την ενέργεια energy " + padding, "energy", true),
        ]
        for (text, term, scalarPath) in cases {
            XCTAssertEqual(Snippet.singleScalarCharacters(TextCleanup.collapseWhitespace(text)) != nil, scalarPath, text)
            let snippet = Snippet.make(text, terms: [term])
            XCTAssertEqual(snippet.text.count <= 222, true, "a window of at most 220 characters and two ellipses")
            XCTAssertEqual(snippet.highlights.count, 1, snippet.text)
            let characters = Array(snippet.text)
            for highlight in snippet.highlights {
                XCTAssertEqual(String(characters[highlight[0]..<(highlight[0] + highlight[1])]), term, snippet.text)
            }
            XCTAssertEqual(snippet.text, Snippet.makeByCharacters(text, terms: [term]).text)
        }
    }
}
