import XCTest
@testable import Lectern

/// Objectives from what a topic of real lecture material teaches (issue #31, item 2): OCW
/// 8.01SC's notes that define quantities with their symbols and relate them, a lecture that names
/// its terms ("which we're going to call the scalar product") and the rules it applies by their
/// whole names; the lecture subtitles' "the idea of transfer learning is …". Never a symbol, a
/// spot on the board ("Define hat", "Define left side"), a rule named by its kind ("Apply the
/// simple law", "Apply the differential equation") or a tool a lecture mentions ("Define code
/// carbon"). The library is SharedCorpusLibrary's (hashing embedder), built once per process.
final class TaughtObjectivesTests: XCTestCase {
    private func topics(_ name: String, _ sources: [String]) throws -> [String: [String]] {
        let corpus = try TestPaths.sharedCorpus()
        let course = try SharedCorpusLibrary.load().curriculum(name, sources: sources.map { corpus.appendingPathComponent($0).path })
        let topics = course.units.flatMap(\.topics)
        return Dictionary(topics.map { ($0.title, $0.objectives.map(\.statement)) }, uniquingKeysWith: { first, _ in first })
    }

    func testMechanicsObjectivesNameWhatItsLessonsTeach() throws {
        let course = try topics("mechanics", ["ocw/8-01sc-classical-mechanics-fall-2016_parsed.json"])
        // "Period, \(T\), is defined as …", "These three quantities are related by \(f=\frac{1}{T}=\frac{\omega}{2\pi}\)."
        XCTAssertEqual(course["9.3 Period and Frequency"], ["Define period, frequency and angular frequency",
                                                            "Relate period, frequency and angular frequency (f = 1/T = ω/2π)"])
        XCTAssertEqual(course["20.6 Power"]?.first, "Define power")
        XCTAssertEqual(course["21.1 Scalar Product Properties"], ["Define scalar product"])
        // Rules by their whole names: the right-hand rule, the universal law of gravitation.
        XCTAssertEqual(course["8.3 Angular Velocity"], ["Apply the right hand rule to the angular velocity"])
        XCTAssertEqual(course["5.2 Worked Example: Gravity Superposition"], ["Apply the universal law of gravitation"])
        XCTAssertEqual(course["7.4 Hooke's Law"], ["Define spring constant", "Define restoring force", "Apply Hooke's law"])
        XCTAssertEqual(course["DD.1.1 Friction at the Nanoscale (1/5): Actual Contact Area"], ["Distinguish static friction from dynamic friction"])
        // "We're calling kinetic energy K", "introduce the concept of work", "What is a coordinate system?"
        XCTAssertEqual(course["20.1 Kinetic Energy"], ["Define kinetic energy"])
        XCTAssertEqual(course["20.2 Work by a Constant Force"], ["Define work and joule"])
        XCTAssertEqual(course["1.1 Coordinate Systems and Unit Vectors in 1D Position Vector in 1D"], ["Define coordinate system"])
        // "… which we called the relative velocity initial": the quantity, not its state.
        XCTAssertEqual(course["DD.2.2 Relative Velocity is Independent of Reference Frame"], ["Define relative velocity"])
        let all = course.values.flatMap { $0 }
        for weak in ["Define hat", "Define left side", "Define constant", "Define location", "Define OCW", "Define week 8", "Define rj--",
                     "Apply the hand rule", "Apply the simple law", "Apply the force law", "Apply the differential equation",
                     "Apply the quadratic equation", "Apply the separate equation", "Identify the two facts", "Identify the three quantities",
                     "Calculate the change in potential energy between our initial"] {
            XCTAssertFalse(all.contains(weak), weak)
        }
        XCTAssertFalse(all.contains { $0.contains("Derive differential") || $0.contains("theta j") || $0.contains("n ground 1") }, "\(all.sorted())")
    }

