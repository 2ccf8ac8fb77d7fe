import Foundation
import XCTest
@testable import Lectern

/// Cards written like the graded bad cards of seeds 6262 and 7373, one class of fault at a time,
/// on generated text: each must be turned away (or never made), while its well-made twin stays.
final class CardPrecisionTests: XCTestCase {
    static let glossaryPassage = CardQualityTests.passage(9, """
        sage: a wise person
        sage tradition: a largely prehistoric tradition of wise figures
        statement: a declarative sentence that has a truth value
        intuition: certain and evident cognition
        virtue ethics: an ethics of character
        """, kind: .glossary, section: ["1 Logic", "Glossary"])

    static func curriculum(_ passages: [Passage], terms: [KeyTerm] = []) -> Curriculum {
        let glossary = KeyTermExtraction.glossaryEntries(glossaryPassage.text).map {
            KeyTerm(term: $0.term, definition: $0.meaning, origin: .source, passageId: glossaryPassage.id, basis: .glossary)
        }
        let topic = Topic(stableId: "t-precision", title: "Precision", summary: "", summaryOrigin: .offline, objectives: [],
                          keyTerms: glossary + terms, studyMinutes: 5, passages: passages + [glossaryPassage], prerequisites: [])
        return Curriculum(name: "precision", title: "Precision", stableId: "c-precision", sources: [],
                          units: [CurriculumUnit(stableId: "u", title: "Precision", topics: [topic])],
                          modelName: nil, createdAt: Date(), modifiedAt: Date())
    }

    /// The reasons the checks give against each card (empty: kept).
    static func failures(_ cards: [(type: CardNoteType, front: String, back: String, origin: CardOrigin)], passage: Passage,
                         terms: [KeyTerm] = []) -> [[String]] {
        let curriculum = curriculum([passage], terms: terms)
        let topic = curriculum.topics[0]
        let deck = CardDeckContext(curriculum: curriculum)
        return cards.map { card in
            let made = deck.card(topic: topic, type: card.type, front: card.front, back: card.back, origin: card.origin, passage: passage)
            return CardChecks(curriculum: curriculum).assess([made], topic: topic)[0].quality?.checks.filter { !$0.passed }.map(\.reason) ?? ["no quality"]
        }
    }

    func testSuchAsNamesAnInstanceNotAName() {
        let sentence = "Anselm anticipates the writings of prominent Scholastics such as Thomas Aquinas."
        XCTAssertFalse(DefiningSentence.isDefiningClause(sentence, term: "Thomas Aquinas"))
        XCTAssertTrue(DefiningSentence.isDefiningClause("A new school of Chinese philosophy known as Neo-Confucianism arose.", term: "Neo-Confucianism"))
        XCTAssertTrue(DefiningSentence.isDefiningClause("What follows the word is referred to as the consequent.", term: "consequent"))
        let passage = CardQualityTests.passage(1, sentence)
        let failed = Self.failures([(.cloze, "Anselm anticipates the writings of prominent Scholastics such as {{c1::Thomas Aquinas}}.", "", .keyTerm)],
                                   passage: passage, terms: [KeyTerm(term: "Thomas Aquinas", definition: "a Scholastic philosopher", origin: .source, passageId: 1, basis: .emphasised)])
        XCTAssertFalse(failed[0].isEmpty, "an instance of a list kept as the term's cloze")
    }

    /// "X is a …" defines X where X is the sentence's (or a clause's) subject, not a word inside it.
    func testADefiningClauseHasItsTermAsTheSubject() {
        XCTAssertFalse(DefiningSentence.isDefiningClause("The wisdom gained by living according to the dao is a kind of natural awareness.", term: "dao"))
        XCTAssertTrue(DefiningSentence.isDefiningClause("In Hindu philosophy, darshana refers to the beholding of a god.", term: "darshana"))
        XCTAssertTrue(DefiningSentence.isDefiningClause("The term utility means “useful”.", term: "utility"))
        XCTAssertTrue(DefiningSentence.isDefiningClause("A fallacy is an error in reasoning.", term: "fallacy"))
    }

