import XCTest
@testable import Lectern

/// "Builds on" across units needs the term in the same sense: a chapter on values that speaks of
/// "value monists" does not build on the PreSocratics' monists (graded by hand, seed 2718), while
/// a later chapter on the PreSocratics' substance does. Generated topics: instant.
final class TermSenseLinkTests: XCTestCase {
    func topic(_ id: String, _ title: String, _ text: String, defines: [String] = []) -> Topic {
        Topic(stableId: id, title: title, summary: "", summaryOrigin: .offline, objectives: [],
              keyTerms: defines.map { KeyTerm(term: $0, definition: "Monists held that everything is made of one substance such as water.",
                                              origin: .source, passageId: nil, basis: .defined) },
              studyMinutes: 1,
              passages: [Passage(id: Int64(id.count), documentId: 1, ordinal: 0, text: text, kind: .text, sectionPath: [title], tokenCount: 200)],
              prerequisites: [])
    }

    func testALinkAcrossUnitsNeedsTheTermInTheSameSense() {
        let substance = "Thales said the primary substance is water; Anaximenes said air. "
        let ancient = topic("ancient", "Monists", String(repeating: "The monists held that all matter is one substance. " + substance, count: 5)
                            + "Pluralists such as Empedocles named four elements.", defines: ["monists"])
        let values = topic("values", "Basic Questions about Values", String(repeating:
            "Value monists hold that a single value, such as pleasure or well-being, explains what is good in a life. "
            + "Pluralists about value reply that friendship, knowledge and beauty are goods of their own. ", count: 3))
        let nature = topic("nature", "Philosophy of Nature", String(repeating:
            "The early monists held that matter is one primary substance, water for Thales and air for Anaximenes. ", count: 3))
        let links = PrerequisiteLinks.links(for: [ancient, values, nature], units: [0, 1, 1])
        XCTAssertNil(links["values"], "value monists are not the PreSocratics' monists")
        XCTAssertEqual(links["nature"], [TopicLink(topicStableId: "ancient", term: "monists")], "the same monists, a chapter later")
    }
}
