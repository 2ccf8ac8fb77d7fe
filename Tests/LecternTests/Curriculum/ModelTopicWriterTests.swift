import XCTest
@testable import Lectern

/// What the topic writer keeps of a model's answer. (The writer against the real local model
/// runs in CurriculumModelTests, through the curriculum builder.)
final class ModelTopicWriterTests: XCTestCase {
    let material = ["""
        The Calvin cycle, also called the light-independent reactions, takes place in the stroma. It uses the ATP \
        and NADPH made in the thylakoids to fix carbon dioxide into sugar. The enzyme rubisco attaches CO₂ to \
        ribulose bisphosphate.
        """]

    /// Answers Gemma 3 270M gave on the project's notes: an echo of the instructions and a run
    /// of numbers are dropped; a title and objectives about the text are kept as written.
    func testATitleOrObjectiveNotAboutTheTextIsDropped() {
        let answer = ModelTopicWriter.Written(title: "The Calvin cycle", objectives: [
            "Describe or define the lesson's own subject",
            "Analyse 101, 102, 103, 104, 105, 106, 107, 108",
            "Explain how rubisco fixes carbon dioxide in the stroma",
            "Describe the photosynthesis of a real-world problem",
        ])
        let kept = ModelTopicWriter.grounded(answer, in: material)
        XCTAssertEqual(kept.title, "The Calvin cycle")
        XCTAssertEqual(kept.objectives, ["Explain how rubisco fixes carbon dioxide in the stroma"])

        let offTopic = ModelTopicWriter.grounded(.init(title: "Learning objectives of a lesson", objectives: []), in: material)
        XCTAssertEqual(offTopic.title, "", "a title in the instructions' words only is not about the text")
    }
}