    /// "known as Neo-Confucianism became prominent", "The term Epicurean often refers to …": the
    /// mined term stops before the verb or adverb it ran into.
    func testAMinedTermStopsBeforeItsVerb() {
        let passage = CardQualityTests.passage(1, """
            Long after the master's death, a new school of Chinese philosophy known as Neo-Confucianism became prominent.
            The term Epicurean often refers to individuals who take especial pleasure in food and drink.
            Individuals are elected to hold positions within the government for a specified period of time.
            The tunnels are large enough for people to sit inside during the solstices.
            Chloroplasts are organelles bounded by a double membrane in the cells of plants.
            Immanuel Kant is one of the most important figures in modern philosophy.
            """)
        let terms = KeyTermExtraction.keyTerms(in: [passage]).map(\.term)
        XCTAssertTrue(terms.contains("Neo-Confucianism"), "\(terms)")
        XCTAssertTrue(terms.contains("Chloroplasts"), "\(terms)")
        for bad in ["Neo-Confucianism became prominent", "Epicurean often", "Individuals", "tunnels", "Immanuel Kant"] {
            XCTAssertFalse(terms.contains { $0.hasSuffix(bad) }, "\(bad) mined as a term: \(terms)")
        }
    }

    /// A cloze deletes a whole phrase: not one of two words joined by "or"/"and", not part of a
    /// longer term, not an adjective without its noun.
    func testAClozeDeletesAWholePhrase() {
        let passage = CardQualityTests.passage(1, """
            A proposition or statement is a declarative sentence with a truth value.
            The sage tradition provides an early glimpse of philosophical thought in action.
            Deductive inferences guarantee the truth of their conclusions.
            A statement is a declarative sentence with a truth value.
            """)
        let terms = [KeyTerm(term: "Deductive inferences", definition: "inferences that guarantee their conclusions", origin: .offline, passageId: 1, basis: .defined)]
        let failed = Self.failures([
            (.cloze, "A proposition or {{c1::statement}} is a declarative sentence with a truth value.", "", .keyTerm),
            (.cloze, "The {{c1::sage}} tradition provides an early glimpse of philosophical thought in action.", "", .keyTerm),
            (.cloze, "{{c1::Deductive}} inferences guarantee the truth of their conclusions.", "", .keyTerm),
            (.cloze, "A {{c1::statement}} is a declarative sentence with a truth value.", "", .keyTerm),
        ], passage: passage, terms: terms)
        XCTAssertTrue(failed[0].contains { $0.contains("joined by") }, "\(failed[0])")
        XCTAssertTrue(failed[1].contains { $0.contains("part of the term") }, "\(failed[1])")
        XCTAssertTrue(failed[2].contains { $0.contains("qualifies") || $0.contains("part of the term") }, "\(failed[2])")
        XCTAssertEqual(failed[3], [], "the whole subject of a defining sentence")
    }

