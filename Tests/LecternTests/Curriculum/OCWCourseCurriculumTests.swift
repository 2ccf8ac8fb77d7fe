import Foundation
import XCTest
@testable import Lectern

/// An OCW course as a curriculum, on a generated course JSON of two weeks: each week's overview
/// page (a list of its lessons) opens the week's first lesson instead of being a topic of its
/// own, and the course description is the curriculum's summary (`curriculum show`, UMCF).
final class OCWCourseCurriculumTests: CommandTestCase {
    func lectern(_ arguments: String...) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    static let description = "This first course in physics introduces classical mechanics: space, time, mass, force and momentum, "
        + "and how they explain the motion of the planets."

    static func coursePage(_ uid: String, parent: String, order: Int, title: String, text: String) -> [String: String] {
        ["uid": uid, "parent_uid": parent, "order_index": String(order), "title": title, "type": "CourseSection",
         "url": "/courses/physics/tiny-mechanics/pages/\(uid)", "text": text]
    }

    static func lesson(_ subject: String) -> String {
        // Long enough (some 400 words) to fill passages of its own.
        (1...20).map { "<p>In this lesson about \(subject) we work through example \($0) step by step, with every quantity named and measured.</p>" }
            .joined()
    }

    func writeCourse() throws -> String {
        let pages = [
            Self.coursePage("w1", parent: "c1", order: 1, title: "Week 1: Kinematics",
                            text: "<p>Week 1: Kinematics</p><p>Lesson 1: Position and Velocity</p><p>1.1 Position Vector</p><p>1.2 Average Velocity</p>"),
            Self.coursePage("l11", parent: "w1", order: 2, title: "1.1 Position Vector", text: Self.lesson("position")),
            Self.coursePage("l12", parent: "w1", order: 3, title: "1.2 Average Velocity", text: Self.lesson("velocity")),
            Self.coursePage("w2", parent: "c1", order: 4, title: "Week 2: Forces",
                            text: "<p>Week 2: Forces</p><p>Lesson 4: Newton's Laws</p><p>4.1 Newton's First Law</p><p>4.2 Static Friction</p>"),
            Self.coursePage("l41", parent: "w2", order: 5, title: "4.1 Newton's First Law", text: Self.lesson("inertia")),
            // A "Lesson 4" page that only repeats the week's list of lessons: no lesson either.
            Self.coursePage("s4", parent: "w2", order: 5, title: "Lesson 4: Newton's Laws",
                            text: "<p>Week 2: Forces</p><p>Lesson 4: Newton's Laws</p><p>4.1 Newton's First Law</p><p>4.2 Static Friction</p>"),
            Self.coursePage("l42", parent: "w2", order: 6, title: "4.2 Static Friction", text: Self.lesson("friction")),
        ]
        let course: [String: Any] = ["title": "Tiny Mechanics", "uid": "c1", "short_url": "tiny-mechanics",
                                     "url": "/courses/physics/tiny-mechanics", "description": "<p>\(Self.description)</p>", "course_pages": pages]
        let path = folder.file("tiny-mechanics_parsed.json").path
        try JSONSerialization.data(withJSONObject: course).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testWeekOverviewsOpenTheirUnitAndTheDescriptionIsTheSummary() throws {
        let course = try writeCourse()
        XCTAssertEqual(try lectern("ingest", course, "--embedder", "hashing").status, 0)
        XCTAssertEqual(try lectern("curriculum", "build", "mech", course).status, 0)
        let curriculum = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern("curriculum", "show", "mech", "--json").stdout.utf8))
        XCTAssertEqual(curriculum.units.map(\.title), ["Week 1: Kinematics", "Week 2: Forces"])
        XCTAssertEqual(curriculum.topics.map(\.title), ["1.1 Position Vector", "1.2 Average Velocity", "4.1 Newton's First Law", "4.2 Static Friction"],
                       "a week's overview page, and a lesson page repeating it, are no lessons")
        XCTAssertTrue(curriculum.topics[0].passages.contains { $0.text.contains("Lesson 1: Position and Velocity") },
                      "the overview opens the week's first lesson")
        XCTAssertEqual(curriculum.summary, Self.description)

        let shown = try lectern("curriculum", "show", "mech").stdout
        XCTAssertTrue(shown.contains(Self.description), shown)
        let umcf = try JSONSerialization.jsonObject(with: Data(try lectern("curriculum", "export", "mech", "--format", "umcf", "-o", "-").stdout.utf8))
        XCTAssertEqual((umcf as? [String: Any])?["description"] as? String, Self.description, "the UMCF document's description")
    }
}
