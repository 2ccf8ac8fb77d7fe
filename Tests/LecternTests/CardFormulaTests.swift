import Foundation
import XCTest
@testable import Lectern

/// Formulas a lecturer says ("F equals m a") and formulas a page typesets become cards where
/// the source states them as a law or a quantity's definition, written with symbols, with
/// MathJax in the Anki package and Unicode where text is read; a problem's particulars, a
/// hypothetical and a relation no law or quantity names make none.
final class CardFormulaTests: XCTestCase {
    static let lecture = """
        Now, we'll talk about momentum later in this course in more detail, but I'll just tell you that the momentum, for a point like mass, is defined as the mass times the velocity.
        The more general form of the Newton's Second Law is that F equals dp/dt, that is that the force is equal to the time derivative of the momentum vector.
        And the accelerations and the forces are related by Newton's second law, F equals m a.
        Newton's second law in its rotational form is tau is equal to I alpha.
        The torque equals the moment of inertia times the angular acceleration.
        Now, the reason that the work is a useful concept is that it allows us to understand how the kinetic energy of an object-- so the kinetic energy is 1/2mv squared.
        T is equal to m 2 a plus m 2 g.
        Well, we have to apply the universal law of gravitation in our F equals ma analysis.
        And we know from Newton's third law that F RL equals minus F LR.
        So if Newton's second law were F equals m v, nothing would move.
        So the acceleration is g.
        """