    /// A sentence opening with a term is a card only when it says what the term holds or does.
    func testASentenceOpeningWithATermMustSayWhatItIs() {
        let passage = CardQualityTests.passage(1, """
            Intuition operates in other realms besides mathematics, such as in the use of language.
            Virtue ethics focuses on character and the development of the right habits or traits.
            Immanuel Kant (1724–1804) is one of the most important figures in modern philosophy.
            Partiality of care is the basis of loyalty among families, but it is also the source of enmity between families.
            """)
        let terms = [
            KeyTerm(term: "Immanuel Kant", definition: "a German philosopher", origin: .source, passageId: 9, basis: .emphasised),
            KeyTerm(term: "Partiality of care", definition: "care for one's own", origin: .source, passageId: 9, basis: .emphasised),
        ]
        let failed = Self.failures([
            (.cloze, "{{c1::Intuition}} operates in other realms besides mathematics, such as in the use of language.", "", .keyTerm),
            (.cloze, "{{c1::Virtue ethics}} focuses on character and the development of the right habits or traits.", "", .keyTerm),
            (.cloze, "{{c1::Immanuel Kant}} (1724–1804) is one of the most important figures in modern philosophy.", "", .keyTerm),
            (.cloze, "{{c1::Partiality of care}} is the basis of loyalty among families, but it is also the source of enmity between families.", "", .keyTerm),
        ], passage: passage, terms: terms)
        XCTAssertTrue(failed[0].contains { $0.contains("not about the term") }, "\(failed[0])")
        XCTAssertEqual(failed[1], [], "a sentence saying what the term focuses on")
        XCTAssertTrue(failed[2].contains { $0.contains("not about the term") }, "an evaluation kept: \(failed[2])")
        XCTAssertTrue(failed[3].contains { $0.contains("second statement") }, "\(failed[3])")

        // The generator makes the same choice: the sentence that characterises the term, or none.
        let made = CardGeneration.offline(Self.curriculum([passage], terms: terms), minQuality: 0).cards.filter { $0.noteType == .cloze }.map(\.front)
        XCTAssertFalse(made.contains { $0.contains("operates in other realms") }, "\(made)")
        XCTAssertTrue(made.contains { $0.hasPrefix("{{c1::Virtue ethics}} focuses") }, "\(made)")
    }

    /// Definition cards of a judgement, a pointer, a statement, an activity or a label.
    func testADefinitionCardDefinesATerm() {
        let passage = CardQualityTests.passage(1, """
            Knowledge is an important concept in all areas of thought.
            The aforementioned counterexample method is a type of argumentation that shows a definition is flawed.
            A monist response is the mind is the brain.
            Acquiring virtue is a difficult task, requiring constant practice.
            Social means of gaining knowledge are called testimony.
            A fallacy is an error in logical reasoning that weakens an argument.
            """)
        let failed = Self.failures([
            (.basic, "What is Knowledge?", "An important concept in all areas of thought", .definition),
            (.basic, "What is the aforementioned counterexample method?", "A type of argumentation that shows a definition is flawed", .definition),
            (.cloze, "A {{c1::monist response}} is the mind is the brain.", "", .definition),
            (.basic, "What is Acquiring virtue?", "A difficult task, requiring constant practice", .definition),
            (.basic, "What does Social mean?", "Of gaining knowledge are called testimony", .definition),
            (.basic, "What is a fallacy?", "An error in logical reasoning that weakens an argument", .definition),
        ], passage: passage)
        XCTAssertTrue(failed[0].contains { $0.contains("judges") }, "\(failed[0])")
        XCTAssertTrue(failed[1].contains { $0.contains("aforementioned") }, "\(failed[1])")
        XCTAssertTrue(failed[2].contains { $0.contains("a statement, not a phrase") }, "\(failed[2])")
        XCTAssertFalse(failed[3].isEmpty, "an activity kept as a term")
        XCTAssertTrue(failed[4].contains { $0.contains("half a phrase") }, "\(failed[4])")
        XCTAssertEqual(failed[5], [], "a definition stands")
    }

    /// "What is Xcm?": a label the lecture's own sentence made a key term is still a label; a
    /// definiens running into the next sentence is two facts.
    func testALectureLabelMinedAsATermIsStillALabel() {
        let transcript = CardQualityTests.passage(1, """
            Xcm is the velocity of the center of mass times delta t. And the point P on the rim has moved R delta theta.
            The momentum is the mass times the velocity of the cart. And the cart moves to the right at two meters per second.
            """, kind: .transcript, section: ["Lecture 20"])
        let mined = KeyTerm(term: "Xcm", definition: "Xcm is the velocity of the center of mass times delta t.", origin: .source, passageId: 1, basis: .defined)
        let failed = Self.failures([
            (.basic, "What is Xcm?", "The velocity of the center of mass times delta t", .definition),
            (.basic, "What is the momentum?", "The mass times the velocity of the cart. And the cart moves to the right at two meters per second", .definition),
        ], passage: transcript, terms: [mined])
        XCTAssertTrue(failed[0].contains { $0.contains("label of the lecture") }, "\(failed[0])")
        XCTAssertTrue(failed[1].contains { $0.contains("second sentence") }, "\(failed[1])")
    }

