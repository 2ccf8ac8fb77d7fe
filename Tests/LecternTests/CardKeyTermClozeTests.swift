import Foundation
import XCTest
@testable import Lectern

/// Key-term clozes and definition cards on generated text written like the graded bad cards of
/// seed 5151: a cloze's sentence must stand alone ("These numerical representations …", "…
/// takes this worry seriously" do not), be about its term (defining it, or opening with a term the
/// glossary names), and delete a term rather than any word a heading or emphasis made a key term;
/// a lecturer's labels for one problem ("RS to J is the vector …") are no definitions.
final class CardKeyTermClozeTests: XCTestCase {
    static func topic(_ passages: [Passage], terms: [KeyTerm]) -> Curriculum {
        let topic = Topic(stableId: "t-terms", title: "Terms", summary: "", summaryOrigin: .offline, objectives: [],
                          keyTerms: terms, studyMinutes: 5, passages: passages, prerequisites: [])
        return Curriculum(name: "terms", title: "Terms", stableId: "c-terms", sources: [],
                          units: [CurriculumUnit(stableId: "u", title: "Terms", topics: [topic])],
                          modelName: nil, createdAt: Date(), modifiedAt: Date())
    }

    static let prose = CardQualityTests.passage(1, """
        These numerical representations are called embeddings in the rest of the course. Another tool that does this is called a tokenizer by most libraries.
        Early Chinese writings often stressed the social side of virtue and its duties. Reflective equilibrium takes this worry seriously and seeks coherence among our judgments and principles.
        Logic studies the structure of arguments; remember that validity and truth are distinct things.
        An embedding is a list of numbers that stands for a piece of text in a model.
        Coherence is a relation of mutual support among beliefs that makes a set of them hang together.
        """)

    static let terms = [
        KeyTerm(term: "embedding", definition: "So this special case is often called an embedding.", origin: .offline, passageId: 1, basis: .defined),
        KeyTerm(term: "tokenizer", definition: "a tool that cuts text into pieces", origin: .source, passageId: 2, basis: .glossary),
        KeyTerm(term: "social", definition: "Early Chinese writings often stressed the social side of virtue.", origin: .offline, passageId: 1, basis: .emphasised),
        KeyTerm(term: "coherence", definition: "a relation of mutual support among beliefs", origin: .source, passageId: 2, basis: .glossary),
        KeyTerm(term: "logic", definition: "the study of arguments", origin: .source, passageId: 2, basis: .glossary),
    ]

    func testAKeyTermClozeIsASentenceAboutItsTermThatStandsAlone() throws {
        let glossary = CardQualityTests.passage(2, """
            tokenizer: a tool that cuts text into pieces
            coherence: a relation of mutual support among beliefs
            logic: the study of arguments
            """, kind: .glossary, section: ["Glossary"])
        let curriculum = Self.topic([Self.prose, glossary], terms: Self.terms)
        let loose = CardGeneration.offline(curriculum, minQuality: 0).cards.filter { $0.noteType == .cloze }
        let clozes = loose.map(\.front)
        // Pointers, a second statement, a word that is no term: no cloze made of them.
        for bad in ["These numerical", "Another tool", "Early Chinese", "takes this worry", "remember that"] {
            XCTAssertFalse(clozes.contains { $0.contains(bad) }, "\(bad) in \(clozes)")
        }
        // The defining sentences are: the term deleted where the sentence defines it.
        XCTAssertTrue(clozes.contains("An {{c1::embedding}} is a list of numbers that stands for a piece of text in a model."), "\(clozes)")
        XCTAssertTrue(clozes.contains("{{c1::Coherence}} is a relation of mutual support among beliefs that makes a set of them hang together."), "\(clozes)")
        // A meaning that points into its passage stays off the back.
        let embedding = try XCTUnwrap(loose.first { $0.front.contains("{{c1::embedding}}") })
        XCTAssertFalse(embedding.back.contains("this special case"), embedding.back)
        // What is made passes every check.
        for card in CardGeneration.offline(curriculum).cards where card.noteType == .cloze {
            XCTAssertEqual(card.quality?.score, 1, "\(card.front): \(card.quality?.checks.filter { !$0.passed } ?? [])")
        }
    }

    /// "… uses the analogy of the town crier to describe …" and then what the town crier is: the
    /// analogy's picture, not a term of the subject, makes no card; the same sentence in a passage
    /// about town criers does.
    func testAnAnalogysPictureIsNoTerm() {
        let analogy = CardQualityTests.passage(1, """
            A psychologist uses the analogy of the town crier of a village to describe how memory works. The town crier is a voice that announces the news of the day to everyone.
            Working memory is the small store that holds what we attend to for a few seconds.
            The metaphor of working memory as a desk also resembles older accounts of attention.
            """)
        let plain = CardQualityTests.passage(1, """
            Villages once had officials for public news. The town crier is a voice that announces the news of the day to everyone.
            """)
        let terms = ["town crier", "working memory"].map { KeyTerm(term: $0, definition: "", origin: .offline, passageId: 1, basis: .defined) }
        let pictured = CardGeneration.offline(Self.topic([analogy], terms: terms), minQuality: 0).cards.map(\.front)
        XCTAssertFalse(pictured.contains { $0.localizedCaseInsensitiveContains("town crier") }, "\(pictured)")
        XCTAssertTrue(pictured.contains { $0.contains("working memory") || $0.contains("Working memory") }, "\(pictured)")
        let stated = CardGeneration.offline(Self.topic([plain], terms: terms), minQuality: 0).cards.map(\.front)
        XCTAssertTrue(stated.contains { $0.localizedCaseInsensitiveContains("town crier") }, "\(stated)")
    }

