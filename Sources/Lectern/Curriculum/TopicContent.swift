import Foundation

/// The content methods the builder calls (segmentation, merge similarity, key terms,
/// objectives, titles, study time, prerequisites), in one place: the builder depends on these
/// names only; each is one of Curriculum/Content's functions.
enum TopicContent {
    /// Where the subject shifts in consecutive passages: ranges of passage indices, in order.
    static func segments(vectors: [[Float]], tokenCounts: [Int]) -> [Range<Int>] {
        TopicSegmentation.segments(vectors: vectors, tokenCounts: tokenCounts)
    }

    /// The earlier topic a later source's topic joins (same subject by their passages'
    /// vectors, the nearest by their rarer words), and the level at which two topics of
    /// different sources are one subject.
    static func joinCandidate(for topic: TopicSimilarity.Profile, among candidates: [TopicSimilarity.Profile], threshold: Float,
                              weights: TopicSimilarity.WordWeights) -> (index: Int, similarity: Float)? {
        TopicSimilarity.bestCandidate(for: topic, among: candidates, threshold: threshold, weights: weights)
    }

    static func mergeThreshold(forEmbedder name: String) -> Float? { TopicSimilarity.mergeThreshold(forEmbedder: name) }

    /// Terms with their definitions: a glossary's own entries, else definition sentences.
    static func keyTerms(in passages: [Passage]) -> [KeyTerm] {
        KeyTermExtraction.keyTerms(in: passages)
    }

    /// The source's own learning objectives (an OpenStax module's list).
    static func sourceObjectives(in passages: [Passage]) -> [String] {
        SourceObjectives.objectives(in: passages)
    }

    /// The source's own summary of a topic (its "Summary" or "Conclusion" section), if it has one.
    static func sourceSummary(in passages: [Passage]) -> String? {
        AuthorSummary.summary(in: passages)
    }

    /// What a topic's summary is made from: its text (not its lists of objectives, glossary
    /// entries or exercises, nor captions), formulas readable and a lecture's speech as statements.
    static func summaryParagraphs(of passages: [Passage]) -> [String] {
        TopicSummaryText.paragraphs(of: passages)
    }

    /// A topic's summary without a model: lecture notes of definitions and theorems by what they
    /// define and state, other text by its sentences that stand alone.
    static func offlineSummary(_ input: SummaryInput, passages: [Passage]) -> Summary {
        TopicSummaryText.offline(input, passages: passages)
    }

    /// Objectives written offline from what a topic's text teaches (its defined terms, the kinds,
    /// contrasts and arguments it draws, the sections that name a subject, the subject its title
    /// names where the text's opening says what it is); none when it has none.
    static func offlineObjectives(keyTerms: [KeyTerm], passages: [Passage], headings: [String], title: String? = nil) -> [String] {
        OfflineObjectives.objectives(keyTerms: keyTerms, passages: passages, headings: headings, title: title)
    }

    /// The task a topic's title names ("Integrate acceleration with respect to time and
    /// position"), for a topic whose text gave no objective; nil unless the title opens with a
    /// task's verb and the text says its words.
    static func titleObjective(title: String, passages: [Passage]) -> String? {
        OfflineObjectives.titleTask(title, passages: passages)
    }

    /// "Describe <the subject its title names>" for a topic none of whose unit's objectives fits.
    static func titleSubjectObjective(title: String, passages: [Passage]) -> String? {
        OfflineObjectives.titleSubject(title, passages: passages)
    }

    /// Topics' bare objectives of a rule the course applies throughout ("Apply Newton's second
    /// law") kept where the title names the rule, applied to the title's subject where it is the
    /// topic's only objective, dropped otherwise (`units`: each topic's unit index).
    static func specialiseGenericRules(_ topics: inout [Topic], units: [Int]) {
        GenericRules.specialise(&topics, units: units)
    }

    /// "Describe <its key phrases>" for a topic of a unit that has no objectives to inherit.
    static func keyPhraseObjective(passages: [Passage], background: [Passage]) -> String? {
        OfflineObjectives.keyPhraseObjective(passages: passages, background: background)
    }

    /// The same against a background counted once for all the topics of a unit.
    static func keyPhraseObjective(passages: [Passage], against background: KeyPhrases.Background?) -> String? {
        OfflineObjectives.keyPhraseObjective(passages: passages, against: background)
    }

    /// A title from the key phrases of an untitled stretch of text (`background`: the rest of
    /// its document, against which its phrases stand out).
    static func title(for passages: [Passage], background: [Passage]) -> String {
        KeyPhrases.title(for: passages, background: background)
    }

    /// The same against a background counted once for all the stretches of a document.
    static func title(for passages: [Passage], against background: KeyPhrases.Background) -> String {
        KeyPhrases.title(for: passages, against: background)
    }

    /// `document` titled by its content (the subject its lecture announces, a title said first,
    /// its key phrases) when it is a transcript whose only title is its file name.
    static func titled(_ document: StoredDocument, passages: () throws -> [Passage]) rethrows -> StoredDocument {
        try StatedTitle.titled(document, passages: passages)
    }

    /// Whole minutes to study `passages`, by the kind of their content.
    static func studyMinutes(passages: [Passage]) -> Int {
        StudyTime.minutes(passages: passages)
    }

    /// Each topic's prerequisites, by its stable id: the earlier topics its author refers back
    /// to, then earlier topics that define and teach a key term it uses substantively (`units`:
    /// each topic's unit index, in course order; `unitTitles` by index; `blocks`: each document's
    /// cross-reference blocks).
    static func prerequisites(for topics: [Topic], units: [Int], unitTitles: [String] = [],
                              blocks: [Int64: [Block]] = [:]) -> [String: [TopicLink]] {
        var links = AuthorReferences.links(for: topics, units: units, unitTitles: unitTitles, blocks: blocks)
        for (topic, byTerm) in PrerequisiteLinks.links(for: topics, units: units) {
            var own = links[topic] ?? []
            for link in byTerm where !own.contains(where: { $0.topicStableId == link.topicStableId }) { own.append(link) }
            links[topic] = own
        }
        return links
    }
}
