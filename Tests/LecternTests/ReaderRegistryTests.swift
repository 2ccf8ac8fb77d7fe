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

    func testInvalidUTF8IsDecodedWithReplacementAndAWarning() throws {
        var data = Data("Caf".utf8)
        data.append(0xE9) // Latin-1 é: invalid in UTF-8
        data.append(Data(" au lait is a drink.\n".utf8))
        let document = try PlainTextExtractor().extract(SourceInput(uri: "file:///c.txt", path: "/c.txt", data: data))
        XCTAssertEqual(document.blocks.first?.text, "Caf\u{FFFD} au lait is a drink.")
        XCTAssertEqual(document.warnings, ["invalid UTF-8: 1 byte sequence(s) replaced with U+FFFD"])
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
