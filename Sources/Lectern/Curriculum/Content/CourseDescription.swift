import Foundation

/// A course's own description where its source gives one: the text of its top-level "Course
/// Description" section (the first page an OCW course is read into). It is the curriculum's
/// summary, marked as the source's by where it comes from; no offline method writes one.
enum CourseDescription {
    /// Top-level section titles (normalised) that hold a course's description.
    static let headings: Set<String> = ["course description", "course overview", "about this course", "description"]

    /// The description's sentences in order, each once (passages overlap by whole sentences);
    /// nil when the source has no such section or it says fewer than 8 words.
    static func text(in passages: [Passage]) -> String? {
        let described = passages.filter { passage in
            passage.sectionPath.first.map { headings.contains(CurriculumOutline.normalised($0)) } ?? false
        }
        var seen: Set<String> = []
        var sentences: [String] = []
        for passage in described {
            for sentence in SentenceSplitter.split(TextCleanup.collapseWhitespace(passage.text)).map(\.text) where seen.insert(sentence).inserted {
                sentences.append(sentence)
            }
        }
        let text = sentences.joined(separator: " ")
        return text.split(whereSeparator: \.isWhitespace).count >= 8 ? text : nil
    }
}