    static let page = #"""
        Displacement: Is the change in the position of an object. If at time \(t=t_1\) the object is at position \(\vec{r}(t_1)\), and at a later time \(t=t_2 > t_1\) the object is at position \(\vec{r}(t_2)\), the displacement vector is defined as \(\Delta \vec{r} = \vec{r}(t_2) - \vec{r}(t_1)\).
        The position of the rocket as a function of time is given by \(\displaystyle y(t) = \frac{1}{2}(a_0-g)t^2\) for \(0 \lt t \lt t_0\).
        Component of the Angular Acceleration: \(\alpha_z=\dfrac{d\omega_z}{dt}=\dfrac{d^2\theta}{dt^2}\)
        """#

    func testStatedLawsAndDefinitionsBecomeFormulas() {
        let found = FormulaStatements.statements(in: Self.lecture).map { "\($0.name): \($0.display)" }
        XCTAssertEqual(found, [
            #"momentum (for a point-like mass): \(p = m\,v\)"#,
            #"Newton's second law (general form): \(F = \frac{dp}{dt}\)"#,
            #"Newton's second law: \(F = m a\)"#,
            #"Newton's second law (rotational form): \(\tau = I \alpha\)"#,
            #"torque: \(\tau = I\,\alpha\)"#,
            #"kinetic energy: \(K = \frac{1}{2} m v^2\)"#,
        ])
        let typeset = FormulaStatements.statements(in: Self.page).map { "\($0.name): \($0.display)" }
        XCTAssertEqual(typeset, [#"displacement vector: \(\Delta \vec{r} = \vec{r}(t_2) - \vec{r}(t_1)\)"#,
                                 #"Component of the angular acceleration: \(\alpha_z = \dfrac{d\omega_z}{dt} = \dfrac{d^2\theta}{dt^2}\)"#])
    }

    func testFormulaCardsPassTheChecksAndReadInEveryFormat() throws {
        let passages = [CardQualityTests.passage(1, Self.lecture, kind: .transcript, section: ["Week 5", "15.1 Momentum"]),
                        CardQualityTests.passage(2, Self.page, section: ["Week 1", "Kinematics"]),
                        // A problem's given relation is its particular.
                        CardQualityTests.passage(3, #"Position of the Rocket: \(y(t) = b t^2\)"#, section: ["Week 1", "PS.1.2 Rocket Problem"])]
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum(passages))
        let formulas = cards.filter { $0.origin == .formula }
        let momentum = try XCTUnwrap(formulas.first { $0.front.hasPrefix("Momentum") }, "\(cards.map(\.front))")
        XCTAssertEqual(momentum.front, #"Momentum (for a point-like mass): \(p\) = ?"#)
        XCTAssertEqual(momentum.back, #"\(p = m\,v\) (\(m\): the mass; \(v\): the velocity)"#)
        XCTAssertEqual(formulas.count, 7, "\(formulas.map(\.front))")
        // "tau is equal to I alpha" and "the torque equals the moment of inertia times the angular acceleration": one card.
        XCTAssertEqual(formulas.filter { $0.back.hasPrefix(#"\(\tau"#) }.count, 1, "\(formulas.map(\.back))")
        XCTAssertFalse(formulas.contains { $0.front.contains("Rocket") })
        XCTAssertTrue(formulas.allSatisfy { $0.quality?.score == 1 }, "\(formulas.map { $0.quality?.firstFailure?.reason ?? "" })")
        // Where no MathJax runs, a learner reads symbols, not markup.
        XCTAssertEqual(MathText.readable(momentum.back), "p = m·v (m: the mass; v: the velocity)")
        XCTAssertEqual(MathText.readable(#"\(F = \frac{dp}{dt}\)"#), "F = dp/dt")
        XCTAssertEqual(MathText.readable(#"\(\Delta \vec{r} = \vec{r}(t_2) - \vec{r}(t_1)\)"#), "Δr\u{20D7} = r\u{20D7}(t₂) − r\u{20D7}(t₁)")
        XCTAssertEqual(MathText.readable(#"\(K = \frac{1}{2} m v^2\)"#), "K = 1/2 m v²")
        XCTAssertEqual(MathText.readable(#"\(\tau = I \alpha\)"#), "τ = I α")
        XCTAssertEqual(MathText.readable(#"\(\alpha_z = \dfrac{d\omega_z}{dt} = \dfrac{d^2\theta}{dt^2}\)"#), "α_z = dω_z/dt = d²θ/dt²")
        let layout = CardDeckLayout(curriculum: CardQualityTests.curriculum(passages))
        let markdown = CardTextExport.markdown(formulas, layout: layout)
        XCTAssertTrue(markdown.contains("**A:** p = m·v (m: the mass; v: the velocity)"), markdown)
        XCTAssertFalse(markdown.contains("\\("), markdown)
        // Anki renders `\( … \)` with MathJax: the package keeps it.
        let content = AnkiPackageWriter.content(formulas, layout: layout, now: Date())
        XCTAssertTrue(content.notes.contains { $0.fields.contains(#"\(p = m\,v\) (\(m\): the mass; \(v\): the velocity)"#) }, "\(content.notes.map(\.fields))")
    }

    func testProblemsHypotheticalsAndUnnamedRelationsMakeNoFormula() {
        for sentence in [
            "T is equal to m 2 a plus m 2 g.",
            "Well, we have to apply the universal law of gravitation in our F equals ma analysis.",
            "And we know from Newton's third law that F RL equals minus F LR.",
            "So if Newton's second law were F equals m v, nothing would move.",
            "Suppose Newton's second law, F equals m a, held.",
            "So the acceleration is g.",
            "So the torque is just T1 times r.",
            "So the velocity is dr, dt.",
            "And the velocity equals a constant times t.",
            #"The position of the rocket is given by \(y(t) = \frac{1}{2}(a_0-g)t^2\)."#,
        ] {
            XCTAssertEqual(FormulaStatements.statements(inSentence: sentence), [], sentence)
        }
    }
}

extension CardFormulaTests {
    func testTypesetFactorsStaySeparateInText() {
        XCTAssertEqual(MathText.readable(#"\(\vec{v}=r\dfrac{d\theta}{dt}\hat{\theta} \)"#), "v\u{20D7}=r(dθ/dt)θ\u{0302}")
        XCTAssertEqual(MathText.readable(#"\(\vec{a}=a_r\hat{r}+a_{\theta}\hat{\theta} \)"#), "a\u{20D7}=a_r r\u{0302}+a_θ θ\u{0302}")
    }
}

extension CardFormulaTests {
    /// A summary line's one-word name says where it holds with its topic's title: "Velocity"
    /// alone would teach circular motion's velocity as velocity's.
    func testASummaryLineSaysWhereItHolds() {
        let passage = CardQualityTests.passage(1, #"Velocity: \(\vec{v}=r\dfrac{d\theta}{dt}\hat{\theta} \)"#, section: ["Week 3", "10.4 Review of Rotational Kinematics"])
        let topic = Topic(stableId: "t", title: "10.4 Review of Rotational Kinematics", summary: "", summaryOrigin: .offline, objectives: [],
                          keyTerms: [], studyMinutes: 5, passages: [passage], prerequisites: [])
        let curriculum = Curriculum(name: "m", title: "Mechanics", stableId: "c", sources: [],
                                    units: [CurriculumUnit(stableId: "u", title: "Week 3", topics: [topic])], modelName: nil, createdAt: Date(), modifiedAt: Date())
        let (cards, _) = CardGeneration.offline(curriculum)
        XCTAssertEqual(cards.map(\.front), [#"Velocity (Review of Rotational Kinematics): \(\vec{v}\) = ?"#])
        XCTAssertEqual(cards.first?.quality?.score, 1)
    }
}
