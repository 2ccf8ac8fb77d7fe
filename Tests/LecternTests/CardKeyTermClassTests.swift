import Foundation
import XCTest
@testable import Lectern

/// Key-term clozes and definition cards written like the bad cards of every graded seed that the
/// checks still kept (seeds 5151–1717, the fixture), one class of fault at a time, on generated
/// text: each is turned away for its own fault, while its well-made twin is not.
final class CardKeyTermClassTests: XCTestCase {
    typealias Card = (type: CardNoteType, front: String, back: String, origin: CardOrigin)

    static func reasons(_ cards: [Card], passage: Passage, terms: [KeyTerm] = []) -> [String] {
        CardPrecisionTests.failures(cards, passage: passage, terms: terms).map { $0.joined(separator: "; ") }
    }

    static func emphasised(_ terms: String...) -> [KeyTerm] {
        terms.map { KeyTerm(term: $0, definition: "", origin: .offline, passageId: 1, basis: .emphasised) }
    }

    /// "A {{mutation}} is a change in the sequence.": a kind of thing of something the passage names
    /// ("the sequence": which?) leaves the blank open; "The {{chain rule}} is the tool behind
    /// related-rates problems" names a class and keeps its one answer. The Basic card "What is the
    /// chain rule? → The tool behind related-rates problems" is a kind of thing alone: the hyphen
    /// joins one word of its modifier, not two.
    func testAKindOfThingOfItsPassageHasNoOneAnswer() {
        let passage = CardQualityTests.passage(1, """
            A deletion is a change in the strand. Most are repaired.
            The product rule is the tool behind implicit-differentiation problems.
            A deletion is a loss of one or more bases from a strand of DNA during copying.
            """, section: ["1 Genes", "1.3 Deletions"])
        let reasons = Self.reasons([
            (.cloze, "A {{c1::deletion}} is a change in the strand.", "", .definition),
            (.cloze, "The {{c1::product rule}} is the tool behind implicit-differentiation problems.", "", .definition),
            (.basic, "What is the product rule?", "The tool behind implicit-differentiation problems", .definition),
            (.cloze, "A {{c1::deletion}} is a loss of one or more bases from a strand of DNA during copying.", "", .definition),
        ], passage: passage)
        XCTAssertTrue(reasons[0].contains("many terms fit the blank"), reasons[0])
        XCTAssertEqual(reasons[1], "", "a kind of thing with a class that says which one")
        XCTAssertTrue(reasons[2].contains("names only a kind of thing (“tool”)"), reasons[2])
        XCTAssertEqual(reasons[3], "", "the term's definition")
    }

    /// "{{Neo-Confucianism became prominent}}", "{{British philosopher Bertrand Russell}} (1872–1970)
    /// is credited with …": a deletion that ran into its clause's verb, or that takes a person's
    /// descriptor with the name.
    func testADeletionHoldsTheTermAlone() {
        let passage = CardQualityTests.passage(1, """
            Centuries later, a new school of Indian logic known as Navya-Nyaya became dominant.
            Danish philosopher Søren Kierkegaard (1813–1855) is credited with founding existentialism.
            Danish philosopher Søren Kierkegaard (1813–1855) is credited with founding existentialism.
            """, section: ["3 Schools", "3.2 Later schools"])
        let terms = Self.emphasised("Navya-Nyaya became dominant", "Danish philosopher Søren Kierkegaard", "Søren Kierkegaard")
        let reasons = Self.reasons([
            (.cloze, "Centuries later, a new school of Indian logic known as {{c1::Navya-Nyaya became dominant}}.", "", .keyTerm),
            (.cloze, "{{c1::Danish philosopher Søren Kierkegaard}} (1813–1855) is credited with founding existentialism.", "", .keyTerm),
            (.cloze, "Danish philosopher {{c1::Søren Kierkegaard}} (1813–1855) is credited with founding existentialism.", "", .keyTerm),
        ], passage: passage, terms: terms)
        XCTAssertTrue(reasons[0].contains("runs into the verb “became”"), reasons[0])
        XCTAssertTrue(reasons[1].contains("deletes the descriptor “Danish philosopher” with the name"), reasons[1])
        XCTAssertFalse(reasons[2].contains("descriptor") || reasons[2].contains("runs into"), reasons[2])
    }

