import Foundation

/// What one `curriculum build` did.
public struct CurriculumBuildResult: Codable, Sendable, Equatable {
    public var name: String
    /// Nothing changed since the last build (same sources, same content, same options): nothing was written.
    public var unchanged: Bool
    public var sources: Int
    public var units: Int
    public var topics: Int
    /// Topics made (summarised, their objectives and key terms found) in this build.
    public var rebuiltTopics: Int
    /// Topics taken as they were from the last build: none of their sources changed.
    public var keptTopics: Int
    /// Topics of a later source that joined an earlier source's topic on the same subject.
    public var mergedTopics: Int
    /// Source references that named no document.
    public var notFound: [String]
}

/// Builds a curriculum from stored documents: the tree from each document's own structure,
/// topics of several sources on one subject merged, then every topic enriched (summary,
/// objectives, key terms, study time, prerequisites) and the whole saved in one transaction.
/// A rebuild with unchanged sources writes nothing; after a source changes, only the topics
/// drawing on it are made again.
public struct CurriculumBuilder: Sendable {
    /// Changes when what a build makes changes: an older build is then rebuilt.
    static let version = 21  // 10: a transcript named by its file takes its stated title; 11: named-term objectives, title slides and continued references; 12: inherited objectives about the topic, no everyday word defined, key phrases only of terms, deck sections; 13: objectives from what a short text states, working with lost symbols out of summaries, no deck section of demonstration frames; 14: sections that are no lessons are no topics, objectives from what a lecture names and defines, inherited only where they fit, lecture summaries of what is taught; 15: titles of saved pages and PDFs, slide block titles, lecture summaries opening on what the lecture does, objectives from the title's subject and what a lecture says it teaches; 16: the review's fixes (announcements only where a lecture opens, no title lead from a clause, bulleted notes kept, acronyms defined); 17: objectives fitted to their topic (a law with what it is applied to, named rules stated or derived, stand-ins marked), lecture summaries of what a lecture defines and states with its formula; 18: a summary sentence ends at a symbol's full stop, no worked example summarised by a step, no link on a term met only in a list of titles, on an everyday word said in passing, or on a reference that only compares; 19: a section about problems ("Problems with …") is prose in study time; 20: summaries of written notes state their definitions and theorems, lecture summaries say the relation a lecture states, "defines" only what it defines and the kinds it walks through; 21: no sentence a lecturer corrected halfway, no working line and "defines" only what is said to be, no "Define" objective of a side term, no inherited objective off the topic's subject

    let store: any LibraryBackend
    let summarizer: any Summarizer
    /// The language model's name when `summarizer` is one (recorded as `Curriculum.modelName`).
    var modelName: String?
    /// Topics summarised at once.
    var parallelism: Int
    /// Writes titles of topics found by content and objectives where the source has none,
    /// when a language model summarises (the same model, through the same cache).
    var topicWriter: ModelTopicWriter?
    /// Checked before each document is read and each topic is made: a stopped build saves
    /// nothing (the curriculum stays as it was).
    public var cancellation: Cancellation?
    /// The order of the sources (`--order`); nil: by name, or, for a rebuild from the
    /// curriculum's own sources, the order it has.
    public var order: CurriculumOrder?

    public init(store: LibraryStore, summarizer: any Summarizer, modelName: String? = nil, parallelism: Int = 2) {
        self.init(backend: store, summarizer: summarizer, modelName: modelName, parallelism: parallelism)
    }

    public init(library: Library, summarizer: any Summarizer, modelName: String? = nil, parallelism: Int = 2) {
        self.init(backend: library.backend, summarizer: summarizer, modelName: modelName, parallelism: parallelism)
    }

    init(backend: any LibraryBackend, summarizer: any Summarizer, modelName: String?, parallelism: Int) {
        self.store = backend
        self.summarizer = summarizer
        self.modelName = modelName
        self.parallelism = max(1, parallelism)
        if let model = summarizer as? ModelSummarizer { topicWriter = ModelTopicWriter(model.languageModel, temperature: model.temperature) }
    }

