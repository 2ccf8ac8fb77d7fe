import XCTest
@testable import Lectern

/// The offline summaries of a course's recorded lectures as a learner reads them (OCW 8.01SC from
/// the shared corpus, hashing embedder, SharedCorpusLibrary's curriculum): what each lecture
/// teaches, not the lecturer's plan and steps at the board ("We'll choose our polar coordinates",
/// "Remember, …"), nor the recording's credit line.
final class LectureSummaryTests: XCTestCase {
    func mechanics() throws -> Curriculum {
        try SharedCorpusLibrary.load().curriculum("mechanics", sources: [try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path])
    }

    /// The course's lectures (topics with a transcript) whose summary is written offline.
    func offlineLectures() throws -> [Topic] {
        try mechanics().units.flatMap(\.topics).filter { topic in
            topic.summaryOrigin == .offline && topic.passages.contains { $0.kind == .transcript }
        }
    }

    /// The summary of the lecture titled `title`.
    static func summary(_ title: String, in lectures: [Topic]) throws -> String {
        try XCTUnwrap(lectures.first { $0.title == title }, title).summary
    }

    /// A sentence of the lecturer's plan or working, or of the credit line.
    static func isWorking(_ sentence: String) -> Bool {
        let openers = ["We'll", "We're", "We will", "We are going", "We would", "We want", "We'd", "We have", "We had", "Let's", "Let us",
                       "Remember", "I'll", "I'm", "I'd", "I want", "Our "]
        return openers.contains { sentence.hasPrefix($0) } || sentence.contains(" our ") || sentence.contains("Instructor:")
    }

    func testALecturesSummaryStatesWhatItTeachesNotTheWorkingAtTheBoard() throws {
        let lectures = try offlineLectures()
        XCTAssertGreaterThan(lectures.count, 150, "the course's lectures are summarised offline")
        // "So our instantaneous velocity is the time derivative of the position function at any
        // instant in time", as a written statement.
        let velocity = try XCTUnwrap(lectures.first { $0.title == "1.5 Instantaneous Velocity in 1D" })
        XCTAssertTrue(velocity.summary.contains("The instantaneous velocity is the time derivative of the position function"), velocity.summary)
        // Where a lecture states nothing on its own, its summary may still carry a step (16 of 208
        // lectures when this was written; 104 before).
        let working = lectures.compactMap { topic in
            SentenceSplitter.split(topic.summary).map(\.text).first(where: Self.isWorking).map { "\(topic.title): \($0)" }
        }
        XCTAssertLessThanOrEqual(working.count, lectures.count / 10, working.joined(separator: "\n"))
        for topic in lectures {
            XCTAssertFalse(topic.summary.contains("Instructor:"), "\(topic.title): \(topic.summary)")
        }
    }

