import Foundation
import XCTest
@testable import Lectern

/// What one search hit costs does not grow with the size of its document: a hit in a book of a
/// thousand sections reads as much of the library as a hit in a page of ten. Counted in SQLite's
/// virtual-machine steps (every row and index entry a statement visits), not timed.
final class SearchCostTests: CommandTestCase {
    /// A web page of `sections` sections, each heading with its anchor, the word "quokka" in
    /// the last one only.
    func page(sections: Int) -> String {
        var html = """
            <html><head><title>Field guide</title><link rel="canonical" href="https://example.org/guide"></head>
            <body><h1>Field guide</h1>

            """
        for section in 1...sections {
            let animal = section == sections ? "The quokka smiles at visitors on Rottnest Island." : "An ordinary animal of chapter \(section) eats leaves."
            // Long enough (over ChunkSettings.minTokens) to be a passage of its own section.
            html += "<h2 id=\"sec-\(section)\">Section \(section)</h2>\n<p>\(animal) It lives in the bush and sleeps by day. "
                + "It drinks little water and keeps to the shade when the sun is high. Its young ride in a pouch for months. "
                + "Visitors who feed it do it harm, since bread and crisps are no food for it.</p>\n"
        }
        return html + "</body></html>\n"
    }

    /// A lecture of `cues` cues, two speakers taking turns, the word "quokka" in the last cue.
    func lecture(cues: Int) -> String {
        var vtt = "WEBVTT\n\n"
        for cue in 0..<cues {
            let speaker = cue % 2 == 0 ? "Ada" : "Ben"
            let words = cue == cues - 1 ? "And the quokka smiles at visitors." : "Point number \(cue) about leaves and bush."
            vtt += "\(TimeFormat.clock(Double(cue * 4))).000 --> \(TimeFormat.clock(Double(cue * 4 + 4))).000\n<v \(speaker)>\(words)</v>\n\n"
        }
        return vtt
    }

    /// The top hit for "quokka" in a library of one document, and the steps SQLite took to
    /// read it as a user sees it (its passage, location, speaker and link), apart from ranking
    /// it (which FTS5 does in steps that grow with its index's segments, not with documents).
    func quokka(_ file: String, _ contents: String) throws -> (hit: SearchHit, steps: Int) {
        try folder.write(file, contents)
        let library = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + ".db"
        let ingest = try runLectern(["ingest", file, "--db", library], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let store = try LibraryStore(path: folder.file(library).path, access: .read)
        let searcher = Searcher(store: store, embedder: HashingEmbedder())
        let top = try XCTUnwrap(try searcher.search("quokka", k: 1, mode: .keyword).first, "no hit in \(file)")
        let ranked = [Searcher.RankedPassage(id: top.passageId, score: top.score, bm25: top.bm25, keywordRank: 1)]
        // Once to prepare the statements; the second time is counted.
        _ = try searcher.hits(ranked, terms: ["quokka"])
        let (hits, steps) = try store.countingSteps { try searcher.hits(ranked, terms: ["quokka"]) }
        XCTAssertEqual(hits.first?.link, top.link)
        return (try XCTUnwrap(hits.first), steps)
    }

    func testAHitInABookOfAThousandSectionsReadsNoMoreThanOneInTen() throws {
        let small = try quokka("page10.html", page(sections: 10))
        let large = try quokka("page1000.html", page(sections: 1000))
        XCTAssertEqual(small.hit.link, "https://example.org/guide#sec-10")
        XCTAssertEqual(large.hit.link, "https://example.org/guide#sec-1000")
        XCTAssertLessThanOrEqual(large.steps, small.steps + small.steps / 10, "a hit in 1,000 sections took \(large.steps) steps, in 10: \(small.steps)")
    }

    func testAHitInALongLectureFindsItsSpeakerWithoutReadingTheWholeLecture() throws {
        let small = try quokka("lecture10.vtt", lecture(cues: 10))
        let large = try quokka("lecture1000.vtt", lecture(cues: 1000))
        XCTAssertEqual(small.hit.speaker, "Ben")
        XCTAssertEqual(large.hit.speaker, "Ben")
        XCTAssertEqual(large.hit.time, 3996)
        XCTAssertLessThanOrEqual(large.steps, small.steps + small.steps / 10, "a hit in 1,000 cues took \(large.steps) steps, in 10: \(small.steps)")
    }
}
