import XCTest
@testable import Lectern

/// Terms a text names in forms other than a book's "X is a Y that …" make a topic's own
/// objectives: a lecture's "what we call the center of mass", "we call this force a conservative
/// force", and German notes' "Dann heißt ϕ eine Isometrie". Generated captions and sentences,
/// hashing embedder: a second or two.
final class NamedTermObjectivesTests: XCTestCase {
    func testTermsALecturerNamesBecomeTheTopicsObjectives() throws {
        let lines = [
            "- Today we look at a system of many particles.",
            "Each particle has a mass and a position vector.",
            "If we weight every position by its mass and divide by the total mass, we get a point that is what we call the center of mass.",
            "The center of mass moves as if all the mass were there.",
            "For a rigid body the center of mass stays fixed in the body.",
            "Now some forces do work that does not depend on the path.",
            "When the work around every closed path is zero, we call this force a conservative force.",
            "Gravity is a conservative force, and so is the spring force.",
            "Friction is not: the work it does depends on the path taken.",
        ]
        let topics = try Self.lectureTopics(lines, file: "week_5_take2.srt")
        let objectives = topics.flatMap(\.objectives).map(\.statement)
        XCTAssertTrue(objectives.contains("Define center of mass and conservative force"), "\(objectives)")
        XCTAssertTrue(topics.flatMap(\.objectives).allSatisfy { $0.origin == .offline })

        XCTAssertEqual(OfflineObjectives.named(in: ["And this is what we call the coefficient of kinetic friction.",
                                                     "And so we call it a fictitious force.",
                                                     "We define the kinetic energy as one half m v squared.",
                                                     "That's what we call it."]),
                       ["coefficient of kinetic friction", "fictitious force", "kinetic energy"])
    }

    func testGermanNotesDefineTheirTermsWithHeisst() {
        let sentences = [
            "Definition 9 Seien (X, dX) und (Y, dY) metrische Räume und ϕ : X → Y eine Abbildung. Dann heißt ϕ eine Isometrie von X nach Y.",
            "Dann heißt d die diskrete Metrik.",
            "Ein topologischer Raum X heißt hausdorffsch, wenn es für je zwei Punkte Umgebungen gibt.",
            "x ∈ X heißt Grenzwert oder Limes von (xn), wenn es für jede Umgebung U von x ein n0 gibt.",
            "Dann heißt es so.",
            // "heißt genau dann eine Geometrie, wenn …": an if-and-only-if definition.
            "Das Tripel (X, d, G) heißt genau dann eine Geometrie, wenn (X, d) ein metrischer Raum ist.",
        ]
        XCTAssertEqual(OfflineObjectives.heisst(in: sentences), ["Isometrie", "diskrete Metrik", "hausdorffsch", "Grenzwert", "Geometrie"])
        let passage = Passage(id: 1, documentId: 1, ordinal: 0, text: sentences.joined(separator: " "), kind: .text, sectionPath: ["1.2 Metrische Räume"], tokenCount: 90)
        let objectives = OfflineObjectives.objectives(keyTerms: [], passages: [passage])
        XCTAssertTrue(objectives.contains("Define Isometrie, diskrete Metrik and hausdorffsch"), "\(objectives)")
    }

    /// A term a lecture names once on the way ("another name for it", "other kinds … called") is
    /// no objective of the lecture: only what it defines and keeps talking about.
    func testATermNamedOnceInPassingIsNoObjective() throws {
        let lines = [
            "- Today we look at how heat moves through a metal rod.",
            "Heat flows from the hot end to the cold end, and what we call thermal conduction is that flow through the solid.",
            "Thermal conduction needs no motion of the metal itself.",
            "The faster the atoms jiggle, the faster thermal conduction carries the heat along.",
            "In a liquid there is also the flow of the warm fluid itself, also called natural convection, but not in a rod.",
            "There are other kinds of heat transfer called radiative exchange, which we will not cover here.",
            "So for the rod, thermal conduction is the whole story, and the rod's far end warms up slowly.",
        ]
        let objectives = try Self.lectureTopics(lines, file: "heat_take1.srt").flatMap(\.objectives).map(\.statement)
        XCTAssertTrue(objectives.contains { $0.hasPrefix("Define") && $0.contains("thermal conduction") }, "\(objectives)")
        XCTAssertFalse(objectives.contains { $0.contains("natural convection") || $0.contains("radiative exchange") }, "\(objectives)")

        // Its title names it: one use is the subject, not a side term.
        XCTAssertTrue(OfflineObjectives.weighty("radiative exchange", textWords: TermMatcher.stems(lines.joined(separator: " ")),
                                                titleWords: TermMatcher.stems("Radiative Exchange Between Plates")))
        XCTAssertFalse(OfflineObjectives.weighty("radiative exchange", textWords: TermMatcher.stems(lines.joined(separator: " ")), titleWords: []))
    }

    /// The topics of a curriculum built from one subtitle file of `lines`, six seconds a line
    /// (hashing embedder, extractive summaries).
    static func lectureTopics(_ lines: [String], file: String) throws -> [Topic] {
        let folder = try TemporaryFolder()
        try folder.write("lectures/\(file)", lines.enumerated().map { index, line in
            "\(index + 1)\n" + String(format: "00:00:%02d,000 --> 00:00:%02d,000", index * 6, index * 6 + 6) + "\n" + line
        }.joined(separator: "\n\n") + "\n")
        let store = try LibraryStore(path: folder.file("library.db").path)
        XCTAssertEqual(Ingestor(store: store, embedder: HashingEmbedder()).ingest([folder.file("lectures").path], recorder: nil) { _ in }.stored, 1)
        _ = try CurriculumBuilder(store: store, summarizer: ExtractiveSummarizer())
            .build(name: "lectures", sources: [folder.file("lectures").path], recorder: nil) { _ in }
        return try XCTUnwrap(try store.curriculum(named: "lectures")).topics
    }
}
