import XCTest
@testable import Lectern

/// Objectives that fit their topic (issue #31, item 2): a law a course applies in lesson after
/// lesson is an objective of one lesson only with what that lesson does with it, a rule a
/// lecture only names is not "defined", a unit without objectives describes the subject each
/// topic's title names before its key phrases, and a title of one word or one part of a lecture
/// names its subject where the text keeps to it. Generated topics (instant), then OCW 8.01SC
/// (SharedCorpusLibrary's process-wide library).
final class FittingObjectivesTests: XCTestCase {
    func passage(_ text: String, kind: PassageKind = .transcript, id: Int64 = 1) -> Passage {
        Passage(id: id, documentId: 1, ordinal: Int(id), text: text, kind: kind, sectionPath: [], tokenCount: 80)
    }

    func topic(_ title: String, _ text: String, objectives: [String], titleOrigin: ContentOrigin? = nil) -> Topic {
        Topic(stableId: title, title: title, summary: "", summaryOrigin: .offline,
              objectives: objectives.map { LearningObjective($0, origin: .offline, topicId: title) }, keyTerms: [], studyMinutes: 1,
              passages: [passage(text, kind: .text)], prerequisites: [], titleOrigin: titleOrigin)
    }

    func testARuleTakesWhatTheLectureAppliesItTo() {
        func objectives(_ text: String) -> [String] {
            let passages = [passage(text)]
            return OfflineObjectives.objectives(keyTerms: TopicContent.keyTerms(in: passages), passages: passages)
        }
        // What the rule is used for, said as a clause the learner can do.
        let balloon = objectives("The balloon grows as we pump air into it. So we use the chain rule to relate the two rates. "
                                 + "The chain rule gives the rate at which the radius grows.")
        XCTAssertTrue(balloon.contains("Use the chain rule to relate the two rates"), "\(balloon)")
        XCTAssertFalse(balloon.contains("Apply the chain rule"), "\(balloon)")
        // What it is applied to.
        let spring = objectives("Now we apply Hooke's law to the spring. Hooke's law says the force grows with the stretch.")
        XCTAssertTrue(spring.contains("Apply Hooke's law to the spring"), "\(spring)")
        // A principle the lecture explains by applying it.
        let cart = objectives("We would now like to apply the momentum principle to analyze the motion of the cart. "
                              + "The momentum principle says the external force changes the momentum of the system.")
        XCTAssertTrue(cart.contains("Use the momentum principle to analyze the motion of the cart"), "\(cart)")
        XCTAssertFalse(cart.contains("Explain the momentum principle"), "\(cart)")
        // Pointing at the board says nothing: the rule stays as it is named.
        let board = objectives("We apply the chain rule to this. And the chain rule gives us that, here.")
        XCTAssertTrue(board.contains("Apply the chain rule"), "\(board)")
        XCTAssertFalse(board.contains { $0.contains(" to this") }, "\(board)")
        // A rule a set-up lecture names is not defined: "which is called the rocket equation".
        let setUp = objectives("We add up the momentum before and after the fuel leaves. That leads to a differential equation, "
                               + "which is called the rocket equation. What we call the exhaust velocity is the speed of the fuel relative to the rocket.")
        XCTAssertFalse(setUp.contains { $0.hasPrefix("Define") && $0.contains("equation") }, "\(setUp)")
        // The lecture that derives it teaches the derivation.
        let derived = objectives("The momentum of the rocket and its fuel changes only by the external force. So this equation here is called "
                                 + "the rocket equation, which we've derived from the momentum principle.")
        XCTAssertTrue(derived.contains("Derive the rocket equation"), "\(derived)")
        // And the one whose text states it, stating it.
        let stated = objectives("The parallel axis theorem is the rule that the moment of inertia about any axis is the moment about the parallel axis "
                                + "through the center of mass plus the mass times the distance squared.")
        XCTAssertTrue(stated.contains("State the parallel axis theorem"), "\(stated)")
    }