    /// The documents `references` name, as `show` and `rm` read them (ids, paths, folders,
    /// URIs, globs), every document when `all`; each once, in `order`: by name (numbers in names
    /// as numbers), as named (a folder's or a glob's documents by name within it), or by name
    /// and then so that a document defining a term comes before those that use it.
    public func documents(_ references: [String], all: Bool, order: CurriculumOrder = .name) throws -> (documents: [StoredDocument], notFound: [String]) {
        let named = DocumentReferences(backend: store)
        var found: [StoredDocument] = []
        var notFound: [String] = []
        for reference in references {
            let documents = try named.documents(reference)
            if documents.isEmpty { notFound.append(reference) }
            found += documents.sorted { CurriculumOrder.naturallyBefore(Self.nameKey($0), Self.nameKey($1)) }
        }
        if all { found = try store.allDocuments() + found }
        var seen: Set<Int64> = []
        found = found.filter { seen.insert($0.id).inserted }
        // A recording named only by its file takes the title its lecture states.
        found = try found.map { document in try TopicContent.titled(document) { try store.passages(documentId: document.id) } }
        if order != .given { found.sort { CurriculumOrder.naturallyBefore(Self.nameKey($0), Self.nameKey($1)) } }
        if order == .dependencies, found.count > 1 { found = try dependencyOrder(found) }
        return (found, notFound)
    }

    /// `documents` (in name order) so that one defining a term (in its glossary or a definition
    /// sentence) comes before the documents that use it.
    func dependencyOrder(_ documents: [StoredDocument]) throws -> [StoredDocument] {
        var defines: [Set<[String]>] = []
        var words: [[String]] = []
        for document in documents {
            let passages = CurriculumOutline.teaching(try store.passages(documentId: document.id))
            defines.append(Set(TopicContent.keyTerms(in: passages).filter { PrerequisiteLinks.definingBases.contains($0.basis) }
                .map { TermMatcher.stems($0.term) }.filter { !$0.isEmpty && $0.joined().count > 2 }))
            words.append(passages.filter { $0.kind != .glossary }.flatMap { TermMatcher.stems($0.text) })
        }
        let terms = defines.reduce(into: Set<[String]>()) { $0.formUnion($1) }
        let uses = words.map { words in
            Dictionary(uniqueKeysWithValues: terms.map { ($0, TermMatcher.count($0, in: words)) })
        }
        return CurriculumOrder.dependencyOrder(defines: defines, uses: uses).map { documents[$0] }
    }

    static func nameKey(_ document: StoredDocument) -> String {
        (document.path ?? document.uri).lowercased()
    }

    /// The stable id of a curriculum named `name`.
    static func curriculumId(_ name: String) -> String {
        String(ContentHash.sha256("curriculum|" + name).prefix(16))
    }

