import Foundation

/// What `lectern cards generate` did.
public struct CardGenerateSummary: Codable, Sendable {
    public var run: Int64?
    public var curriculum: String
    public var topics: Int
    public var candidates: Int
    public var notes: Int
    public var cards: Int
    public var rejected: Int
    public var rejections: [String: Int]
    public var exactDuplicates: Int
    public var nearDuplicates: Int
    /// Notes new to the library, and stored notes whose text changed (same GUID, newer time).
    public var added: Int
    public var updated: Int
    public var byType: [String: Int]
}

/// What a model run would take: `lectern cards generate --dry-run`.
public struct CardModelPlan: Codable, Sendable {
    public var model: String
    public var topics: Int
    public var calls: Int
    public var inputTokens: Int
    public var outputTokens: Int
    /// In US dollars; nil when the model has no price (llm.prices), a local model for one.
    public var cost: Double?
}

/// One stored note as `lectern cards list` prints it.
public struct CardListing: Codable, Sendable {
    public var guid: String
    public var curriculum: String
    public var topic: String
    public var deck: String
    public var noteType: String
    public var origin: String
    public var front: String
    public var back: String
    public var source: String
    public var passageId: Int64
    public var page: Int?
    public var pageLabel: String?
    public var time: Double?
    /// A lecture card's video at its passage's second (`?t=`); nil for other sources.
    public var link: String?
    /// For a glossary or key-term card: why its term is a key term (glossary, defined, emphasised, heading).
    public var basis: KeyTermBasis?
    /// The card's six checks and score; nil for a card generated before the checks.
    public var quality: CardQuality?
}

/// Counts per curriculum, topic and note type, with the last generate run's rejections and
/// duplicates removed.
public struct CardStatistics: Codable, Sendable {
    public struct TopicCounts: Codable, Sendable {
        public var topic: String
        public var title: String
        public var byType: [String: Int]
        public var rejected: Int
    }

    public var curriculum: String
    public var notes: Int
    public var cards: Int
    public var byType: [String: Int]
    public var byOrigin: [String: Int]
    public var topics: [TopicCounts]
    public var rejected: Int
    public var rejections: [String: Int]
    public var exactDuplicates: Int
    public var nearDuplicates: Int
    /// Stored notes by score ("1.00", "0.83", …; "unchecked" for notes made before the checks).
    public var quality: [String: Int]
    /// Stored notes that fail a check (kept with --min-quality below 1), by check.
    public var failedChecks: [String: Int]
}

/// What `lectern cards export` wrote.
public struct CardExportSummary: Codable, Sendable {
    public var path: String
    public var format: String
    public var notes: Int
    public var cards: Int
    public var decks: Int
}

/// The flashcard workflow the CLI drives: generate (offline) into the library, export, list,
/// count and remove. Every card stands on a curriculum stored in the library.
public struct Flashcards: Sendable {
    let store: any LibraryBackend
    /// Checked before each topic's model call and before the cards are stored: a stopped
    /// generation stores nothing (the earlier cards stay).
    public var cancellation: Cancellation?

    public init(store: LibraryStore) { self.init(backend: store) }

    public init(library: Library) { self.init(backend: library.backend) }

    init(backend: any LibraryBackend) { self.store = backend }

    func curriculum(_ name: String) throws -> Curriculum {
        guard let curriculum = try store.curriculum(named: name) else {
            let known = (try? store.curriculumSummaries().map(\.name)) ?? []
            throw LecternError(.notFound, name, known.isEmpty
                ? "no curriculum of that name (build one with `lectern curriculum build`)"
                : "no curriculum of that name (the library has: \(known.joined(separator: ", ")))")
        }
        return curriculum
    }

    /// The stable ids `references` name in `curriculum` (`TopicReferences`' rule); nil for none.
    func topicIds(_ references: [String], in curriculum: Curriculum) throws -> Set<String>? {
        guard !references.isEmpty else { return nil }
        return Set(try TopicReferences(backend: store).stableIds(references, curriculum: curriculum.name))
    }