    func testALawTheCourseAppliesThroughoutIsNoObjectiveOfOneLessonAlone() {
        let law = "Apply Newton's second law"
        var topics = [
            topic("Newton's Second Law", "Newton's second law relates the net force on a body to its acceleration.", objectives: [law]),
            topic("Block on a Ramp", "A block on a ramp slides down. We write Newton's second law along the ramp for the block.", objectives: [law]),
            topic("Torques Cancel in Pairs", "The internal torques cancel, as the forces come in pairs: Newton's second law for each particle, summed, leaves the external torque.",
                  objectives: [law]),
            topic("Tension", "The tension pulls along the rope. Newton's second law for each piece of the rope gives the tension.",
                  objectives: ["Define tension", law]),
            topic("Summary", "Newton's second law again, and the week's problems.", objectives: [law]),
            topic("Rockets", "The rocket equation follows from the momentum principle; we apply the rocket equation to a launch.",
                  objectives: ["Apply the rocket equation"]),
            topic("Rocket Launch", "The rocket equation again gives the speed of the rocket at burnout.", objectives: ["Apply the rocket equation"]),
        ]
        GenericRules.specialise(&topics, units: [0, 1, 1, 2, 3, 4, 4])
        let objectives = Dictionary(topics.map { ($0.title, $0.objectives.map(\.statement)) }, uniquingKeysWith: { first, _ in first })
        // The lesson that teaches the law keeps it.
        XCTAssertEqual(objectives["Newton's Second Law"], [law])
        // A lesson whose only objective it was applies it to the subject its title names.
        XCTAssertEqual(objectives["Block on a Ramp"], ["Apply Newton's second law to the block on a ramp"])
        // Not to a title that is a sentence the text does not say as a phrase.
        XCTAssertEqual(objectives["Torques Cancel in Pairs"], [])
        // Beside what the lesson teaches it goes, and a title that names no subject leaves nothing.
        XCTAssertEqual(objectives["Tension"], ["Define tension"])
        XCTAssertEqual(objectives["Summary"], [])
        // A rule of one unit is that unit's subject: it stays.
        XCTAssertEqual(objectives["Rocket Launch"], ["Apply the rocket equation"])
    }

    func testAUnitWithoutObjectivesDescribesTheSubjectsItsTitlesName() {
        let trade = "Merchants carried silk, spices and paper along the caravan trade routes for centuries. Caravans stopped in oasis towns such as Samarkand, "
            + "where goods changed hands many times before they reached the Mediterranean. Ideas travelled with them: Buddhism reached China "
            + "with the caravan trade, and papermaking reached the Islamic world after the battle of Talas."
        let plague = "The plague spread west along the same caravan routes in the fourteenth century. Ports on the Black Sea passed it to Genoese "
            + "ships, and within a few years a third of Europe had died; towns emptied and wages rose for those who were left."
        var topics = [topic("The Caravan Trade", trade, objectives: []), topic("caravan routes and plague", plague, objectives: [], titleOrigin: .offline)]
        CurriculumBuilder.describeKeyPhrasesWhereAUnitHasNoObjectives(&topics, units: [0, 0])
        XCTAssertEqual(topics[0].objectives.map(\.statement), ["Describe the caravan trade"])
        // A title made from the text's own key phrases gives no subject.
        XCTAssertFalse(topics[1].objectives.contains { $0.statement == "Describe caravan routes and plague" })
    }

    func testARebuildThatKeepsTopicsGivesTheObjectivesAFreshBuildGives() {
        let oasis = "Oasis towns grew rich on the caravan trade. Samarkand's markets sold horses and glass, and the caravan trade "
            + "paid for its mosques; oasis towns without water lost their caravans to the next well."
        func unit() -> [Topic] {
            [topic("Paper", "Paper is a sheet made from pressed plant fibres. Papermaking reached Samarkand from China.", objectives: ["Define paper"]),
             topic("The Caravan Trade", "The caravan trade carried silk and spices west. The caravan trade crossed deserts from well to well.", objectives: []),
             topic("Oasis Towns", oasis, objectives: [])]
        }
        var fresh = unit()
        CurriculumBuilder.completeObjectives(&fresh, units: [0, 0, 0])
        XCTAssertEqual(fresh[1].objectives.map(\.statement), ["Describe the caravan trade"])
        XCTAssertEqual(fresh[2].objectives.map(\.statement), ["Describe oasis towns"])
        XCTAssertEqual(fresh[1].objectives.map(\.standIn), [true])
        // The first two kept as stored, the third made again (its document changed).
        var rebuilt = [fresh[0], fresh[1], unit()[2]]
        CurriculumBuilder.completeObjectives(&rebuilt, units: [0, 0, 0])
        XCTAssertEqual(rebuilt.map { $0.objectives.map(\.statement) }, fresh.map { $0.objectives.map(\.statement) })
    }

