import Foundation
import XCTest
@testable import Lectern

/// What a lecturer says becomes a card where it states a definition or a formula: "So our
/// instantaneous velocity is just the time derivative of the position function" is read as the
/// written sentence it means ("The instantaneous velocity is the time derivative of …"), a
/// formula spoken as an operation ("the force is the time derivative of the momentum") is
/// written with its symbols, and a transcript's card links to the moment its sentence is said.
final class CardSpokenDefinitionTests: XCTestCase {
    let hashing = ["LECTERN_EMBEDDER": "hashing"]

    static func cards(_ text: String, kind: PassageKind = .transcript) -> [String] {
        CardFallbackFactsTests.cards(text, kind: kind).map { "\($0.front) → \($0.back)" }
    }

    func testSpeechIsCleanedOnlyWhereTheMeaningStays() {
        XCTAssertEqual(SpokenSentence.cleaned("And so now our instantaneous velocity is just the time derivative of the position function."),
                       "The instantaneous velocity is the time derivative of the position function.")
        XCTAssertEqual(SpokenSentence.cleaned("Deepto Chakrabarty The total mechanical energy is the sum of the kinetic and potential energies."),
                       "The total mechanical energy is the sum of the kinetic and potential energies.")
        XCTAssertEqual(SpokenSentence.cleaned("But recall that the center of mass reference frame is defined by the condition that the total momentum is zero."),
                       "The center of mass reference frame is defined by the condition that the total momentum is zero.")
        XCTAssertEqual(SpokenSentence.cleaned("So, uh, the the force is nothing but the derivative of the momentum."),
                       "The force is the derivative of the momentum.")
        // A false start, a name inside the sentence, a "that that": left as said.
        XCTAssertEqual(SpokenSentence.cleaned("The work done-- so again, the integral of F dx."), "The work done-- so again, the integral of F dx.")
        XCTAssertEqual(SpokenSentence.cleaned("Newton showed that that force is universal."), "Newton showed that that force is universal.")
    }

    func testALecturersDefinitionGivesAnUncoveredTopicItsCard() {
        XCTAssertEqual(Self.cards("So our instantaneous velocity is just the time derivative of the position function at any instant in time."),
                       ["What is the instantaneous velocity? → The time derivative of the position function at any instant in time"])
        XCTAssertEqual(Self.cards("But recall that the center of mass reference frame is defined by the condition that the total momentum in that frame is zero."),
                       ["What defines the center of mass reference frame? → The condition that the total momentum in that frame is zero"])
        XCTAssertEqual(Self.cards("Now we've been talking here only about mechanical energy, which we've defined as the sum of kinetic energy and potential energy."),
                       ["What is mechanical energy? → The sum of kinetic energy and potential energy"])
        XCTAssertEqual(CardFallbackFactsTests.cards("So our instantaneous velocity is just the time derivative of the position function.").first?.quality?.score, 1)
        // A bare noun, a problem's particular, a pronoun, a place in the lecture: no definition.
        XCTAssertEqual(Self.cards("So the force is just a vector."), [])
        XCTAssertEqual(Self.cards("Now the momentum of the system is the sum of the momentum of each block."), [])
        XCTAssertEqual(Self.cards("Then it's the derivative of the velocity with respect to time."), [])
        XCTAssertEqual(Self.cards("And the acceleration is the same in both of the frames."), [])
        XCTAssertEqual(Self.cards("So our velocity is the derivative of what we saw on the board."), [])
        // A hypothetical is no statement of the lecture.
        XCTAssertEqual(Self.cards("Suppose the velocity is the derivative of some function of time."), [])
    }

    func testAFormulaSpokenAsAnOperationIsWrittenWithItsSymbols() {
        let force = FormulaStatements.statements(in: "And the force is equal to the time derivative of the momentum.")
        XCTAssertEqual(force, [FormulaStatement(name: "force", lhs: "F", rhs: "\\frac{dp}{dt}", meanings: ["\\(p\\): the momentum"])])
        XCTAssertEqual(FormulaStatements.statements(in: "Force is the derivative of momentum with respect to time.").map(\.rhs), ["\\frac{dp}{dt}"])
        let energy = FormulaStatements.statements(in: "The total mechanical energy is defined as the sum of the kinetic energy and the potential energy.")
        XCTAssertEqual(energy.map(\.display), ["\\(E = K + U\\)"])
        XCTAssertEqual(energy.first?.meanings, ["\\(K\\): the kinetic energy", "\\(U\\): the potential energy"])
        // Of one problem's body, or of a quantity and itself: no law.
        XCTAssertEqual(FormulaStatements.statements(in: "The force is the time derivative of the momentum of the block."), [])
        XCTAssertEqual(FormulaStatements.statements(in: "The momentum is the derivative of the momentum with respect to time."), [])

        let passage = CardQualityTests.passage(1, CardFallbackFactsTests.filler + " And so the force is equal to the time derivative of the momentum.",
                                               kind: .transcript, section: ["Lecture 5"])
        let cards = CardGeneration.offline(CardQualityTests.curriculum([passage])).cards
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" }, ["Force: \\(F\\) = ? → \\(F = \\frac{dp}{dt}\\) (\\(p\\): the momentum)"])
        XCTAssertEqual(cards.first?.quality?.score, 1)
    }

