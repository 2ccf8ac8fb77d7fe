import Foundation
import XCTest
@testable import Lectern

/// What a lecture asserts in passing becomes a card a teacher would keep: a named law's
/// statement, a quantity's SI unit, what an idea is for, and the formulas a lecturer says or a
/// page displays ("We're calling kinetic energy K, and it's given by 1/2mv squared", "Remember,
/// p equals mv", "Torque is defined as the cross product, R cross F", "The power \(P\) is defined
/// as …:" over a displayed relation). A law's "tells us that" about one problem, a pointer, a
/// hypothetical and a problem's symbols make none.
final class CardStatedFactTests: XCTestCase {
    static let lecture = """
        Instructor: Prof. Deepto Chakrabarty
        Newton's third law states that forces always come in equal and opposite pairs. So if the Earth pulls on the person, the person pulls on the Earth.
        But Newton's third law tells us that there is a tiny acceleration on the Earth due to the person.
        And now Hooke's law is the statement that the force on the spring, that the force on the object F is proportional to how much the object has displaced, which represents either the stretching or the compressing of the spring.
        There is a useful relation known as Chasles' theorem that states that the general displacement of a rigid body can be broken up into a translation and a rotation.
        And then our momentum principle says that 0 equals P final minus P initial.
        The SI unit for kinetic energy is joule, so we have one joule here for kinetic energy.
        And so that's in SI units, the units of mass are kilograms and then the units of velocity are meters per second.
        Suppose the SI unit of power is the horsepower.
        """

    func testALectureStatesLawsAndUnits() {
        let passage = CardQualityTests.passage(1, Self.lecture, kind: .transcript, section: ["Week 2", "4.2 Newton's Third Law"])
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([passage]))
        let facts = cards.filter { $0.origin == .statement }.map { "\($0.front) → \($0.back)" }
        XCTAssertEqual(Set(facts), [
            "What does Newton's third law state? → Forces always come in equal and opposite pairs",
            // (Hooke's law as this lecture states it, "the force on the object F …", holds its problem's
            // label: graded bad in seed 9595, CardPrecisionClassTests.)
            "What does Chasles' theorem state? → The general displacement of a rigid body can be broken up into a translation and a rotation",
            "What is the SI unit of kinetic energy? → The joule",
            "What is the SI unit of mass? → The kilogram",
        ], "\(facts)")
        // Each passes the six checks as generated.
        XCTAssertTrue(cards.filter { $0.origin == .statement }.allSatisfy { $0.quality?.score == 1 }, "\(cards.map { ($0.front, $0.quality?.firstFailure?.reason ?? "") })")
    }

    func testWhatAnIdeaIsFor() {
        XCTAssertEqual(StatedFacts.purpose(in: "The idea of transfer learning is to leverage the knowledge acquired by a model trained with lots of data on another task."),
                       .init(front: "What is the idea of transfer learning?", back: "To leverage the knowledge acquired by a model trained with lots of data on another task"))
        XCTAssertNil(StatedFacts.purpose(in: "The idea of this is to show you how it works."))
        // "The definition" alone names nothing a learner could be asked about.
        XCTAssertNil(StatedFacts.lawStatement(in: "The definition states that valid arguments have a form such that the conclusion follows."))
        XCTAssertEqual(StatedFacts.lawStatement(in: "The power rule states that the derivative of x to the n is n times x to the n minus one.")?.front,
                       "What does the power rule state?")
        XCTAssertEqual(StatedFacts.siUnit(in: "The SI unit of power is the watt (W) which is equal to 1 joule per second:"),
                       .init(front: "What is the SI unit of power?", back: "The watt (W)"))
        XCTAssertNil(StatedFacts.siUnit(in: "Since work is the product of force and distance, then our SI units for work are the units of force."))
    }

    static let spoken = """
        Let's talk about kinetic energy. We're calling kinetic energy K, and it's given by 1/2mv squared. And this is a scalar quantity.
        Now when we consider just a point particle, then we can also ask what is the momentum? Remember, p equals mv.
        Torque is defined as the cross product, R cross F, which we can also write as R times F times the sine of theta.
        And so the T equals m2 a plus m2 g. L system A equals L system B. So the momentum p equals m v cm.
        """

    func testFormulasALecturerSaysAndAPageDisplays() {
        let found = FormulaStatements.statements(in: Self.spoken).map { "\($0.name): \($0.display)" }
        XCTAssertEqual(found, [
            #"kinetic energy: \(K = \frac{1}{2} m v^2\)"#,
            #"momentum: \(p = m v\)"#,
            #"torque: \(\tau = R \times F\)"#,
        ])
        let page = #"""
            Power

            The power \(P\) is defined as the rate of doing work:

            \[\displaystyle P =\frac{dW}{dt} = \vec{F}\cdot\vec{v}\]

            The SI unit of power is the watt (W) which is equal to 1 joule per second:

            \[ \displaystyle 1 \text{W}\equiv 1\frac{\text{J}}{\text{s}} \]
            """#
        let passage = CardQualityTests.passage(1, page + "\n" + CardCoverageTests.filler, section: ["Week 7", "20.6 Power"])
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([passage]))
        let shown = cards.filter { [.formula, .statement].contains($0.origin) }.map { "\(MathText.readable($0.front)) → \(MathText.readable($0.back))" }
        XCTAssertEqual(Set(shown), ["Power: P = ? → P = dW/dt = F\u{20D7}·v\u{20D7}", "What is the SI unit of power? → The watt (W)"], "\(shown)")
        XCTAssertTrue(cards.filter { [.formula, .statement].contains($0.origin) }.allSatisfy { $0.quality?.score == 1 })
    }
}