    /// "Very useful theorem called the {{parallel axis theorem}}.": a lecturer's fragment names the
    /// term and says nothing about it; "… is called the {{…}}" states what the term is.
    func testALecturersFragmentIsNoStatement() {
        let passage = CardQualityTests.passage(1, """
            Really handy result called the perpendicular axis theorem.
            The moment of inertia of a flat body about a perpendicular axis is the sum of the moments about two axes in its plane, and that is called the perpendicular axis theorem.
            """, kind: .transcript, section: ["Week 9: Rotation", "21.3 Moments of inertia"])
        let reasons = Self.reasons([
            (.cloze, "Really handy result called the {{c1::perpendicular axis theorem}}.", "", .keyTerm),
        ], passage: passage, terms: Self.emphasised("perpendicular axis theorem"))
        XCTAssertTrue(reasons[0].contains("has no verb: a fragment"), reasons[0])
        // A written sentence with its verb names the term in a statement.
        let written = CardQualityTests.passage(2, "The study of the forces behind changes of motion is called dynamics.", section: ["Mechanics"])
        let kept = Self.reasons([(.cloze, "The study of the forces behind changes of motion is called {{c1::dynamics}}.", "", .keyTerm)],
                                passage: written, terms: Self.emphasised("dynamics"))
        XCTAssertFalse(kept[0].contains("fragment"), kept[0])
    }

    /// "Confirmation bias is closely related to another bias known as {{anchoring}}.": the sentence
    /// says only that the term is another such thing.
    func testAnotherSuchThingIsNoUniqueAnswer() {
        let passage = CardQualityTests.passage(1, """
            Hindsight bias is often confused with another bias known as outcome bias.
            Outcome bias is the tendency to judge a decision by its result rather than by what was known when it was made.
            """, section: ["2 Biases", "2.3 Outcome bias"])
        let reasons = Self.reasons([
            (.cloze, "Hindsight bias is often confused with another bias known as {{c1::outcome bias}}.", "", .keyTerm),
            (.cloze, "{{c1::Outcome bias}} is the tendency to judge a decision by its result rather than by what was known when it was made.", "", .keyTerm),
        ], passage: passage, terms: Self.emphasised("outcome bias", "Outcome bias"))
        XCTAssertTrue(reasons[0].contains("“another bias” says only what kind of thing"), reasons[0])
        XCTAssertEqual(reasons[1], "", "the term's definition")
    }

    /// "Although much of his reign fell under a period known as the {{Pax Romana}}, …, the end of his
    /// reign …" and "A {{gene editing therapy}} is …, whereas a gene editing enhancement is …": the
    /// term stands in a concession, or beside a second definition that hints it.
    func testAConcessionOrAContrastIsASecondStatement() {
        let passage = CardQualityTests.passage(1, """
            Although most of the dynasty's rule fell within an era known as the Golden Peace, when trade flourished, its last decades saw famine and revolt.
            A somatic intervention is a treatment that changes only the patient's own “body cells,” whereas a germline intervention is one whose changes pass to offspring.
            A somatic intervention is a treatment that changes only the cells of the patient being treated.
            """, section: ["4 History", "4.1 Dynasties"])
        let reasons = Self.reasons([
            (.cloze, "Although most of the dynasty's rule fell within an era known as the {{c1::Golden Peace}}, when trade flourished, its last decades saw famine and revolt.", "", .keyTerm),
            (.cloze, "A {{c1::somatic intervention}} is a treatment that changes only the patient's own “body cells,” whereas a germline intervention is one whose changes pass to offspring.", "", .keyTerm),
            (.cloze, "A {{c1::somatic intervention}} is a treatment that changes only the cells of the patient being treated.", "", .keyTerm),
        ], passage: passage, terms: Self.emphasised("Golden Peace", "somatic intervention"))
        XCTAssertTrue(reasons[0].contains("stands in the sentence's “Although …” clause"), reasons[0])
        XCTAssertTrue(reasons[1].contains("with a second thing it defines"), reasons[1])
        XCTAssertEqual(reasons[2], "", "one definition")
    }

    /// "The ability and artistic skill of the sculptor was termed the {{efficient cause}}.": what one
    /// example's person has, taught as what the term names.
    func testAnExamplesPersonIsNotWhatTheTermNames() {
        let passage = CardQualityTests.passage(1, """
            Consider a vase. The patience and steady hand of the potter was termed the moving principle.
            The source from which a change first begins is called the moving principle.
            """, section: ["5 Causes", "5.1 Four causes"])
        let reasons = Self.reasons([
            (.cloze, "The patience and steady hand of the potter was termed the {{c1::moving principle}}.", "", .keyTerm),
            (.cloze, "The source from which a change first begins is called the {{c1::moving principle}}.", "", .keyTerm),
        ], passage: passage, terms: Self.emphasised("moving principle"))
        XCTAssertTrue(reasons[0].contains("“the potter”: the sentence names what one example's person"), reasons[0])
        XCTAssertEqual(reasons[1], "", "the term's definition")
    }