    /// Offline cards for the curriculum's topics (all, or `topics`), grounded and deduplicated,
    /// stored in place of the topics' earlier cards; the run records every rejection.
    public func generate(curriculum name: String, topics references: [String] = [], recorder: RunRecorder?,
                         minQuality: Double = 1, now: Date = Date()) throws -> CardGenerateSummary {
        let curriculum = try self.curriculum(name)
        try CurriculumFreshness(backend: store).requireCurrent(curriculum)
        let topics = try topicIds(references, in: curriculum)
        try cancellation?.check(name)
        let (fresh, report) = CardGeneration.offline(curriculum, topics: topics, now: now, minQuality: minQuality)
        try cancellation?.check(name)
        return try store(fresh, report: report, curriculum: curriculum, topics: topics, recorder: recorder, now: now)
    }

    /// The calls, tokens and cost a model run over the curriculum's topics would take.
    public func plan(curriculum name: String, topics references: [String] = [], languageModel: any LanguageModel,
                     prices: [String: ModelPrice] = [:], maxTokens: Int = 600) throws -> CardModelPlan {
        let curriculum = try self.curriculum(name)
        let topics = try topicIds(references, in: curriculum)
        let chosen = curriculum.topics.filter { topics?.contains($0.stableId) ?? true }
        let estimate = ModelCardGenerator(languageModel: languageModel, maxTokens: maxTokens).estimate(chosen)
        let price = prices[languageModel.info.model] ?? prices[languageModel.info.description]
        return CardModelPlan(model: languageModel.info.description, topics: chosen.count, calls: estimate.calls,
                             inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens,
                             cost: price?.cost(inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens))
    }

    /// Offline cards and `languageModel`'s, grounded, verified and deduplicated, stored like
    /// `generate`'s. Refuses, before any call, a run whose estimated cost is over `maxCost`.
    public func generate(curriculum name: String, topics references: [String] = [], recorder: RunRecorder?,
                         languageModel: any LanguageModel, prices: [String: ModelPrice] = [:], maxCost: Double? = nil,
                         maxTokens: Int = 600, parallelism: Int = 1, minQuality: Double = 1, now: Date = Date()) throws -> CardGenerateSummary {
        let curriculum = try self.curriculum(name)
        try CurriculumFreshness(backend: store).requireCurrent(curriculum)
        let topics = try topicIds(references, in: curriculum)
        if let maxCost {
            let plan = try self.plan(curriculum: name, topics: references, languageModel: languageModel, prices: prices, maxTokens: maxTokens)
            if let cost = plan.cost, cost > maxCost {
                throw LecternError(.invalidInput, name, String(format: "this run would cost about $%.4f (%d calls, %d tokens in, %d out), over --max-cost $%.4f: nothing was asked", cost, plan.calls, plan.inputTokens, plan.outputTokens, maxCost))
            }
        }
        let generator = ModelCardGenerator(languageModel: languageModel, maxTokens: maxTokens)
        let (fresh, report, failures) = try CardGeneration.withModel(curriculum, topics: topics, model: generator, now: now, minQuality: minQuality,
                                                                 parallelism: parallelism, cancellation: cancellation)
        try cancellation?.check(name)
        for failure in failures {
            recorder?.fail(input: "\(curriculum.name)/\(failure.topic)", stage: "model", reason: failure.reason)
        }
        return try store(fresh, report: report, curriculum: curriculum, topics: topics, recorder: recorder, now: now)
    }

