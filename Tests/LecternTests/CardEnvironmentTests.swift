import Foundation
import XCTest
@testable import Lectern

/// Definition, theorem and rule environments of lecture notes become cards whatever the
/// notes' language: the front names the environment and its term, the back is the statement;
/// a reference in running text is no block, and a statement whose mathematics the PDF broke
/// makes no card.
final class CardEnvironmentTests: XCTestCase {
    static let germanNotes = """
        1.1 Topologische Räume
        Definition 1.2 Ein metrischer Raum ist ein Paar (X, d) aus einer Menge X und einer Abbildung d : X × X → R mit d(x, y) = 0 genau dann, wenn x = y.
        Beispiel 3 (Metriken) Jede Menge mit der diskreten Metrik ist ein metrischer Raum, vgl. Definition 1.2 oben.
        Definition 1.4
        a) Ein Raum X heißt zusammenhängend, wenn er nicht die Vereinigung zweier disjunkter nichtleerer offener Mengen ist.
        b) Eine Teilmenge Y ⊆ X heißt zusammenhängend, wenn Y als Teilraum zusammenhängend ist.
        Definition 1.5 Ein topologischer Raum X heißt hausdorffsch, wenn es für je zwei Punkte x 6= y in X disjunkte Umgebungen gibt.
        Satz 1.6 (Heine-Borel) Eine Teilmenge von Rn ist genau dann kompakt, wenn sie beschränkt und abgeschlossen ist.
        Beweis: Nach Definition 1.2 folgt die Behauptung aus dem Satz von Bolzano-Weierstraß.
        """

    static let englishNotes = """
        Rule (Hooke): The force a spring exerts is proportional to its extension.
        Theorem 2 A continuous function on a closed interval attains its maximum.
        By Theorem 2 we get the bound below, which is no theorem of its own.
        """