    /// "{{Mary}} is a scientist and specializes in …", "What is Mary?": a person of a thought
    /// experiment, not a term.
    func testAPersonOfAnExampleIsNoTerm() {
        let passage = CardQualityTests.passage(1, """
            Imagine a case. Tomas is a doctor who has memorised every fact about pain.
            Tomas is a doctor who has memorised every fact about pain.
            Nociception is the nervous system's detection of harmful stimuli.
            """, section: ["6 Mind", "6.2 Knowledge arguments"])
        let reasons = Self.reasons([
            (.cloze, "{{c1::Tomas}} is a doctor who has memorised every fact about pain.", "", .keyTerm),
            (.basic, "What is Tomas?", "A doctor who has memorised every fact about pain", .definition),
            (.cloze, "{{c1::Nociception}} is the nervous system's detection of harmful stimuli.", "", .keyTerm),
        ], passage: passage, terms: Self.emphasised("Tomas", "Nociception"))
        XCTAssertTrue(reasons[0].contains("a person of an example (“doctor”)"), reasons[0])
        XCTAssertTrue(reasons[1].contains("a person of an example (“doctor”)"), reasons[1])
        XCTAssertEqual(reasons[2], "", "the term's definition")
    }

    /// "Definition 78 (zweite Fundamentalform von S in s bzgl)": a statement cut at an
    /// abbreviation's full stop.
    func testAStatementCutAtAnAbbreviationIsNoCard() {
        let cut = "Die durch dn definierte Bilinearform auf T heißt Formoperator von S bzgl"
        let whole = "Die durch dn definierte Bilinearform auf T heißt Formoperator von S bzgl. der Normalen n."
        let passage = CardQualityTests.passage(1, "Definition 7 (Formoperator von S bzgl. der Normalen n) \(whole)", section: ["4 Flächen"])
        let reasons = Self.reasons([
            (.basic, "Definition 7 (Formoperator von S bzgl)", cut, .environment),
            (.basic, "Definition 7 (Formoperator von S bzgl. der Normalen n)", whole, .environment),
        ], passage: passage)
        XCTAssertTrue(reasons[0].contains("stops at the abbreviation “bzgl"), reasons[0])
        XCTAssertFalse(reasons[1].contains("abbreviation"), reasons[1])
    }

    /// "{{Historicity}} is the philosophical view that … events …" with the glossary's "the process
    /// of verification of the events …" on its back: a doctrine in the text, a thing of another kind
    /// in the glossary, one shared word by chance.
    func testADoctrineAgainstTheGlossarysOtherKindIsAnotherSense() {
        let glossary = CardQualityTests.passage(8, """
            provenance: the process of tracing the records said to be original back to their makers
            mutualism: the notion that all members of a group owe each other equal care
            """, kind: .glossary, section: ["1 Logic", "Glossary"])
        let passage = CardQualityTests.passage(1, """
            Provenance is the philosophical view that every object we meet takes its meaning from the records of the people who made it.
            Provenance is the process of tracing records back to the makers said to be original.
            The term mutualism refers to a broad family of views that give first place to equal standing.
            """, section: ["7 History", "7.1 Sources"])
        let terms = [KeyTerm(term: "provenance", definition: "the process of tracing the records said to be original back to their makers",
                             origin: .source, passageId: 8, basis: .glossary),
                     KeyTerm(term: "mutualism", definition: "the notion that all members of a group owe each other equal care",
                             origin: .source, passageId: 8, basis: .glossary)]
        let curriculum = CardPrecisionTests.curriculum([passage, glossary], terms: terms)
        let topic = curriculum.topics[0]
        let deck = CardDeckContext(curriculum: curriculum)
        let cards = [
            "{{c1::Provenance}} is the philosophical view that every object we meet takes its meaning from the records of the people who made it.",
            "{{c1::Provenance}} is the process of tracing records back to the makers said to be original.",
            "The term {{c1::mutualism}} refers to a broad family of views that give first place to equal standing.",
        ].map { deck.card(topic: topic, type: .cloze, front: $0, back: "", origin: .keyTerm, passage: passage) }
        let reasons = CardChecks(curriculum: curriculum).assess(cards, topic: topic).map {
            $0.quality?.checks.filter { !$0.passed }.map(\.reason).joined(separator: "; ") ?? "no quality"
        }
        XCTAssertTrue(reasons[0].contains("this is another sense"), reasons[0])
        XCTAssertFalse(reasons[1].contains("another sense"), reasons[1])
        // A family of views against the glossary's notion: one doctrine, worded twice.
        XCTAssertFalse(reasons[2].contains("another sense"), reasons[2])
    }
}