    func testAWorkedExampleInheritsOnlyTheObjectivesItsTextHoldsEveryWordOf() throws {
        let corpus = try TestPaths.sharedCorpus()
        let course = try SharedCorpusLibrary.load().curriculum("mechanics", sources: [corpus.appendingPathComponent("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path])
        let unit = try XCTUnwrap(course.units.first { $0.title == "Week 5: Momentum and Impulse" })
        let candidates = InheritedObjectives.unitObjectives(unit)
        // The centre of mass of three planets: its position, not the velocity or acceleration of the
        // centre of mass that 17.6 and 17.7 teach (graded no at seed 7331 when it carried them).
        for title in ["17.2 Worked Example - Center of Mass of 3 Objects", "17.4 Center of Mass of a System of Extended Objects"] {
            let topic = try XCTUnwrap(unit.topics.first { $0.title == title })
            XCTAssertTrue(topic.objectives.isEmpty)
            let inherited = InheritedObjectives.objectives(for: topic, candidates: candidates) { InheritedObjectives.overall(of: unit) }.map(\.statement)
            XCTAssertEqual(inherited, ["Define center of mass", "Determine the center of mass"], title)
        }
    }

    func testOneNameForALawATaskWholeAndNoTermInsideAnother() throws {
        let corpus = try TestPaths.sharedCorpus()
        let course = try SharedCorpusLibrary.load().curriculum("mechanics", sources: [corpus.appendingPathComponent("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path])
        let objectives = Dictionary(course.units.flatMap(\.topics).map { ($0.title, $0.objectives.map(\.statement)) }, uniquingKeysWith: { first, _ in first })
        let all = objectives.values.flatMap { $0 }
        // "Newton's Second law of motion" (Week 1, 30.1) and "Newton's second law" are one law, and
        // one the whole course applies: beside what the overview defines, it goes (GenericRules).
        XCTAssertEqual(objectives["Week 1 Introduction"], ["Define dynamics"])
        XCTAssertFalse(all.contains { $0.contains("Newton's Second") || $0.contains("second law of motion") }, "\(all.sorted())")
        let unit = try XCTUnwrap(course.units.first { $0.title.hasPrefix("Week 10") && $0.topics.contains { $0.title.hasPrefix("PS.10.1") } })
        let pulley = try XCTUnwrap(unit.topics.first { $0.title.hasPrefix("PS.10.1 Blocks and Massive Pulley (2/2)") })
        let inherited = InheritedObjectives.objectives(for: pulley, candidates: InheritedObjectives.unitObjectives(unit)) { nil }.map(\.statement)
        XCTAssertFalse(inherited.contains("Apply Newton's second law"), "\(inherited)")
        // "the rolling without slipping" holds "slipping"; "Xcm" is a symbol; "wheel" is the apparatus;
        // "that's what we called the angular speed", an earlier lesson's term recalled once, is a
        // side term (OfflineObjectives.weighty).
        XCTAssertEqual(objectives["35.4 Rolling Without Slipping, Slipping, and Skidding"], ["Define rolling without slipping"])
        // A task names its quantity whole, not "about some point".
        XCTAssertEqual(objectives["34.2 Torque Causes Angular Momentum to Change - System of Particles"], ["Calculate the angular momentum"])
        XCTAssertFalse(all.contains { $0.hasSuffix(" about point") || $0.hasSuffix(" about some point") || $0.hasSuffix(" about the point") }, "\(all.sorted())")
        // A topic whose text names no term, rule or task, but whose title names the task it works.
        XCTAssertEqual(objectives["20.4 Integrate Acceleration with Respect to Time and Position"], ["Integrate acceleration with respect to time and position"])
        XCTAssertEqual(objectives["18.3 Solve for Velocity in the Ground Frame"], ["Solve for velocity in the ground frame"])
        // None of its unit's objectives is about its text (it carried "Define moment of inertia",
        // the unit's overall one): its title names the subject its text speaks of.
        XCTAssertEqual(objectives["28.1 Rigid Bodies"], ["Describe rigid bodies"])
        XCTAssertEqual(objectives["18.1 Relative Velocity"], ["Describe relative velocity"])
        // A title that names a problem describes the name of its part, which the text says.
        XCTAssertEqual(objectives["12.3 Pulley Problem - Part III, Constraints and Virtual Displacement Arguments"],
                       ["Describe constraints and virtual displacement arguments"])
    }

    func testAWelcomeLectureTeachesWhatItSaysItWillTeach() throws {
        let lectures = try topics("hf", ["transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt"])
        // "This course has been designed to teach you all about the Hugging Face ecosystem, …",
        // "we'll teach you the basics of how to use a Transformer model, fine-tune it …": not its
        // key phrases ("Describe Transformer model and teach").
        XCTAssertEqual(lectures["Welcome to the Hugging Face Course"],
                       ["Describe the Hugging Face ecosystem", "Use a Transformer model, fine-tune it on your own data set and share the result with the community"])
        XCTAssertEqual(StatedObjectives.promised(in: ["So second, we'll dive deeper into our libraries and teach you how to tackle any NLP task."]),
                       ["Tackle any NLP task"])
    }

    func testALectureDescribesTheSubjectItsTitleNamesAndDefines() throws {
        let lectures = try topics("hf", ["transcripts/hf-course-01_the-pipeline-function.srt"])
        // "The pipeline function is the most high level API of the Transformers library.": the
        // lecture's subject first, then the one pipeline among its examples that it defines.
        XCTAssertEqual(lectures["The pipeline function"]?.first, "Describe the pipeline function", "\(lectures)")
        XCTAssertNil(OfflineObjectives.definedTitle("What is transfer learning?", in: ["What is transfer learning is a question."]))
    }

    func testADeckDescribesItsThemeNotItsSections() throws {
        let deck = try topics("slides", ["pdf/mtheme-demo-slides.pdf"])
        // Headings "Metropolis" and "Sections": "The metropolis theme is a Beamer theme …" names
        // what the first is; "sections" is an everyday word ("Describe metropolis", "Describe sections").
        XCTAssertEqual(deck["Introduction: Metropolis - A modern beamer theme"], ["Describe the metropolis theme"], "\(deck)")
    }

    func testTheContrastATutorDraws() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("library.db").path)
        let notes = TestPaths.corpora.appendingPathComponent("transcripts/office-hours.txt").path
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([notes], recorder: nil) { _ in }.stored, 1)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "statistics", sources: [notes], recorder: nil) { _ in }
        let topics = try XCTUnwrap(try store.curriculum(named: "statistics")).topics
        // "Today's question was about the difference between the mean and the median." ("mean" is
        // also a verb, so it is no term alone; after "the" it is the noun.)
        XCTAssertEqual(topics.flatMap(\.objectives).map(\.statement), ["Distinguish mean from median"])
    }

    func testALecturesSubjectAndNotTheToolsItMentions() throws {
        let lectures = try topics("hf", ["transcripts/hf-course-02_the-carbon-footprint-of-transformers.srt",
                                         "transcripts/hf-course-03_what-is-transfer-learning.srt"])
        // "The idea of transfer learning is to leverage the knowledge acquired by a model …"
        // "Training like this, on labeled data is called supervised learning", once on the way to
        // the subject, is no second subject (OfflineObjectives.weighty).
        XCTAssertEqual(lectures["What is transfer learning?"], ["Define transfer learning"])
        // "There's a web-based tool called machine learning submissions calculator", "Another tool
        // that does this programmatically, is called code carbon": named, not taught.
        let carbon = try XCTUnwrap(lectures["The carbon footprint of transformers"], "\(lectures.keys)")
        XCTAssertFalse(carbon.contains { $0.localizedCaseInsensitiveContains("code carbon") || $0.contains("calculator") }, "\(carbon)")
        // Its key phrases stand in, but not a unit of measure ("CO2 per kilowatt hour").
        XCTAssertFalse(carbon.isEmpty)
        XCTAssertFalse(carbon.contains { $0.contains(" per ") }, "\(carbon)")
    }

    func testSymbolsLabelsAndEverydayWordsAreNoTerms() {
        XCTAssertFalse(OfflineObjectives.definable("n ground 1"))
        XCTAssertFalse(OfflineObjectives.definable("theta j"))
        XCTAssertFalse(OfflineObjectives.definable("equilibrium picture"))
        XCTAssertFalse(OfflineObjectives.definable("Beweis"))
        XCTAssertFalse(OfflineObjectives.definable("Xcm"))
        XCTAssertTrue(OfflineObjectives.definable("torque"))
        XCTAssertTrue(OfflineObjectives.definable("spring constant"))
        XCTAssertTrue(OfflineObjectives.definable("Gauß-Krümmung"))
        // An acronym or a term with a digit is a term: a label is told by its case ("Xcm").
        for term in ["NLP", "GPT", "HTML", "SQL", "CNN", "CO2", "GPT-2"] { XCTAssertTrue(OfflineObjectives.definable(term), term) }
        XCTAssertFalse(OfflineObjectives.definable("week 8"))
        // A lecturer labelling things on the board names no term.
        XCTAssertEqual(OfflineObjectives.named(in: ["And from the ceiling, we'll hang a pulley, which I'm going to call pulley A.",
                                                     "And this string, I'm going to call that T2, is holding that pulley up.",
                                                     "In order to do that, we'll need a new mathematical operation, which we're going to call the scalar product.",
                                                     "This is called the normal force.",
                                                     "We're calling kinetic energy K, and it's given by 1/2mv squared.",
                                                     "We would now like to introduce the concept of angular momentum.",
                                                     "So that's our first condition, and we call this the rolling without slipping."]),
                       ["scalar product", "normal force", "kinetic energy", "angular momentum", "rolling without slipping"])
        // A term with its symbol after it is still named.
        XCTAssertEqual(OfflineObjectives.named(in: ["And the force from the surface is what we call the normal force N.",
                                                     "We call this the scalar product a dot b."]),
                       ["normal force", "scalar product"])
    }
}
