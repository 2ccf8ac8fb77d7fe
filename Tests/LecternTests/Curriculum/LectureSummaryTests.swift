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

    /// A sentence of the lecturer's plan or working, or of the credit line.
    static func isWorking(_ sentence: String) -> Bool {
        let openers = ["We'll", "We're", "We will", "We are going", "We would", "We want", "We'd", "We have", "We had", "Let's", "Let us",
                       "Remember", "I'll", "I'm", "I'd", "I want", "Our "]
        return openers.contains { sentence.hasPrefix($0) } || sentence.contains(" our ") || sentence.contains("Instructor:")
    }

    func testALecturesSummaryStatesWhatItTeachesNotTheWorkingAtTheBoard() throws {
        let lectures = try mechanics().units.flatMap(\.topics).filter { topic in
            topic.summaryOrigin == .offline && topic.passages.contains { $0.kind == .transcript }
        }
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
}
