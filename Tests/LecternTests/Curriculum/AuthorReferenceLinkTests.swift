import Foundation
import XCTest
@testable import Lectern

/// "Builds on" links the author states, on a generated two-chapter OpenStax book: a module's
/// `<link document=…>` back to an earlier module, and the text's "As Chapter 1 explained", link
/// the topic to the earlier one with the reference as the reason, shown by `curriculum show`,
/// the UMCF export and `context`; a forward reference, a pointer to further reading and another
/// work's "Book II, Chapter 1" link nothing.
final class AuthorReferenceLinkTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// A module of plain prose (no glossary, no definitions: no term links), `extra` inside it.
    static func module(_ title: String, _ extra: String) -> String {
        let filler = (1...6).map { "<para id=\"f\($0)\">The \(title.lowercased()) lesson goes on with example number \($0), worked through in plain words for the reader.</para>" }
        return """
            <document xmlns="http://cnx.rice.edu/cnxml"><title>\(title)</title>
            <content><para id="p0">\(extra)</para>\(filler.joined())</content></document>
            """
    }

    func writeBook() throws -> TemporaryFolder {
        let book = try TemporaryFolder()
        try book.write("META-INF/books.xml", """
            <container xmlns="https://openstax.org/namespaces/book-container" version="1">
            <book slug="refs" style="x" href="../collections/refs.collection.xml"/></container>
            """)
        try book.write("collections/refs.collection.xml", """
            <col:collection xmlns:col="http://cnx.rice.edu/collxml" xmlns:md="http://cnx.rice.edu/mdml">
            <col:metadata><md:title>Reference Book</md:title><md:slug>refs</md:slug></col:metadata>
            <col:content>
            <col:subcollection><md:title>Logic</md:title><col:content><col:module document="m1"/><col:module document="m2"/></col:content></col:subcollection>
            <col:subcollection><md:title>Ethics</md:title><col:content><col:module document="m3"/><col:module document="m4"/></col:content></col:subcollection>
            </col:content></col:collection>
            """)
        try book.write("modules/m1/index.cnxml", Self.module("Arguments",
            "Premises give reasons for a conclusion. <link document=\"m3\">The section on virtue</link> is discussed later in the book."))
        try book.write("modules/m2/index.cnxml", Self.module("Fallacies",
            "As Aristotle explained in Book II, Chapter 1, a bad habit of reasoning repeats itself."))
        try book.write("modules/m3/index.cnxml", Self.module("Virtue",
            "As discussed in <link document=\"m1\">the section on arguments</link>, premises support a conclusion. "
            + "Learn more about weak reasoning in <link document=\"m2\">the section on fallacies</link>."))
        try book.write("modules/m4/index.cnxml", Self.module("Duty", "As Chapter 1 explained, reasons can be weighed against each other."))
        return book
    }

    func testTheAuthorsReferencesBackBecomeLinksWithTheirReason() throws {
        let book = try writeBook()
        XCTAssertEqual(try lectern("ingest", book.path, "--embedder", "hashing").status, 0)
        XCTAssertEqual(try lectern("curriculum", "build", "refs", "--all").status, 0)
        let curriculum = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern("curriculum", "show", "refs", "--json").stdout.utf8))
        let byTitle = Dictionary(curriculum.topics.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(curriculum.topics.map(\.title), ["1.1 Arguments", "1.2 Fallacies", "2.1 Virtue", "2.2 Duty"])
        let arguments = try XCTUnwrap(byTitle["1.1 Arguments"]).stableId
        XCTAssertEqual(byTitle["2.1 Virtue"]?.prerequisites, [TopicLink(topicStableId: arguments, term: "the section on arguments", reason: .reference)],
                       "the link back, with the reference's words; 'learn more about … in the section on fallacies' is further reading")
        XCTAssertEqual(byTitle["2.2 Duty"]?.prerequisites, [TopicLink(topicStableId: arguments, term: "Chapter 1", reason: .reference)],
                       "'As Chapter 1 explained' points to chapter 1's first topic")
        XCTAssertEqual(byTitle["1.1 Arguments"]?.prerequisites, [], "a reference to a later module is no prerequisite")
        XCTAssertEqual(byTitle["1.2 Fallacies"]?.prerequisites, [], "'Book II, Chapter 1' is another work's chapter")

        let shown = try lectern("curriculum", "show", "refs").stdout
        XCTAssertTrue(shown.contains("builds on: 1.1 Arguments (the text refers to it: “the section on arguments”)"), shown)

        let umcf = try lectern("curriculum", "export", "refs", "--format", "umcf", "-o", "-").stdout
        XCTAssertTrue(umcf.contains("the text refers back to it: “Chapter 1”"), "UMCF names the reason")

        let virtue = try XCTUnwrap(byTitle["2.1 Virtue"]).stableId
        let context = try lectern("context", "--topic", String(virtue.prefix(8)), "--budget", "2000").stdout
        XCTAssertTrue(context.contains("## Builds on\n- 1.1 Arguments (the text refers to it: “the section on arguments”)"), context)
    }

    /// The course's introduction is where every learner starts, and a unit's introduction is no
    /// "section": pointers to either link nothing; "Section 1.1" links to the topic numbered so.
    func testTheCourseIntroductionAndAUnitIntroductionAreNoReferencedLessons() {
        func topic(_ id: String, _ title: String, _ text: String) -> Topic {
            Topic(stableId: id, title: title, summary: "", summaryOrigin: .offline, objectives: [], keyTerms: [], studyMinutes: 1,
                  passages: [Passage(id: Int64(id.hashValue & 0xFFFF), documentId: 1, ordinal: 0, text: text, kind: .text,
                                     sectionPath: [title], tokenCount: 30)],
                  prerequisites: [])
        }
        let topics = [
            topic("intro", "Introduction: Philosophy", "Philosophy asks what we can know."),
            topic("one", "1.1 Arguments", "Premises give reasons for a conclusion."),
            topic("unit2", "Introduction: Ethics", "Ethics asks how to live."),
            topic("virtue", "2.1 Virtue", "Recall from the previous section that we asked how to live. As Chapter 1 explained, we argue for claims."),
            topic("duty", "2.2 Duty", "As discussed in Section 1.1, premises support a conclusion."),
        ]
        let links = AuthorReferences.links(for: topics, units: [0, 0, 1, 1, 1], unitTitles: ["1 Philosophy", "2 Ethics"], blocks: [:])
        XCTAssertNil(links["virtue"], "'the previous section' is not the unit's introduction; 'Chapter 1' opens with the course's introduction")
        XCTAssertEqual(links["duty"], [TopicLink(topicStableId: "one", term: "Section 1.1", reason: .reference)])
    }

    /// A reference back that only sets up a comparison is an aside, not ground the topic stands
    /// on (graded by hand at seeds 2718 and 8353: "Stoicism reached a conclusion similar to that
    /// reached by Daoism, as explored in the chapter on early philosophy"); the same reference
    /// stating what the topic uses links.
    func testAReferenceThatOnlyDrawsAComparisonIsNoPrerequisite() {
        func topic(_ id: String, _ title: String, _ text: String) -> Topic {
            Topic(stableId: id, title: title, summary: "", summaryOrigin: .offline, objectives: [], keyTerms: [], studyMinutes: 1,
                  passages: [Passage(id: Int64(id.count), documentId: 1, ordinal: 0, text: text, kind: .text, sectionPath: [title], tokenCount: 30)],
                  prerequisites: [])
        }
        let topics = [
            topic("intro", "Introduction: Philosophy", "Philosophy asks what we can know."),
            topic("dao", "1.1 Daoism", "The Dao is the way of nature; the sage follows it without striving."),
            topic("stoa", "1.2 Stoicism", "The Stoics taught that virtue is living by nature. "
                  + "Thus, Stoicism reached a conclusion similar to that reached by Daoism, as explored in Section 1.1."),
            topic("wuwei", "1.3 Effortless Action", "As explored in Section 1.1, the sage follows the Dao without striving."),
        ]
        let links = AuthorReferences.links(for: topics, units: [0, 0, 0, 0], unitTitles: ["1 Philosophy"], blocks: [:])
        XCTAssertNil(links["stoa"], "a comparison with what section 1.1 explored is an aside")
        XCTAssertEqual(links["wuwei"], [TopicLink(topicStableId: "dao", term: "Section 1.1", reason: .reference)])
    }
}
