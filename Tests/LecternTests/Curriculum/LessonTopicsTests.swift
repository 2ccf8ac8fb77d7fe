import XCTest
@testable import Lectern

/// Every topic a lesson: sections that set work or collect answers (a problem set, "Übungsaufgaben",
/// review questions), stubs (a demonstration page that only names its instructor), lists of
/// problem titles with their PDF and a chapter's summary that only repeats it are no topics; a
/// chapter's lead-in of a few words opens its first section instead. On the real OCW 8.01SC course and GeoTopo notes (SharedCorpusLibrary, built
/// once per process), the repository's notes, and real pages' texts.
final class LessonTopicsTests: XCTestCase {
    func testAnOCWCoursesProblemSetsAndEmptyDemonstrationPagesAreNoTopics() throws {
        let source = try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path
        let course = try SharedCorpusLibrary.load().curriculum("mechanics", sources: [source])
        let titles = course.topics.map(\.title)
        XCTAssertFalse(titles.contains { $0.hasPrefix("Problem Set") }, "\(titles)")
        XCTAssertFalse(course.topics.contains { $0.passages.contains { $0.text.contains("contains the following problems:") } },
                       "a problem set's list of titles is in no topic")
        for stub in ["13.5 Demo: Wrapping Friction", "34.4 Demo: Bicycle Wheel", "36.3 Spool Demo"] {
            XCTAssertFalse(titles.contains(stub), "\(stub): its page says only \"Instructor: Caleb Bonyun\"")
        }
        // Lessons whose titles name problems or a solution, and a demonstration that explains, stay.
        for lesson in ["11.3 Demo: Rotating Bucket", "12.1 Pulley Problems - Part I, Set up the Equations", "19.4 Rocket Problem 4 - Solution",
                       "PS.2.3 Window Washer Problem", "10.4 Review of Rotational Kinematics", "2.5 List of Useful Integrals"] {
            XCTAssertTrue(titles.contains(lesson), lesson)
        }
        // 232 topics before: the 12 problem sets and 3 empty demonstration pages went, every lesson stayed.
        XCTAssertEqual(course.topics.count, 217, "\(titles)")
        XCTAssertEqual(course.units.count, 13, "every week keeps its lessons")
    }

    func testGermanExerciseSectionsAreNoTopicsAndAChaptersLeadInOpensItsFirstSection() throws {
        let source = try TestPaths.sharedCorpus("pdf/pypdf-GeoTopo-komprimiert.pdf").path
        let notes = try SharedCorpusLibrary.load().curriculum("geotopo", sources: [source])
        let titles = notes.topics.map(\.title)
        XCTAssertFalse(titles.contains("Übungsaufgaben"), "\(titles)")
        XCTAssertFalse(notes.topics.contains { $0.passages.contains { $0.sectionPath.contains("Übungsaufgaben") } })
        // "5 Krümmung" before 5.1 holds one definition (20 words): it opens 5.1, it is not lost.
        XCTAssertFalse(titles.contains("5 Krümmung"), "\(titles)")
        let curves = try XCTUnwrap(notes.topics.first { $0.title == "5.1 Krümmung von Kurven" })
        XCTAssertTrue(curves.passages.first?.text.hasPrefix("Definition 67") == true, curves.passages.first?.text ?? "")
        XCTAssertEqual(notes.topics.count, 21, "\(titles)")
        XCTAssertEqual(notes.units[0].topics.map(\.title),
                       ["1.1 Topologische Räume", "1.2 Metrische Räume", "1.3 Stetigkeit", "1.4 Zusammenhang", "1.5 Kompaktheit", "1.6 Wege und Knoten"])
    }

