import Foundation
import XCTest
@testable import Lectern

/// Entity expansion is bounded whatever declares the entities: a parameter entity, a declaration
/// hidden from a reading of the bytes, nesting, character-escaped nesting, attribute values. Each
/// attack is refused with one line naming the module, in well under 100 MB (the parameter-entity
/// module took 59 s and 1.22 GB); external entities and XInclude read nothing.
final class EntityLimitTests: XCTestCase {
    static let chunk = String(String(repeating: "Entropy measures uncertainty. ", count: 4_000).prefix(100_000))

    static func module(subset: String, body: String, before: String = "") -> String {
        """
        <?xml version="1.0"?>
        \(before)<!DOCTYPE document [ \(subset) ]>
        <document xmlns="http://cnx.rice.edu/cnxml"><title>Amplified</title>
        <content>\(body)</content></document>
        """
    }

    /// Runs `lectern extract book` on a tiny book holding `module`.
    func extract(_ module: String) throws -> MeasuredRun {
        let folder = try TemporaryFolder()
        let book = try TemporaryFolder()
        try writeTinyBook(book, module: module)
        try FileManager.default.moveItem(at: book.url, to: folder.file("book"))
        return try runLecternMeasured(["extract", "book"], in: folder.url)
    }

    func assertRefused(_ run: MeasuredRun, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.result.status, 1, file: file, line: line)
        XCTAssertEqual(run.result.stdout, "", file: file, line: line)
        XCTAssertEqual(run.result.stderr, "lectern: book: no readable module in this OpenStax book (module m1 left out: modules/m1/index.cnxml: \(reason))\n",
                       file: file, line: line)
        XCTAssertLessThan(run.peakMiB, 100, "peak memory", file: file, line: line)
    }

    func testAParameterEntityIsRefused() throws {
        // The audit's module: 125 KB, a parameter entity declaring a 100 KB entity used 5,000 times.
        let module = Self.module(subset: "<!ENTITY % pe \"<!ENTITY big '\(Self.chunk)'>\"> %pe;",
                                 body: "<para id=\"p1\">\(String(repeating: "&big;", count: 5_000))</para>")
        let run = try extract(module)
        assertRefused(run, "refused: the document type declares a parameter entity (%pe), which learning material never needs (a way round entity limits)")
    }

    func testADeclarationHiddenFromTheByteReadingIsCountedOnTheTree() throws {
        // A comment before the doctype opens a quote that swallows the real declaration for any
        // reading of the bytes; libxml2 declares `big` all the same.
        let module = Self.module(subset: "<!ENTITY big '\(Self.chunk)'> <!-- \" -->",
                                 body: "<para id=\"p1\">\(String(repeating: "&big;", count: 5_000))</para>",
                                 before: "<!-- <!ENTITY hide \" -->\n")
        assertRefused(try extract(module),
                      "refused: entity \"big\" is used 5000 times, expanding the document to over 476 MiB of text (an entity-expansion attack)")
    }

    func testAnEntityRepeatedInAttributeValuesIsRefused() throws {
        let links = String(repeating: "<link url=\"&big;\">x</link>", count: 3_000)
        let module = Self.module(subset: "<!ENTITY big \"\(Self.chunk)\">", body: "<para id=\"p1\">\(links)</para>")
        assertRefused(try extract(module),
                      "refused: entity \"big\" is used 3000 times, expanding the document to over 286 MiB of text (an entity-expansion attack)")
    }

    func testBillionLaughsAreRefused() throws {
        let nested = "<!ENTITY lol0 \"lol\">" + (1...9).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }.joined()
        assertRefused(try extract(Self.module(subset: nested, body: "<para id=\"p\">&lol9;</para>")),
                      "refused: entity \"lol6\" expands to over 1 MiB of text (an entity-expansion attack)")
        assertRefused(try extract(Self.module(subset: nested, body: "<para id=\"&lol9;\">x</para>")),
                      "refused: entity \"lol6\" expands to over 1 MiB of text (an entity-expansion attack)")
        // Nesting written with character references (`&#38;lol8;`) is invisible in the bytes:
        // libxml2's own limit stops it, and the line says what it is.
        let escaped = "<!ENTITY lol0 \"lol\">" + (1...9).map { "<!ENTITY lol\($0) \"\(String(repeating: "&#38;lol\($0 - 1);", count: 10))\">" }.joined()
        for body in ["<para id=\"p\">&lol9;</para>", "<para id=\"&lol9;\">x</para>"] {
            assertRefused(try extract(Self.module(subset: escaped, body: body)),
                          "refused: its entities expand without bound (libxml2 stopped at line 4: Detected an entity reference loop; an entity-expansion attack)")
        }
    }

    func testExternalEntitiesAndXIncludeReadNothing() throws {
        let secret = try TemporaryFolder()
        let target = try secret.write("secret.txt", "TOPSECRET-CONTENT")
        let external = Self.module(subset: "<!ENTITY ext SYSTEM \"file://\(target.path)\">", body: "<para id=\"p\">Before &ext; after.</para>")
        let include = Self.module(subset: "", body: "<para id=\"p\">Before <xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"\(target.path)\" parse=\"text\"/> after.</para>")
        for module in [external, include] {
            let run = try extract(module)
            XCTAssertEqual(run.result.status, 0, run.result.stderr)
            XCTAssertTrue(run.result.stdout.contains("paragraph  Before after."), run.result.stdout)
            XCTAssertFalse(run.result.stdout.contains("TOPSECRET"))
            XCTAssertLessThan(run.peakMiB, 100)
        }
    }

    func testAModestEntityStillReads() throws {
        let module = Self.module(subset: "<!ENTITY course \"Logic 101\">",
                                 body: String(repeating: "<para>An argument in &course; is a set of premises.</para>\n", count: 50))
        let run = try extract(module)
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertTrue(run.result.stdout.contains("An argument in Logic 101 is a set of premises."), run.result.stdout)
    }
}