    func testEnvironmentsBecomeCardsInAnyLanguage() throws {
        let passages = [CardQualityTests.passage(1, Self.germanNotes, section: ["1 Topologie"]),
                        CardQualityTests.passage(2, Self.englishNotes, section: ["2 Analysis"])]
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum(passages))
        let environment = cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
        XCTAssertTrue(environment.contains("Definition 1.2 (metrischer Raum) → Ein metrischer Raum ist ein Paar (X, d) aus einer Menge X und einer Abbildung d : X × X → R mit d(x, y) = 0 genau dann, wenn x = y"), "\(environment)")
        XCTAssertTrue(environment.contains("Definition 1.4 (zusammenhängend) → Ein Raum X heißt zusammenhängend, wenn er nicht die Vereinigung zweier disjunkter nichtleerer offener Mengen ist"), "\(environment)")
        XCTAssertTrue(environment.contains("Satz 1.6 (Heine-Borel) → Eine Teilmenge von Rn ist genau dann kompakt, wenn sie beschränkt und abgeschlossen ist"), "\(environment)")
        XCTAssertTrue(environment.contains("Rule (Hooke) → The force a spring exerts is proportional to its extension"), "\(environment)")
        // A theorem without a name asks nothing out of the notes' numbering.
        XCTAssertFalse(environment.contains { $0.hasPrefix("Theorem 2") }, "\(environment)")
        // The text layer's "x 6= y" is the "≠" the PDF prints: the card shows that.
        XCTAssertTrue(environment.contains("Definition 1.5 (hausdorffsch) → Ein topologischer Raum X heißt hausdorffsch, wenn es für je zwei Punkte x ≠ y in X disjunkte Umgebungen gibt"), "\(environment)")
        XCTAssertFalse(environment.contains { $0.contains("6=") }, "\(environment)")
        // An example, a proof and a reference are no environment.
        XCTAssertFalse(environment.contains { $0.contains("diskreten Metrik") || $0.contains("Bolzano") || $0.contains("we get the bound") }, "\(environment)")
        XCTAssertEqual(environment.count, 5, "\(environment)")
        // Each passes the six checks as generated.
        XCTAssertTrue(cards.filter { $0.origin == .environment }.allSatisfy { $0.quality?.score == 1 })
    }

    func testUnreadableMathematicsIsLeftOut() {
        XCTAssertFalse(StatementBlocks.isReadable("für je zwei Punkte x 6= y in X"))
        XCTAssertFalse(StatementBlocks.isReadable("Sei P 0 ∈ g1 mit d(0, P 0 ) = x"))
        XCTAssertFalse(StatementBlocks.isReadable("• Es gilt β = β wegen"))
        XCTAssertFalse(StatementBlocks.isReadable("z 7→ H(z, t) ist ein Knoten"))
        XCTAssertFalse(StatementBlocks.isReadable("wenn (X, d) ein metrischer Raum und ∅ = G ⊆ P(X) gilt"))
        // An inverse's index set apart after its exponent: ψ ◦ ψ_j⁻¹ read as "ψ−1 j" is written ψj⁻¹;
        // where no single symbol carries it, the text is left out.
        XCTAssertEqual(StatementBlocks.repairingGlyphs("wenn alle Übergänge ψ ◦ ψ−1 j und ψj ◦ ψ−1 glatt sind"),
                       "wenn alle Übergänge ψ ◦ ψj⁻¹ und ψj ◦ ψ−1 glatt sind")
        XCTAssertEqual(StatementBlocks.repairingGlyphs("Es folgt ψ−1 2 ◦ ψ1 = id"), "Es folgt ψ2⁻¹ ◦ ψ1 = id")
        XCTAssertFalse(StatementBlocks.isReadable("wenn alle Übergänge ψ ◦ ψ−1 j und ψj ◦ ψ−1 glatt sind"))
        XCTAssertFalse(StatementBlocks.isReadable("und es gilt dn−1 x = 0 für alle Ketten"))
        XCTAssertTrue(StatementBlocks.isReadable(StatementBlocks.repairingGlyphs("wenn alle Übergänge ψ ◦ ψ−1 j und ψj ◦ ψ−1 glatt sind")))
        XCTAssertTrue(StatementBlocks.isReadable("Das Urbild g −1 (V ) jeder offenen Menge V ist offen"))
        XCTAssertTrue(StatementBlocks.isReadable("Im rechtwinkligen Dreieck gilt a2 + b2 = c2, wobei c die Hypotenuse ist"))
        XCTAssertTrue(StatementBlocks.hasOrphanIndex("Ist I eine Menge, so ist\n\ni∈I\n\nUi ∈ T"))
    }

    /// A remark the notes name is a small proposition of its own; one without a name asks
    /// nothing, and one whose display formula left an ellipsis states nothing readable.
    func testANamedRemarkIsACard() {
        let notes = """
            Bemerkung 24 (Mächtigkeit von Mannigfaltigkeiten) Jede n-dimensionale Mannigfaltigkeit mit n ≥ 1 ist mindestens so mächtig wie R.
            Bemerkung 25 Jede Mannigfaltigkeit ist lokal zusammenhängend.
            Bemerkung 68 (Eigenschaften der hyperbolischen Geraden) Die hyperbolischen Geraden erfüllen. . .
            Remark 3 (Composition) The composition of two continuous maps is continuous.
            Definition 15 Sei X eine Menge und U ⊆ P(X). U heißt eine Überdeckung von X, wenn gilt: ∀x ∈ X : ∃M ∈ U : x ∈ M
            Definition 16 Ein Raum X heißt kompakt, wenn gilt
            Bemerkung 16 (Eigenschaften von Zusammenhangskomponenten) Sei X ein topologischer Raum. Dann gilt:
            a) Z(x) ist abgeschlossen.
            b) X ist disjunkte Vereinigung von Zusammenhangskomponenten.
            Bemerkung 1 (Offene und abgeschlossene Mengen) Betrachte ∅ und X mit der trivialen Topologie.
            Bemerkung 53 (Eindeutigkeit des Grades) Sei p : Y → X eine Überlagerung. Dann haben alle Fasern gleich viele Punkte. Hinweis: unendlich viele sind erlaubt!
            Definition 7 Sei X ein Raum. TX :=  U ⊆ X π −1 (U ) ∈ TX heißt Quotiententopologie.
            Definition 64 Es seien a, b, c, d ∈ R und σ(z) := az + b cz + d. σ heißt Möbiustransformation.
            Definition 84 Sei f : V → V linear. v ∈ V \\ { 0 } heißt Eigenvektor :⇔ ∃λ ∈ K : f (v) = λv. Satz (Binomischer Lehrsatz) Sei x, y ∈ R. Dann gilt: \u{12} X
            k=0
            """
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, notes, section: ["2 Mannigfaltigkeiten"])]))
        XCTAssertEqual(cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }, [
            "Bemerkung 24 (Mächtigkeit von Mannigfaltigkeiten) → Jede n-dimensionale Mannigfaltigkeit mit n ≥ 1 ist mindestens so mächtig wie R",
            "Remark 3 (Composition) → The composition of two continuous maps is continuous",
            // A statement ending in its own relation is whole without a full stop; one ending "… gilt" lost its display.
            "Definition 15 (Überdeckung von X) → Sei X eine Menge und U ⊆ P(X). U heißt eine Überdeckung von X, wenn gilt: ∀x ∈ X : ∃M ∈ U : x ∈ M",
            // A list of properties is several facts, "Betrachte …" claims nothing, a hint is no part of
            // the statement, and a set without its braces or a flattened fraction reads as something else.
            "Bemerkung 53 (Eindeutigkeit des Grades) → Sei p : Y → X eine Überlagerung. Dann haben alle Fasern gleich viele Punkte",
            // An unnumbered theorem with its label after a sentence ends the definition before it.
            "Definition 84 (Eigenvektor) → Sei f : V → V linear. v ∈ V \\ { 0 } heißt Eigenvektor :⇔ ∃λ ∈ K : f (v) = λv",
        ])
    }

    /// The glyphs a TeX math font loses in the text layer are written as the symbols the PDF
    /// prints, so a definition that turns on them is a card a learner can read.
    func testLostMathGlyphsAreWrittenAsTheirSymbols() {
        XCTAssertEqual(StatementBlocks.repairingGlyphs("für je zwei Punkte x 6= y in X, mit Ui ∩ Uj 6= ∅"), "für je zwei Punkte x ≠ y in X, mit Ui ∩ Uj ≠ ∅")
        XCTAssertEqual(StatementBlocks.repairingGlyphs("π : X → X, x 7→ [x]∼"), "π : X → X, x ↦ [x]∼")
        XCTAssertEqual(StatementBlocks.repairingGlyphs("d : X × X → R+ 0 heißt Metrik"), "d : X × X → R₀⁺ heißt Metrik")
        // Numbers that are numbers stay.
        XCTAssertEqual(StatementBlocks.repairingGlyphs("Es gilt 3 + 3 = 6 und 7 → 8, also 6=6."), "Es gilt 3 + 3 = 6 und 7 → 8, also 6=6.")
        let notes = """
            Definition 8 Sei X eine Menge. Eine Abbildung d : X × X → R+ 0 heißt Metrik, wenn d(x, y) = 0 genau dann gilt, wenn x = y ist.
            Definition 12 Ein Knoten γ1 heißt trivial, wenn es eine Abbildung z 7→ H(z, t) gibt, die ihn in einen Kreis überführt.
            """
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, notes, section: ["1 Topologie"])]))
        let environment = cards.filter { $0.origin == .environment }
        XCTAssertEqual(environment.map(\.front), ["Definition 8 (Metrik)", "Definition 12 (trivial)"], "\(environment.map { "\($0.front) → \($0.back)" })")
        XCTAssertTrue(environment.first?.back.contains("d : X × X → R₀⁺ heißt Metrik") == true, "\(environment.map(\.back))")
        XCTAssertTrue(environment.allSatisfy { $0.quality?.score == 1 }, "\(environment.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
    }
}

