import XCTest
@testable import Lectern

/// What a learner is told to learn in a topic whose text states no objective of its own: its
/// unit's objectives about this topic's text, not the unit's first six (graded by hand, a
/// centre-of-mass page carried the momentum objectives of the lesson before it); and offline
/// objectives never define an everyday word nor describe key phrases. Generated topics: instant.
final class InheritedObjectivesTests: XCTestCase {
    let ids = ["momentum": 1, "center": 2, "extended": 3, "lab": 4]

    func topic(_ id: String, _ text: String, objectives: [String] = []) -> Topic {
        Topic(stableId: id, title: id, summary: "", summaryOrigin: .offline,
              objectives: objectives.map { LearningObjective(stableId: id + "-" + $0, statement: $0, origin: .offline) },
              keyTerms: [], studyMinutes: 1,
              passages: [Passage(id: Int64(ids[id] ?? 0), documentId: 1, ordinal: ids[id] ?? 0, text: text, kind: .text, sectionPath: [id], tokenCount: 60)],
              prerequisites: [])
    }

    func testATopicInheritsOnlyTheObjectivesOfItsUnitAboutItsText() throws {
        let unit = CurriculumUnit(stableId: "u", title: "Week 7", topics: [
            topic("momentum", "Momentum is mass times velocity. The impulse of a force changes the momentum. Momentum is conserved when no external force acts, "
                  + "and impulse is force times the time it acts.",
                  objectives: ["Define momentum, impulse and force", "Apply the law of conservation of momentum"]),
            topic("center", "The center of mass of two particles lies on the line between them. The center of mass moves as if all the mass were there; "
                  + "a force on the system accelerates the center of mass.",
                  objectives: ["Define center of mass"]),
            topic("extended", "To find the center of mass of an extended object, cut it into small pieces and weight each position by its mass. "
                  + "For a uniform rod the center of mass is at its middle, and the center of mass of a square plate at its centre; "
                  + "the rod's momentum is its mass times the speed of that point."),
            topic("lab", "The laboratory where these measurements were made opened in 1911 and still stands beside the river."),
        ])
        let curriculum = Curriculum(name: "m", title: "Mechanics", stableId: "c-m", sources: [], units: [unit],
                                    createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0))
        let nodes = try XCTUnwrap(UMCFExporter().document(curriculum).content.first?.children?.first?.children)
        func objectives(_ title: String) -> [String] { nodes.first { $0.title == title }?.learningObjectives?.map(\.statement) ?? [] }

        // The centre-of-mass page gets the centre-of-mass objective, not momentum's (said once, in passing).
        XCTAssertEqual(objectives("extended"), ["Define center of mass"])
        // A topic none of them is about gets the unit's overall objective (the one most of its topics are about), marked inherited.
        XCTAssertEqual(objectives("lab"), ["Define center of mass"])
        XCTAssertEqual(nodes.first { $0.title == "lab" }?.learningObjectives?.compactMap(\.id.catalog), [UMCFExporter.inheritedCatalog])
        // Topics with their own keep them.
        XCTAssertEqual(objectives("momentum"), ["Define momentum, impulse and force", "Apply the law of conservation of momentum"])

        // An offline "Define A, B and C" is narrowed to the terms the topic uses substantively:
        // three times, not twice in a remark ("momentum" here).
        let words = TermMatcher.stems("Impulse is what a kick gives. The impulse equals the force times the time; a larger force gives more impulse. "
                                      + "A force acting longer gives more impulse too, and the momentum changes: that momentum is the next lesson's.")
        let define = LearningObjective(stableId: "d", statement: "Define momentum, impulse and force", origin: .offline)
        XCTAssertEqual(InheritedObjectives.concern(define, words: words), "Define impulse and force")
    }

    /// A lesson about one thing under its unit's subject says the subject's words often, but the
    /// unit's "Define" of that subject is not what it teaches: its title's subject stands in.
    func testALessonAboutOneThingUnderTheSubjectDoesNotInheritTheSubject() {
        func lesson(_ title: String, _ text: String) -> Topic {
            Topic(stableId: title, title: title, summary: "", summaryOrigin: .offline, objectives: [], keyTerms: [], studyMinutes: 1,
                  passages: [Passage(id: 9, documentId: 1, ordinal: 9, text: text, kind: .transcript, sectionPath: [title], tokenCount: 90)],
                  prerequisites: [])
        }
        let define = LearningObjective(stableId: "h", statement: "Define heat capacity", origin: .offline)
        let phases = lesson("Phase Changes of Water", "When ice melts, the phase changes while the temperature stays put. The heat capacity "
                            + "tells us how much the temperature rises per joule, but during phase changes of water the heat goes into "
                            + "breaking bonds instead, so the heat capacity is no help there. After the phase change, the heat capacity "
                            + "of liquid water applies again.")
        XCTAssertEqual(InheritedObjectives.objectives(for: phases, candidates: [define]) { define }.map(\.statement), [])
        XCTAssertEqual(OfflineObjectives.titleSubject(phases.title, passages: phases.passages), "Describe phase changes of water")
        // A lesson whose title names the subject keeps it.
        let metals = lesson("Heat Capacity of Metals", "The heat capacity of a metal block is small: the heat capacity of copper is less "
                            + "than that of water, so a copper pan warms quickly. Metals differ, and the heat capacity grows with the mass.")
        XCTAssertEqual(InheritedObjectives.objectives(for: metals, candidates: [define]) { define }.map(\.statement), ["Define heat capacity"])
    }

    func testOfflineObjectivesDefineNoEverydayWord() {
        let text = "The output of the pipeline is a list of labels with their scores. We call this the output. "
            + "A fill mask pipeline is a pipeline that fills in the masked word of a sentence. The fill mask pipeline returns the likeliest words. "
            + "The output is a dictionary."
        let passage = Passage(id: 1, documentId: 1, ordinal: 0, text: text, kind: .transcript, sectionPath: ["The pipeline function"], tokenCount: 70)
        let keyTerms = TopicContent.keyTerms(in: [passage])
        let objectives = OfflineObjectives.objectives(keyTerms: keyTerms, passages: [passage])
        XCTAssertFalse(objectives.contains { $0.hasPrefix("Define") && $0.contains("output") }, "\(objectives)")
        XCTAssertTrue(objectives.contains { $0.hasPrefix("Define") && $0.contains("fill mask pipeline") }, "\(objectives)")
    }
}
