import XCTest
@testable import Lectern

/// A topic's summary as a learner reads it: the source's own summary section where it has one,
/// marked as the source's in `curriculum show`, its JSON and the UMCF export; otherwise whole
/// sentences from the text that stand alone (no figure credit, caption, exercise prompt,
/// reference entry, sentence leaning on the one before, or line of a derivation), none
/// repeating another; and `lectern summarize --paragraphs` gives the same method to a script.
final class TopicSummaryTests: CommandTestCase {
    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// The authors' summary of the first section; the second section has none.
    static let authorsSummary = "Mitochondria turn the energy stored in food into ATP through cellular respiration. "
        + "Their inner membrane carries the electron transport chain, and their own DNA hints at a bacterial past."

    static let notes = """
        # Cells

        ## Mitochondria

        Mitochondria are the organelles in which the cell releases the energy stored in sugars and fats. \
        Each mitochondrion is wrapped in two membranes, and the inner membrane folds into cristae that enlarge its surface.

        The electron transport chain sits in the inner membrane and pumps protons across it as electrons pass along. \
        ATP synthase lets the protons flow back and uses their flow to make ATP from ADP and phosphate.

        Mitochondria carry a small circular genome of their own, much like the genome of a bacterium. \
        Biologists read this genome as evidence that mitochondria descend from bacteria engulfed by an early cell.

        ### Summary

        \(authorsSummary)

        ## Ribosomes

        Ribosomes are the molecular machines that build proteins from amino acids in the order that messenger RNA spells out. \
        This makes them the busiest machines of the cell.

        Figure 2.1 A ribosome reading a strand of messenger RNA (credit: "Ribosome" by unknown author, Wikimedia Commons, CC BY 4.0). \
        Each ribosome is made of two subunits of RNA and protein that clamp around the messenger RNA strand.

        Consider how a cell would fare if its ribosomes stopped working for an hour. \
        Transfer RNA molecules bring each amino acid to the ribosome and match it to a codon of the messenger RNA.

        And now over here, the chain is equal to the sum of its parts. \
        Palade, George. 1955. A small particulate component of the cytoplasm. Journal of Biophysical and Biochemical Cytology.

        Free ribosomes float in the cytoplasm and make proteins for the cell itself, while ribosomes bound to the \
        endoplasmic reticulum make proteins that the cell exports or places in its membranes.
        """

    func testASectionWithItsOwnSummaryKeepsTheAuthorsWordsMarkedAsTheSources() throws {
        let file = folder.url.appendingPathComponent("cells.md")
        try Self.notes.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lectern(["ingest", file.path, "--embedder", "hashing"]).status, 0)
        let built = try lectern(["curriculum", "build", "cells", file.path])
        XCTAssertEqual(built.status, 0, built.stderr)