    /// Builds (or rebuilds) the curriculum `name` from what `references` name and saves it.
    /// Throws when they name no document at all; a reference that names nothing is a
    /// `failed` event and the others go on.
    /// No references and not `all`: the curriculum is rebuilt from its own sources (those still
    /// in the library), with its title; what `curriculum build NAME` does after a source changed.
    public func build(name: String, title: String? = nil, sources references: [String], all: Bool = false,
                      recorder: RunRecorder?, events: EventHandler) throws -> CurriculumBuildResult {
        var references = references
        var title = title
        var order = self.order ?? .name
        if references.isEmpty && !all {
            (references, title) = try ownSources(name: name, title: title, events: events)
            // A rebuild keeps the order the curriculum has unless told otherwise.
            order = self.order ?? .given
        }
        let (documents, notFound) = try self.documents(references, all: all, order: order)
        for reference in notFound {
            recorder?.fail(input: reference, stage: "curriculum", reason: "not in the library")
            events(PipelineEvent(.failed, input: reference, message: "not in the library"))
        }
        guard !documents.isEmpty else {
            throw LecternError(.invalidInput, name, all ? "the library holds no document to build from" : "no source names a document in the library")
        }
        var result = CurriculumBuildResult(name: name, unchanged: false, sources: documents.count, units: 0, topics: 0,
                                           rebuiltTopics: 0, keptTopics: 0, mergedTopics: 0, notFound: notFound)
        let buildKey = Self.buildKey(documents, title: title, summarizer: summarizer)
        let previous = try store.curriculum(named: name)
        let previousKey = try store.curriculumBuildKey(named: name)
        if let previous, previousKey == buildKey {
            result.unchanged = true
            result.units = previous.units.count
            result.topics = previous.topics.count
            result.keptTopics = result.topics
            recorder?.count("unchanged")
            events(PipelineEvent(.unchanged, input: name, title: previous.title))
            return result
        }

        // The tree, from each document's own structure.
        let curriculumId = Self.curriculumId(name)
        var (units, vectors, crossReferences) = try unitDrafts(documents, name: name, recorder: recorder, events: events)
        result.mergedTopics = try mergeAcrossSources(&units, vectors: vectors, sources: documents.count, name: name, events: events)

        // Stable ids, then enrichment (what an unchanged topic had is kept).
        let old = reusableTopics(previous: previous, previousKey: previousKey, documents: documents)
        let (planned, plannedUnits) = Self.plan(units, curriculumId: curriculumId)
        var curriculumUnits = plannedUnits
        var topics = try enrichTopics(planned, unitTitles: units.map(\.title), old: old, name: name, result: &result,
                                      recorder: recorder, events: events)
        Self.completeObjectives(&topics, units: planned.map(\.unit))
        try cancellation?.check(name)
        let links = TopicContent.prerequisites(for: topics, units: planned.map(\.unit), unitTitles: units.map(\.title), blocks: crossReferences)
        for (index, var topic) in topics.enumerated() {
            topic.prerequisites = links[topic.stableId] ?? []
            curriculumUnits[planned[index].unit].topics.append(topic)
        }
        curriculumUnits.removeAll { $0.topics.isEmpty }

        // A course of one source that describes itself (an OCW course) has that as its summary.
        let summary = documents.count == 1
            ? CourseDescription.text(in: try store.passages(documentId: documents[0].id)) : nil
        let now = Date()
        let curriculum = Curriculum(
            name: name, title: title ?? previous?.title ?? Self.defaultTitle(name: name, documents: documents), stableId: curriculumId,
            sources: documents.map(Self.source), units: curriculumUnits, modelName: modelName,
            createdAt: previous?.createdAt ?? now, modifiedAt: now, summary: summary)
        try recorder.time(.write) { try store.saveCurriculum(curriculum, buildKey: buildKey) }
        result.units = curriculumUnits.count
        result.topics = topics.count
        recorder?.count("sources", by: documents.count)
        recorder?.count("units", by: result.units)
        recorder?.count("topics", by: result.topics)
        recorder?.count("topics_rebuilt", by: result.rebuiltTopics)
        recorder?.count("topics_kept", by: result.keptTopics)
        recorder?.count("topics_merged", by: result.mergedTopics)
        events(PipelineEvent(.stored, input: name, title: curriculum.title, passages: curriculum.topics.map(\.passages.count).reduce(0, +)))
        return result
    }

    /// No references and not `all`: the curriculum's own sources still in the library (each one
    /// gone is a note), and its title where it was not the default.
    func ownSources(name: String, title: String?, events: EventHandler) throws -> (references: [String], title: String?) {
        var title = title
        guard let previous = try store.curriculum(named: name) else {
            throw LecternError(.invalidInput, name, "no curriculum of that name yet: give its sources, or --all")
        }
        for source in previous.sources where try store.document(uri: source.uri) == nil {
            events(PipelineEvent(.note, input: source.uri, message: "no longer in the library: left out of \(name)"))
        }
        let references = try previous.sources.map(\.uri).filter { try store.document(uri: $0) != nil }
        guard !references.isEmpty else {
            throw LecternError(.invalidInput, name, "none of its sources is still in the library: give its sources, or --all")
        }
        if title == nil {
            let documents = try self.documents(references, all: false).documents
            if previous.title != Self.defaultTitle(name: name, documents: documents) { title = previous.title }
        }
        return (references, title)
    }