extension CardEnvironmentTests {
    func testATheoremKeepsItsClaimAndATermLosesItsSymbol() {
        let blocks = StatementBlocks.blocks(in: """
            Satz 3.5 Sei p : X → Y eine Überlagerung.
            Dann gibt es genau eine Liftung von q.
            Definition 9 Seien X und Y metrische Räume. Dann heißt ϕ eine Isometrie von X nach Y, wenn ϕ den Abstand erhält.
            """)
        XCTAssertEqual(blocks.first?.statement, "Sei p : X → Y eine Überlagerung. Dann gibt es genau eine Liftung von q")
        XCTAssertEqual(blocks.last?.term, "Isometrie von X nach Y")
        let more = StatementBlocks.blocks(in: """
            Definition 36 Eine Menge K von Simplizes heißt Simplizialkomplex, wenn gilt:
            (i) Mit jedem Simplex liegt jedes Teilsimplex in K.
            (ii) Zwei Simplizes schneiden sich in einem gemeinsamen Teilsimplex.
            Proposition 4.3 (Existenz der Parallelen) Sei (X, d, G) eine Geometrie mit den Axiomen §1 - §4.
            """)
        // A definition's conditions stay together; a proposition that lost its claim is unreadable.
        XCTAssertTrue(more.first?.statement.hasSuffix("(ii) Zwei Simplizes schneiden sich in einem gemeinsamen Teilsimplex") == true, "\(more)")
        XCTAssertEqual(more.last?.readable, false)
    }
}