    /// A module's "Key Terms" list pairs a term with a sentence that uses it: a card only where
    /// the sentence says what the term is.
    func testAKeyTermsSentenceMustSayWhatTheTermIs() {
        let keyTerms = CardQualityTests.passage(1, """
            deontologist: A deontologist like Kant would examine the relevant rules and norms that apply to clinical trials.
            statement: First, a statement is a sentence with truth value, meaning that the statement must be true or false.
            Act utilitarians: Act utilitarians argue that we should apply the greatest happiness principle case by case.
            coherent: A set of beliefs or statements is coherent, or logically consistent, if it is possible for them to all be true at once.
            """, kind: .glossary, section: ["9 Ethics", "9.2 Consequentialism", "Key Terms"])
        let entries = KeyTermExtraction.glossaryEntries(keyTerms.text)
        let failed = Self.failures(entries.map { (.basic, $0.term, $0.meaning, .glossary) }, passage: keyTerms,
                                   terms: entries.map { KeyTerm(term: $0.term, definition: $0.meaning, origin: .source, passageId: 1, basis: .emphasised) })
        XCTAssertTrue(failed[0].contains { $0.contains("without saying what it is") }, "\(failed[0])")
        XCTAssertFalse(failed[1].isEmpty, "an enumeration's step kept")
        XCTAssertEqual(failed[2], [], "a sentence saying what act utilitarians argue")
        XCTAssertEqual(failed[3], [], "a property defined by its condition")
    }

    /// An objective is a card only where its passage's first sentence, standing alone, defines
    /// what the objective names; reasoning a learner must do ("Classify …") is never one.
    func testAnObjectiveCardIsAnsweredByADefinition() {
        let passage = CardQualityTests.passage(1, """
            The area of philosophy that deals with the meaning of written texts is called hermeneutics. Hermeneutics is the study of interpretation.
            Furthermore, it is often groups of people who are excluded from knowledge. Standpoint epistemology takes this worry seriously.
            Inferences can be deductive, inductive, or abductive. Deductive inferences guarantee the truth of their conclusions.
            One of the first scholars to propose secular views of the self was David Hume. Hume formed his thoughts in response to empiricism.
            """)
        let failed = Self.failures([
            (.basic, "Explain the meaning of hermeneutics.", "The area of philosophy that deals with the meaning of written texts is called hermeneutics. Hermeneutics is the study of interpretation.", .objective),
            (.basic, "Describe standpoint epistemology.", "Furthermore, it is often groups of people who are excluded from knowledge. Standpoint epistemology takes this worry seriously.", .objective),
            (.basic, "Classify inferences as deductive, inductive, or abductive.", "Inferences can be deductive, inductive, or abductive. Deductive inferences guarantee the truth of their conclusions.", .objective),
            (.basic, "Describe secular views of the self.", "One of the first scholars to propose secular views of the self was David Hume. Hume formed his thoughts in response to empiricism.", .objective),
        ], passage: passage)
        XCTAssertEqual(failed[0], [], "a definition answers the objective")
        XCTAssertTrue(failed[1].contains { $0.contains("leans on its passage") }, "\(failed[1])")
        XCTAssertTrue(failed[2].contains { $0.contains("asks for work") }, "\(failed[2])")
        XCTAssertTrue(failed[3].contains { $0.contains("does not define") }, "\(failed[3])")
    }
}