    /// Each document's units and topics from its own structure, the vectors of their passages,
    /// and the blocks holding its author's cross-references (by document id).
    func unitDrafts(_ documents: [StoredDocument], name: String, recorder: RunRecorder?,
                    events: EventHandler) throws -> (units: [UnitDraft], vectors: [Int64: [Float]], references: [Int64: [Block]]) {
        var drafts: [(unit: UnitDraft, document: StoredDocument)] = []
        var references: [Int64: [Block]] = [:]
        try cancellation?.check(name)
        // Every document's vectors in one pass over the vector blocks (a vector is looked up by
        // its passage's id, so each document's outline reads its own from the whole).
        let vectors = try recorder.time(.read) { try store.passageVectors(documentIds: documents.map(\.id)) }
        for (index, document) in documents.enumerated() {
            try cancellation?.check(name)
            events(PipelineEvent(.inputStarted, input: document.title, index: index + 1, total: documents.count))
            let passages = try recorder.time(.read) { try store.passages(documentId: document.id) }
            let crossReferences = try store.crossReferenceBlocks(documentId: document.id)
            if !crossReferences.isEmpty { references[document.id] = crossReferences }
            let units = CurriculumOutline.units(document: document, passages: passages, vectors: vectors, alone: documents.count == 1)
            if units.isEmpty {
                let reason = "has no passages to make topics of"
                recorder?.fail(input: document.uri, stage: "curriculum", reason: reason, warning: true)
                events(PipelineEvent(.warning, input: document.uri, message: reason))
            }
            drafts += units.map { ($0, document) }
        }
        return (drafts.map(\.unit), vectors, references)
    }

    /// Several sources: a later source's topic on an earlier one's subject joins it (each join a
    /// note); returns how many joined.
    func mergeAcrossSources(_ units: inout [UnitDraft], vectors: [Int64: [Float]], sources: Int, name: String,
                            events: EventHandler) throws -> Int {
        var merged = 0
        if sources > 1, let embedder = try store.recordedEmbedder() {
            if let threshold = TopicContent.mergeThreshold(forEmbedder: embedder.name) {
                let joins = Self.merge(&units, vectors: vectors, threshold: threshold)
                merged = joins.count
                for join in joins {
                    events(PipelineEvent(.note, input: name, message: String(format: "“%@” joins “%@” (similarity %.2f)", join.topic, join.into, join.similarity)))
                }
            } else {
                events(PipelineEvent(.note, input: name, message: "topics of different sources are kept apart: no merge threshold has been chosen for the \(embedder.name) embedder"))
            }
        }
        return merged
    }

