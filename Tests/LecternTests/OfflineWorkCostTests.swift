import Foundation
import XCTest
@testable import Lectern

/// The offline steps a whole book or course runs through for every topic stay quick in the debug
/// build that `make test` and `make demo` run: the offline objectives match a handful of fixed
/// patterns against every sentence of a topic. Timed in this thread's CPU seconds, which a
/// loaded machine changes little; the bound is several times what the step takes now and a
/// tenth of what it took before.
final class OfflineWorkCostTests: XCTestCase {
    /// CPU seconds this thread spent running `body`.
    func threadSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }

    /// A sentence of `count` words drawn from a vocabulary of made-up words.
    func sentence(_ count: Int, _ random: inout TestRandom) -> String {
        (0..<count).map { _ in "w\(Int.random(in: 0..<5_000, using: &random))" }.joined(separator: " ")
    }

    /// A topic of 2,000 sentences gets its objectives in under a second of CPU: 0.26 s (debug
    /// build, load ~20), where compiling each pattern again for every sentence took 9.7 s.
    func testObjectivesOfATopicOfTwoThousandSentencesTakeUnderASecond() {
        var random = TestRandom.seeded()
        // 40 passages of 50 sentences; the first says what the objective is about, twice.
        let passages = (0..<40).map { index in
            var text = index == 0 ? "There are three types of collisions in this course. Collisions keep momentum. " : ""
            for _ in 0..<50 { text += "Then " + sentence(10, &random) + ". " }
            return CardQualityTests.passage(Int64(index + 1), text)
        }
        var objectives: [String] = []
        let seconds = threadSeconds { objectives = OfflineObjectives.objectives(keyTerms: [], passages: passages) }
        print(String(format: "objectives of 2,000 sentences: %.2f s of CPU: ", seconds) + "\(objectives)")
        XCTAssertEqual(objectives, ["Identify the three types of collisions"], random.replay)
        XCTAssertLessThan(seconds, 1, "the objectives of a 2,000-sentence topic took \(seconds) s of CPU")
    }
}
