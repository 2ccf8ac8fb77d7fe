import Foundation
import XCTest
@testable import Lectern

/// A topic with ~150 words of explanatory text and no card otherwise gets one from a fact its
/// prose states in a lesser shape: a term defined in a relative clause, what a thing is an
/// example of, an abbreviation's expansion, the year of an event. The card passes every check;
/// a pointing, spoken or bracketed sentence gives none, and a topic with a card gets no more.
final class CardFallbackFactsTests: XCTestCase {
    /// ~130 words that state nothing a card could ask.
    static let filler = CardCoverageTests.filler

    static func cards(_ text: String, kind: PassageKind = .transcript) -> [Flashcard] {
        let passage = CardQualityTests.passage(1, filler + " " + text, kind: kind, section: ["Lecture 3"])
        return CardGeneration.offline(CardQualityTests.curriculum([passage])).cards
    }

    func testAnAbbreviationGivesAnUncoveredTopicItsCard() {
        let cards = Self.cards("First of all, Masked Language Modeling, or MLM, is one of the objectives with which BERT was trained.")
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" }, ["What does MLM stand for? → Masked Language Modeling"])
        XCTAssertEqual(cards.first?.quality?.score, 1)
        XCTAssertEqual(FallbackFacts.abbreviation(in: "It is a task of natural language processing (NLP) and of speech.")?.back, "Natural language processing")
        XCTAssertEqual(FallbackFacts.abbreviation(in: "The Massachusetts Institute of Technology (MIT) publishes its courses.")?.back, "Massachusetts Institute of Technology")
        // Initials that do not spell it: no expansion.
        XCTAssertNil(FallbackFacts.abbreviation(in: "We trained the large model (GPT) on the web."))
    }

    func testWhatAThingIsAnExampleOf() {
        let cards = Self.cards("Sentiment analysis is an example of sequence classification.")
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" }, ["Sentiment analysis is an example of what? → Sequence classification"])
        XCTAssertEqual(cards.first?.quality?.score, 1)
        // "This is an example of …", "So this is an example of what we refer to as …": nothing named.
        XCTAssertTrue(Self.cards("This is an example of a conservative force.").isEmpty)
        XCTAssertNil(FallbackFacts.exampleOf(in: "So this is an example of what we refer to as air drag."))
    }

    func testATermDefinedInARelativeClause() {
        let sentence = "Locke invokes natural law, which is the notion that humankind has rights that no government may take away."
        XCTAssertEqual(FallbackFacts.relativeDefinition(in: sentence, terms: ["natural law"]),
                       .init(shape: .relativeDefinition, type: .basic, front: "What is natural law?",
                             back: "The notion that humankind has rights that no government may take away"))
        // Only a term of the topic; a clause pointing into its passage defines nothing.
        XCTAssertNil(FallbackFacts.relativeDefinition(in: sentence, terms: ["humankind"]))
        XCTAssertNil(FallbackFacts.relativeDefinition(in: "We add friction, which is the force shown in this figure.", terms: ["friction"]))
        // An appositive with a clause of its own; a named quantity is a term in a lecture without a glossary.
        XCTAssertEqual(FallbackFacts.relativeDefinition(in: "This leads directly to the concept of torque, a vector quantity that represents a sort of rotational force.",
                                                        terms: ["torque"])?.back, "A vector quantity that represents a sort of rotational force")
        let cards = Self.cards("This leads directly to the concept of torque, a vector quantity that represents a sort of rotational force.")
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" }, ["What is torque? → A vector quantity that represents a sort of rotational force"])
        XCTAssertNil(FallbackFacts.relativeDefinition(in: "We apply a torque, a push that we saw in the last lecture.", terms: ["torque"]))
        // The appositive may open the sentence, the term its subject.
        XCTAssertEqual(FallbackFacts.relativeDefinition(in: "A branch of philosophy that looks at how society determines governance, political philosophy also considers justice.",
                                                        terms: ["political philosophy"])?.back, "A branch of philosophy that looks at how society determines governance")
        XCTAssertNil(FallbackFacts.relativeDefinition(in: "A few years later, political philosophy changed.", terms: ["political philosophy"]))
    }

