import XCTest
@testable import Lectern

/// A topic whose text defines no term in a book's form and names no rule twice gets objectives
/// from what it states (run-in terms, labelled formulas, a rule stated once, a counted list, two
/// kinds side by side, a quantity a problem or lecture sets out to find) instead of its unit's
/// overall objective, which fitted none of the 5 such topics graded at seed 5813. Generated
/// text, no library: milliseconds.
final class StatedObjectivesTests: XCTestCase {
    private func objectives(_ texts: [String], kind: PassageKind = .text) -> [String] {
        let passages = texts.enumerated().map { index, text in
            Passage(id: Int64(index + 1), documentId: 1, ordinal: index, text: text, kind: kind, sectionPath: ["1 A section"], tokenCount: 60)
        }
        return OfflineObjectives.objectives(keyTerms: TopicContent.keyTerms(in: passages), passages: passages)
    }

    func testRunInTermsOfAStudyGuideAreDefined() {
        let guide = objectives([
            "Diffusion. Molecules spread from crowded places to sparse ones, and the cell spends no energy on it.\n"
                + "Osmosis. Water crosses a selectively permeable membrane toward the side holding more dissolved solute.",
        ])
        XCTAssertEqual(guide.first, "Define diffusion and osmosis", "\(guide)")
        // The same terms in one paragraph (a PDF's lines joined) are headings too.
        let joined = objectives(["Diffusion. Molecules spread from crowded places to sparse ones. Osmosis. Water crosses a selectively permeable membrane toward the side holding more solute."])
        XCTAssertEqual(joined.first, "Define diffusion and osmosis", "\(joined)")
        // A PDF's run-in terms on lines of their own.
        let pdf = objectives(["Diffusion\nMolecules spread from crowded places to sparse ones, and the cell spends no energy on it.\n\n"
                                  + "Osmosis\nWater crosses a selectively permeable membrane toward the side holding more dissolved solute."])
        XCTAssertEqual(pdf.first, "Define diffusion and osmosis", "\(pdf)")
        // One short sentence alone is no heading, and a lecturer's "Okay." never is.
        XCTAssertEqual(objectives(["Water boils. It turns into steam when it is heated long enough at the pressure of the room."]), [])
        XCTAssertEqual(objectives(["Okay. So we have a ball here on a string and it swings back and forth. Right. It keeps swinging."], kind: .transcript), [])
    }

    func testLabelledFormulasAreCalculated() {
        let sheet = objectives([
            "Integral of a polynomial function:\nIf x(t) = A tⁿ then ∫ x(t) dt = A/(n+1) (t_f^(n+1) − t_i^(n+1))\nwhere A and n are constants.\n"
                + "Integral of sine:\nIf x(t) = A sin(b + ct) then ∫ x(t) dt = −(A/c) cos(b + ct) + D",
        ])
        XCTAssertEqual(sheet, ["Calculate the integral of a polynomial function and sine"])
    }

    func testARuleStatedOnceIsApplied() {
        let handout = objectives([
            "The derivative of a function measures how fast its value changes as its input changes. The power rule says that "
                + "the derivative of x to the n is n times x to the n minus one. Derivatives locate maxima and minima.",
        ])
        XCTAssertTrue(handout.contains("Apply the power rule"), "\(handout)")
    }

    func testACountedListAndKindsSideBySide() {
        let deck = objectives(["metropolis supports 4 different titleformats:\n• Regular\n• Smallcaps\n• ALLCAPS\n"
                                   + "They can be set at once for every title type, and the titleformats differ in how they show capitals."])
        XCTAssertEqual(deck, ["Identify the four titleformats metropolis supports"])
        let plants = objectives(["C4 plants such as maize first fix carbon dioxide into a four-carbon acid in mesophyll cells. "
                                     + "The high concentration there keeps photorespiration low. CAM plants such as cacti open their stomata only at night."])
        XCTAssertEqual(plants, ["Compare C4 plants and CAM plants"])
        // Things an example counts at hand are no kinds to identify: "given the two sequences".
        let example = StatedObjectives.enumerations(in: ["Given the two sequences, we use the model to compute a prediction.",
                                                         "While the two sequences are short, the model still classifies them."],
                                                    textWords: TermMatcher.stems("sequences sequences model"))
        XCTAssertEqual(example, [])
        XCTAssertEqual(StatedObjectives.enumerations(in: ["There are three main schools: the Stoics, the Epicureans and the Sceptics."],
                                                     textWords: TermMatcher.stems("schools schools")), ["Identify the three schools"])
    }

    func testAProblemsQuestionAndALecturesWorkingBecomeTasks() {
        let problem = objectives(["A uniform rope of mass M hangs between two trees, making an angle with each tree. "
                                      + "Calculate \\(T_{mid}\\), the tension in the rope at the midpoint. The tension at each end pulls along the rope."])
        XCTAssertEqual(problem, ["Calculate the tension in the rope at the midpoint"])
        let lecture = objectives(["So now let's calculate the kinetic energy in the center of mass frame. The kinetic energy there adds up over both "
                                      + "particles, and in the center of mass frame their momenta cancel."], kind: .transcript)
        XCTAssertEqual(lecture, ["Calculate the kinetic energy in the center of mass frame"])
        // A symbol ends the quantity's name.
        XCTAssertEqual(objectives(["Now we want to calculate the position x of t for the cart. The position of the cart changes as the cart speeds up."], kind: .transcript),
                       ["Calculate the position"])
    }

    func testATopicWithObjectivesOfItsOwnKeepsThem() {
        // "Define …" from the text's own definition: the stated forms add nothing beside it.
        let text = objectives(["Momentum is the product of mass and velocity. Momentum is conserved when no external force acts. "
                                   + "Let's calculate the momentum of the cart before and after the collision."])
        XCTAssertFalse(text.contains { $0.hasPrefix("Calculate the momentum of the cart") }, "\(text)")
        XCTAssertFalse(text.isEmpty)
    }
}