    /// A lecture that states little on its own opens on what it does, from its title and what it
    /// defines or applies; a worked example says it is one and what it works out; no announcement
    /// reads as broken English and no LaTeX that lost its backslashes is left in.
    func testALecturesSummaryOpensOnWhatTheLectureDoes() throws {
        let lectures = try offlineLectures()
        func summary(_ title: String) throws -> String { try Self.summary(title, in: lectures) }
        // Its spoken sentences say "We'd like to talk about projectile motion"; the lecture
        // names it ("this type of motion has a very famous name called projectile motion"), not
        // says what it is, and its lead says what it is about.
        let projectile = try summary("3.4 Projectile Motion")
        XCTAssertTrue(projectile.hasPrefix("The lecture is about projectile motion"), projectile)
        let superposition = try summary("5.2 Worked Example: Gravity Superposition")
        XCTAssertTrue(superposition.hasPrefix("A worked example: Gravity Superposition. "), superposition)
        let ground = try summary("18.3 Solve for Velocity in the Ground Frame")
        XCTAssertTrue(ground.hasPrefix("The lecture shows how to solve for velocity in the ground frame."), ground)
        // Not by an objective about a symbol ("Define Xcm …") or a lone adjective ("Define nonconservative").
        XCTAssertTrue(try summary("22.4 Non-Conservative Forces").hasPrefix("The lecture is about non-conservative forces."))
        XCTAssertFalse(try summary("35.4 Rolling Without Slipping, Slipping, and Skidding").contains("Xcm"))
        // "Here, we will talk about in the calculation of angular momentum" (as transcribed) is
        // no "The lecture talks about in the calculation of angular momentum."
        XCTAssertFalse(try summary("32.2 Calculating Angular Momentum").contains("about in"))
        // What follows its lead is no line pointing at the board ("The particle is traveling
        // around the circle in this direction."): the lecture states nothing alone about angular
        // velocity, so its lead says what it does.
        let angular = try summary("8.3 Angular Velocity")
        XCTAssertTrue(angular.hasPrefix("The lecture "), angular)
        XCTAssertFalse(angular.contains("this direction"), angular)
        // A step at the board later in the lecture ("First we'll introduce an angle theta", "We'll
        // introduce some dummy variables there as well") is not its announcement.
        let sliding = try summary("PS.2.1 Worked Example: Sliding Block")
        XCTAssertTrue(sliding.hasPrefix("A worked example: Sliding Block. "), sliding)
        XCTAssertFalse(sliding.contains("The lecture introduces an angle theta"))
        XCTAssertFalse(try summary("20.4 Integrate Acceleration with Respect to Time and Position").contains("dummy variables there"))
        // A title leads as English: a task by its verb, "Review of …" as what the lecture
        // reviews, a clause ("Torque Causes Angular Momentum to Change") not at all.
        let integrate = try summary("20.4 Integrate Acceleration with Respect to Time and Position")
        XCTAssertTrue(integrate.hasPrefix("The lecture shows how to integrate acceleration with respect to time and position."), integrate)
        let review = try summary("28.3 Review of Angular Velocity and Acceleration")
        XCTAssertTrue(review.hasPrefix("The lecture reviews angular velocity and acceleration."), review)
        XCTAssertFalse(try summary("34.1 Torque Causes Angular Momentum to Change - Point Particle").contains("is about torque causes"))
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "4.1 Worked Examples: Pulley Systems", objectives: []), "A worked example: Pulley Systems.")
        // "α ⃗(t)=dfrac 1r(A-Bt)k̂" cannot be read back.
        for topic in lectures {
            XCTAssertFalse(topic.summary.contains("dfrac") || topic.summary.contains("(fract"), "\(topic.title): \(topic.summary)")
            let first = SentenceSplitter.split(topic.summary).first?.text ?? ""
            // ("The lecture is about week 12 Introduction" names no subject.)
            XCTAssertFalse(first.hasPrefix("The lecture is about week"), "\(topic.title): \(first)")
        }
        // Most lectures now say what they do (171 of 217 topics when this was written, 17 before).
        // (Saying what it does and at least one thing it teaches: not its announcement alone.)
        let said = lectures.filter { topic in
            (topic.summary.hasPrefix("The lecture ") || topic.summary.hasPrefix("A worked example: "))
                && SentenceSplitter.split(topic.summary).count >= 2
        }
        XCTAssertGreaterThanOrEqual(said.count, lectures.count * 3 / 5, "\(said.count) of \(lectures.count)")
    }

    /// After its lead a lecture's summary says what the lecture defines and states about its
    /// subject, even where the lecturer says it while working ("Torque is defined as the cross
    /// product, R cross F, which we can also write as …"), not a step about something else ("Ds dt
    /// is just the velocity of the object.") nor a clause cut from the sentence before ("Which
    /// means that …", "What that tells us is …", "Plus …"). A worked example says what it works
    /// out, from its problem's statement.
    func testALecturesSummarySaysWhatItDefinesAndAWorkedExampleWhatItFinds() throws {
        let lectures = try offlineLectures()
        func summary(_ title: String) throws -> String { try Self.summary(title, in: lectures) }
        let torque = try summary("30.4 Torque")
        XCTAssertTrue(torque.contains("Torque is defined as the cross product"), torque)
        let power = try summary("20.6 Power")
        XCTAssertTrue(power.hasPrefix("The lecture defines power."), power)
        XCTAssertFalse(power.contains("Ds dt"), power)
        for topic in lectures {
            for sentence in SentenceSplitter.split(topic.summary).dropFirst().map(\.text) {
                let first = sentence.split(separator: " ").first.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) } ?? ""
                XCTAssertFalse(["which", "plus", "namely"].contains(first) || sentence.hasPrefix("What that "), "\(topic.title): \(sentence)")
            }
            // A problem's instructions ("Express your answer in terms of …") are no part of what it works out.
            XCTAssertFalse(topic.summary.contains("Express your answer"), "\(topic.title): \(topic.summary)")
        }
        // The question of a worked example, from its statement: a task ("Find the final speed …"),
        // a question ("What is the speed v at which …?") or one asked otherwise.
        XCTAssertTrue(try summary("11.2 Worked Example - Car on a Banked Turn")
            .hasPrefix("A worked example: Car on a Banked Turn. The example finds the speed v at which the car can turn safely."))
        XCTAssertTrue(try summary("27.5 Worked Example - Gravitational Slingshot")
            .hasPrefix("A worked example: Gravitational Slingshot. The example finds the final speed"))
        XCTAssertTrue(try summary("5.2 Worked Example: Gravity Superposition")
            .hasPrefix("A worked example: Gravity Superposition. The example asks: At what location x measured from the center of planet 1"))
        // A task after a symbol's full stop ("… at x=d. The downward … g. Determine …") is found too.
        XCTAssertTrue(try summary("PS.7.1 Worked Example - Collision and Sliding on a Rough Surface")
            .contains("The example determines an expression for the initial speed"))
        let examples = lectures.filter { $0.summary.hasPrefix("A worked example: ") }
        let asked = examples.filter { $0.summary.contains(". The example ") || $0.summary.contains(". The goal of") }
        XCTAssertGreaterThanOrEqual(asked.count, examples.count / 2, "\(asked.count) of \(examples.count) worked examples say what they work out")
    }

    /// A lecture led by what it defines says the formula it states for that, as its card writes
    /// it (in Unicode: "τ = R × F", not "R cross F" nor `\(\tau\)`), and only a relation named
    /// for that subject: a law said first keeps its own name ("Newton's second law in its
    /// rotational form, tau is equal to I alpha" is no definition of torque).
    /// A transcript's full stops that end no sentence never reach a summary: a symbol's ("a
    /// distance d. Now this is …", 500 of them in the course's speech) ends the sentence, and a
    /// stop inside a spoken phrase ("And the k-hat direction. is pointing out of the screen.")
    /// makes the line no summary sentence; a worked example whose problem the text does not state
    /// says the principle it applies or nothing after its title, never a step of its working.
    func testALecturesSummaryHasNoStrayFullStopNorAWorkedExamplesStep() throws {
        let lectures = try offlineLectures()
        var glued: [String] = []
        for topic in lectures {
            let words = topic.summary.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated().dropFirst().dropLast() where word.hasSuffix(".") && !word.hasSuffix("..") {
                let stem = word.dropLast()
                let next = words[index + 1]
                // "distance d. Now": a one-letter word after a word, then a capital; "direction. is": a word, then lower case.
                let symbol = stem.count == 1 && stem.first!.isLowercase && words[index - 1].last!.isLetter && next.first!.isUppercase
                let stray = stem.count >= 2 && stem.allSatisfy(\.isLetter) && !SentenceSplitter.abbreviations.contains(stem.lowercased()) && next.first!.isLowercase
                if symbol && SentenceSplitter.split(topic.summary, symbols: true).contains(where: { $0.text.contains(" \(word) \(next)") }) || stray {
                    glued.append("\(topic.title): \(topic.summary)")
                }
            }
        }
        XCTAssertEqual(glued, [])
        let gyroscope = try XCTUnwrap(lectures.first { $0.title.hasPrefix("DD.3.1 Gyroscopes 1") && $0.title.contains("(1/2)") })
        XCTAssertTrue(gyroscope.summary.hasPrefix("The lecture defines gyroscope. "), gyroscope.summary)
        XCTAssertFalse(gyroscope.summary.contains("direction. is"), gyroscope.summary)
        let examples = lectures.filter { $0.summary.hasPrefix("A worked example: ") && !$0.summary.contains("The example ") && !$0.summary.contains("The goal of") }
        XCTAssertGreaterThan(examples.count, 5)
        for topic in examples {
            for sentence in SentenceSplitter.split(topic.summary, symbols: true).dropFirst().map(\.text) {
                XCTAssertTrue(TopicSummaryText.namesAPrinciple(sentence), "\(topic.title): \(topic.summary)")
            }
        }
    }

    func testALectureThatDefinesAQuantitySaysTheFormulaItStates() throws {
        let lectures = try offlineLectures()
        let stating = lectures.filter { topic in
            SentenceSplitter.split(topic.summary).dropFirst().contains { sentence in
                sentence.text.contains(" = ") && topic.summary.hasPrefix("The lecture ")
            }
        }
        XCTAssertGreaterThanOrEqual(stating.count, 2, stating.map(\.title).joined(separator: ", "))
        for topic in stating {
            XCTAssertFalse(topic.summary.contains("\\(") || topic.summary.contains("\\frac"), "\(topic.title): \(topic.summary)")
        }
        let torque = try XCTUnwrap(lectures.first { $0.title == "30.4 Torque" }).summary
        XCTAssertTrue(torque.contains("Torque is τ = R × F."), torque)

        func lecture(_ text: String) -> [Passage] {
            [Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .transcript, sectionPath: ["Lecture"], tokenCount: 60)]
        }
        XCTAssertEqual(TopicSummaryText.statedFormula(lead: "The lecture defines momentum and applies Newton's second law.", passages: lecture(
            "Today we look at collisions. The momentum, for a point like mass, is defined as the mass times the velocity. It is a vector.")),
            "Momentum, for a point-like mass, is p = m·v (m: the mass; v: the velocity).")
        XCTAssertNil(TopicSummaryText.statedFormula(lead: "The lecture defines torque.", passages: lecture(
            "Newton's second law in its rotational form is tau is equal to I alpha. So the torque is the moment of inertia times the angular acceleration.")))
        // A relation of something the lead does not define is not said for it.
        XCTAssertNil(TopicSummaryText.statedFormula(lead: "The lecture defines angular momentum.", passages: lecture(
            "The momentum, for a point like mass, is defined as the mass times the velocity.")))
    }

    /// A lecture's announcement is followed by what it states ("The lecture talks about kinetic
    /// energy. Kinetic energy is K = 1/2 m v²."), a lecture "defines" only what its speech defines,
    /// and a worked example says the principle its speech applies.
    func testALectureSaysWhatItStatesAndAWorkedExampleThePrincipleItApplies() throws {
        let lectures = try mechanics().units.flatMap(\.topics).filter { $0.passages.contains { $0.kind == .transcript } }
        func summary(_ title: String) throws -> String { try XCTUnwrap(lectures.first { $0.title == title }).summary }
        // "We're calling kinetic energy K, and it's given by 1/2mv squared." after "The lecture talks about kinetic energy."
        let kinetic = try summary("20.1 Kinetic Energy")
        XCTAssertTrue(kinetic.contains("Kinetic energy is K = 1/2 m v²."), kinetic)
        // The quantity the title names, defined across two sentences, after a lead about the right hand rule.
        let angular = try summary("8.3 Angular Velocity")
        XCTAssertTrue(angular.contains("Angular velocity is ω = dθ/dt."), angular)
        // Every principle a worked example is said to apply is one its speech names.
        var applying = 0
        for topic in lectures {
            guard let range = topic.summary.range(of: "The example applies ") else { continue }
            applying += 1
            let speech = topic.passages.filter { $0.kind == .transcript }.map(\.text).joined(separator: " ").lowercased()
            let named = topic.summary[range.upperBound...].dropLast().components(separatedBy: " and ")
            for principle in named {
                let spoken = principle.lowercased().replacingOccurrences(of: "conservation of ", with: "")
                XCTAssertTrue(speech.contains(spoken), "\(topic.title): \(principle)")
            }
        }
        XCTAssertGreaterThanOrEqual(applying, 10)

        func lecture(_ text: String) -> [Passage] {
            [Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .transcript, sectionPath: ["Lecture"], tokenCount: 60)]
        }
        // Named, not defined: no "defines".
        let named = lecture("This video introduces the series. These numerical representations can also be called embeddings. The encoder accepts text.")
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "The transformer architecture", objectives: ["Define embeddings"], passages: named),
                       "The lecture is about the transformer architecture.")
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "Lecture 4: encoders", objectives: ["Define embeddings"], passages: named),
                       "The lecture talks about embeddings.")
        let defined = lecture("This video introduces the series. Embeddings are vectors of numbers that stand for each word. The encoder accepts text.")
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "The transformer architecture", objectives: ["Define embeddings"], passages: defined),
                       "The lecture defines embeddings.")
        // An announcement whose subject points at the board later in it announces nothing; a clause "that …" still names one.
        XCTAssertNil(SpokenSentences.announcement("Today we'll talk about kinetic energy of rotation and properties of that rigid body."))
        XCTAssertNil(SpokenSentences.announcement("Today we'd like to discuss how these wheels roll."))
        XCTAssertEqual(SpokenSentences.announcement("Today we'd like to discuss the forces that act on a rope."),
                       "The lecture discusses the forces that act on a rope.")
        // A principle the lecturer says does not apply is not one the example applies.
        XCTAssertEqual(TopicSummaryText.appliedPrinciples(lecture(
            "We cannot use conservation of energy here, because the collision is inelastic. But the momentum of the system is conserved. So we apply the momentum principle.")),
            "The example applies conservation of momentum and the momentum principle.")
        XCTAssertNil(TopicSummaryText.appliedPrinciples(lecture("We cannot use conservation of energy here. The block slides.")))
    }

    /// A lecture without mathematics (the shared subtitles, the project's biology lecture) is
    /// summarised by what it teaches: no sentence that counts off parts not yet named ("Combining
    /// the two parts …"), no word the recognition misheard (an acronym said once beside the one
    /// said often), the claim the lecturer stresses, and a lead from the subject after a course's
    /// numbering ("Biology 101, lecture 7: …").
    func testASpokenLectureSaysWhatItTeachesWithoutPartsNotNamedOrMisheardWords() throws {
        let corpus = try TestPaths.sharedCorpus()
        let hf = try SharedCorpusLibrary.load().curriculum("hf-spoken", sources: [
            "transcripts/hf-course-01_the-pipeline-function.srt", "transcripts/hf-course-04_the-transformer-architecture.srt",
            "transcripts/hf-course-05_transformer-models-encoders.srt",
        ].map { corpus.appendingPathComponent($0).path })
        for topic in hf.units.flatMap(\.topics) {
            let sentences = SentenceSplitter.split(topic.summary).map(\.text)
            XCTAssertGreaterThanOrEqual(sentences.count, 3, "\(topic.title): \(topic.summary)")
            XCTAssertFalse(sentences.contains(where: TopicSummaryText.namesUnsaid), "\(topic.title): \(topic.summary)")
            // (The encoder's video says "BERT" four times and "BURT" once.)
            XCTAssertFalse(topic.summary.contains("BURT"), topic.summary)
        }
        // The pipeline video's summary names the pipelines it shows one by one.
        let pipeline = try XCTUnwrap(hf.units.flatMap(\.topics).first { $0.title == "The pipeline function" }).summary
        XCTAssertTrue(pipeline.contains("sentiment analysis") && pipeline.contains("text generation") && pipeline.contains("summarization"), pipeline)
        // The architecture's summary says what both of its parts do.
        let architecture = try XCTUnwrap(hf.units.flatMap(\.topics).first { $0.title == "The transformer architecture" }).summary
        XCTAssertTrue(SentenceSplitter.split(architecture).contains { $0.text.hasPrefix("The encoder ") }, architecture)
        XCTAssertTrue(SentenceSplitter.split(architecture).contains { $0.text.hasPrefix("The decoder ") && $0.text.split(separator: " ").count >= 10 }, architecture)

        let folder = try TemporaryFolder()
        let store = try LibraryStore(path: folder.file("lecture.db").path)
        let source = TestPaths.corpora.appendingPathComponent("transcripts/cell-respiration-lecture.vtt").path
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([source], recorder: nil) { _ in }.stored, 1)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer()).build(name: "biology", sources: [source], recorder: nil) { _ in }
        let respiration = try XCTUnwrap(try store.curriculum(named: "biology")?.topics.first).summary
        // Its subject, its three stages, and the point it calls the key one (after a student's question).
        XCTAssertTrue(respiration.hasPrefix("The lecture is about cellular respiration. "), respiration)
        XCTAssertTrue(respiration.contains("three stages: glycolysis, the citric acid cycle, and oxidative phosphorylation"), respiration)
        XCTAssertTrue(respiration.contains("Glycolysis is anaerobic"), respiration)

        func lecture(_ text: String) -> [Passage] {
            [Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .transcript, sectionPath: ["Lecture"], tokenCount: 60)]
        }
        XCTAssertEqual(TopicSummaryText.stressed(lecture(
            "Do prices always rise with demand? No, and that is the key point. A price rises only when demand grows faster than supply. "
                + "So the main point is that a market settles where the two curves cross.")),
            ["A price rises only when demand grows faster than supply.", "A market settles where the two curves cross."])
        // The working's "we" after the mark is no claim.
        XCTAssertEqual(TopicSummaryText.stressed(lecture("Now the important thing is that we're going to do an integral.")), [])
        XCTAssertEqual(TopicSummaryText.misheardWords(lecture("GPT writes text. The GBT model was trained on books. GPT guesses the next word. NLP is a field.")),
                       ["GBT"])
        XCTAssertEqual(TopicSummaryText.misheardWords(lecture("GPT writes text. GBT is another model. GPT guesses words. GBT is older.")), [])
        // The kinds of its subject a lecture names one by one; a quantity's qualifiers are none.
        XCTAssertEqual(TopicSummaryText.walkedKinds(["engine", "engines"], lecture(
            "The steam engine came first. It burned coal. Then the petrol engine made cars possible. The same engine drove boats. Later the diesel engine pulled trains.")),
            "The lecture walks through the steam, petrol and diesel engines.")
        XCTAssertNil(TopicSummaryText.walkedKinds(["energy"], lecture(
            "The kinetic energy grows. The total energy stays. The total mechanical energy is conserved. The heat energy is lost.")))
        // What a lecture goes on to say with "It …" of a short statement's subject.
        XCTAssertEqual(TopicSummaryText.continuations(lecture(
            "The cache is smaller than the disk. It holds the pages read most recently. It is emptied when the machine restarts. Disks are slow.")),
            ["The cache is smaller than the disk.": ["The cache holds the pages read most recently.", "The cache is emptied when the machine restarts."]])
        XCTAssertEqual(TopicSummaryText.continuations(lecture("Everything we store is smaller than the disk. It holds the pages read most recently.")), [:])
        XCTAssertTrue(TopicSummaryText.namesUnsaid("Joining the three layers gives a deeper network."))
        XCTAssertFalse(TopicSummaryText.namesUnsaid("A network has three layers: input, hidden and output."))
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "Chemistry 201, lecture 3: covalent bonds", objectives: [], passages: lecture("Atoms share electrons.")),
                       "The lecture is about covalent bonds.")
    }
    /// A lecture's summary says nothing the speaker corrected halfway, pointed at on the board or
    /// worked out on an example's symbols, and "defines" only what its speech says what it is.
    func testALecturesSummaryHasNoCorrectedLineNorWorkingAndDefinesOnlyWhatItSaysWhatItIs() throws {
        // On the course: no summary after its lead keeps a sentence that starts over or narrates the working.
        let lectures = try mechanics().units.flatMap(\.topics).filter { $0.summaryOrigin == .offline && $0.passages.contains { $0.kind == .transcript } }
        for topic in lectures where topic.summary.hasPrefix("The lecture ") || topic.summary.hasPrefix("A worked example") {
            for sentence in SentenceSplitter.split(topic.summary).map(\.text) where !sentence.hasPrefix("The lecture ") && !sentence.hasPrefix("A worked example") {
                XCTAssertFalse(SpokenSentences.correctsItself(sentence), "\(topic.title): \(sentence)")
                XCTAssertFalse(sentence.hasPrefix("There was "), "\(topic.title): \(sentence)")
            }
        }
        // Generated speech: a sentence started over, a pointer at the board, lines of working.
        for line in ["There could be static friction may act.", "Torque is if there's a force acting on the particle.",
                     "The second term is due to the spin of the wheel.", "There was no initial vertical component of the momentum.",
                     "The potential energy goes off to zero as x goes to infinity.", "The units of alpha are newtons per metre per second.",
                     "Because when the engine stops, the rocket still rises for a while.", "The first picture will have the spring at rest."] {
            XCTAssertNil(SpokenSentences.written(sentence: line, reading: .statements, opening: false), line)
        }
        // Statements that stand alone stay: two clauses joined, a given introduced, a component named.
        for line in ["The ball could roll, or it may slide down the slope.", "A block of mass m slides down a rough ramp at constant speed.",
                     "The acceleration is the derivative of the x component of velocity with respect to time.",
                     "Because the wheel speeds up, there is a tangential component to its acceleration."] {
            XCTAssertEqual(SpokenSentences.written(sentence: line, reading: .statements, opening: false), line)
        }
        func lecture(_ text: String) -> [Passage] {
            [Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .transcript, sectionPath: ["Lecture"], tokenCount: 60)]
        }
        // Named in passing is not defined; said what it is, is.
        XCTAssertFalse(TopicSummaryText.defines("differential analysis", lecture("Next time we will use a method called differential analysis.")))
        XCTAssertFalse(TopicSummaryText.defines("rolling resistance", lecture("The wheel slows down. This is called rolling resistance.")))
        XCTAssertTrue(TopicSummaryText.defines("torque", lecture("We define the torque as the cross product of r and F.")))
        XCTAssertTrue(TopicSummaryText.defines("kinetic energy", lecture("So kinetic energy is defined as one half m v squared.")))
        XCTAssertTrue(TopicSummaryText.defines("acceleration", lecture("The rate of change of velocity is called acceleration.")))
        XCTAssertTrue(TopicSummaryText.defines("uniform circular motion", lecture("We refer to this case as uniform circular motion.")))
        // What the speech only names is said as talked about, beside what else the lecture does.
        XCTAssertEqual(TopicSummaryText.lectureLead(title: "9.9 Wheels", objectives: ["Define rolling resistance", "Apply the work-energy theorem"],
                                                    passages: lecture("The wheel slows down. This is called rolling resistance.")),
                       "The lecture talks about rolling resistance and applies the work-energy theorem.")
    }
}