extension CardEnvironmentTests {
    /// A definition in parts defines a term in each: "b) S ⊆ T heißt Subbasis …" is a card of its
    /// own ("Definition 4 b) (Subbasis der Topologie T)"), and a part whose mathematics the PDF
    /// broke costs only its own card, not its neighbours'.
    func testEachPartOfADefinitionDefinesItsTerm() {
        let notes = """
            Definition 4 Sei (X, T) ein topologischer Raum.
            a) B ⊆ T heißt Basis der Topologie T, wenn jedes U ∈ T Vereinigung von Elementen aus B ist.
            b) S ⊆ T heißt Subbasis der Topologie T, wenn jedes U ∈ T Vereinigung von endlichen Durchschnitten von Elementen aus S ist.
            c) Ein Punkt x heißt isoliert, wenn { x } ∈ T und P 0 ∉ U für alle U gilt.
            Beispiel 3 (Basis und Subbasis) Jede Basis ist auch eine Subbasis.
            Definition 12 Seien X, Y topologische Räume und f : X → Y eine Abbildung.
            a) f heißt stetig, wenn das Urbild jeder offenen Menge offen ist.
            b) f heißt Homöomorphismus, wenn f stetig ist und es eine stetige Umkehrabbildung g : Y → X gibt.
            """
        let passage = CardQualityTests.passage(1, notes, section: ["1 Topologie"])
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([passage]))
        let environment = cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
        XCTAssertEqual(environment, [
            "Definition 4 (Basis der Topologie T) → Sei (X, T) ein topologischer Raum. a) B ⊆ T heißt Basis der Topologie T, wenn jedes U ∈ T Vereinigung von Elementen aus B ist",
            "Definition 4 b) (Subbasis der Topologie T) → S ⊆ T heißt Subbasis der Topologie T, wenn jedes U ∈ T Vereinigung von endlichen Durchschnitten von Elementen aus S ist",
            "Definition 12 (stetig) → Seien X, Y topologische Räume und f : X → Y eine Abbildung. a) f heißt stetig, wenn das Urbild jeder offenen Menge offen ist",
            "Definition 12 b) (Homöomorphismus) → f heißt Homöomorphismus, wenn f stetig ist und es eine stetige Umkehrabbildung g : Y → X gibt",
        ], "\(environment)")
        XCTAssertTrue(cards.filter { $0.origin == .environment }.allSatisfy { $0.quality?.score == 1 })
        // A part whose display the PDF lost ("M :=" ending its line, "|K| := ∆∈K ∆"), a term
        // running into a clause and a symbol's lost letter ("k -Struktur") make none.
        let broken = StatementBlocks.blocks(in: """
            Definition 3 Sei (X, T) ein topologischer Raum und M ⊆ X.
            a) M heißt dicht, wenn jede nichtleere offene Menge M trifft.
            b) M :=

            A heißt abgeschlossene Hülle oder Abschluss von M .
            c) |K| := ∆∈K ∆ (mit Teilraumtopologie) heißt geometrische Realisierung von K.
            d) Die Menge aller verträglichen Karten bildet einen maximalen Atlas der Klasse C k . Er heißt C k -Struktur auf X.
            e) ι : A → X mit ι(x) = x heißt die Inklusionsabbildung und man schreibt: ι : A → X.
            """)
        // (Part e)'s term ends before "und man schreibt": the naming that follows is no part of it.)
        XCTAssertEqual(broken.filter { $0.readable && $0.term != nil }.map(\.name), ["Definition 3", "Definition 3 e)"], "\(broken)")
        XCTAssertEqual(broken.last?.term, "Inklusionsabbildung")
    }

    /// A definition whose statement announces its conditions with a colon and lists them "a)",
    /// "b)" is one definition: the card holds the term with all its conditions (before, part a)
    /// was read as the first of several parts, ended without a full stop and made no card).
    func testConditionsListedAfterAColonAreOneDefinition() {
        let notes = """
            Definition 7 Seien K, L endliche Graphen. Eine Abbildung

            f : K → L heißt zellulär, wenn für jede Kante e von K gilt:
            a) f (e) ist eine Kante oder eine Ecke von L
            b) f bildet die Endpunkte von e auf Endpunkte von f (e) ab. Beispiel 4 (Zelluläre Abbildungen) Jede Inklusion ist zellulär.
            Definition 8 Sei K ein Graph. Dann gilt:
            a) K heißt zusammenhängend, wenn je zwei Ecken durch einen Weg verbunden sind.
            b) K heißt Baum, wenn K zusammenhängend ist und keinen Kreis enthält.
            """
        let passage = CardQualityTests.passage(1, notes, section: ["2 Graphen"])
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([passage]))
        let environment = cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
        XCTAssertTrue(environment.contains(
            "Definition 7 (zellulär) → Seien K, L endliche Graphen. Eine Abbildung f : K → L heißt zellulär, wenn für jede Kante e von K gilt: a) f (e) ist eine Kante oder eine Ecke von L b) f bildet die Endpunkte von e auf Endpunkte von f (e) ab"),
            "\(environment)")
        // Items that name terms of their own stay parts, each its own card.
        XCTAssertTrue(environment.contains { $0.hasPrefix("Definition 8 b) (Baum) → K heißt Baum") }, "\(environment)")
        XCTAssertTrue(cards.filter { $0.origin == .environment }.allSatisfy { $0.quality?.score == 1 },
                      "\(cards.filter { $0.origin == .environment }.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
    }

    /// A definition opening with a word in quotation marks ("Definition 62 „Simplizialkomplexe“
    /// … heißen flächengleich") is a block like any other (before, the quotation mark after the
    /// number hid the opener and the definition made no card).
    func testADefinitionOpeningWithAQuotedWordIsABlock() {
        let notes = """
            3.1 Graphen
            Definition 9 „Kreise“ in einem Graphen heißen disjunkt, wenn sie keine gemeinsame Ecke haben.
            """
        let passage = CardQualityTests.passage(1, notes, section: ["3 Graphen"])
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([passage]))
        let environment = cards.filter { $0.origin == .environment }
        XCTAssertEqual(environment.map { "\($0.front) → \($0.back)" },
                       ["Definition 9 (disjunkt) → „Kreise“ in einem Graphen heißen disjunkt, wenn sie keine gemeinsame Ecke haben"])
        XCTAssertTrue(environment.allSatisfy { $0.quality?.score == 1 }, "\(environment.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
    }

    /// A derivative's prime, a norm's bars and a disjoint union's dot lost in the text layer
    /// ("f 0 (t)", "kvk", "X ∪˙ Y") are written as the PDF prints them (f′(t), ‖v‖, X ∪̇ Y), so
    /// a definition turning on them is a card; bars or angle brackets no repair reads leave the
    /// definition out.
    func testLostPrimesNormsAndDisjointUnionsAreWrittenAsTheirSymbols() {
        XCTAssertEqual(StatementBlocks.repairingGlyphs("heißt v(t) := kf 0 (t)k die Geschwindigkeit"), "heißt v(t) := ‖f′(t)‖ die Geschwindigkeit")
        XCTAssertEqual(StatementBlocks.repairingGlyphs("mit f 00 (0) ≠ 0 und kwk = 1"), "mit f″(0) ≠ 0 und ‖w‖ = 1")
        XCTAssertEqual(StatementBlocks.repairingGlyphs("Z = (X ∪˙ Y )/∼"), "Z = (X ∪\u{0307} Y )/∼")
        // Words with a "k", numbers and a point's prime set apart without an argument stay as they are.
        XCTAssertEqual(StatementBlocks.repairingGlyphs("Ein kompakter Raum, k = 0 (für alle k), Punkte P 0 und Q."),
                       "Ein kompakter Raum, k = 0 (für alle k), Punkte P 0 und Q.")
        XCTAssertFalse(StatementBlocks.isReadable("wenn gilt: ‖f′(t)k2 = 1"))
        XCTAssertFalse(StatementBlocks.isReadable("wenn gilt: kf′(t)k2 = 1"))
        XCTAssertFalse(StatementBlocks.isReadable("wenn gilt: hu(t), f′(t)i = 0 und ‖u(t)‖ = 1"))
        let notes = """
            Definition 9 Sei f : I → R2 eine Kurve.
            Für t ∈ I heißt v(t) := kf 0 (t)k die Geschwindigkeit von f in t.
            Definition 10 Seien A, B Graphen und W ⊆ A offen. Der Raum (A ∪˙ B)/W heißt Verbindung von A und B längs W.
            Definition 11 Sei f : I → R2 eine Kurve. f heißt gleichmäßig, wenn gilt: kf 0 (t)k2 = 1 für alle t.
            """
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, notes, section: ["5 Kurven"])]))
        let environment = cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
        XCTAssertEqual(environment, [
            "Definition 9 (Geschwindigkeit von f in t) → Sei f : I → R2 eine Kurve. Für t ∈ I heißt v(t) := ‖f′(t)‖ die Geschwindigkeit von f in t",
            "Definition 10 (Verbindung von A und B längs W) → Seien A, B Graphen und W ⊆ A offen. Der Raum (A ∪\u{0307} B)/W heißt Verbindung von A und B längs W",
        ])
        XCTAssertTrue(cards.filter { $0.origin == .environment }.allSatisfy { $0.quality?.score == 1 },
                      "\(cards.filter { $0.origin == .environment }.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
    }

    /// A definition's term may be the property its sentence gives a subject under a condition
    /// ("… liegen kollinear, wenn …"), or follow a symbol and its formula ("heißt v(t) := … die
    /// Geschwindigkeit"); a definition whose naming sentence follows on the next line reads on to it,
    /// and part a)'s mark before the premises hides no claim.
    func testATermAfterAConditionAFormulaOrOnTheNextLineIsRead() {
        let notes = """
            Definition 20 Sei G ein Graph und seien x, y, z Ecken von G.
            a) x, y, z liegen benachbart, wenn es eine Kante e gibt mit { x, y } ⊆ e und { y, z } ⊆ e.
            b) y liegt zwischen x und z, wenn d(x, z) = d(x, y) + d(y, z)
            Definition 21 Seien G1 , G2 Graphen.
            E ⊆ G1 × G2 sei eine Kante, wenn ihre Projektionen Kanten sind.
            Die Menge dieser Kanten ist ein Graph auf G1 × G2 . Er heißt Produktgraph.
            Definition 22
            a) Sei Kn der Graph mit n Ecken, in dem je zwei Ecken verbunden sind.
            Dann heißt Kn vollständiger Graph.
            b) Für einen Graphen G heißt G ein Baum, wenn G keinen Kreis hat.
            """
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, notes, section: ["6 Graphen"])]))
        let environment = cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
        XCTAssertTrue(environment.contains("Definition 20 (benachbart) → Sei G ein Graph und seien x, y, z Ecken von G. a) x, y, z liegen benachbart, wenn es eine Kante e gibt mit { x, y } ⊆ e und { y, z } ⊆ e"), "\(environment)")
        XCTAssertTrue(environment.contains("Definition 21 (Produktgraph) → Seien G1 , G2 Graphen. E ⊆ G1 × G2 sei eine Kante, wenn ihre Projektionen Kanten sind. Die Menge dieser Kanten ist ein Graph auf G1 × G2 . Er heißt Produktgraph"), "\(environment)")
        XCTAssertTrue(environment.contains("Definition 22 (vollständiger Graph) → Sei Kn der Graph mit n Ecken, in dem je zwei Ecken verbunden sind. Dann heißt Kn vollständiger Graph"), "\(environment)")
        XCTAssertTrue(cards.filter { $0.origin == .environment }.allSatisfy { $0.quality?.score == 1 },
                      "\(cards.filter { $0.origin == .environment }.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
        // A big operator's index standing alone in its line lost the operator: no card.
        XCTAssertTrue(StatementBlocks.lostDisplay("Ein Atlas ist eine Familie (Ui )i∈I von Karten auf X, S sodass i∈I Ui = X"))
        XCTAssertFalse(StatementBlocks.lostDisplay("Sei (x)n∈N eine Folge in X und x ∈ X ein Punkt."))
    }

    /// A term that runs on past an abbreviation ("… heißt Randform von M bzgl. F .") is named
    /// whole: the abbreviation's full stop ends neither the term nor the statement.
    func testATermRunsOnPastAnAbbreviation() {
        let notes = """
            Definition 14 Die durch −g definierte symmetrische Form auf M heißt Randform von M bzgl. F .

            Man schreibt: R(x, y) = g(x, y)
            """
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, notes, section: ["5 Flächen"])]))
        let environment = cards.filter { $0.origin == .environment }
        XCTAssertEqual(environment.map { "\($0.front) → \($0.back)" },
                       ["Definition 14 (Randform von M bzgl. F) → Die durch −g definierte symmetrische Form auf M heißt Randform von M bzgl. F"])
        XCTAssertTrue(environment.allSatisfy { $0.quality?.score == 1 }, "\(environment.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
    }
}