    func testATitleOfOneWordOrOnePartNamesItsSubjectWhereTheTextKeepsToIt() {
        let limits = [passage("The limit of a sequence is the number its terms approach. A limit need not be reached; every convergent sequence has one limit.",
                              kind: .text)]
        XCTAssertEqual(OfflineObjectives.titleSubject("3 Limits", passages: limits), "Describe limits")
        XCTAssertNil(OfflineObjectives.titleSubject("3 Limits", passages: [passage("A sequence may have a limit.", kind: .text)]))
        // A German noun made from the adjective the text uses: "stetig" of "Stetigkeit".
        let stetig = [passage("Eine Abbildung f heißt stetig, wenn Urbilder offener Mengen offen sind. Jede konstante Abbildung ist stetig. "
                              + "Die Verkettung stetiger Abbildungen ist stetig.", kind: .text)]
        XCTAssertEqual(OfflineObjectives.titleSubject("1.3 Stetigkeit", passages: stetig), "Describe Stetigkeit")
        // One part of a lecture, named after its problem: the part's own name.
        let lever = [passage("The mechanical advantage of a lever is the ratio of the load to the effort. A longer arm gives a larger mechanical advantage.",
                             kind: .text)]
        XCTAssertEqual(OfflineObjectives.titleSubject("4.2 Lever Problem - Part II, Mechanical Advantage", passages: lever), "Describe mechanical advantage")
        // A kind of thing named by an -ing word, which the text says; an activity is no subject.
        let top = [passage("A spinning top on a table precesses about the vertical. The spinning top's angular momentum changes with the torque of gravity.",
                           kind: .text)]
        XCTAssertEqual(OfflineObjectives.titleSubject("Spinning Top on a Table", passages: top), "Describe spinning top on a table")
        XCTAssertNil(OfflineObjectives.titleSubject("Becoming a Teacher", passages: [passage("Becoming a teacher takes a teacher's training.", kind: .text)]))
    }

    func testMechanicsLessonsApplyTheCoursesLawsToWhatTheyTeach() throws {
        let corpus = try TestPaths.sharedCorpus()
        let course = try SharedCorpusLibrary.load().curriculum("mechanics", sources: [corpus.appendingPathComponent("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json").path])
        let topics = course.units.flatMap(\.topics)
        // Newton's second law is named in 12 of the course's 13 units: a lesson has it bare only
        // where its title names it, and several say what they apply it to.
        let bare = topics.filter { $0.objectives.contains { $0.statement == "Apply Newton's second law" } }.map(\.title)
        XCTAssertTrue(bare.allSatisfy { $0.lowercased().contains("second law") || $0.lowercased().contains("2nd law") }, "\(bare)")
        let applied = topics.flatMap(\.objectives).map(\.statement).filter { $0.contains("Newton's second law to ") }
        XCTAssertGreaterThanOrEqual(applied.count, 5, "\(applied)")
        // No rule a lecture names is "defined" ("which is called the rocket equation").
        let defined = topics.flatMap(\.objectives).map(\.statement).filter { statement in
            statement.hasPrefix("Define ") && InheritedObjectives.terms(of: String(statement.dropFirst(7))).contains {
                OfflineObjectives.ruleHeads.contains($0.split(separator: " ").last.map { $0.lowercased() } ?? "")
            }
        }
        XCTAssertEqual(defined, [])
        // A task's quantity ends before its cause: not "Calculate the torque about the center of mass due".
        let cut = topics.flatMap(\.objectives).map(\.statement).filter { $0.hasSuffix(" due") || $0.hasSuffix(" acting") }
        XCTAssertEqual(cut, [])
    }
}