        let record = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern(["curriculum", "show", "cells", "--json"]).stdout.utf8))
        let mitochondria = try XCTUnwrap(record.topics.first { $0.title == "Mitochondria" }, "\(record.topics.map(\.title))")
        XCTAssertEqual(mitochondria.summary, Self.authorsSummary, "the source's own summary, whole")
        XCTAssertEqual(mitochondria.summaryOrigin, .source)
        let ribosomes = try XCTUnwrap(record.topics.first { $0.title == "Ribosomes" })
        XCTAssertEqual(ribosomes.summaryOrigin, .offline)

        // Sentences that stand alone: no credit, caption, prompt, reference, pointer or "This …".
        let sentences = SentenceSplitter.split(ribosomes.summary).map(\.text)
        XCTAssertFalse(sentences.isEmpty)
        for sentence in sentences {
            for furniture in ["credit", "Figure", "Consider", "over here", "Palade", "This makes"] {
                XCTAssertFalse(sentence.contains(furniture), "\(furniture) in the summary: \(ribosomes.summary)")
            }
            XCTAssertTrue(Self.notes.contains(sentence), "a whole sentence of the text: \(sentence)")
        }

        // `curriculum show` says whose words each summary is.
        let shown = try lectern(["curriculum", "show", "cells"]).stdout
        XCTAssertTrue(shown.contains("summary (the source's own):"), shown)
        XCTAssertTrue(shown.contains("summary (sentences chosen from the text):"), shown)
        XCTAssertTrue(shown.contains("Mitochondria turn the energy stored in food into ATP"), shown)

        // The UMCF export names the offline summary as generated, not the authors'.
        let umcf = folder.url.appendingPathComponent("cells.umcf")
        XCTAssertEqual(try lectern(["curriculum", "export", "cells", "-o", umcf.path]).status, 0)
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: umcf)) as? [String: Any])
        let provenance = try XCTUnwrap(exported["sourceProvenance"] as? [String: Any])
        let parts = (provenance["aiGenerationMetadata"] as? [String: Any])?["generatedParts"] as? [[String: Any]] ?? []
        let described = Set(parts.filter { $0["field"] as? String == "description" }.compactMap { $0["nodeId"] as? String })
        XCTAssertFalse(described.contains(mitochondria.stableId), "the authors' summary is not generated")
        XCTAssertTrue(described.contains(ribosomes.stableId))
    }

    func testSummarizeParagraphsPrintsOneSummaryALineOfAboutTheWordsAsked() throws {
        let paragraphs = Self.notes.components(separatedBy: "\n\n").filter { !$0.hasPrefix("#") }
        let requests = [
            try String(decoding: JSONSerialization.data(withJSONObject: ["title": "cells", "paragraphs": paragraphs, "words": 40]), as: UTF8.self),
            "not json",
            try String(decoding: JSONSerialization.data(withJSONObject: ["title": "empty", "paragraphs": ["", " "]]), as: UTF8.self),
        ].joined(separator: "\n")
        let file = folder.url.appendingPathComponent("texts.jsonl")
        try requests.write(to: file, atomically: true, encoding: .utf8)
        let result = try lectern(["summarize", "--paragraphs", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 3, result.stdout)
        let summary = try XCTUnwrap(lines[0]["summary"] as? String)
        let words = summary.split(separator: " ").count
        XCTAssertTrue((40...100).contains(words), "whole sentences until 40 words: \(words) in \(summary)")
        XCTAssertFalse(summary.contains("credit"), summary)
        XCTAssertTrue((lines[1]["error"] as? String)?.contains("line 2") == true, "\(lines[1])")
        XCTAssertEqual(lines[2]["summary"] as? String, "")
        XCTAssertNotNil(lines[2]["error"] as? String)
    }

    // MARK: Summaries outside a book (#31)

    /// `files` (name → text) ingested and built into one curriculum; its topics as `curriculum show --json` gives them.
    func builtTopics(_ files: [String: String]) throws -> [Topic] {
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let file = folder.url.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let ingested = try lectern(["ingest"] + paths + ["--embedder", "hashing"])
        XCTAssertEqual(ingested.status, 0, ingested.stderr)
        let built = try lectern(["curriculum", "build", "course"] + paths)
        XCTAssertEqual(built.status, 0, built.stderr)
        return try JSONDecoder().decode(Curriculum.self, from: Data(try lectern(["curriculum", "show", "course", "--json"]).stdout.utf8)).topics
    }

    /// A lecture as spoken: an announcement, fillers, a false start, remarks to the audience and
    /// the board, a derivation read aloud, and the statements it makes.
    static let lecture: [String] = [
        "(chalk tapping)",
        "- Today, we'd like to discuss tension in a rope.",
        "Um, so if we had a rope and say we were pulling-- here's our one end.",
        "And what we define as the tension at a point is the magnitude of the pull between the two sides of the rope there.",
        "So you're holding the rope under some tension by pulling both sides.",
        "We see by vector decomposition that Tb minus Ta equals the mass of the rope times a.",
        "Um, and over here, the rope is not accelerating.",
        "So Newton's second law tells us that the tension in a rope is uniform when the rope is not accelerating.",
        "Now, uh, when the rope accelerates, the tension at its two ends differs by the mass of the rope times its acceleration.",
        "Let's draw the free body diagram for the left half of the rope.",
        "I'm going to write T for the tension, OK?",
        "A massless rope is the idealisation in which the tension is the same everywhere along the rope, even when it accelerates.",
        "Any questions?",
    ]

    func testALectureIsSummarisedByWhatItStatesNotByHowItIsSpoken() throws {
        let cues = Self.lecture.enumerated().map { index, line in
            "\(index + 1)\n00:00:\(String(format: "%02d", index * 4)),000 --> 00:00:\(String(format: "%02d", index * 4 + 4)),000\n\(line)\n"
        }
        let topics = try builtTopics(["tension.srt": cues.joined(separator: "\n")])
        let summary = topics.map(\.summary).joined(separator: " ")
        XCTAssertTrue(summary.contains("The lecture discusses tension in a rope."), "the announcement as a statement: \(summary)")
        let written: Set<String> = [
            "The lecture discusses tension in a rope.",
            "What we define as the tension at a point is the magnitude of the pull between the two sides of the rope there.",
            "Newton's second law tells us that the tension in a rope is uniform when the rope is not accelerating.",
            "When the rope accelerates, the tension at its two ends differs by the mass of the rope times its acceleration.",
            "A massless rope is the idealisation in which the tension is the same everywhere along the rope, even when it accelerates.",
        ]
        let sentences = SentenceSplitter.split(summary).map(\.text)
        XCTAssertGreaterThanOrEqual(sentences.count, 3, summary)
        for sentence in sentences {
            XCTAssertTrue(written.contains(sentence), "a statement of the lecture, without fillers, openers or asides: \(sentence)")
        }
    }

    func testFormulasOfAWebPageReadAsMathematicsNotMarkup() throws {
        let page = #"""
            <html><head><title>Acceleration from Position</title></head><body>
            <h1>Acceleration from Position</h1>
            <p>A runner travels along the x-axis, and at time \(\displaystyle t=0 \) the runner is at the origin of the axis.</p>
            <p>The position of the runner with respect to the origin is given by \(\displaystyle x(t)=bt^2 \) where \(\displaystyle b \) is a positive constant.</p>
            <p>The velocity of the runner is the derivative of the position, \(\displaystyle v(t)=2bt \), so the runner speeds up steadily.</p>
            <p>The acceleration of the runner is the derivative of the velocity, \(\displaystyle a(t)=2b \), which stays constant in time.</p>
            <p>Find the units of the constant \(\displaystyle b \) in meters and seconds.</p>
            </body></html>
            """#
        let summary = try builtTopics(["runner.html": page]).map(\.summary).joined(separator: " ")
        XCTAssertFalse(summary.isEmpty)
        for markup in ["\\(", "\\)", "displaystyle", "^"] {
            XCTAssertFalse(summary.contains(markup), "\(markup) in \(summary)")
        }
        XCTAssertTrue(summary.contains("x(t)=bt²") || summary.contains("v(t)=2bt") || summary.contains("a(t)=2b"), summary)
    }

    /// German lecture notes written as definitions, theorems and examples, with the glyphs a
    /// PDF's math font breaks ("x 6= y" for x ≠ y).
    static let proofNotes = """
        # Topologie

        ## 1 Metrische Räume

        Definition 1.1
        Sei X eine Menge. Eine Abbildung d : X × X → R heißt Metrik, wenn für alle x, y, z gilt: d(x, y) = 0 ⇔ x = y, d(x, y) = d(y, x) und d(x, z) ≤ d(x, y) + d(y, z).

        Das Paar (X, d) heißt ein metrischer Raum.

        Definition 1.2
        Seien (X, dX) und (Y, dY) metrische Räume und ϕ : X → Y eine Abbildung mit dX(x1, x2) = dY(ϕ(x1), ϕ(x2)). Dann heißt ϕ eine Isometrie von X nach Y.

        Satz 1.3 (Hausdorff-Eigenschaft)
        Jeder metrische Raum ist hausdorffsch, denn zu Punkten x 6= y sind die Kugeln vom Radius r um x und y disjunkt.

        Beweis: Sei r = d(x, y)/2. Dann gilt Br(x) ∩ Br(y) = ∅ nach der Dreiecksungleichung.

        Beispiel 1.4 (diskrete Metrik)
        Sei X eine Menge. Dann ist d(x, y) = 1 falls x 6= y und d(x, x) = 0 eine Metrik.
        """

    func testProofNotesAreSummarisedByWhatTheyDefineAndState() throws {
        let summary = try builtTopics(["topologie.md": Self.proofNotes]).map(\.summary).joined(separator: " ")
        // The isometry's definition reads as prose and is stated; the metric's is mostly formula and is named.
        XCTAssertTrue(summary.contains("Dann heißt ϕ eine Isometrie von X nach Y."), summary)
        XCTAssertTrue(summary.contains("Der Abschnitt definiert außerdem „Metrik“ und „metrischer Raum“."), summary)
        XCTAssertTrue(summary.contains("Satz 1.3 (Hausdorff-Eigenschaft): Jeder metrische Raum ist hausdorffsch, denn zu Punkten x ≠ y"), summary)
        XCTAssertFalse(summary.contains("Beispiele:"), "an example's title is no sentence: \(summary)")
        XCTAssertFalse(summary.contains("6="), "no broken glyph: \(summary)")
        XCTAssertFalse(summary.contains("Sei r"), "no proof's setting: \(summary)")
    }

    func testTheAuthorsSummarySaysEachSentenceOnceWhereItsPassagesOverlap() throws {
        // A summary section longer than one passage: the chunker repeats sentences where they overlap.
        let points = (1...24).map { "Point \($0) of the summary says that membranes number \($0) control which molecules pass between the cell and its surroundings." }
        let body = (1...6).map { "Membranes are thin layers of lipids and proteins, and paragraph \($0) of the section explains how they hold the cell together." }
        let notes = "# Membranes\n\n## Structure\n\n" + body.joined(separator: "\n\n") + "\n\n### Summary\n\n" + points.joined(separator: " ")
            + "\n\n## Transport\n\nPumps spend ATP to move ions against their gradients across the membrane of the cell.\n"
        let topic = try XCTUnwrap(try builtTopics(["membranes.md": notes]).first { $0.summaryOrigin == .source })
        let sentences = SentenceSplitter.split(topic.summary).map(\.text)
        XCTAssertEqual(sentences, points, "the authors' sentences in order, each once")
    }

    func testAShortLectureKeepsItsDefinitionAndWhatItStates() throws {
        // The definition points forward ("like this: …"), and the corner sentence says what the
        // lecture teaches; the rest is the lecturer's plan ("Today we make …") or speaks to the
        // audience ("you see", "I'll write"). Its first sentence does not name the whole of its
        // title's subject, so the summary opens on what the lecture is about.
        let lines = [
            "Today we make the idea of a derivative precise.",
            "The derivative is defined exactly like this: the limit of the difference quotient as the step goes to zero.",
            "So you see the slope of the secant turns into the slope of the tangent.",
            "I'll write f prime for it.",
            "A derivative can fail to exist, for example at a corner, where the slopes from the left and the right differ over any small step.",
        ]
        let cues = lines.enumerated().map { index, line in
            "\(index + 1)\n00:00:\(String(format: "%02d", index * 5)),000 --> 00:00:\(String(format: "%02d", index * 5 + 5)),000\n\(line)\n"
        }
        let summary = try builtTopics(["derivative.srt": cues.joined(separator: "\n")]).map(\.summary).joined(separator: " ")
        XCTAssertEqual(SentenceSplitter.split(summary).map(\.text), ["The lecture is about derivative and slope.", lines[1], lines[4]], summary)
    }
}


extension TopicSummaryTests {
    func testALineOfWorkingWithItsSymbolsLostIsLeftOut() throws {
        // A lecture's working whose formulas did not survive speech or extraction (seed 5813's
        // "The kinetic energy in the ground frame is 1/2 m1. The cross term is . m1.", graded 1 of 5).
        let paragraphs = [
            "The kinetic energy of the two particles in the ground frame is 1/2 m1.",
            "The cross term of the kinetic energy in the ground frame is . m1 times the velocity.",
            "The kinetic energy in the ground frame equals the kinetic energy in the center of mass frame plus the kinetic energy of the center of mass.",
            "Because the cross term vanishes, the change in kinetic energy in a collision is the same in every inertial frame.",
        ]
        let summary = try ExtractiveSummarizer().summarize(SummaryInput(title: "Kinetic energy in two frames", paragraphs: paragraphs)).text
        XCTAssertEqual(SentenceSplitter.split(summary).map(\.text), Array(paragraphs.suffix(2)), summary)
    }
}

extension TopicSummaryTests {
    /// The project's own notes (corpora/): a summary keeps the sentences that say what is taught
    /// and leaves out the step of a list whose start is elsewhere ("First, it made texts far
    /// cheaper"), a share of something named before ("Most are harmless, some break a protein"),
    /// a problem's prompt ("Differentiate √(1 + x⁴)."), a proof's setting ("Let Δu = …") and the
    /// notes' header line ("Calculus I, week 5 notes.").
    func testWrittenNotesAreSummarisedByWhatTheyStateNotByStepsSharesOrPrompts() throws {
        let paths = ["notes/chain-rule.md", "notes/printing-press.txt", "pdf/genetics-primer.pdf"].map { TestPaths.corpora.appendingPathComponent($0).path }
        XCTAssertEqual(try lectern(["ingest"] + paths + ["--embedder", "hashing"]).status, 0)
        XCTAssertEqual(try lectern(["curriculum", "build", "notes"] + paths).status, 0)
        let topics = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern(["curriculum", "show", "notes", "--json"]).stdout.utf8)).topics
        let sentences = topics.flatMap { SentenceSplitter.split($0.summary).map(\.text) }
        for leaning in ["First, it made", "Most are harmless", "Differentiate √", "Let Δu", "Calculus I, week 5 notes."] {
            XCTAssertFalse(sentences.contains { $0.hasPrefix(leaning) }, "\(leaning): \(sentences.joined(separator: "\n"))")
        }
        let summary = { (title: String) in topics.first { $0.title.hasSuffix(title) }?.summary ?? "" }
        XCTAssertTrue(summary("Genes").contains("A gene is a stretch of DNA that holds the recipe for one protein or one functional RNA."), summary("Genes"))
        XCTAssertTrue(summary("The Printing Press and the Spread of Ideas").contains("The Gutenberg Bible"), summary("The Printing Press and the Spread of Ideas"))
        XCTAssertTrue(summary("Why the rule holds").contains("When Δx is small, Δu is small too because g is continuous."), summary("Why the rule holds"))
    }
}

extension TopicSummaryTests {
    /// The sentence that names what a section is about (its title's words) is in its summary:
    /// corpora/'s photosynthesis notes, "The light-dependent reactions" (without the weight it opened on "Light strikes photosystem II").
    func testASummaryKeepsTheSentenceThatNamesItsSubject() throws {
        let path = TestPaths.corpora.appendingPathComponent("notes/photosynthesis.md").path
        XCTAssertEqual(try lectern(["ingest", path, "--embedder", "hashing"]).status, 0)
        XCTAssertEqual(try lectern(["curriculum", "build", "plants", path]).status, 0)
        let topics = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern(["curriculum", "show", "plants", "--json"]).stdout.utf8)).topics
        let light = try XCTUnwrap(topics.first { $0.title == "The light-dependent reactions" }, "\(topics.map(\.title))")
        XCTAssertTrue(light.summary.hasPrefix("The light-dependent reactions take place in the thylakoid membrane."), light.summary)
    }
}

extension TopicSummaryTests {
    /// A prompt's verb that is also a noun or an adjective marks a prompt only before what it acts
    /// on, and "many of" leans back only on "them", "these" or "those" (the review's examples:
    /// "Complete proteins …", "Plot is …", "Label propagation …", "Many of the early philosophers …").
    func testNounsAndSharesThatNameTheirSubjectAreNotPromptsOrPointers() {
        for statement in ["Complete proteins contain all nine essential amino acids.", "Plot is the sequence of events in a story.",
                          "Label propagation spreads known labels through a graph.", "Given the evidence, historians date the text to 1450."] {
            XCTAssertFalse(ExtractiveSummarizer.isPrompt(statement), statement)
        }
        for prompt in ["Plot the position against time.", "Complete the table below.", "Find the speed of the block."] {
            XCTAssertTrue(ExtractiveSummarizer.isPrompt(prompt), prompt)
        }
        XCTAssertFalse(ExtractiveSummarizer.leansOnPrevious("Many of the early philosophers were also mathematicians."))
        XCTAssertTrue(ExtractiveSummarizer.leansOnPrevious("Some of them break a protein."))
        XCTAssertTrue(ExtractiveSummarizer.leansOnPrevious("Most are harmless."))
    }

    /// A PDF's list item or footnote whose mark was lost ("2 Es wird …" for "2) Es wird …") and a
    /// clause cut from the sentence before ("Which means that …", "Plus …") do not stand alone;
    /// a number that counts something does.
    func testAListItemThatLostItsMarkAndACutClauseAreNoSummarySentences() {
        for fragment in ["2 Es wird die Äquivalenz von Stetigkeit auf metrischen Räumen gezeigt.", "3 Der Beweis folgt aus Satz 1.2 und der Definition.",
                         "1 The proof is due to Hausdorff and appears in his book of 1914."] {
            XCTAssertFalse(ExtractiveSummarizer.standsAlone(fragment), fragment)
        }
        for counted in ["12 Apostel folgten ihm nach der Überlieferung durch Galiläa.", "3 moles of gas fill the container at room temperature."] {
            XCTAssertTrue(ExtractiveSummarizer.standsAlone(counted), counted)
        }
        for cut in ["Which means that at all points the tension is the same.", "Namely, systems in which mass flows in and out.",
                    "What that tells us is that the laws look different.", "Plus the total mass of the fuel in the tank.",
                    "With that assumption, the tension is uniform along the rope."] {
            XCTAssertTrue(ExtractiveSummarizer.leansOnPrevious(cut), cut)
        }
        XCTAssertFalse(ExtractiveSummarizer.leansOnPrevious("What a limit means is made precise by epsilon and delta."))
    }
}

extension TopicSummaryTests {
    /// A problem's statement is left out of a summary, but not the worked solution after its task
    /// in the same passage.
    func testAPassageIsAProblemStatementOnlyWhenShortOrEndingOnItsTask() {
        let statement = "Block 1 of mass 3m is sliding along a frictionless surface with speed v. It collides with block 2 of mass m at rest. Determine the initial speed of block 2 after the collision."
        XCTAssertTrue(TopicSummaryText.asks(statement))
        let solution = " The momentum of the system is constant, because no external force acts in the direction of motion during the collision."
            + " The momentum before the collision is therefore 3mv, and after it the two blocks share it between them."
            + " The kinetic energy is constant as well, because the collision is elastic, so the two equations fix the two final velocities."
            + " Solving them gives the speed of block 2 as three halves of v, and block 1 keeps moving forward with half of its speed."
        XCTAssertFalse(TopicSummaryText.asks(statement + solution))
        XCTAssertFalse(TopicSummaryText.asks(String(solution.dropFirst())))
    }
}

extension TopicSummaryTests {
    /// Lecture notes as a PDF's text layer gives them (lines broken, the next environment's
    /// opener glued to a condition, an inverse's exponent set apart: "π −1 (U )"): the summary
    /// states what the section defines and proves in the notes' own sentences, with the
    /// conditions a definition lists, instead of announcing it ("Der Abschnitt definiert
    /// „Äquivalenzrelation“." says nothing of what one is); a statement whose formula broke is
    /// only named, and the examples' titles are no sentence.
    func testNotesAreSummarisedByTheStatementsOfTheirDefinitionsAndTheorems() {
        let text = """
            Definition 12 Sei X eine Menge.

            Eine Äquivalenzrelation auf X ist eine Relation ∼ ⊆ X × X, für die gilt:
            a) x ∼ x ∀x ∈ X
            b) x ∼ y ⇒ y ∼ x
            c) x ∼ y und y ∼ z ⇒ x ∼ z Beispiel 9 (Gleichheit)
            1) Die Gleichheit ist eine Äquivalenzrelation auf jeder Menge.
            Definition 13 Sei ∼ eine Äquivalenzrelation auf X.
            Die Menge der zu einem Element x äquivalenten Elemente von X heißt Äquivalenzklasse von x.

            Satz 4 Zwei Äquivalenzklassen sind entweder gleich oder disjunkt.

            Beweis: Sei z ∈ [x] ∩ [y]. Dann gilt x ∼ z ∼ y.
            Definition 14 Sei X ein topologischer Raum. Eine Abbildung π : X → X/∼ heißt Quotientenabbildung, wenn π −1 (U ) offen ist für jedes offene U .
            """
        let passages = [Passage(ordinal: 0, text: text, kind: .text, sectionPath: ["2 Äquivalenzrelationen"], tokenCount: 200)]
        let summary = StructuralSummary.summary(of: passages, title: "2 Äquivalenzrelationen") ?? ""
        XCTAssertTrue(summary.hasPrefix("Sei X eine Menge. Eine Äquivalenzrelation auf X ist eine Relation ∼ ⊆ X × X, für die gilt: "
                                        + "(a) x ∼ x ∀x ∈ X; (b) x ∼ y ⇒ y ∼ x; (c) x ∼ y und y ∼ z ⇒ x ∼ z."), summary)
        XCTAssertTrue(summary.contains("Sei ∼ eine Äquivalenzrelation auf X. Die Menge der zu einem Element x äquivalenten Elemente von X heißt Äquivalenzklasse von x."), summary)
        XCTAssertTrue(summary.contains("Zwei Äquivalenzklassen sind entweder gleich oder disjunkt."), summary)
        XCTAssertTrue(summary.hasSuffix("Der Abschnitt definiert außerdem „Quotientenabbildung“."), "the broken one named: \(summary)")
        XCTAssertFalse(summary.contains("−1 (U )") || summary.contains("Beispiele") || summary.contains("„Äquivalenzrelation“"), summary)
    }
}

extension TopicSummaryTests {
    /// Written notes whose main point is a list or a displayed formula: the lead-in and its
    /// bullets are one sentence naming the items, a rule's sentence ending on "and" takes the
    /// formula displayed under it; a clause about what was just named ("As this style also …",
    /// "Combining the two halves …") and a line of working whose question is left out ("so
    /// t = 240 / (4 · 15) = 4 s") are no summary sentences.
    func testAListsItemsAndADisplayedFormulaJoinTheSentenceThatLeadsIntoThem() throws {
        let styles = """
            The theme supports 3 different colour styles:
            • Light
            • Dark
            • Sepia
            They can be set for the whole document or for one slide at a time.
            The dark style uses a black background that saves power on projectors with an OLED panel.
            Sepia keeps the contrast low for long reading sessions in a dim room.
            As this style also inverts the figures, you should check every plot before a talk.
            Combining the two halves of the palette gives a theme that prints well on paper too.
            """
        let sentences = try ExtractiveSummarizer().summarize(SummaryInput(title: "Colour styles", paragraphs: [styles])).text
        let split = SentenceSplitter.split(sentences).map(\.text)
        XCTAssertTrue(split.contains("The theme supports 3 different colour styles: Light, Dark, Sepia."), sentences)
        XCTAssertFalse(sentences.contains("As this style") || sentences.contains("Combining the two halves"), sentences)
        XCTAssertFalse(ExtractiveSummarizer.standsAlone("As this style also inverts the figures, you should check every plot before a talk."))
        XCTAssertFalse(ExtractiveSummarizer.standsAlone("Combining the two halves of the palette gives a theme that prints well on paper too."))

        let rule = [
            "The product rule differentiates a product of two functions.",
            "If u and v are differentiable at x, then the product p(x) = u(x) v(x) is differentiable at x and\nu'(x) = u'(x) v(x) + u(x) v'(x)",
            "A tank fills at 240 litres a minute. Since V = 15 t, the rate gives dV/dt = 15 dt, so t = 240 / (4 · 15) = 4 s, about four seconds.",
        ]
        let summary = try ExtractiveSummarizer().summarize(SummaryInput(title: "The product rule", paragraphs: rule)).text
        XCTAssertTrue(summary.contains("is differentiable at x and u'(x) = u'(x) v(x) + u(x) v'(x)."), summary)
        XCTAssertFalse(summary.contains("= 4 s"), "no line of working: \(summary)")
    }
}

extension TopicSummaryTests {
    /// Notes whose PDF broke part of a block: the summary states what still reads. A definition
    /// whose first part lost an index ("der Klasse C k") is stated by its part that reads, after
    /// a setting ending on a symbol's full stop ("… (Ui , ϕi )i∈I ."); a definition listing its
    /// axioms in paragraphs of their own, printed as far as the next blocks, names them in order;
    /// a remark whose formula broke says its claim in its label; a sentence leaning on what broke
    /// ("Dann heißt G …", "Es gilt: f …") and a symbol's prefix ("C k -Struktur") are no summary.
    func testNotesWhoseBlocksBrokeAreSummarisedByWhatStillReads() {
        let manifolds = """
            Definition 29 Sei X eine n-dimensionale Mannigfaltigkeit mit Atlas (Ui , ϕi )i∈I .
            a) X heißt differenzierbare Mannigfaltigkeit der Klasse C k , wenn jede Kartenwechselabbildung ϕij k-mal stetig differenzierbar ist.
            b) X heißt differenzierbare Mannigfaltigkeit, wenn X eine differenzierbare Mannigfaltigkeit der Klasse C ∞ ist.
            Definition 30 Die Menge aller verträglichen Karten bildet einen maximalen Atlas. Er heißt C k -Struktur auf X.
            Definition 31 Eine Gruppe G heißt Lie-Gruppe, wenn ihre Verknüpfung differenzierbar ist.
            """
        let differentiable = StructuralSummary.summary(of: [Passage(ordinal: 0, text: manifolds, kind: .text, sectionPath: [], tokenCount: 120)],
                                                       title: "2.2 Differenzierbare Mannigfaltigkeiten") ?? ""
        XCTAssertTrue(differentiable.hasPrefix("Sei X eine n-dimensionale Mannigfaltigkeit mit Atlas (Ui, ϕi)i∈I. X heißt differenzierbare Mannigfaltigkeit, wenn X eine differenzierbare Mannigfaltigkeit der Klasse C ∞ ist."), differentiable)
        XCTAssertFalse(differentiable.contains("C k") || differentiable.contains("„-Struktur“"), differentiable)

        let axioms = """
            Definition 57 Das Tripel (X, d, G) heißt genau dann eine Geometrie, wenn (X, d) ein metrischer Raum und ∅ = G ⊆ P(X) gilt. Dann heißt G die Menge aller Geraden.
            Definition 58 Eine euklidische Ebene ist eine Geometrie (X, d, G), die Axiome §1 - §5 erfüllt:
            §1) Inzidenzaxiome:
            (i) Zu P 6= Q ∈ X gibt es genau ein g ∈ G mit { P, Q } ⊆ g.
            (ii) |g| ≥ 2 ∀g ∈ G
            §2) Abstandsaxiom: Zu P, Q, R ∈ X gibt es genau dann ein g ∈ G mit { P, Q, R } ⊆ g, wenn gilt: d(P, R) = d(P, Q) + d(Q, R)
            Definition 59 Sei (X, d, G) eine Geometrie. P, Q, R liegen kollinear, wenn es g ∈ G gibt mit { P, Q, R } ⊆ g.
            Bemerkung 60 Definition 60 §3) Anordnungsaxiome
            (i) Zu jeder Halbgerade H mit Anfangspunkt P ∈ X gibt es genau ein Q ∈ H.
            §4) Bewegungsaxiom: Zu P, Q gibt es mindestens 2 Isometrien.
            §5) Parallelenaxiom: Zu jeder Geraden g ∈ G und jedem Punkt P ∈ X \\ g gibt es höchstens eine Parallele.
            Bemerkung 61 (Verkettungen stetiger Abbildungen sind stetig) Seien X, Y, Z topologische Räume. Dann ist g ◦ f : X → Z stetig.
            Bemerkung 62 Sei P ein Punkt. Es gilt: f ist bijektiv und stetig.
            """
        let plane = StructuralSummary.summary(of: [Passage(ordinal: 0, text: axioms, kind: .text, sectionPath: [], tokenCount: 300)],
                                              title: "4.1 Axiome für die euklidische Ebene") ?? ""
        XCTAssertTrue(plane.contains("Eine euklidische Ebene ist eine Geometrie (X, d, G), die Axiome §1 - §5 erfüllt: §1 Inzidenzaxiome, §2 Abstandsaxiom, "
                                     + "§3 Anordnungsaxiome, §4 Bewegungsaxiom, §5 Parallelenaxiom."), plane)
        XCTAssertTrue(plane.contains("Verkettungen stetiger Abbildungen sind stetig."), plane)
        XCTAssertFalse(plane.contains("Dann heißt G") || plane.contains("Es gilt") || plane.contains("genau dann eine Geometrie"), plane)

        // "π1 (X, x) = { e }" as printed is one symbol and a set, not six tokens of formula; "Er
        // heißt …" after a broken formula and a union's lone index "(U,ϕ)∈A" are no statements.
        let paths = """
            Definition 43 Seien γ1 , γ2 Wege in X mit γ1 (1) = γ2 (0). Dann ist γ(t) = γ1 (2t) falls 0 ≤ t < 2 ein Weg in X. Er heißt zusammengesetzter Weg und man schreibt γ = γ1 ∗ γ2 .
            Definition 46 Ein wegzusammenhängender topologischer Raum X heißt einfach zusammenhängend, wenn π1 (X, x) = { e } für ein x ∈ X.
            Definition 47 Sei X eine Mannigfaltigkeit mit Rand und Atlas A. Dann heißt ∂X := (U,ϕ)∈A { x ∈ U | ϕ(x) = 0 } Rand von X.
            """
        let fundamental = StructuralSummary.summary(of: [Passage(ordinal: 0, text: paths, kind: .text, sectionPath: [], tokenCount: 120)],
                                                    title: "3.2 Fundamentalgruppe") ?? ""
        XCTAssertTrue(fundamental.contains("Ein wegzusammenhängender topologischer Raum X heißt einfach zusammenhängend, wenn π1(X, x) = {e} für ein x ∈ X."), fundamental)
        XCTAssertFalse(fundamental.contains("Er heißt") || fundamental.contains("(U,ϕ)∈A"), fundamental)

        // What the notes say of the title's subject, however short, before the other definitions.
        let coverings = """
            Definition 50 Sei X ein topologischer Raum und M ⊆ X. M heißt diskret in X, wenn M in X keinen Häufungspunkt hat.
            Definition 51 Sei X ein topologischer Raum und x ∈ X. Eine Menge U heißt Umgebungsbasis von x, wenn jede offene Umgebung von x ein Element von U enthält.
            Definition 52 Sei X ein topologischer Raum. Eine Teilmenge A heißt dicht in X, wenn jede nichtleere offene Menge A trifft.
            Bemerkung 50 Überlagerungen sind surjektiv.
            Beweis: Sei p : Y → X eine Überlagerung.
            Bemerkung 51 Überlagerungen sind offene Abbildungen.
            """
        let covering = StructuralSummary.summary(of: [Passage(ordinal: 0, text: coverings, kind: .text, sectionPath: [], tokenCount: 120)],
                                                 title: "3.3 Überlagerungen") ?? ""
        XCTAssertTrue(covering.contains("Überlagerungen sind surjektiv.") && covering.contains("Überlagerungen sind offene Abbildungen."), covering)

        // A remark's label says what its symbol is; "2-dimensionaler" is a word, not a formula.
        let tangent = """
            Definition 71 Sei S eine reguläre Fläche und F eine lokale Parametrisierung um s. Dann heißt Ts S := Bild(Ds F ) ⊆ R3 die Tangentialebene.
            Bemerkung 73 (Eigenschaften der Tangentialebene) a) Ts S ist 2-dimensionaler Untervektorraum von R3 .
            Definition 72 Sei S eine reguläre Fläche. S heißt orientierbar, wenn es ein stetiges Normalenfeld auf S gibt.
            """
        let plane2 = StructuralSummary.summary(of: [Passage(ordinal: 0, text: tangent, kind: .text, sectionPath: [], tokenCount: 120)],
                                               title: "5.2 Tangentialebene") ?? ""
        XCTAssertTrue(plane2.contains("Eigenschaften der Tangentialebene: Ts S ist 2-dimensionaler Untervektorraum von R3."), plane2)
    }
}