    func testTheYearOfAnEvent() {
        let cards = Self.cards("The Catholic Church issued the Index of Forbidden Books in 1559.", kind: .text)
        XCTAssertEqual(cards.map(\.front), ["The Catholic Church issued the Index of Forbidden Books in {{c1::1559}}."])
        XCTAssertEqual(cards.first?.quality?.score, 1)
        // A life's span, two figures, or a sentence leaning on its neighbours: no date to ask.
        XCTAssertNil(FallbackFacts.dated(in: "Immanuel Kant (1724–1804) wrote the Critique of Pure Reason in 1781."))
        XCTAssertNil(FallbackFacts.dated(in: "By 1500 there were presses in more than 200 towns."))
        XCTAssertNil(FallbackFacts.dated(in: "This changed in 1517 when the theses were printed."))
    }

    func testOnlyAnUncoveredLongTopicGetsOne() {
        // A topic with a card of its own gets no fallback card beside it.
        let glossary = CardQualityTests.passage(2, "Masked language modeling: the task of predicting a hidden word in a sequence.", kind: .glossary)
        let long = CardQualityTests.passage(1, Self.filler + " Masked Language Modeling, or MLM, is how BERT was trained.", kind: .transcript)
        let covered = CardGeneration.offline(CardQualityTests.curriculum([long, glossary])).cards
        XCTAssertFalse(covered.isEmpty)
        XCTAssertFalse(covered.contains { $0.front == "What does MLM stand for?" }, "\(covered.map(\.front))")
        // A short topic gets none.
        let short = CardQualityTests.passage(1, "Masked Language Modeling, or MLM, is how BERT was trained.", kind: .transcript)
        let shortCards = CardGeneration.offline(CardQualityTests.curriculum([short])).cards
        XCTAssertFalse(shortCards.contains { $0.front == "What does MLM stand for?" }, "\(shortCards.map(\.front))")
        // A hypothetical is no fact the source states, however long the topic.
        let hypothetical = Self.cards("Suppose we trained Masked Language Modeling, or MLM, on every book.")
        XCTAssertFalse(hypothetical.contains { $0.front == "What does MLM stand for?" }, "\(hypothetical.map(\.front))")
    }

    /// Notes in German, French or Spanish name their exercises so: what an exercise says is no
    /// fact of the source ("Übungsaufgaben", "Exercices"), as in English.
    func testAnExerciseSectionInAnyLanguageStatesNothing() {
        let text = "A compact space is a space in which every open cover has a finite subcover."
        func cards(_ section: String) -> [Flashcard] {
            CardGeneration.offline(CardQualityTests.curriculum([CardQualityTests.passage(1, text, section: ["2 Topologie", section])])).cards
        }
        XCTAssertFalse(cards("2.1 Kompaktheit").isEmpty)
        XCTAssertEqual(cards("Übungsaufgaben").map(\.front), [])
        XCTAssertEqual(cards("Exercices").map(\.front), [])
    }

    /// A sentence that calls a word a term ("The term …", "the concept of …") and says what it
    /// means or refers to defines it, without a glossary to tell that the word is one.
    func testATermTheSourceNamesAsOne() {
        let cards = Self.cards("The term agora, from which the word agoraphobia comes, refers to the open square where a Greek city met to trade and debate.", kind: .text)
        XCTAssertEqual(cards.map { "\($0.front) → \($0.back)" },
                       ["What does the term “agora” refer to? → The open square where a Greek city met to trade and debate"])
        XCTAssertEqual(cards.first?.quality?.score, 1, "\(cards.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] })")
        // Two meanings quoted apart are two cards' worth, not one.
        XCTAssertNil(FallbackFacts.namedTermDefinition(in: "The Stoics built on the concept of logos, which means “reason” or “account.”"))
        XCTAssertEqual(FallbackFacts.namedTermDefinition(in: "Greek ethics turns on the concept of arete, which means “excellence of any kind.”"),
                       .init(shape: .relativeDefinition, type: .basic, front: "What does “arete” mean?", back: "Excellence of any kind"))
        // A term that is a pointer, a meaning that is a pointer or a question: nothing defined.
        XCTAssertNil(FallbackFacts.namedTermDefinition(in: "The term itself refers to something else entirely."))
        XCTAssertNil(FallbackFacts.namedTermDefinition(in: "The term logos refers to this idea in the passage above."))
        XCTAssertNil(FallbackFacts.namedTermDefinition(in: "The word justice means different things to different people."))
        // An adverb is no part of the term.
        XCTAssertNil(FallbackFacts.namedTermDefinition(in: "The term Stoic often refers to people who bear pain without complaint."))
    }
}
