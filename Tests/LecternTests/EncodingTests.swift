import XCTest
@testable import Lectern

/// Notes written in Windows-1252 (Latin-1) — French and German accents, ß, €, „ “ — are read as
/// such: recognised when they are not UTF-8, or named with `--encoding`; never refused as
/// binary, never stored with U+FFFD.
final class EncodingTests: XCTestCase {
    static let french = """
        Notes de cours : l’énergie

        Les élèves étudient l’entropie à l’école d’été. « Ça coûte 5 € », dit le professeur ; \
        c’est déjà très cher pour un café crème et une tarte à la crème brûlée.
        """
    static let german = """
        # Übungen zur Thermodynamik

        Die Größe „Entropie“ misst die Unordnung. Für die Übung: Wärme fließt über die Straße \
        zur kälteren Seite. Ärger über Schäden kostet 3 €; Grüße an Jürgen, Müller und Kößler.
        """

    /// The text as an old Windows editor would have saved it.
    static func windows1252(_ text: String) throws -> Data {
        let data = try XCTUnwrap(text.data(using: .windowsCP1252), "the text is in Windows-1252's repertoire")
        XCTAssertNil(String(data: data, encoding: .utf8), "not UTF-8")
        return data
    }

    func testWindows1252NotesAreRecognisedAndRead() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/cours.txt", try Self.windows1252(Self.french))
        try folder.write("notes/uebung.md", try Self.windows1252(Self.german))

        let extract = try runLectern(["extract", "notes/uebung.md", "--json"], in: folder.url)
        XCTAssertEqual(extract.status, 0, extract.stderr)
        XCTAssertEqual(extract.stderr, "lectern: warning: notes/uebung.md: invalid UTF-8: read as Windows-1252 (pass --encoding to name another)\n")
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(extract.stdout.utf8))
        XCTAssertEqual(document.type, "markdown")
        XCTAssertEqual(document.title, "Übungen zur Thermodynamik")
        XCTAssertEqual(document.blocks.last?.text, "Die Größe „Entropie“ misst die Unordnung. Für die Übung: Wärme fließt über die Straße zur kälteren Seite. Ärger über Schäden kostet 3 €; Grüße an Jürgen, Müller und Kößler.")

        let ingest = try runLectern(["ingest", "notes"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertTrue(ingest.stdout.hasPrefix("2 stored"), ingest.stdout)
        let search = try runLectern(["search", "Straße Größe", "--mode", "keyword", "-k", "1", "--json"], in: folder.url)
        let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(search.stdout.utf8)).first, search.stderr)
        XCTAssertEqual(hit.title, "Übungen zur Thermodynamik")
        XCTAssertTrue(hit.text.contains("„Entropie“") && hit.text.contains("3 €"), hit.text)
        let french = try runLectern(["search", "élèves entropie été", "--mode", "keyword", "-k", "1", "--json"], in: folder.url)
        let cours = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(french.stdout.utf8)).first, french.stderr)
        XCTAssertTrue(cours.text.contains("« Ça coûte 5 € », dit le professeur ; c’est déjà très cher"), cours.text)
        XCTAssertFalse(cours.text.contains("\u{FFFD}"))
    }

    func testTheEncodingCanBeNamed() throws {
        let folder = try TemporaryFolder()
        try folder.write("cours.txt", try Self.windows1252(Self.french))
        let named = try runLectern(["extract", "cours.txt", "--encoding", "latin-1", "--json"], in: folder.url)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(named.stderr, "", "a named encoding is no guess to warn about")
        let document = try JSONDecoder().decode(ExtractedDocument.self, from: Data(named.stdout.utf8))
        XCTAssertEqual(document.blocks.first?.text, "Notes de cours : l’énergie")

        let ingest = try runLectern(["ingest", "cours.txt", "--encoding", "windows-1252"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertEqual(ingest.stderr, "")
        // Named as UTF-8, the same bytes are read as UTF-8, their accents replaced (and said so).
        let utf8 = try runLectern(["extract", "cours.txt", "--encoding", "utf-8"], in: folder.url)
        XCTAssertTrue(utf8.stderr.contains("byte sequence(s) replaced with U+FFFD"), utf8.stderr)

        let unknown = try runLectern(["extract", "cours.txt", "--encoding", "klingon"], in: folder.url)
        XCTAssertEqual(unknown.status, 2, "a usage error")
        XCTAssertTrue(unknown.stderr.contains("klingon"), unknown.stderr)
    }

    func testRecognition() {
        XCTAssertEqual(TextDecoding.decode(Data([0x43, 0x61, 0x66, 0xE9])).text, "Café")
        XCTAssertEqual(TextDecoding.decode(Data([0x80, 0x20, 0x84, 0x61, 0x93])).text, "€ „a“")
        XCTAssertFalse(TextDecoding.looksBinary(Data(String(repeating: "Größe über Äpfel ", count: 500).data(using: .windowsCP1252)!)),
                       "umlaut-dense text is not binary")
        XCTAssertTrue(TextDecoding.looksBinary(Data((0..<4096).map { UInt8(($0 * 7919 + 13) % 256) })), "random bytes are")
    }
}
