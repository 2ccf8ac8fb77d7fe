import XCTest
@testable import Lectern

final class ChunkerTests: XCTestCase {
    func testPassagesStayUnderBudgetAndEndOnSentences() {
        let sentence = "The mitochondrion makes most of the cell's energy through oxidative phosphorylation."
        let text = Array(repeating: sentence, count: 60).joined(separator: " ")
        let blocks = [Block(kind: .paragraph, text: text, sectionPath: ["Cells"])]
        let passages = Chunker(settings: ChunkSettings(maxTokens: 100, overlapTokens: 20)).chunk(blocks)
        XCTAssertGreaterThan(passages.count, 5)
        for passage in passages {
            XCTAssertLessThanOrEqual(passage.tokenCount, 100)
            XCTAssertTrue(passage.text.hasSuffix("phosphorylation."), passage.text)
            XCTAssertEqual(passage.sectionPath, ["Cells"])
        }
        // Overlap: each passage after the first starts with the sentence that ended the one before.
        XCTAssertTrue(passages[1].text.hasPrefix(sentence))
    }

    func testNeverCrossesPagesOrTopLevelSections() {
        let blocks = [
            Block(kind: .paragraph, text: "Short on page one.", sectionPath: ["A"], page: 1),
            Block(kind: .paragraph, text: "Short on page two.", sectionPath: ["A"], page: 2),
            Block(kind: .paragraph, text: "Another chapter starts.", sectionPath: ["B"], page: 2),
        ]
        let passages = Chunker().chunk(blocks)
        XCTAssertEqual(passages.map(\.text), ["Short on page one.", "Short on page two.", "Another chapter starts."])
        XCTAssertEqual(passages.map(\.pageStart), [1, 2, 2])
    }

    func testSmallSiblingSectionsMergeUnderTheirParent() {
        let blocks = [
            Block(kind: .paragraph, text: "Glycolysis splits glucose.", sectionPath: ["Respiration", "Glycolysis"]),
            Block(kind: .paragraph, text: "The Krebs cycle follows.", sectionPath: ["Respiration", "Krebs cycle"]),
        ]
        let passages = Chunker().chunk(blocks)
        XCTAssertEqual(passages.count, 1)
        XCTAssertEqual(passages[0].sectionPath, ["Respiration"])
    }

    func testHeadersAndFootersNeverReachPassages() {
        let blocks = [
            Block(kind: .pageHeader, text: "Running head", page: 3),
            Block(kind: .paragraph, text: "Body text.", page: 3),
            Block(kind: .pageFooter, text: "3", page: 3),
        ]
        XCTAssertEqual(Chunker().chunk(blocks).map(\.text), ["Body text."])
    }

    func testSentenceSplitterKeepsAbbreviations() {
        let parts = SentenceSplitter.split("See Fig. 3 for details. Dr. Smith agreed, e.g. with J. Doe. Done!")
        XCTAssertEqual(parts.map(\.text), ["See Fig. 3 for details.", "Dr. Smith agreed, e.g. with J. Doe.", "Done!"])
    }
}

final class ChunkerCodeTests: XCTestCase {
    /// A one-line formula set as code belongs with the prose that explains it; a real program
    /// listing stays a passage of its own so that searching code finds code.
    func testShortCodeJoinsItsProseAndLongCodeStandsAlone() {
        let section = ["Calculus", "Chain rule"]
        let formula = Block(kind: .code, text: "h'(x) = f'(g(x)) · g'(x)", sectionPath: section)
        let prose = Block(kind: .paragraph, text: "In Leibniz notation the rule reads dy/dx = dy/du · du/dx.", sectionPath: section)
        var passages = Chunker().chunk([Block(kind: .paragraph, text: "The chain rule differentiates composites.", sectionPath: section), formula, prose])
        XCTAssertEqual(passages.count, 1)
        XCTAssertTrue(passages[0].text.contains("h'(x) = f'(g(x))") && passages[0].text.contains("Leibniz"))

        let listing = Block(kind: .code, text: (1...8).map { "let value\($0) = compute(\($0), factor: \($0 * 3))" }.joined(separator: "\n"), sectionPath: section)
        passages = Chunker().chunk([prose, listing])
        XCTAssertEqual(passages.map(\.kind), [.text, .code])
    }
}
