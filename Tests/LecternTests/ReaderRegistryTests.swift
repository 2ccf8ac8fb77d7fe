import XCTest
@testable import Lectern

final class ReaderRegistryTests: XCTestCase {
    func input(_ text: String, path: String) -> SourceInput {
        SourceInput(uri: "file://" + path, path: path, data: Data(text.utf8))
    }

    func testMarkdownIsRecognisedByContentEvenWithoutExtension() throws {
        let reader = try ReaderRegistry.standard.reader(for: input("# Title\n\nSome *text* with a [link](http://x).\n", path: "/n/notes"))
        XCTAssertEqual(reader.name, "markdown")
    }

    func testPlainTextNamedMdReadsAsMarkdownAndNamedTxtAsText() throws {
        // The extension is a hint only: a .md file without Markdown structure is still read (by
        // the Markdown reader, which the extension favours), never refused, and its words are
        // kept as written; the same words in a .txt file are plain text.
        for (path, name) in [("/n/a.md", "markdown"), ("/n/a.txt", "text")] {
            let note = input("Just a sentence.\n", path: path)
            let reader = try ReaderRegistry.standard.reader(for: note)
            XCTAssertEqual(reader.name, name, path)
            XCTAssertEqual(try reader.extract(note).blocks.map(\.text), ["Just a sentence."], path)
        }
    }

    func testBinaryNamedTxtIsRefusedWithReason() {
        var bytes = [UInt8](repeating: 0, count: 512)
        for i in bytes.indices { bytes[i] = UInt8((i * 7919) % 256) }
        let binary = SourceInput(uri: "file:///n/image.txt", path: "/n/image.txt", data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes))
        XCTAssertThrowsError(try ReaderRegistry.standard.reader(for: binary)) { error in
            let lectern = error as? LecternError
            XCTAssertEqual(lectern?.code, .unsupported)
            XCTAssertEqual(lectern?.description, "/n/image.txt: binary data that no reader understands")
        }
    }

    func testEmptyFileIsRefused() {
        XCTAssertThrowsError(try ReaderRegistry.standard.reader(for: SourceInput(uri: "file:///e.md", path: "/e.md"))) { error in
            XCTAssertEqual((error as? LecternError)?.code, .empty)
        }
    }

    func testAStrayByteInUTF8IsReplacedWithAWarning() throws {
        // UTF-8 (the é and ü are well formed) with one stray byte: still UTF-8, the byte replaced.
        var data = Data("Café with Müller's notes ".utf8)
        data.append(0xFF)
        data.append(Data(" on enzymes.\n".utf8))
        let document = try PlainTextExtractor().extract(SourceInput(uri: "file:///c.txt", path: "/c.txt", data: data))
        XCTAssertEqual(document.blocks.first?.text, "Café with Müller's notes \u{FFFD} on enzymes.")
        XCTAssertEqual(document.warnings, ["invalid UTF-8: 1 byte sequence(s) replaced with U+FFFD"])
    }
}

/// A reader that counts how often it is asked whether it reads an input: sniffing can be the
/// costly part (a JSON transcript is parsed to be recognised), so a source is sniffed once.
final class CountingReader: Extractor, @unchecked Sendable {
    let name = "counting"
    let version = 1
    private let lock = NSLock()
    private var asked = 0
    var timesAsked: Int { lock.withLock { asked } }

    func confidence(for input: SourceInput) -> Int {
        lock.withLock { asked += 1 }
        return input.data.starts(with: Data("COUNTED".utf8)) ? 95 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        ExtractedDocument(type: "counted", title: "Counted", blocks: [Block(kind: .paragraph, text: "Ribosomes make proteins from amino acids.")])
    }
}

final class ReaderChoiceTests: XCTestCase {
    func testTheReaderIsChosenOncePerDocument() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("notes.counted", "COUNTED\nRibosomes make proteins.\n")
        let counting = CountingReader()
        var ingestor = Ingestor(store: try LibraryStore(path: folder.file("library.db").path), embedder: HashingEmbedder())
        ingestor.registry = ReaderRegistry([counting, PlainTextExtractor()])
        let summary = ingestor.ingest([file.path], recorder: nil) { _ in }
        XCTAssertEqual(summary.stored, 1)
        XCTAssertEqual(counting.timesAsked, 1, "ingest sniffs a file once, not again when it extracts")

        let reader = DocumentReader(registry: ReaderRegistry([counting, PlainTextExtractor()]))
        let item = InputExpander.Item(path: file.path, display: "notes.counted", isDirectory: false)
        let (chosen, document) = try reader.extract(try reader.load(item), display: item.display)
        XCTAssertEqual(chosen.name, "counting")
        XCTAssertEqual(document.title, "Counted")
        XCTAssertEqual(counting.timesAsked, 2, "extract sniffs once too")
    }
}

final class MarkdownExtractorTests: XCTestCase {
    var source = ""

    func extract(_ text: String) throws -> ExtractedDocument {
        source = text
        return try MarkdownExtractor().extract(SourceInput(uri: "file:///m.md", path: "/m.md", data: Data(text.utf8)))
    }

    func testHeadingsBuildSectionPathsAndInlineMarkupIsPlain() throws {
        let document = try extract("""
            ---
            title: "Cell Biology"
            subject: biology
            ---
            # Cells

            Intro with **bold**, `code` and a [link](https://example.org).

            ## Organelles

            - The *mitochondrion*
              continues here
            - The ribosome

            Setext Heading
            --------------

            > A quoted line.

            ```python
            print("hi")
            ```

            | Organelle | Job |
            |---|---|
            | Ribosome | Protein |
            """)
        XCTAssertEqual(document.title, "Cell Biology")
        XCTAssertEqual(document.metadata["subject"], "biology")
        let texts = document.blocks.map { "\($0.kind.rawValue):\($0.text)" }
        XCTAssertEqual(texts, [
            "heading:Cells",
            "paragraph:Intro with bold, code and a link.",
            "heading:Organelles",
            "list_item:The mitochondrion continues here",
            "list_item:The ribosome",
            "heading:Setext Heading",
            "quote:A quoted line.",
            "code:print(\"hi\")",
            "table:Organelle | Job\nRibosome | Protein",
        ])
        XCTAssertEqual(document.blocks[3].sectionPath, ["Cells", "Organelles"])
        XCTAssertEqual(document.blocks[6].sectionPath, ["Cells", "Setext Heading"])
        // Offsets point into the source text.
        let heading = try XCTUnwrap(source.range(of: "# Cells"))
        XCTAssertEqual(document.blocks[0].offset, source.distance(from: source.startIndex, to: heading.lowerBound))
    }
}
