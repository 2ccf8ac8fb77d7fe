import XCTest
@testable import Lectern

/// A lecture recording that is one section of a course (an OCW lecture page) is cut into
/// study-sized topics: where its subject shifts, and no part longer than a quarter of an hour.
final class RecordingPartsTests: XCTestCase {
    /// 40 minutes of lecture, one passage a minute: 24 minutes on friction, then 16 on
    /// springs. It becomes four parts of at most 15 minutes that hold every passage once, in
    /// order, each titled by the lecture and its number; a 10-minute recording stays whole.
    func testALongRecordingIsCutIntoStudySizedTopicsWhereItsSubjectShifts() {
        func passage(_ minute: Int, _ text: String) -> Passage {
            Passage(id: Int64(minute + 1), documentId: 1, ordinal: minute, text: text, kind: .transcript,
                         sectionPath: ["Week 2", "Friction and Springs"], pageStart: nil, pageEnd: nil, pageLabel: nil,
                         timeStart: Double(minute * 60), timeEnd: Double(minute * 60 + 60), tokenCount: 120)
        }
        let passages = (0..<40).map { minute in
            minute < 24 ? passage(minute, "The friction force on the block grows with the normal force, and static friction holds it until it slides.")
                : passage(minute, "The spring stretches in proportion to the force, and its constant k sets how stiff the oscillation is.")
        }
        var vectors: [Int64: [Float]] = [:]
        for (index, item) in passages.enumerated() {
            let wobble = Float(index % 3) * 0.01
            vectors[item.id] = index < 24 ? [1, wobble, 0, 0] : [0, 0, 1, wobble]
        }
        let lecture = TopicDraft(title: "Friction and Springs", identity: "ocw|Week 2/Friction and Springs", headings: [], passages: passages)
        let parts = CurriculumOutline.recordingParts(lecture, vectors: vectors)
        print(parts.map { "\($0.title): \(CurriculumOutline.duration($0.passages) / 60) min" })
        XCTAssertGreaterThanOrEqual(parts.count, 3, "40 minutes is more than two study sessions")
        XCTAssertEqual(parts.flatMap(\.passages).map(\.id), passages.map(\.id), "every passage once, in order")
        for (index, part) in parts.enumerated() {
            XCTAssertLessThanOrEqual(CurriculumOutline.duration(part.passages), CurriculumOutline.longestRecordingMinutes * 60, part.title)
            XCTAssertTrue(part.title.hasPrefix("Friction and Springs (\(index + 1)/\(parts.count))"), part.title)
            XCTAssertEqual(part.identity, lecture.identity + "#\(index + 1)")
        }
        XCTAssertFalse(parts.contains { part in part.passages.contains { $0.ordinal < 24 } && part.passages.contains { $0.ordinal >= 24 } },
                       "no part spans the shift from friction to springs")
        let short = TopicDraft(title: "Short", identity: "ocw|short", headings: [], passages: Array(passages.prefix(10)))
        XCTAssertEqual(CurriculumOutline.recordingParts(short, vectors: vectors).map(\.title), ["Short"], "ten minutes is one topic")
    }
}