    func testNotesPracticeProblemsAndReviewQuestionsAreNoTopics() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        let notes = TestPaths.corpora.appendingPathComponent("notes").path
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([notes], recorder: nil) { _ in }.stored, 3)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "notes", sources: [notes], recorder: nil) { _ in }
        let curriculum = try XCTUnwrap(try store.curriculum(named: "notes"))
        let titles = curriculum.topics.map(\.title)
        XCTAssertFalse(titles.contains("Practice problems") || titles.contains("Review questions"), "\(titles)")
        XCTAssertTrue(titles.contains("The Calvin cycle") && titles.contains("Common mistakes"), "\(titles)")
        // The chain rule notes' 45-word lead-in opens the statement of the rule.
        XCTAssertFalse(titles.contains("Differentiation: the chain rule"), "\(titles)")
        let statement = try XCTUnwrap(curriculum.topics.first { $0.title == "Statement of the chain rule" })
        XCTAssertTrue(statement.passages.first?.text.hasPrefix("Calculus I, week 5 notes.") == true, statement.passages.first?.text ?? "")
    }

    /// A user's notes whose section opens with a lead-in ending in ":" and goes on in short bullets
    /// keep that section as a topic: only a lead-in to work set ("the following problems:") makes
    /// such a text a list, and a list is kept nowhere.
    func testNotesInBulletsAfterALeadInStayATopic() throws {
        let symptoms = "These are the symptoms:\n\n- sudden fever above 38 °C, often with shivering\n- dry cough and a sore throat\n"
            + "- aching muscles, back and joints\n- headache and a strong tiredness for days\n- chills and sweating at night\n"
            + "- a blocked or runny nose\n- loss of appetite and sometimes nausea\n- in children also vomiting and diarrhoea\n"
            + "- a dry cough that can last two weeks\n"
        let notes = "# Influenza\n\n## How the virus spreads\n\nInfluenza spreads mainly through droplets that an infected person coughs or "
            + "sneezes out, and less often through hands that touched a contaminated surface and then the mouth or nose. People are "
            + "infectious from a day before they feel ill until about five days after, children for longer, which is why the virus "
            + "travels so fast through schools and nursing homes in winter.\n\n## Symptoms\n\n" + symptoms + "\n## Treatment\n\nMost "
            + "people recover within a week with rest and fluids. Antiviral drugs such as oseltamivir shorten the illness when they are "
            + "taken within two days of the first symptoms, and they are given first to the old and to people with weak immune systems. "
            + "Antibiotics do nothing against the virus itself; they are for the bacterial pneumonia that sometimes follows it.\n"
        XCTAssertNil(NonLesson.of(name: "Symptoms", passages: Self.section(symptoms)))
        let folder = try TemporaryFolder()
        try folder.write("influenza.md", notes)
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("influenza.md").path], recorder: nil) { _ in }.stored, 1)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "influenza", sources: [folder.file("influenza.md").path], recorder: nil) { _ in }
        let curriculum = try XCTUnwrap(try store.curriculum(named: "influenza"))
        let topic = try XCTUnwrap(curriculum.topics.first { $0.title == "Symptoms" }, "\(curriculum.topics.map(\.title))")
        XCTAssertTrue(topic.passages.contains { $0.text.contains("dry cough and a sore throat") }, "\(topic.passages.map(\.text))")
    }

    /// Saved Wikipedia pages: "See also" and "External links" are no topics, nor "References"
    /// (a heading that kept its edit link, "References[edit]", is read without it); a list article whose only other section was "See also"
    /// stays one topic under its own title rather than being cut by content as if it had none.
    func testAWikipediaPagesSeeAlsoAndReferencesAreNoTopics() throws {
        let films = try TestPaths.sharedCorpus("wikipedia/wikipedia-4/source.html").path
        let hermitian = try TestPaths.sharedCorpus("wikipedia/wikipedia-3/expected.html").path
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([films, hermitian], recorder: nil) { _ in }.stored, 2)
        let builder = CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
        _ = try builder.build(name: "films", sources: [films], recorder: nil) { _ in }
        XCTAssertEqual(try XCTUnwrap(try store.curriculum(named: "films")).topics.map(\.title), ["List of films featuring time loops"])
        _ = try builder.build(name: "hermitian", sources: [hermitian], recorder: nil) { _ in }
        let titles = try XCTUnwrap(try store.curriculum(named: "hermitian")).topics.map(\.title)
        XCTAssertTrue(titles.contains("Properties") && titles.contains("Rayleigh quotient"), "\(titles)")
        for apparatus in ["See also", "References", "External links", "Applications"] {
            XCTAssertFalse(titles.contains(apparatus), "\(apparatus): \(titles)")
        }
    }

    /// A chapter's closing "Summary" that only says again what its sections said is no lesson; one
    /// that says more stays (as does a summary inside a topic, an OpenStax module's, which is no
    /// section of the unit). The cell-biology notes of corpora/ as a chapter of a PDF's outline.
    func testAChaptersSummaryThatOnlyRepeatsIsNoTopic() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes.md", "# Cell Biology\n\nLecture notes.\n")
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("notes.md").path], recorder: nil) { _ in }.stored, 1)
        let document = try XCTUnwrap(try store.allDocuments().first)
        let membrane = "Every cell is enclosed by a plasma membrane that separates its contents from the outside world. The membrane is a "
            + "bilayer of phospholipids whose hydrophilic heads face the water on both sides while their hydrophobic tails point inward, away from the water."
        let mitochondria = "Mitochondria are the power plants of the cell. They carry out aerobic respiration, oxidising pyruvate and fatty acids "
            + "to carbon dioxide and water, and they store the released energy as ATP."
        let nucleus = "The nucleus holds the cell's chromosomes and is enclosed by a double membrane, the nuclear envelope, pierced by nuclear "
            + "pores that control what enters and leaves. Inside, the nucleolus assembles ribosomal subunits."
        let repeating = "Every cell is enclosed by a plasma membrane, a bilayer of phospholipids. Mitochondria are the power plants of the cell "
            + "and store energy as ATP. The nucleus holds the chromosomes inside the nuclear envelope."
        let more = "Mitochondria carry their own circular DNA and divide independently of the cell. This is strong evidence for the "
            + "endosymbiotic theory: they descend from bacteria that were engulfed by an ancestral cell more than a billion years ago."
        func units(summary: String) -> [UnitDraft] {
            let sections: [([String], String)] = [
                (["1 Organelles", "1.1 The Cell Membrane"], membrane), (["1 Organelles", "1.2 Mitochondria"], mitochondria),
                (["1 Organelles", "1.3 The Nucleus"], nucleus), (["1 Organelles", "1.4 Summary"], summary),
                (["2 Cell Division", "2.1 Interphase"], "During interphase the DNA is loosely packed as chromatin so that genes can be transcribed; "
                    + "before division it condenses into compact chromosomes."),
                (["2 Cell Division", "2.2 Chromosomes"], nucleus + " " + membrane),
            ]
            let passages = sections.enumerated().map { index, section in
                Passage(id: Int64(index + 1), documentId: document.id, ordinal: index, text: section.1, kind: .text, sectionPath: section.0,
                        tokenCount: WordTokenizer.words(section.1).count)
            }
            return CurriculumOutline.units(document: document, passages: passages, vectors: [:], alone: true)
        }
        XCTAssertEqual(units(summary: repeating).first?.topics.map(\.title), ["1.1 The Cell Membrane", "1.2 Mitochondria", "1.3 The Nucleus"])
        XCTAssertEqual(units(summary: more).first?.topics.map(\.title), ["1.1 The Cell Membrane", "1.2 Mitochondria", "1.3 The Nucleus", "1.4 Summary: Organelles"])
    }

    static func section(_ text: String) -> [Passage] {
        [Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .text, sectionPath: ["Section"], tokenCount: WordTokenizer.words(text).count)]
    }

    /// By heading (English and German, numbered or not) and by structure alone, on the pages'
    /// own texts: OCW's problem set under a heading no list names, its empty demonstration page;
    /// the shortest lessons (31 words of notes, a page of definitions, a sheet of formulas) stay.
    func testWhatIsNoLessonByHeadingAndByStructure() {
        let problemSet = "Problem Set 8 contains the following problems:\nSpring-Loop-the-Loop\nSlingshot\nObjects on a Ring\n"
            + "Orbital Collisions\nExponential Potential Energy Diagram\nProblem Set 8 (PDF)"
        XCTAssertEqual(NonLesson.of(name: "Problem Set 8", passages: Self.section(problemSet)), .practice)
        XCTAssertEqual(NonLesson.of(name: "Energy: what to try at home", passages: Self.section(problemSet + "\nSolutions (PDF)\nHints (PDF)")), .list)
        let files = "Lecture notes for the whole term\nLecture 1: Limits and continuity (PDF)\nLecture 2: Derivatives and the chain rule (PDF)\n"
            + "Lecture 3: Integrals (PDF)\nRecitation 1 worked solutions (PDF)\nCourse calendar (PDF)"
        XCTAssertEqual(NonLesson.of(name: "Lecture notes", passages: Self.section(files)), .list)
        XCTAssertEqual(NonLesson.of(name: "13.5 Demo: Wrapping Friction", passages: Self.section("Instructor: Caleb Bonyun")), .stub)
        let links = "Where to read on:\nhttps://ocw.mit.edu/courses/8-01sc-classical-mechanics-fall-2016/\n"
            + "https://openstax.org/details/books/university-physics-volume-1\nhttps://en.wikipedia.org/wiki/Classical_mechanics\n"
            + "The Feynman Lectures on Physics, volume I\nwww.feynmanlectures.caltech.edu"
        XCTAssertEqual(NonLesson.of(name: "Reading on", passages: Self.section(links + "\nKleppner and Kolenkow, An Introduction to Mechanics"
            + "\nMorin, Introduction to Classical Mechanics, Cambridge University Press")), .list)
        XCTAssertEqual(NonLesson.of(name: "Reading on", passages: Self.section(links)), .stub, "22 words")
        // "External links[edit]": a Wikipedia page converted to Markdown ("## External links[[edit](…)]") keeps its edit link.
        for heading in ["Übungsaufgaben", "Aufgabe 7 (Zusammenhang)", "Lösungen", "Übungsblatt 3", "Review Questions", "Questions?",
                        "Key Terms", "Glossar", "2.4 Exercises", "See also", "Weblinks", "External links[edit]"] {
            XCTAssertTrue(NonLesson.isPractice(heading), heading)
        }
        for heading in ["19.4 Rocket Problem 4 - Solution", "12.1 Pulley Problems - Part I", "PS.2.3 Window Washer Problem", "Problem solving",
                        "Übung macht den Meister: Stetigkeit"] {
            XCTAssertFalse(NonLesson.isPractice(heading), heading)
        }
        let lessons = [
            "Diffusion\nMolecules spread from crowded places to sparse ones, and the cell spends no energy on it.\n\nOsmosis\nWater crosses a "
                + "selectively permeable membrane toward the side holding more dissolved solute.",
            "Period, \\(T\\), is defined as the amount of time it takes to go around once - the time to cover an angle of \\(2\\pi\\) radians.\n\n"
                + "Frequency, \\(f\\), is defined as the rate of rotation, or the number of rotations in some unit of time.\n\n"
                + "Angular frequency, \\(\\omega\\), is the rotation rate measured in radians.\n\n"
                + "These three quantities are related by \\(f=\\frac{1}{T}=\\frac{\\omega}{2\\pi}\\).",
            "Position: \\(\\vec{r}(t)=r\\hat{r}\\)\n\nAngular Velocity: \\(\\vec{\\omega}=\\omega_z \\hat{k}\\)\n\n"
                + "Component of the Angular Velocity along the axis of rotation: \\(\\omega_z=\\dfrac{d\\theta}{dt} \\)\n\n"
                + "Velocity: \\(\\vec{v}=r\\dfrac{d\\theta}{dt}\\hat{\\theta} \\)\n\nAngular Acceleration: \\(\\vec{\\alpha} = \\alpha_{z}\\hat{k} \\)\n\n"
                + "Component of the Angular Acceleration: \\(\\alpha_z=\\dfrac{d\\omega_z}{dt}=\\dfrac{d^2\\theta}{dt^2}\\)",
        ]
        for text in lessons {
            XCTAssertNil(NonLesson.of(name: "Section", passages: Self.section(text)), text)
        }
        // A unit's short lead-in opens its next lesson; alone, it stays a lesson; a stub alone goes.
        let lead = (name: "", passages: Self.section(lessons[0]))
        let next = (name: "2 Active transport", passages: Self.section(lessons[1]))
        XCTAssertEqual(NonLesson.lessons([lead, next]).map(\.name), ["2 Active transport"])
        XCTAssertEqual(NonLesson.lessons([lead, next]).first?.passages.count, 2)
        XCTAssertEqual(NonLesson.lessons([lead]).map(\.name), [""])
        XCTAssertEqual(NonLesson.lessons([(name: "", passages: Self.section("Instructor: Caleb Bonyun"))]).count, 0)
        // A unit of frames of a few bullets each (the mtheme slides' "Lists" and "Blocks") is one
        // lesson of them all, not none; its exercises still go.
        let frames = [(name: "Items", passages: Self.section("Milk\nEggs\nPotatoes")),
                      (name: "Enumerations", passages: Self.section("1. First,\n2. Second and\n3. Last.")),
                      (name: "Descriptions", passages: Self.section("PowerPoint Meeh.\nBeamer Yeeeha.")),
                      (name: "Blocks", passages: Self.section("Three different block environments are pre-defined and may be styled with an optional background color.")),
                      (name: "Exercises", passages: Self.section("Make a list of three things you need for a cake, then number them."))]
        let unit = NonLesson.lessons(frames)
        XCTAssertEqual(unit.map(\.name), [""])
        XCTAssertEqual(unit.first?.passages.map(\.text).last, frames[3].passages[0].text, "the exercises went")
    }
}
