import Foundation
import XCTest
@testable import Lectern

/// A lecturer says a relation in words ("one half m v squared", "d theta dt", "delta x over
/// delta t", "omega z") and defines a quantity across two sentences ("I'm going to define what we
/// actually call the angular velocity as omega. And I'm going to write that as d theta dt."):
/// the reader writes it with its symbols and the quantity's name; a problem's particular, a
/// hypothetical or a relation no quantity names stays unread.
final class CardSpokenRelationTests: XCTestCase {
    static func relations(_ text: String) -> [String] {
        FormulaStatements.statements(in: text).map { "\($0.name): \($0.display)" }
    }

    func testSpokenOperatorsAreWrittenAsSymbols() {
        XCTAssertEqual(Self.relations("So the kinetic energy is equal to one half m v squared."), [#"kinetic energy: \(K = \frac{1}{2} m v^2\)"#])
        XCTAssertEqual(Self.relations("The average velocity is delta x over delta t."), [#"average velocity: \(v_{avg} = \Delta x / \Delta t\)"#])
        XCTAssertEqual(Self.relations("And the angular speed is the absolute value of omega z, which is never negative."),
                       [#"angular speed: \(\omega = |\omega_z|\)"#])
        XCTAssertEqual(Self.relations("The torque is equal to r times F times sine of theta."), [#"torque: \(\tau = r \cdot F \cdot \sin\theta\)"#])
        XCTAssertEqual(Self.relations("So the kinetic energy of rotation is equal to 1/2 times I cm times omega z squared."),
                       [#"kinetic energy of rotation: \(K_{rot} = \frac{1}{2} \cdot I_{cm} \cdot \omega_z^2\)"#])
    }

    func testAQuantitysChangeAndComponentAreWrittenWithTheirSymbols() {
        XCTAssertEqual(Self.relations("And we also have an energy principle, work non-conservative equals the change in kinetic energy plus the change in potential energy."),
                       [#"non-conservative work: \(W_{nc} = \Delta K + \Delta U\)"#])
        XCTAssertEqual(Self.relations("So the non-conservative work is equal to the change in the total mechanical energy."),
                       [#"non-conservative work: \(W_{nc} = \Delta E\)"#])
        // A side the lecturer breaks off to explain ("delta K, the change in kinetic energy, plus …") is not read short.
        XCTAssertEqual(Self.relations("So the non-conservative work is equal to delta K, the change in kinetic energy, plus delta U, the change of potential energy."), [])
        // A quantity inside another's change is not the sentence's subject; work's change in kinetic energy is a theorem, not what work is.
        XCTAssertEqual(Self.relations("So the non-conservative work minus the change in the potential energy is equal to the change in the total mechanical energy."), [])
        XCTAssertEqual(Self.relations("And I'll come back to my original statement that the work is equal to the change in kinetic energy."), [])
        XCTAssertEqual(Self.relations("The angular velocity points along k hat. So remember that omega z is equal to d theta dt."),
                       [#"angular velocity (z component): \(\omega_z = \frac{d\theta}{dt}\)"#])
        // Without the angular velocity named, "omega z" is a problem's symbol; a number is a problem's value.
        XCTAssertEqual(Self.relations("So remember that omega z is equal to d theta dt."), [])
        XCTAssertEqual(Self.relations("The angular velocity points along k hat. So omega z is equal to 3 times t."), [])
    }

    func testAQuantityCalledByANameAndASymbolIsReadWithBoth() {
        XCTAssertEqual(Self.relations("In one dimension, this relation is called the linear density, lambda, which is delta m over delta l."),
                       [#"linear density: \(\lambda = \Delta m / \Delta l\)"#])
        // What follows the symbol in words, or a label of the board, is no relation.
        XCTAssertEqual(Self.relations("This is called the normal force, N, which is the push of the surface on the block."), [])
        XCTAssertEqual(Self.relations("We'll call this point, A, which is equal to the corner."), [])
    }

    func testADefinitionCarriedIntoTheNextSentenceIsOneRelation() {
        let lecture = "And so now, I'm going to define what we actually call the angular velocity as omega. And I'm going to write that as d theta dt. "
            + "Now, in the k hat direction, it could be in an arbitrary n hat direction."
        XCTAssertEqual(Self.relations(lecture), [#"angular velocity: \(\omega = \frac{d\theta}{dt}\)"#])
        XCTAssertEqual(FormulaStatements.statements(in: lecture).first?.said,
                       "And so now, I'm going to define what we actually call the angular velocity as omega.")
        // Said within one sentence.
        XCTAssertEqual(Self.relations("Remember, we define the kinetic energy as one half m v squared."), [#"kinetic energy: \(K = \frac{1}{2} m v^2\)"#])
        // The next sentence says more than the relation, asks, or the first is a supposition: nothing.
        XCTAssertEqual(Self.relations("I'm going to define the angular velocity as omega. And I'm going to write that as d theta dt for the wheel on the left."), [])
        XCTAssertEqual(Self.relations("I'm going to define the angular velocity as omega. And can I write that as d theta dt?"), [])
        XCTAssertEqual(Self.relations("Suppose we define the angular velocity as omega. And I'm going to write that as d theta dt."), [])
        // A symbol defined for a problem, not a quantity: nothing.
        XCTAssertEqual(Self.relations("So V relative, I'm going to define this to be the velocity of V1 minus the velocity of V2."), [])
    }

    func testAFormulaCardCitesTheMomentItsRelationIsSaid() throws {
        let passage = CardSpokenDefinitionTests.transcript(
            saying: "And so now, I'm going to define what we actually call the angular velocity as omega. And I'm going to write that as d theta dt.",
            at: 301, in: "8.3 Angular Velocity")
        let cards = CardGeneration.offline(CardQualityTests.curriculum([passage])).cards.filter { $0.origin == .formula }
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" }, [#"Angular velocity: \(\omega\) = ? → \(\omega = \frac{d\theta}{dt}\)"#])
        // (The passage starts at 12 s; the definition is said at 301 s.)
        XCTAssertEqual(cards.first?.source.timeStart, 301)
    }

    func testAProblemsParticularsStayUnread() {
        XCTAssertEqual(Self.relations("T is equal to m 2 a plus m 2 g."), [])
        XCTAssertEqual(Self.relations("So the acceleration is equal to minus g in the y direction."), [])
        XCTAssertEqual(Self.relations("And so the velocity is equal to delta x over delta t on the second leg of the trip."), [])
        XCTAssertEqual(Self.relations("If the torque is equal to r times F times sine of theta, the rod turns."), [])
    }
}