    func testACardCitesTheMomentItsSentenceIsSaid() throws {
        let passage = Self.transcript(saying: "So our instantaneous velocity is just the time derivative of the position function at any instant in time.",
                                      at: 95.5, in: "Lecture 5")
        let cards = CardGeneration.offline(CardQualityTests.curriculum([passage])).cards
        XCTAssertEqual(cards.map(\.front), ["What is the instantaneous velocity?"])
        // (Before: the passage's start, 12 s, a minute and a half before the answer is said.)
        XCTAssertEqual(cards.first?.source.timeStart, 95.5)
    }

    /// A transcript passage that starts at 12 s with filler and says `said` at `seconds`.
    static func transcript(saying said: String, at seconds: Double, in section: String) -> Passage {
        let text = CardFallbackFactsTests.filler + " " + said
        let offset = text.distance(from: text.startIndex, to: text.range(of: said)!.lowerBound)
        return Passage(id: 1, documentId: 1, ordinal: 1, text: text, kind: .transcript, sectionPath: [section],
                       timeStart: 12, tokenCount: WordTokenizer.words(text).count,
                       timeline: [TimePoint(offset: 0, seconds: 12), TimePoint(offset: offset, seconds: seconds)])
    }

    /// An OCW course of one lecture video whose transcript defines one quantity, late in the video.
    static let course = #"""
        {"title": "Tiny Kinematics", "uid": "c1", "short_url": "tiny-kinematics", "url": "/courses/tiny-kinematics",
         "course_pages": [{"uid": "p1", "parent_uid": "c1", "order_index": "1", "title": "Week 1: Kinematics", "type": "CourseSection",
                           "url": "/courses/tiny-kinematics/week-1", "text": "<p>This week is about motion in one dimension.</p>"}],
         "course_embedded_media": {"vid1": {"title": "1.5 Instantaneous Velocity", "parent_uid": "p1", "order_index": "1",
             "technical_location": "/courses/tiny-kinematics/week-1/1.5", "about_this_resource_text": "",
             "embedded_media": [{"id": "Video-YouTube-Stream", "media_location": "abcDEF12345"}],
             "transcript": "<p>FILLER</p><p><span m='95000'>So our instantaneous velocity is just the time derivative of the position function at any instant in time.</span></p>"}}}
        """#

    func testTheCardLinksToThatMomentInTheVideo() throws {
        let filler = (0..<8).map { "<span m='\(1000 + $0 * 9000)'>The lecture goes on with several worked problems on the board while students take notes and ask about the homework.</span>" }
            .joined(separator: " ")
        let folder = try TemporaryFolder()
        try folder.write("tiny-kinematics_parsed.json", Self.course.replacingOccurrences(of: "FILLER", with: filler))
        XCTAssertEqual(try runLectern(["ingest", "tiny-kinematics_parsed.json"], in: folder.url, environment: hashing).status, 0)
        let built = try runLectern(["curriculum", "build", "kinematics", "tiny-kinematics_parsed.json"], in: folder.url, environment: hashing)
        XCTAssertEqual(built.status, 0, built.stderr)
        let generated = try runLectern(["cards", "generate", "kinematics"], in: folder.url, environment: hashing)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let listed = try runLectern(["cards", "list", "--curriculum", "kinematics", "--json"], in: folder.url, environment: hashing)
        let cards = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], listed.stdout)
        let velocity = try XCTUnwrap(cards.first { ($0["front"] as? String) == "What is the instantaneous velocity?" }, listed.stdout)
        XCTAssertEqual(velocity["time"] as? Double, 95)
        XCTAssertEqual(velocity["link"] as? String, "https://youtu.be/abcDEF12345?t=95")
    }

    // MARK: Numbered definitions of lecture notes

    static func environmentCards(_ passages: [Passage]) -> [String] {
        CardGeneration.offline(CardQualityTests.curriculum(passages)).cards.filter { $0.origin == .environment }.map { "\($0.front) → \($0.back)" }
    }

    func testADefinitionNamingTwoThingsNamesItsFirstTerm() {
        let notes = """
            Definition 5 Sei (X, T) ein topologischer Raum und Y ⊆ X. TY := { U ∩ Y | U ∈ T } ist eine Topologie auf Y. TY heißt Teilraumtopologie und (Y, TY) heißt ein Teilraum von (X, T).
            """
        // (Before: "Teilraumtopologie und (Y" was read as the term, its bracket open: no card.)
        XCTAssertEqual(Self.environmentCards([CardQualityTests.passage(1, notes, section: ["1 Topologie"])]),
                       ["Definition 5 (Teilraumtopologie) → Sei (X, T) ein topologischer Raum und Y ⊆ X. TY := { U ∩ Y | U ∈ T } ist eine Topologie auf Y. TY heißt Teilraumtopologie und (Y, TY) heißt ein Teilraum von (X, T)"])
        XCTAssertEqual(StatementBlocks.definedTerm(in: "Dann heißt ∆n Standard-Simplex und n die Dimension des Simplex."), "Standard-Simplex")
        // A synonym joined by "oder" stays part of the term.
        XCTAssertEqual(StatementBlocks.definedTerm(in: "A heißt abgeschlossene Hülle oder Abschluss von M."), "abgeschlossene Hülle oder Abschluss von M")
    }

    func testADefinitionAfterItsPremisesAndADisplayedRelation() {
        let jordan = "Definition 19 Sei X ein topologischer Raum. Eine Jordankurve in X ist ein Homöomorphismus γ : [0, 1] → C ⊆ X, wobei C := Bild γ."
        XCTAssertEqual(Self.environmentCards([CardQualityTests.passage(1, jordan, section: ["2 Kurven"])]),
                       ["Definition 19 (Jordankurve in X) → Sei X ein topologischer Raum. Eine Jordankurve in X ist ein Homöomorphismus γ : [0, 1] → C ⊆ X, wobei C := Bild γ"])
        // The term as a word: "affinen Räume" of the premises does not end the statement at "affin".
        let affine = "Definition 82 Es seien V und W K-Vektorräume und A(V) und A(W) die zugehörigen affinen Räume.\nEine Abbildung f : V → W heißt affin, falls für alle a, b ∈ V und alle λ, µ ∈ K mit λ + µ = 1 gilt:\n\nf (λa + µb) = λf (a) + µf (b)\n\nDefinition 83 Sei V ein Vektorraum."
        XCTAssertEqual(Self.environmentCards([CardQualityTests.passage(1, affine, section: ["7 Anhang"])]),
                       ["Definition 82 (affin) → Es seien V und W K-Vektorräume und A(V) und A(W) die zugehörigen affinen Räume. Eine Abbildung f : V → W heißt affin, falls für alle a, b ∈ V und alle λ, µ ∈ K mit λ + µ = 1 gilt: f (λa + µb) = λf (a) + µf (b)"])
    }

    func testADefinitionTheChunkerCutAfterItsPremisesReadsOnIntoTheNextPassage() {
        let first = CardQualityTests.passage(1, "Beispiel 16 Jede konstante Abbildung ist stetig.\nDefinition 17 Sei X ein topologischer Raum.", section: ["3 Wege"])
        let second = CardQualityTests.passage(2, "a) Ein Weg in X ist eine stetige Abbildung γ : [0, 1] → X.\nb) γ heißt geschlossen, wenn γ(1) = γ(0) gilt.\nBeispiel 17 Ist X diskret, so ist jeder Weg konstant.", section: ["3 Wege"])
        let cards = CardGeneration.offline(CardQualityTests.curriculum([first, second])).cards.filter { $0.origin == .environment }
        // (Before: none; "Sei X ein topologischer Raum." alone states nothing.)
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" },
                       ["Definition 17 (Weg in X) → Sei X ein topologischer Raum. a) Ein Weg in X ist eine stetige Abbildung γ : [0, 1] → X",
                        "Definition 17 b) (geschlossen) → γ heißt geschlossen, wenn γ(1) = γ(0) gilt"])
        XCTAssertEqual(cards.map(\.source.passageId), [1, 1])
        XCTAssertTrue(cards.allSatisfy { $0.quality?.score == 1 }, "\(cards.map(\.quality))")
        // Passages of two documents, or not next to each other, are not read as one.
        XCTAssertEqual(StatementBlocks.readingText([first, CardQualityTests.passage(3, second.text, section: ["3 Wege"])], at: 0), first.text)
    }

    /// The classes the self-check of the first cut turned up (grades-cover-4141.jsonl), each made no card.
    func testWhatTheFirstCutGotWrongMakesNoCard() {
        // A definiens running into its clause's predicate; a dot product on the board.
        XCTAssertEqual(FallbackFacts.relativeDefinition(in: "So the total mechanical energy, which is the sum of the kinetic energy and the potential energy, is a constant under the action of a conservative force.",
                                                        terms: ["total mechanical energy"])?.back, "The sum of the kinetic energy and the potential energy")
        XCTAssertEqual(Self.cards("So recall that the work is the integral from the initial to the final place of fg.ds."), [])
        // Mathematics the PDF lost: a control character for a bracket, an index set apart twice, a double prime.
        XCTAssertFalse(StatementBlocks.isReadable("Sei H := { z ∈ C | =(z) > 0 } = \u{08} (x, y) ∈ R2 y > 0 die obere Halbebene"))
        XCTAssertFalse(StatementBlocks.isReadable("heißt ϕij := ϕj ◦ ϕ−1 i i ϕi (Ui ∩ Uj ) Kartenwechsel"))
        XCTAssertFalse(StatementBlocks.isReadable("so, dass gilt: γ 00 (t) = κ(t) · n(t)"))
        // A symbol is no term; a short German noun is.
        XCTAssertFalse(StatementBlocks.isTerm("ϕij"))
        XCTAssertTrue(StatementBlocks.isTerm("Weg in X"))
    }
}
