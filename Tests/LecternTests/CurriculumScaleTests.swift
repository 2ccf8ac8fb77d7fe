import Foundation
import XCTest
@testable import Lectern

/// A curriculum of many small topics is built in time proportional to its passages: a unit's
/// key phrases are counted once for all its topics (a unit of 1,000 one-passage topics counted
/// its 1,000 passages for each topic, 10⁶ passages a unit and 10⁸ for a library of 100,000
/// passages). Counted in passages read, not timed.
final class CurriculumScaleTests: XCTestCase {
    func topics(_ count: Int) -> [Topic] {
        (0..<count).map { index in
            let text = "The river of part \(index) floods each spring and leaves silt on the fields around the village of \(index % 7 == 0 ? "Ashford" : "Brook"). "
                + "Farmers plough the silt in and sow barley when the water goes down; the mill by the \(index % 3 == 0 ? "weir" : "ford") grinds it in autumn, and children fish there in summer."
            let passage = Passage(id: Int64(index + 1), documentId: 1, ordinal: index, text: text, kind: .text, sectionPath: ["Rivers", "Part \(index)"],
                                  tokenCount: 40)
            return Topic(stableId: "t\(index)", title: "Part \(index)", summary: "", summaryOrigin: .offline, objectives: [],
                         keyTerms: [], studyMinutes: 1, passages: [passage], prerequisites: [])
        }
    }

    func testAUnitsKeyPhrasesAreCountedOnceForAllItsTopics() {
        var topics = topics(300)
        // Two units: the first 100 topics and the other 200.
        let units = topics.indices.map { $0 < 100 ? 0 : 1 }
        let counted = CurriculumBuilder.describeKeyPhrasesWhereAUnitHasNoObjectives(&topics, units: units)
        XCTAssertEqual(counted, 300, "a unit's passages were counted once per topic")
        // What a user reads: each topic's objective names its phrases against its own unit, as
        // when every topic counted its unit alone.
        let fresh = self.topics(300)
        for index in [0, 7, 99, 100, 150, 299] {
            let unit = fresh.indices.filter { units[$0] == units[index] }.flatMap { fresh[$0].passages }
            let expected = TopicContent.keyPhraseObjective(passages: fresh[index].passages, background: unit)
            XCTAssertNotNil(expected)
            XCTAssertEqual(topics[index].objectives.map(\.statement), [expected!], "topic \(index)")
        }
    }
}
