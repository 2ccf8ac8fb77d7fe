import XCTest
@testable import Lectern

/// Reading never makes much more text than it was given: entity expansion is bounded for the
/// whole document (not only per entity), every reader's output is bounded the same way, and
/// no block is megabytes long.
final class ExpansionBoundsTests: XCTestCase {
    /// A CNXML module whose one 100 KB internal entity is referenced 5,000 times: 135 KB of
    /// XML that would be 500 MB of text (it took minutes and 2.5 GB before it was refused).
    static func amplifiedModule(references: Int = 5_000) -> String {
        let chunk = String(String(repeating: "Entropy measures uncertainty. ", count: 4_000).prefix(100_000))
        return """
            <?xml version="1.0"?>
            <!DOCTYPE document [ <!ENTITY chunk "\(chunk)"> ]>
            <document xmlns="http://cnx.rice.edu/cnxml"><title>Amplified</title>
            <content><para id="p1">\(String(repeating: "&chunk;", count: references))</para></content></document>
            """
    }

    func testAnEntityUsedThousandsOfTimesIsRefusedThroughTheBinary() throws {
        let folder = try TemporaryFolder()
        let book = try TemporaryFolder()
        try writeTinyBook(book, module: Self.amplifiedModule())
        try FileManager.default.moveItem(at: book.url, to: folder.file("book"))
        let result = try runLectern(["extract", "book"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "lectern: book: no readable module in this OpenStax book (module m1 left out: modules/m1/index.cnxml: refused: entity \"chunk\" is used 5000 times, expanding the document to over 476 MiB of text (an entity-expansion attack))\n")
    }

    func testEntityExpansionIsBoundedForTheWholeDocument() throws {
        // Each entity is small (100 KB, under the 1 MiB an entity may be); the document is not.
        XCTAssertThrowsError(try MarkupDocument.xml(Data(Self.amplifiedModule().utf8), name: "m.cnxml")) { error in
            XCTAssertEqual((error as? LecternError)?.code, .unsupported)
            XCTAssertEqual("\(error)", "m.cnxml: refused: entity \"chunk\" is used 5000 times, expanding the document to over 476 MiB of text (an entity-expansion attack)")
        }
        // Twenty uses of a 100 KB entity in a 120 KB document: 2 MB, over 16 times its size.
        XCTAssertThrowsError(try MarkupDocument.xml(Data(Self.amplifiedModule(references: 20).utf8), name: "m.cnxml"))
        // An entity used a few times, as real modules use them, is read.
        let modest = """
            <?xml version="1.0"?>
            <!DOCTYPE document [ <!ENTITY course "Logic 101, taught by the philosophy department"> ]>
            <document xmlns="http://cnx.rice.edu/cnxml"><title>Arguments</title><content>
            \(String(repeating: "<para>An argument in &course; is a set of premises.</para>\n", count: 50))</content></document>
            """
        XCTAssertNoThrow(try MarkupDocument.xml(Data(modest.utf8), name: "m.cnxml"))
    }

    /// A reader that makes a megabyte of text out of a few bytes: whatever reader does so,
    /// the source is refused with one line.
    struct InflatingReader: Extractor {
        let name = "inflating"
        let version = 1
        func confidence(for input: SourceInput) -> Int { input.data.starts(with: Data("INFLATE".utf8)) ? 100 : 0 }
        func extract(_ input: SourceInput) throws -> ExtractedDocument {
            let paragraph = String(repeating: "Words again and again. ", count: 10_000)
            return ExtractedDocument(type: "inflated", title: "Inflated", blocks: Array(repeating: Block(kind: .paragraph, text: paragraph), count: 10))
        }
    }

    func testEveryReadersOutputIsBoundedRelativeToItsInput() throws {
        let reader = DocumentReader(registry: ReaderRegistry([InflatingReader()]))
        let input = SourceInput(uri: "file:///x.inf", path: "/x.inf", data: Data("INFLATE 20 bytes....".utf8))
        XCTAssertThrowsError(try reader.extract(input, display: "x.inf")) { error in
            XCTAssertEqual("\(error)", "x.inf: refused: 2 MiB of text from 20 bytes of input, over 16 times its size (an expansion attack)")
        }
    }

    func testNoBlockIsMegabytesLong() throws {
        // One 1.5 MB paragraph (no blank line in it): several blocks, each at most 64 Ki
        // characters, cut at sentence ends, that read as the same text with the right offsets.
        let folder = try TemporaryFolder()
        let sentence = "Ribosomes translate messenger RNA into the proteins a cell needs. "
        let text = String(repeating: sentence, count: 23_000)
        try folder.write("long.txt", text)
        let result = try runLectern(["extract", "long.txt", "--json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(result.stdout.utf8))
        XCTAssertGreaterThan(document.blocks.count, 20)
        XCTAssertLessThanOrEqual(document.blocks.map(\.text.count).max() ?? 0, OutputBounds.maxBlockCharacters)
        XCTAssertEqual(document.blocks.map(\.text).joined(separator: " "), text.trimmingCharacters(in: .whitespaces))
        for block in document.blocks {
            XCTAssertTrue(block.text.hasSuffix("needs."), "cut at a sentence end")
            let offset = try XCTUnwrap(block.offset)
            XCTAssertEqual(String(text.dropFirst(offset).prefix(block.text.count)), block.text)
        }
    }

    func testACutTranscriptBlockKeepsItsTimes() {
        let text = String(repeating: "a", count: 40) + " " + String(repeating: "b", count: 40)
        let block = Block(kind: .cue, text: text, start: 10, end: 20, timeline: [TimePoint(offset: 0, seconds: 10), TimePoint(offset: 41, seconds: 15)],
                          startsParagraph: true)
        let pieces = OutputBounds.split(block, limit: 50)
        XCTAssertEqual(pieces.map(\.text), [String(repeating: "a", count: 40), String(repeating: "b", count: 40)])
        XCTAssertEqual(pieces.map(\.start), [10, 15])
        XCTAssertEqual(pieces.map(\.startsParagraph), [true, false])
        XCTAssertEqual(pieces[1].timeline, [TimePoint(offset: 0, seconds: 15)])
    }
}