    /// "… share many customs (see )": a cross-reference whose link the text layer lost is left off
    /// the card rather than shown empty.
    func testALostCrossReferenceIsLeftOff() {
        let passage = CardQualityTests.passage(1, "A guild is an association of craftsmen that sets the rules of one trade in a town (see ). Guilds met in halls.")
        let terms = [KeyTerm(term: "guild", definition: "", origin: .offline, passageId: 1, basis: .defined)]
        let cards = CardGeneration.offline(Self.topic([passage], terms: terms), minQuality: 0).cards
        XCTAssertTrue(cards.contains { $0.front.contains("{{c1::guild}}") || $0.front.contains("guild?") }, "\(cards.map(\.front))")
        for card in cards {
            XCTAssertFalse(card.front.contains("(see") || card.back.contains("(see"), "\(card.front) → \(card.back)")
        }
    }

    /// The checks turn the same clozes away whoever wrote them (a model, an older generator).
    func testTheChecksRejectClozesThatLeanOnTheirPassageOrAreNotAboutATerm() throws {
        let curriculum = Self.topic([Self.prose], terms: Self.terms)
        let topic = try XCTUnwrap(curriculum.topics.first)
        let deck = CardDeckContext(curriculum: curriculum)
        func cloze(_ front: String, back: String = "") -> Flashcard {
            deck.card(topic: topic, type: .cloze, front: front, back: back, origin: .keyTerm, passage: Self.prose)
        }
        let cards = [
            cloze("These numerical representations are called {{c1::embeddings}} in the rest of the course."),
            cloze("Another tool that does this is called a {{c1::tokenizer}} by most libraries."),
            cloze("Early Chinese writings often stressed the {{c1::social}} side of virtue and its duties."),
            cloze("Reflective equilibrium takes this worry seriously and seeks {{c1::coherence}} among our judgments and principles."),
            cloze("{{c1::Logic}} studies the structure of arguments; remember that validity and truth are distinct things."),
            cloze("An {{c1::embedding}} is a list of numbers that stands for a piece of text in a model.",
                  back: "embedding: So this special case is often called an embedding."),
            cloze("An {{c1::embedding}} is a list of numbers that stands for a piece of text in a model."),
        ]
        let assessed = CardChecks(curriculum: curriculum).assess(cards, topic: topic)
        let failed = assessed.map { $0.quality?.checks.filter { !$0.passed }.map(\.reason) ?? [] }
        for index in 0..<6 { XCTAssertFalse(failed[index].isEmpty, "kept: \(cards[index].front) \(cards[index].back)") }
        XCTAssertTrue(failed[0].contains { $0.contains("these") }, "\(failed[0])")
        XCTAssertTrue(failed[2].contains { $0.contains("not about the term") || $0.contains("half a phrase") }, "\(failed[2])")
        XCTAssertTrue(failed[4].contains { $0.contains("second statement") }, "\(failed[4])")
        XCTAssertEqual(failed[6], [], "a defining sentence of its term stands")
    }

    /// A lecturer's "RS to J is the vector from …" names one problem's label: no definition card;
    /// a term the topic names, defined in the same lecture, is one.
    func testALecturesLabelsAreNoDefinitions() throws {
        let transcript = CardQualityTests.passage(1, """
            RS to J is the vector from the sun to Jupiter in the drawing on the board.
            Capital omega is the angular velocity of the frame that we picked for the problem.
            Angular momentum is the moment of the momentum about a point of the axis.
            """, kind: .transcript, section: ["Lecture 20"])
        let curriculum = Self.topic([transcript], terms: [
            KeyTerm(term: "angular momentum", definition: "the moment of the momentum about a point", origin: .offline, passageId: 1, basis: .defined),
        ])
        let loose = CardGeneration.offline(curriculum, minQuality: 0).cards
        let fronts = loose.map(\.front)
        XCTAssertFalse(fronts.contains { $0.contains("RS to J") || $0.contains("Capital omega") || $0.contains("omega") }, "\(fronts)")
        XCTAssertTrue(fronts.contains { $0.contains("Angular momentum") }, "\(fronts)")

        // The check says why, for a card made elsewhere.
        let topic = try XCTUnwrap(curriculum.topics.first)
        let label = CardDeckContext(curriculum: curriculum).card(topic: topic, type: .basic, front: "What is RS to J?",
                                                                  back: "The vector from the sun to Jupiter in the drawing on the board",
                                                                  origin: .definition, passage: transcript)
        let checked = CardChecks(curriculum: curriculum).assess([label], topic: topic)
        let reasons = checked[0].quality?.checks.filter { !$0.passed }.map(\.reason) ?? []
        XCTAssertTrue(reasons.contains { $0.contains("label of the lecture") }, "\(reasons)")
    }
}