    func store(_ fresh: [Flashcard], report: CardGenerationReport, curriculum: Curriculum, topics: Set<String>?,
               recorder: RunRecorder?, now: Date) throws -> CardGenerateSummary {
        let fresh = try linked(fresh)
        let previous = try store.cards(curriculum: curriculum.name).map(\.card)
        // Notes of the other topics stay; dedup across the curriculum keeps them first.
        let others = previous.filter { card in topics.map { !$0.contains(card.topicStableId) } ?? false }
        let otherGuids = Set(others.map(\.guid))
        let cards = CardGeneration.revise(fresh.filter { !otherGuids.contains($0.guid) }, previous: previous, now: now)
        let before = Dictionary(previous.map { ($0.guid, $0) }, uniquingKeysWith: { first, _ in first })
        let added = cards.filter { before[$0.guid] == nil }.count
        let updated = cards.filter { card in before[card.guid].map { $0.contentKey != card.contentKey } ?? false }.count
        for rejection in report.rejections {
            recorder?.fail(input: "\(curriculum.name)/\(rejection.topicStableId): \(rejection.front)", stage: "grounding",
                           reason: "\(rejection.reason.rawValue): \(rejection.detail)", warning: true)
        }
        recorder?.count("topics", by: report.topics)
        recorder?.count("candidates", by: report.candidates)
        recorder?.count("notes", by: cards.count)
        recorder?.count("rejected", by: report.rejections.count)
        for (reason, count) in report.rejectionCounts { recorder?.count("rejected_\(reason)", by: count) }
        recorder?.count("duplicates_exact", by: report.exactDuplicates)
        recorder?.count("duplicates_near", by: report.nearDuplicates)
        try store.replaceCards(cards, curriculum: curriculum.name, topics: topics, report: report, run: recorder?.id)
        return CardGenerateSummary(
            run: recorder?.id, curriculum: curriculum.name, topics: report.topics, candidates: report.candidates,
            notes: cards.count, cards: cards.reduce(0) { $0 + $1.cardCount }, rejected: report.rejections.count,
            rejections: report.rejectionCounts, exactDuplicates: report.exactDuplicates, nearDuplicates: report.nearDuplicates,
            added: added, updated: updated, byType: Dictionary(grouping: cards, by: \.noteType.rawValue).mapValues(\.count))
    }

    /// Writes the curriculum's stored cards (of `topics` when given) to `path` in `format`.
    public func export(curriculum name: String, topics references: [String] = [], format: CardExportFormat, to path: String) throws -> CardExportSummary {
        try store.protectedPaths.check(path)
        let curriculum = try self.curriculum(name)
        let stored = try store.cards(curriculum: name, topics: TopicReferences(backend: store).stableIds(references, curriculum: name)).map(\.card)
        guard !stored.isEmpty else {
            throw LecternError(.notFound, name, "no cards stored for this curriculum (run `lectern cards generate \(name)` first)")
        }
        let layout = CardDeckLayout(curriculum: curriculum)
        let data = try format.render(stored, layout: layout)
        try OutputFile.write(data, to: path)
        let decks = Set(stored.map { layout.deck(topicStableId: $0.topicStableId).name }).count
        return CardExportSummary(path: path, format: format.rawValue, notes: stored.count,
                                 cards: stored.reduce(0) { $0 + $1.cardCount }, decks: decks)
    }

    /// The cards each topic of a curriculum holds, as `TopicAssessment`s keyed by topic stable
    /// id: what the UMCF export writes as `text_entry` assessments.
    func assessments(curriculum name: String) throws -> [String: [TopicAssessment]] {
        Self.assessments(try store.cards(curriculum: name).map(\.card))
    }

