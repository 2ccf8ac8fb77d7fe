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

    /// A summary reads a symbol's full stop as a sentence's end ("a distance d. Now …" is two
    /// sentences), keeping initials and German abbreviations whole; the chunker's split (and
    /// with it every passage) is as it was.
    func testASummarysSplitEndsASentenceAtASymbolsFullStop() {
        let spoken = "Again, this is a distance d. Now this is still the r-hat direction. Lambda is delta m over delta l. For a uniform rod of length L. The mass M. Then we are done."
        XCTAssertEqual(SentenceSplitter.split(spoken, symbols: true).map(\.text), [
            "Again, this is a distance d.", "Now this is still the r-hat direction.", "Lambda is delta m over delta l.",
            "For a uniform rod of length L.", "The mass M.", "Then we are done.",
        ])
        XCTAssertEqual(SentenceSplitter.split(spoken).count, 2, "the chunker's split keeps a one-letter word's full stop as an initial's")
        let kept = "Dr. Smith agreed, e.g. with J. Doe. Written by J. Smith and John F. Kennedy, see p. 12 here. Man misst z. B. die Winkel (s. Abb. 3) hier."
        XCTAssertEqual(SentenceSplitter.split(kept, symbols: true).map(\.text), SentenceSplitter.split(kept).map(\.text))
        XCTAssertEqual(SentenceSplitter.split(kept, symbols: true).count, 3)
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

/// Passages keep their structure: headings of merged sections, lead-ins with their lists, and
/// no passage too small to say anything when a neighbour in its section can take it.
final class ChunkerStructureTests: XCTestCase {
    let counter = ApproximateTokenCounter()

    /// 18.435J's Syllabus, cut down: each subsection is too small alone, so they share one
    /// passage under "Syllabus", and their titles must stay findable in its text.
    func testMergedSectionsKeepTheirHeadingsInTheText() {
        let blocks = [
            Block(kind: .heading, text: "Syllabus", level: 1, sectionPath: ["Syllabus"]),
            Block(kind: .heading, text: "Prerequisite", level: 2, sectionPath: ["Syllabus", "Prerequisite"]),
            Block(kind: .paragraph, text: "There are no formal prerequisites.", sectionPath: ["Syllabus", "Prerequisite"]),
            Block(kind: .heading, text: "Textbook", level: 2, sectionPath: ["Syllabus", "Textbook"]),
            Block(kind: .paragraph, text: "Nielsen and Chuang, Quantum Computation and Quantum Information.", sectionPath: ["Syllabus", "Textbook"]),
        ]
        let passages = Chunker().chunk(blocks)
        XCTAssertEqual(passages.map(\.sectionPath), [["Syllabus"]])
        XCTAssertEqual(passages.first?.text, """
            Prerequisite
            There are no formal prerequisites.

            Textbook
            Nielsen and Chuang, Quantum Computation and Quantum Information.
            """)
        XCTAssertEqual(passages.first?.tokenCount, counter.count(passages.first?.text ?? ""), "heading lines count toward the budget")
    }

    /// The titles a merge adds count toward the budget: two sections whose sentences fit
    /// exactly, but not with their headings, stay two passages.
    func testHeadingLinesCountTowardTheBudget() {
        let first = "Glycolysis splits one glucose into two pyruvates."
        let second = "The Krebs cycle oxidises acetyl groups to carbon dioxide."
        let budget = counter.count(first) + counter.count(second)
        let blocks = [
            Block(kind: .paragraph, text: first, sectionPath: ["Respiration", "Glycolysis"]),
            Block(kind: .paragraph, text: second, sectionPath: ["Respiration", "Krebs cycle"]),
        ]
        let passages = Chunker(settings: ChunkSettings(maxTokens: budget, overlapTokens: 0, minTokens: budget)).chunk(blocks)
        XCTAssertEqual(passages.map(\.text), [first, second])
        XCTAssertEqual(passages.map(\.sectionPath), [["Respiration", "Glycolysis"], ["Respiration", "Krebs cycle"]])

        let roomy = Chunker(settings: ChunkSettings(maxTokens: budget + 4, overlapTokens: 0, minTokens: budget)).chunk(blocks)
        XCTAssertEqual(roomy.map(\.text), ["Glycolysis\n\(first)\n\nKrebs cycle\n\(second)"])
        XCTAssertLessThanOrEqual(counter.count(roomy[0].text), budget + 4)
    }

    /// OpenStax opens every section with "By the end of this section, you will be able to:";
    /// alone it is the same passage 53 times over, with its objectives it says something.
    func testLeadInStaysWithTheListItIntroduces() {
        let path = ["1 Introduction to Philosophy", "1.1 What Is Philosophy?", "Learning Objectives"]
        let objectives = ["Identify sages (early philosophers) across historical traditions.",
                          "Explain the connection between ancient philosophy and the origin of the sciences."]
        let blocks = [Block(kind: .paragraph, text: "By the end of this section, you will be able to:", sectionPath: path)]
            + objectives.map { Block(kind: .objective, text: $0, level: 1, sectionPath: path) }
        let passages = Chunker().chunk(blocks)
        XCTAssertEqual(passages.map(\.text), ["By the end of this section, you will be able to:\n" + objectives.joined(separator: "\n")])
        XCTAssertEqual(passages.map(\.kind), [.objective])

        // A lead-in long enough to stand alone still goes with its list.
        let long = "Having read how the ethics of care answers the older debates about justice and duty, you will be able to:"
        XCTAssertGreaterThanOrEqual(counter.count(long), 20)
        let withLong = Chunker().chunk([Block(kind: .paragraph, text: long, sectionPath: path)]
            + objectives.map { Block(kind: .objective, text: $0, level: 1, sectionPath: path) })
        XCTAssertEqual(withLong.count, 1)
        XCTAssertTrue(withLong[0].text.hasPrefix(long + "\n" + objectives[0]), withLong[0].text)
    }

    /// Where the budget runs out right after a lead-in, the lead-in opens the next passage.
    func testLeadInNeverEndsAPassage() {
        let sentence = "Photosynthesis turns light into chemical energy inside the chloroplast."
        let leadIn = "The light-dependent reactions need three things:"
        let items = ["water split at photosystem two", "light absorbed by chlorophyll", "a proton gradient across the thylakoid"]
        let prose = Array(repeating: sentence, count: 4).joined(separator: " ") + " " + leadIn
        let blocks = [Block(kind: .paragraph, text: prose, sectionPath: ["Photosynthesis"])]
            + items.map { Block(kind: .listItem, text: $0, sectionPath: ["Photosynthesis"]) }
        let budget = counter.count(Array(repeating: sentence, count: 4).joined(separator: " ") + " " + leadIn) + 1
        let passages = Chunker(settings: ChunkSettings(maxTokens: budget, overlapTokens: 0)).chunk(blocks)
        XCTAssertGreaterThan(passages.count, 1)
        for passage in passages {
            XCTAssertFalse(passage.text.hasSuffix(":"), "a passage ends on its lead-in: \(passage.text)")
            XCTAssertLessThanOrEqual(passage.tokenCount, budget)
        }
        let list = passages.first { $0.text.contains(items[0]) }
        XCTAssertTrue(list?.text.hasPrefix(leadIn + "\n" + items[0]) ?? false, list?.text ?? "no passage holds the list")
    }

    /// A caption before its table and a speaker line before a lecture are too small alone:
    /// they join their neighbour in the same section, whatever its kind of content.
    func testTinyPassageJoinsItsNeighbourInTheSameSection() {
        let grading = ["Syllabus", "Grading Policy"]
        var passages = Chunker().chunk([
            Block(kind: .caption, text: "Grading criteria.", sectionPath: grading),
            Block(kind: .table, text: "ACTIVITIES | PERCENTAGES\nProblem sets | 20%\nFinal Exam | 50%", sectionPath: grading),
        ])
        XCTAssertEqual(passages.map(\.text), ["Grading criteria.\nACTIVITIES | PERCENTAGES\nProblem sets | 20%\nFinal Exam | 50%"])
        XCTAssertEqual(passages.map(\.kind), [.table])

        let video = ["Week 1: Kinematics", "1.2 Position Vector in 1D"]
        passages = Chunker().chunk([
            Block(kind: .paragraph, text: "Instructor: Dr. Peter Dourmashkin", sectionPath: video),
            Block(kind: .cue, text: "Now that we've chosen a coordinate system for our runner, we describe the position function.", sectionPath: video, start: 3.49, end: 9.7),
            Block(kind: .cue, text: "The position is a vector that points from the origin to the runner.", sectionPath: video, start: 9.7, end: 15.2),
        ])
        XCTAssertEqual(passages.count, 1)
        XCTAssertEqual(passages.first?.kind, .transcript)
        XCTAssertTrue(passages.first?.text.hasPrefix("Instructor: Dr. Peter Dourmashkin\nNow that we've chosen") ?? false, passages.first?.text ?? "")
        XCTAssertEqual(passages.first?.timeStart, 3.49)
        XCTAssertEqual(passages.first?.time(atOffset: passages.first?.text.range(of: "The position")
            .map { passages[0].text.distance(from: passages[0].text.startIndex, to: $0.lowerBound) } ?? 0), 9.7)
    }

    /// Joining never crosses a page (a slide) or a section: a one-word divider slide stays the
    /// passage of its slide.
    func testTinyPassagesNeverCrossAPageOrASection() {
        let passages = Chunker().chunk([
            Block(kind: .heading, text: "Introduction", level: 1, sectionPath: ["Introduction"], page: 3),
            Block(kind: .paragraph, text: "Introduction", sectionPath: ["Introduction"], page: 3),
            Block(kind: .paragraph, text: "The metropolis theme is a Beamer theme with minimal visual noise.", sectionPath: ["Introduction"], page: 4),
            Block(kind: .paragraph, text: "Veni, Vidi, Vici", sectionPath: ["Quotes"], page: 4),
        ])
        XCTAssertEqual(passages.map(\.text), ["Introduction", "The metropolis theme is a Beamer theme with minimal visual noise.", "Veni, Vidi, Vici"])
        XCTAssertEqual(passages.map(\.pageStart), [3, 4, 4])
    }

    /// The last words of a long lecture or a long table are not a passage of their own: the
    /// last passage takes whole sentences (or words) from the one before, within the budget.
    func testTheEndOfALongSectionIsNotATinyPassage() {
        let long = "When the cart rolls down the ramp its potential energy turns into kinetic energy, and friction takes a little of it away as heat."
        let tail = "Next, the moving frame."
        let length = counter.count(long)
        let cues = [long, long, long, tail].enumerated().map { index, text in
            Block(kind: .cue, text: text, sectionPath: ["Energy"], start: Double(index * 10), end: Double(index * 10 + 10))
        }
        let settings = ChunkSettings(maxTokens: 3 * length, overlapTokens: 0)
        var passages = Chunker(settings: settings).chunk(cues)
        XCTAssertEqual(passages.count, 2)
        XCTAssertEqual(passages.last?.text, long + " " + tail)
        XCTAssertEqual(passages.last?.timeStart, 20)
        XCTAssertTrue(passages.allSatisfy { $0.tokenCount <= settings.maxTokens })

        // 264 word pieces: cut greedily at 254 they would end in a passage of ten.
        let rows = (1...88).map { "x\($0) | y\($0)" }.joined(separator: "\n")
        XCTAssertEqual(counter.count(rows), 264)
        passages = Chunker().chunk([Block(kind: .table, text: rows, sectionPath: ["Data"])])
        XCTAssertEqual(passages.count, 2)
        for passage in passages {
            XCTAssertGreaterThanOrEqual(passage.tokenCount, 20, passage.text)
            XCTAssertLessThanOrEqual(passage.tokenCount, ChunkSettings().maxTokens)
        }
        XCTAssertEqual(passages.map(\.text).joined(separator: " ").split(whereSeparator: \.isWhitespace),
                       rows.split(whereSeparator: \.isWhitespace), "every word once, in order")
    }

    /// The skip key holds the chunker's version, so a library cut the old way is cut again once.
    func testSkipKeyNamesTheWayOfCutting() {
        XCTAssertNotEqual(ChunkSettings().key, "max254-overlap32-min48", "the key libraries were cut with before version 2")
        XCTAssertTrue(ChunkSettings().key.hasSuffix("-chunker\(Chunker.version)"))
    }
}