    /// The previous build's topics that may be kept as they were, by stable id.
    func reusableTopics(previous: Curriculum?, previousKey: String?, documents: [StoredDocument]) -> [String: Topic] {
        // A topic is kept as it was when every document it draws on has the content it had then
        // (row ids alone do not tell: SQLite gives a re-read document's passages the same ones).
        let unchangedDocuments = Set((previous?.sources ?? []).filter { source in
            documents.contains { $0.id == source.documentId && $0.contentHash == source.contentHash }
        }.map(\.documentId))
        // Topics made by another builder version or summariser are made again.
        let method = Self.methodKey(summarizer) + ":"
        let sameMethod = previousKey?.hasPrefix(method) ?? false
        let reusable: [Topic] = sameMethod ? (previous?.topics ?? []) : []
        return Dictionary(reusable.filter { topic in
            topic.passages.allSatisfy { unchangedDocuments.contains($0.documentId) }
        }.map { ($0.stableId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    typealias PlannedTopic = (unit: Int, draft: TopicDraft, stableId: String)

    /// Stable ids for the units and topics (unique within the curriculum), and the empty units.
    static func plan(_ units: [UnitDraft], curriculumId: String) -> (planned: [PlannedTopic], units: [CurriculumUnit]) {
        var seenUnits: Set<String> = []
        var seenTopics: Set<String> = []
        var planned: [PlannedTopic] = []
        var curriculumUnits: [CurriculumUnit] = []
        for (unitIndex, unit) in units.enumerated() {
            let unitId = unique(String(ContentHash.sha256(curriculumId + "|unit|" + unit.title).prefix(16)), &seenUnits)
            curriculumUnits.append(CurriculumUnit(stableId: unitId, title: unit.title, topics: []))
            for draft in unit.topics {
                let topicId = unique(String(ContentHash.sha256(curriculumId + "|topic|" + draft.identity).prefix(16)), &seenTopics)
                planned.append((unitIndex, draft, topicId))
            }
        }
        return (planned, curriculumUnits)
    }

    /// Each planned topic, kept as it was or made again (summary, objectives, key terms), side by
    /// side; counts kept and rebuilt topics in `result`.
    func enrichTopics(_ planned: [PlannedTopic], unitTitles: [String], old: [String: Topic], name: String,
                result: inout CurriculumBuildResult, recorder: RunRecorder?, events: EventHandler) throws -> [Topic] {
        let summarizer = self.summarizer
        let writer = topicWriter
        let origin: ContentOrigin = modelName == nil ? .offline : .model
        let work = planned
        let cancellation = self.cancellation
        // Set by the first topic whose model cannot be asked (a wrong key, a timeout, 429): the
        // others are then made offline at once, and the build says so once.
        let modelDown = Cancellation()
        let made = ParallelWork.map(work.count, workers: parallelism) { index -> (Topic, String?, LecternError?) in
            try cancellation?.check(name)
            let (unit, draft, stableId) = work[index]
            if let kept = old[stableId], Self.keeps(kept, draft) {
                var topic = kept
                topic.prerequisites = []
                return (topic, nil, nil)
            }
            return try recorder.time(.enrich) {
                try Self.enrich(draft, stableId: stableId, summarizer: summarizer, origin: origin, writer: writer,
                                context: unitTitles[unit], modelDown: modelDown)
            }
        }
        // A topic whose call a signal cut short is no failure of the curriculum: the build stops.
        try cancellation?.check(name)
        var topics: [Topic] = []
        var unavailable: LecternError?
        for (index, outcome) in made.enumerated() {
            switch outcome {
            case .success(let (topic, writerFailure, down)):
                topics.append(topic)
                unavailable = unavailable ?? down
                if let writerFailure {
                    let reason = "the model's writing was not used (\(writerFailure)); the offline title or objectives stand"
                    recorder?.fail(input: topic.title, stage: "curriculum", reason: reason, warning: true)
                    events(PipelineEvent(.warning, input: topic.title, message: reason))
                }
                if let kept = old[topic.stableId], Self.keeps(kept, planned[index].draft) {
                    result.keptTopics += 1
                } else {
                    result.rebuiltTopics += 1
                }
            case .failure(let error):
                if let stop = error as? LecternError, stop.code == .interrupted { throw stop }
                throw LecternError(.invalidInput, planned[index].draft.title, "could not be summarised: \(error)")
            }
        }
        if let unavailable {
            // Falling back to the offline methods is the documented behaviour: said once, not per topic.
            let reason = "the model could not be asked (\(unavailable.description)): topics are summarised and titled offline"
            recorder?.fail(input: name, stage: "curriculum", reason: reason, warning: true)
            events(PipelineEvent(.warning, input: name, message: reason))
        }
        return topics
    }

    /// Later sources' topics that cover an earlier source's subject join that topic (the first
    /// source's place and title win). Returns the joins, in order.
    static func merge(_ units: inout [UnitDraft], vectors: [Int64: [Float]], threshold: Float) -> [TopicJoin] {
        var joins: [TopicJoin] = []
        let weights = TopicSimilarity.WordWeights(passages: units.flatMap { $0.topics.flatMap { $0.passages.map(\.text) } })
        func profile(_ draft: TopicDraft) -> TopicSimilarity.Profile {
            TopicSimilarity.Profile(vectors: draft.passages.compactMap { vectors[$0.id] }, texts: draft.passages.map(\.text))
        }
        var earlier: [(unit: Int, topic: Int, documents: Set<Int64>, profile: TopicSimilarity.Profile)] = []
        for unitIndex in units.indices {
            var kept: [TopicDraft] = []
            for draft in units[unitIndex].topics {
                let own = profile(draft)
                let documents = Set(draft.passages.map(\.documentId))
                let open = earlier.indices.filter { earlier[$0].documents.isDisjoint(with: documents) }
                let best = own.vectors.isEmpty ? nil
                    : TopicContent.joinCandidate(for: own, among: open.map { earlier[$0].profile }, threshold: threshold, weights: weights)
                        .map { (index: open[$0.index], similarity: $0.similarity) }
                if let best {
                    let target = earlier[best.index]
                    units[target.unit].topics[target.topic].passages += draft.passages
                    earlier[best.index].profile.absorb(own)
                    joins.append(TopicJoin(topic: draft.title, into: units[target.unit].topics[target.topic].title, similarity: best.similarity))
                } else {
                    kept.append(draft)
                }
            }
            units[unitIndex].topics = kept
            // This unit's topics are candidates for the units after it.
            for (topicIndex, draft) in kept.enumerated() {
                earlier.append((unitIndex, topicIndex, Set(draft.passages.map(\.documentId)), profile(draft)))
            }
        }
        units.removeAll { $0.topics.isEmpty }
        return joins
    }

    /// A topic of the last build is kept when its passages are the same and so is its title
    /// (a model-written title stands for the key-phrase title the draft has).
    static func keeps(_ kept: Topic, _ draft: TopicDraft) -> Bool {
        kept.passages.map(\.id) == draft.passages.map(\.id) && (kept.title == draft.title || kept.titleOrigin == .model)
    }

    /// A later source's topic that joined an earlier one, and how alike they were.
    struct TopicJoin: Sendable {
        var topic: String
        var into: String
        var similarity: Float
    }

    /// Summary, objectives, key terms and study time of a topic made now, why the model's
    /// title and objectives were not used when it was asked for them and failed, and the error
    /// of a model that could not be asked at all (after which `modelDown` is set and no later
    /// topic asks it: the offline methods stand in).
    static func enrich(_ draft: TopicDraft, stableId: String, summarizer: any Summarizer, origin: ContentOrigin,
                       writer: ModelTopicWriter? = nil, context: String? = nil,
                       modelDown: Cancellation? = nil) throws -> (Topic, String?, LecternError?) {
        var unavailable: LecternError?
        func modelAsked() -> Bool { unavailable == nil && modelDown?.isCancelled != true }
        func failed(_ error: any Error) {
            guard let down = LecternError.modelUnavailable(error) else { return }
            unavailable = down
            modelDown?.cancel()
        }
        let keyTerms = TopicContent.keyTerms(in: draft.passages)
        var objectives = TopicContent.sourceObjectives(in: draft.passages).map { ($0, ContentOrigin.source) }
        // The model writes what the source does not give: a title for a stretch found by
        // content, objectives where the source lists none. The source's own always win.
        var title = draft.title
        var titleOrigin: ContentOrigin? = draft.titleFromContent ? .offline : nil
        var writerFailure: String?
        if let writer, draft.titleFromContent || objectives.isEmpty, modelAsked() {
            do {
                let written = try writer.writeNow(draft.passages, context: context)
                var unusable: [String] = []
                if draft.titleFromContent {
                    if written.title.isEmpty {
                        unusable.append("its title")
                    } else {
                        title = written.title
                        titleOrigin = .model
                    }
                }
                if objectives.isEmpty {
                    if written.objectives.isEmpty { unusable.append("its objectives") }
                    objectives = written.objectives.map { ($0, ContentOrigin.model) }
                }
                if !unusable.isEmpty { writerFailure = unusable.joined(separator: " and ") + " were not about the topic's text" }
            } catch {
                failed(error)
                if unavailable == nil { writerFailure = (error as? LecternError)?.reason ?? "\(error)" }
            }
        }
        if objectives.isEmpty {
            objectives = TopicContent.offlineObjectives(keyTerms: keyTerms, passages: draft.passages, headings: draft.headings,
                                                        title: draft.titleFromContent ? nil : draft.title)
                .map { ($0, ContentOrigin.offline) }
        }
        // A title an author wrote may name the task its text works ("Integrate Acceleration with …").
        if objectives.isEmpty, !draft.titleFromContent, let task = TopicContent.titleObjective(title: title, passages: draft.passages) {
            objectives = [(task, .offline)]
        }
        // The source's own summary (an OpenStax module's "Summary" section) wins; else what the
        // text argues, not its lists of objectives, glossary entries or exercises, nor captions.
        var summaryOrigin = origin
        var summary: Summary
        if let own = TopicContent.sourceSummary(in: draft.passages) {
            summary = Summary(text: own, keyPoints: [])
            summaryOrigin = .source
        } else {
            // A model that fails (or text too thin for one) leaves the offline summary; text with
            // no sentence at all, none.
            let input = SummaryInput(title: title, paragraphs: TopicContent.summaryParagraphs(of: draft.passages))
            var made: Summary?
            if !(summarizer is ExtractiveSummarizer), modelAsked() || !(summarizer is ModelSummarizer) {
                do {
                    made = try summarizer.summarize(input)
                } catch {
                    failed(error)
                }
            }
            if let made {
                summary = made
            } else {
                summaryOrigin = .offline
                summary = TopicContent.offlineSummary(input, passages: draft.passages)
                // A lecture opens on what it does, where it has a title of its own (one made from
                // its key phrases says nothing its sentences do not).
                if titleOrigin == nil {
                    summary = Summary(text: TopicSummaryText.led(summary.text, title: title, objectives: objectives.map(\.0), passages: draft.passages,
                                                                     paragraphs: input.paragraphs, terms: keyTerms.map(\.term)),
                                      keyPoints: summary.keyPoints)
                }
            }
        }
        var seen: Set<String> = []
        let topic = Topic(
            stableId: stableId, title: title, summary: summary.text, summaryOrigin: summaryOrigin,
            objectives: objectives.compactMap { statement, origin in
                guard seen.insert(LearningObjective.key(statement)).inserted else { return nil }
                return LearningObjective(statement, origin: origin, topicId: stableId)
            },
            keyTerms: keyTerms, studyMinutes: TopicContent.studyMinutes(passages: draft.passages), passages: draft.passages, prerequisites: [],
            titleOrigin: titleOrigin)
        return (topic, writerFailure, unavailable)
    }

    /// The passes over a unit's topics after each is made or kept (`units`: each topic's unit
    /// index): a law the course applies throughout made specific or dropped, and stand-ins for
    /// topics the unit lends nothing. A kept topic's stand-ins were made from its unit as it was,
    /// so they go first and are made again from the unit as it is: an incremental rebuild gives
    /// the objectives a fresh one does (a kept topic's "Describe <title>" counted as a unit
    /// objective, and a changed topic beside it inherited it instead of describing its own title).
    static func completeObjectives(_ topics: inout [Topic], units: [Int]) {
        for index in topics.indices where topics[index].objectives.contains(where: { $0.standIn == true }) {
            topics[index].objectives.removeAll { $0.standIn == true }
        }
        TopicContent.specialiseGenericRules(&topics, units: units)
        describeKeyPhrasesWhereAUnitHasNoObjectives(&topics, units: units)
        describeTitlesWhereNoUnitObjectiveFits(&topics, units: units)
    }

    /// A unit none of whose topics teaches a term, rule, kind or contrast (a history lecture's
    /// notes) leaves its topics nothing to inherit: each topic with enough prose gets one
    /// objective describing its key phrases against the unit's ("Describe movable type and
    /// the Reformation"), from its content, never its title. Returns how many passages' phrases
    /// it counted: each unit's once, whatever its number of topics.
    @discardableResult
    static func describeKeyPhrasesWhereAUnitHasNoObjectives(_ topics: inout [Topic], units: [Int]) -> Int {
        // Each unit's topics, found in one pass (not one pass over every topic per unit), and
        // its phrases counted once for all its topics.
        let byUnit = Dictionary(grouping: topics.indices, by: { units[$0] })
        var counted = 0
        for unit in byUnit.keys.sorted() {
            let members = byUnit[unit] ?? []
            guard members.allSatisfy({ topics[$0].objectives.isEmpty }) else { continue }
            let passages = members.flatMap { topics[$0].passages }
            let background = passages.isEmpty ? nil : KeyPhrases.Background(passages)
            counted += passages.count
            for index in members {
                // The subject its title names, where the text says it, before its key phrases
                // ("Describe metal type and texts" was graded no outcome).
                guard let statement = (topics[index].titleOrigin == nil ? TopicContent.titleSubjectObjective(title: topics[index].title, passages: topics[index].passages) : nil)
                    ?? TopicContent.keyPhraseObjective(passages: topics[index].passages, against: background) else { continue }
                topics[index].objectives = [LearningObjective(statement, origin: .offline, topicId: topics[index].stableId, standIn: true)]
            }
        }
        return counted
    }

    /// A topic without objectives of its own none of whose unit's objectives is about its text
    /// carried the unit's overall one ("Calculate the angular momentum" on "35.2 Rolling Wheel
    /// in the Center of Mass Frame"); where its title names a subject its text speaks of, it
    /// describes that instead. The unit's objectives are those before this pass.
    static func describeTitlesWhereNoUnitObjectiveFits(_ topics: inout [Topic], units: [Int]) {
        let byUnit = Dictionary(grouping: topics.indices, by: { units[$0] })
        for unit in byUnit.keys.sorted() {
            let members = byUnit[unit] ?? []
            var seen = Set<String>()
            let candidates = members.flatMap { topics[$0].objectives }.filter { $0.standIn != true && seen.insert(InheritedObjectives.key($0.statement)).inserted }
            guard !candidates.isEmpty else { continue }
            for index in members where topics[index].objectives.isEmpty {
                // The title first: most name no subject, and then the unit's objectives need no reading.
                guard let statement = TopicContent.titleSubjectObjective(title: topics[index].title, passages: topics[index].passages),
                      InheritedObjectives.objectives(for: topics[index], candidates: candidates, overall: { nil }).isEmpty else { continue }
                topics[index].objectives = [LearningObjective(statement, origin: .offline, topicId: topics[index].stableId, standIn: true)]
            }
        }
    }

    /// What a build depends on: the documents (and their content and chunking), the title asked
    /// for, the summariser and this builder's version, as `METHOD:SOURCES` (the method part: how topics are
    /// made, the builder's version and the summariser; the sources part: what from).
    static func buildKey(_ documents: [StoredDocument], title: String?, summarizer: any Summarizer) -> String {
        var parts = [title ?? ""]
        // The labels a pipeline gives a source too: a new licence or tag reaches the export and cards.
        parts += documents.map {
            let labels = DocumentLabels.key($0.metadataDictionary)
            return "\($0.uri)|\($0.contentHash)|\($0.skipKey.passages)|\($0.passageCount)" + (labels.isEmpty ? "" : "|" + labels)
        }
        return methodKey(summarizer) + ":" + ContentHash.sha256(parts.joined(separator: "\n"))
    }

    static func methodKey(_ summarizer: any Summarizer) -> String {
        String(ContentHash.sha256("v\(version)|\(summarizer.provider)/\(summarizer.model)").prefix(16))
    }

    static func unique(_ id: String, _ seen: inout Set<String>) -> String {
        var candidate = id
        var number = 2
        while !seen.insert(candidate).inserted {
            candidate = id + "-\(number)"
            number += 1
        }
        return candidate
    }

    static func defaultTitle(name: String, documents: [StoredDocument]) -> String {
        documents.count == 1 ? documents[0].title : name
    }

    static func source(_ document: StoredDocument) -> CurriculumSource {
        let metadata = document.metadataDictionary
        return CurriculumSource(documentId: document.id, uri: document.uri, title: document.title, type: document.type,
                                licence: metadata[DocumentLabels.licenceKey] ?? metadata["license"], licenceURL: metadata["license_url"],
                                contentHash: document.contentHash, tags: DocumentLabels.tags(metadata))
    }
}

private extension Optional where Wrapped == RunRecorder {
    /// Times a stage when there is a recorder, else just runs it.
    func time<T>(_ stage: RunStage, _ work: () throws -> T) rethrows -> T {
        if let recorder = self { return try recorder.time(stage, work) }
        return try work()
    }
}