    /// `cards` as questions keyed by topic stable id (a cloze's deletions become blanks).
    static func assessments(_ cards: [Flashcard]) -> [String: [TopicAssessment]] {
        var result: [String: [TopicAssessment]] = [:]
        for card in cards {
            let question = card.noteType == .cloze
                ? card.front.replacingOccurrences(of: #"\{\{c\d+::(.*?)\}\}"#, with: "_____", options: .regularExpression)
                : card.front
            result[card.topicStableId, default: []].append(TopicAssessment(
                stableId: card.guid, question: question, answer: card.answer,
                hint: "Source: " + card.source.attribution, passageId: card.source.passageId))
        }
        return result
    }

    public func list(curriculum name: String?, topics: [String] = []) throws -> [CardListing] {
        var layouts: [String: CardDeckLayout] = [:]
        // Term key → basis, per curriculum and topic.
        var bases: [String: [String: KeyTermBasis]] = [:]
        let topics = try TopicReferences(backend: store).stableIds(topics, curriculum: name)
        return try store.cards(curriculum: name, topics: topics).map { stored in
            let card = stored.card
            if layouts[stored.curriculum] == nil, let curriculum = try store.curriculum(named: stored.curriculum) {
                layouts[stored.curriculum] = CardDeckLayout(curriculum: curriculum)
                for topic in curriculum.topics {
                    for term in topic.keyTerms {
                        bases[stored.curriculum + "\u{1F}" + topic.stableId, default: [:]][CardChecks.termKey(term.term)] = term.basis
                    }
                }
            }
            let basis = card.origin == .glossary || card.origin == .keyTerm
                ? bases[stored.curriculum + "\u{1F}" + card.topicStableId]?[CardChecks.termKey(card.noteType == .cloze ? card.answer : card.front)]
                : nil
            return CardListing(
                guid: card.guid, curriculum: stored.curriculum, topic: card.topicStableId,
                deck: layouts[stored.curriculum]?.deck(topicStableId: card.topicStableId).name ?? stored.curriculum,
                noteType: card.noteType.rawValue, origin: card.origin.rawValue, front: card.front, back: card.back,
                source: card.source.attribution, passageId: card.source.passageId, page: card.source.pageStart,
                pageLabel: card.source.pageLabel, time: card.source.timeStart, link: card.source.link, basis: basis, quality: card.quality)
        }
    }

    public func statistics(curriculum name: String? = nil) throws -> [CardStatistics] {
        let stored = try store.cards(curriculum: name)
        let reports = try store.latestCardReports(curriculum: name)
        let names = Set(stored.map(\.curriculum)).union(reports.keys).sorted()
        return try names.map { name in
            let cards = stored.filter { $0.curriculum == name }.map(\.card)
            let report = reports[name] ?? CardGenerationReport()
            let titles = Dictionary((try store.curriculum(named: name)?.topics ?? []).map { ($0.stableId, $0.title) },
                                    uniquingKeysWith: { first, _ in first })
            var order: [String] = []
            for card in cards where !order.contains(card.topicStableId) { order.append(card.topicStableId) }
            for rejection in report.rejections where !order.contains(rejection.topicStableId) { order.append(rejection.topicStableId) }
            let topics = order.map { topic in
                CardStatistics.TopicCounts(
                    topic: topic, title: titles[topic] ?? "",
                    byType: Dictionary(grouping: cards.filter { $0.topicStableId == topic }, by: \.noteType.rawValue).mapValues(\.count),
                    rejected: report.rejections.filter { $0.topicStableId == topic }.count)
            }
            return CardStatistics(
                curriculum: name, notes: cards.count, cards: cards.reduce(0) { $0 + $1.cardCount },
                byType: Dictionary(grouping: cards, by: \.noteType.rawValue).mapValues(\.count),
                byOrigin: Dictionary(grouping: cards, by: \.origin.rawValue).mapValues(\.count), topics: topics,
                rejected: report.rejections.count, rejections: report.rejectionCounts,
                exactDuplicates: report.exactDuplicates, nearDuplicates: report.nearDuplicates,
                quality: Dictionary(grouping: cards, by: { $0.quality.map { String(format: "%.2f", $0.score) } ?? "unchecked" }).mapValues(\.count),
                failedChecks: Dictionary(grouping: cards.flatMap { ($0.quality?.checks ?? []).filter { !$0.passed } }, by: \.name).mapValues(\.count))
        }
    }

    /// Cards from a lecture transcript with the link to their moment in the video, as `show`
    /// gives it (`?t=` on YouTube) at the card's time: the sentence answering it where the
    /// generator knew it, else the passage's start. One look-up per passage and time.
    func linked(_ cards: [Flashcard]) throws -> [Flashcard] {
        let timed = Set(cards.filter { $0.source.timeStart != nil }.map(\.source.passageId))
        guard !timed.isEmpty else { return cards }
        let passages = Dictionary(try store.passages(ids: Array(timed)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        struct Moment: Hashable { let passage: Int64; let time: Double }
        var links: [Moment: String?] = [:]
        return try cards.map { card in
            var card = card
            guard let time = card.source.timeStart, let passage = passages[card.source.passageId] else { return card }
            let moment = Moment(passage: passage.id, time: time)
            if links[moment] == nil { links[moment] = .some(try PassageLink.link(for: passage, at: time, store: store)) }
            card.source.link = links[moment] ?? nil
            return card
        }
    }

    /// Removes cards of a curriculum (narrowed to topics, by `TopicReferences`' rule, or GUIDs);
    /// returns how many.
    public func remove(curriculum name: String?, topics: [String] = [], guids: [String] = []) throws -> Int {
        try store.removeCards(curriculum: name, topics: TopicReferences(backend: store).stableIds(topics, curriculum: name), guids: guids)
    }
}

extension CardListing: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
