import Foundation

/// What one generate run did, for the run record and `cards stats`.
struct CardGenerationReport: Codable, Sendable, Equatable {
    var topics = 0
    var candidates = 0
    var kept = 0
    var exactDuplicates = 0
    var nearDuplicates = 0
    var rejections: [CardRejection] = []

    var duplicatesRemoved: Int { exactDuplicates + nearDuplicates }

    /// Rejections by reason, for the run's counts.
    var rejectionCounts: [String: Int] {
        Dictionary(grouping: rejections, by: \.reason.rawValue).mapValues(\.count)
    }

    mutating func add(_ other: CardGenerationReport) {
        topics += other.topics
        candidates += other.candidates
        kept += other.kept
        exactDuplicates += other.exactDuplicates
        nearDuplicates += other.nearDuplicates
        rejections += other.rejections
    }
}

/// Candidates → grounded → deduplicated cards. Offline generation and the model's cards go
/// through the same checks.
enum CardGeneration {
    /// Offline cards for `topics` of `curriculum` (all of them when nil), each scored by
    /// `CardChecks`; those scoring under `minQuality` (by default: failing any check) are rejected.
    static func offline(_ curriculum: Curriculum, topics: Set<String>? = nil, now: Date = Date(), minQuality: Double = 1,
                        generator: OfflineCardGenerator = OfflineCardGenerator()) -> (cards: [Flashcard], report: CardGenerationReport) {
        let deck = CardDeckContext(curriculum: curriculum, now: now)
        let chosen = curriculum.topics.filter { topics?.contains($0.stableId) ?? true }
        let checks = CardChecks(curriculum: curriculum)
        var report = CardGenerationReport()
        report.topics = chosen.count
        let perTopic = ParallelWork.map(chosen.count, workers: ProcessInfo.processInfo.activeProcessorCount) { index in
            let grounded = ground(generator.candidates(for: chosen[index], in: deck), topic: chosen[index])
            var assessed = assess(grounded.kept, topic: chosen[index], checks: checks, minQuality: minQuality)
            assessed.kept += coverage(chosen[index], kept: assessed.kept, deck: deck, checks: checks, minQuality: minQuality)
            return (assessed.kept, grounded.rejected + assessed.rejected)
        }
        var cards: [Flashcard] = []
        for case .success(let (kept, rejected)) in perTopic {
            report.candidates += kept.count + rejected.count
            cards += kept
            report.rejections += rejected
        }
        return (finish(cards, topics: chosen, report: &report), report)
    }

    /// Offline cards and a language model's for `topics` of `curriculum`, grounded and
    /// deduplicated together. A topic whose model call fails keeps its offline cards; the
    /// failures come back to be recorded.
    /// A model that cannot be asked (refused, unreachable, 429 past the retries) stops the whole
    /// run with its error: the topics not yet asked are not, and nothing is returned to store.
    static func withModel(_ curriculum: Curriculum, topics: Set<String>?, model: ModelCardGenerator, now: Date = Date(),
                          minQuality: Double = 1, parallelism: Int = 1, cancellation: Cancellation? = nil) throws
        -> (cards: [Flashcard], report: CardGenerationReport, failures: [(topic: String, reason: String)]) {
        let deck = CardDeckContext(curriculum: curriculum, now: now)
        let checks = CardChecks(curriculum: curriculum)
        let chosen = curriculum.topics.filter { topics?.contains($0.stableId) ?? true }
        let offline = OfflineCardGenerator()
        // Set by the first topic whose model cannot be asked: the others are then not asked.
        let unavailable = Cancellation()
        let perTopic = ParallelWork.map(chosen.count, workers: parallelism) { index -> (kept: [Flashcard], rejected: [CardRejection], failure: String?) in
            let topic = chosen[index]
            // A stop asked for skips the model calls not yet made (the caller stores nothing).
            if cancellation?.isCancelled == true || unavailable.isCancelled { return ([], [], nil) }
            var candidates = offline.candidates(for: topic, in: deck)
            var rejected: [CardRejection] = []
            var failure: String?
            do {
                let written = try model.candidates(for: topic, in: deck)
                candidates += written.cards
                rejected += written.rejected
            } catch {
                if let down = LecternError.modelUnavailable(error) {
                    unavailable.cancel()
                    throw down
                }
                failure = (error as? LecternError)?.located ?? "\(error)"
            }
            let grounded = ground(candidates, topic: topic)
            var assessed = assess(grounded.kept, topic: topic, checks: checks, minQuality: minQuality)
            assessed.kept += coverage(topic, kept: assessed.kept, deck: deck, checks: checks, minQuality: minQuality)
            return (assessed.kept, rejected + grounded.rejected + assessed.rejected, failure)
        }
        var report = CardGenerationReport()
        report.topics = chosen.count
        var cards: [Flashcard] = []
        var failures: [(String, String)] = []
        for case .failure(let error) in perTopic {
            if let down = LecternError.modelUnavailable(error) { throw down }
        }
        for (index, result) in perTopic.enumerated() {
            guard case .success(let topic) = result else { continue }
            report.candidates += topic.kept.count + topic.rejected.count
            cards += topic.kept
            report.rejections += topic.rejected
            if let failure = topic.failure { failures.append((chosen[index].stableId, failure)) }
        }
        return (finish(cards, topics: chosen, report: &report), report, failures)
    }

    /// The last steps both ways of generating share: duplicates removed, each topic's share
    /// capped, and the report told what was kept.
    static func finish(_ cards: [Flashcard], topics: [Topic], report: inout CardGenerationReport) -> [Flashcard] {
        let deduplicated = CardDeduplication.deduplicate(cards)
        report.exactDuplicates = deduplicated.exact
        report.nearDuplicates = deduplicated.near
        let shared = capped(deduplicated.cards, topics: topics)
        report.rejections += shared.rejected
        report.kept = shared.kept.count
        return shared.kept
    }

    /// Keeps the candidates whose cited passage (one of `topic`'s) holds every content word of
    /// the answer; the others come back as rejections with the words they lack.
    static func ground(_ candidates: [Flashcard], topic: Topic) -> (kept: [Flashcard], rejected: [CardRejection]) {
        var stems: [Int64: CardGrounding.PassageStems] = [:]
        var kept: [Flashcard] = []
        var rejected: [CardRejection] = []
        for var card in candidates {
            func reject(_ reason: CardRejection.Reason, _ detail: String) {
                rejected.append(CardRejection(topicStableId: topic.stableId, front: card.front, answer: card.answer,
                                              reason: reason, detail: detail))
            }
            guard let passage = topic.passages.first(where: { $0.id == card.source.passageId }) else {
                reject(.unknownPassage, "passage \(card.source.passageId) is not one of topic \(topic.stableId)'s")
                continue
            }
            // A formula's symbols are not words: the passage grounds it when it states the same relation.
            if card.origin == .formula {
                if FormulaStatements.states(passage.text, card: card) {
                    card.grounding = 1
                    kept.append(card)
                } else {
                    reject(.unsupported, "passage \(passage.id) states no relation “\(card.back)”")
                }
                continue
            }
            // A block's statement is the source's own, word for word (it may run on into the next passage).
            if card.origin == .environment, StatementBlocks.holds(card.back, passage: passage, topic: topic) {
                card.grounding = 1
                kept.append(card)
                continue
            }
            // (A block's statement shows the glyphs the PDF printed: "R₀⁺" where the text layer has "R+ 0".)
            let passageStems = stems[passage.id] ?? CardGrounding.PassageStems(StatementBlocks.repairingGlyphs(passage.text))
            stems[passage.id] = passageStems
            switch CardGrounding.check(answer: card.answer, in: passageStems) {
            case .supported:
                card.grounding = 1
                kept.append(card)
            case .empty:
                reject(.emptyAnswer, "the answer has no content word")
            case .unsupported(let missing, let share):
                card.grounding = share
                reject(.unsupported, "passage \(passage.id) lacks: " + missing.prefix(8).joined(separator: ", "))
            }
        }
        return (kept, rejected)
    }

    /// Scores `cards` (one topic's, grounded) on the six checks; those under `minQuality` come
    /// back as rejections under their first failed check, with its reason.
    static func assess(_ cards: [Flashcard], topic: Topic, checks: CardChecks, minQuality: Double) -> (kept: [Flashcard], rejected: [CardRejection]) {
        var kept: [Flashcard] = []
        var rejected: [CardRejection] = []
        let scored = checks.assess(cards, topic: topic)
        for card in scored {
            guard let quality = card.quality, quality.score + 1e-9 < minQuality, let failure = quality.firstFailure else {
                kept.append(card)
                continue
            }
            let check = CardCheck(rawValue: failure.name) ?? .grounding
            rejected.append(CardRejection(topicStableId: topic.stableId, front: card.front, answer: card.answer,
                                          reason: CardRejection.Reason(check), detail: failure.reason))
        }
        return (kept, rejected)
    }

    /// The one card a topic with explanatory text and no card yet gets from the facts its prose
    /// states in lesser shapes (`FallbackFacts`: a lecturer's definition, a relative clause's
    /// definition, what a thing is an example of, an abbreviation, an event's year): the first,
    /// in that order, that passes every check. None where the topic has a card, is short, or
    /// nothing passes: the checks are never loosened for coverage, and a candidate failing one
    /// (a glossary term's other sense, a cloze of a word that is no term) is no card however
    /// bare its topic. (Read only here: most topics never pay for it.)
    static func coverage(_ topic: Topic, kept: [Flashcard], deck: CardDeckContext, checks: CardChecks, minQuality: Double) -> [Flashcard] {
        guard kept.isEmpty, minQuality > 0, proseWords(topic) >= fallbackWords else { return [] }
        let grounded = ground(FallbackFacts.candidates(for: topic, in: deck), topic: topic).kept
        return checks.assess(grounded, topic: topic).first { $0.quality?.checks.allSatisfy(\.passed) == true }.map { [$0] } ?? []
    }

    /// One long topic does not swamp the deck: past its share, the cards ranked last go. The
    /// source's own glossary, blocks and formulas always stay: they are what the topic teaches.
    static func capped(_ cards: [Flashcard], topics: [Topic]) -> (kept: [Flashcard], rejected: [CardRejection]) {
        let byId = Dictionary(topics.map { ($0.stableId, $0) }, uniquingKeysWith: { first, _ in first })
        var dropped = Set<Int>()
        var rejected: [CardRejection] = []
        for (topicId, indices) in Dictionary(grouping: cards.indices, by: { cards[$0].topicStableId }) {
            guard let topic = byId[topicId] else { continue }
            let share = topicShare(topic)
            guard indices.count > share else { continue }
            let order = indices.sorted { a, b in
                let x = shareRank(cards[a]), y = shareRank(cards[b])
                return (x.0, x.1, a) < (y.0, y.1, b)
            }
            let own = order.filter { shareRank(cards[$0]).0 == 0 }
            let keep = Set(own + order.filter { shareRank(cards[$0]).0 != 0 }.prefix(max(0, share - own.count)))
            for index in indices where !keep.contains(index) {
                dropped.insert(index)
                rejected.append(CardRejection(topicStableId: topicId, front: cards[index].front, answer: cards[index].answer,
                                              reason: .overTopicShare, detail: "the topic's \(share) cards rank above it"))
            }
        }
        return (cards.indices.filter { !dropped.contains($0) }.map { cards[$0] }, rejected)
    }

    /// Words of prose per card a topic's share grows by, and the share's bounds: a 3,000-word
    /// section gets 20 cards, a short one still 10, none more than 25 (besides the source's own).
    static let wordsPerCard = 150
    static let shareBounds = 10...25

    /// The most cards a topic keeps.
    static func topicShare(_ topic: Topic) -> Int {
        min(shareBounds.upperBound, max(shareBounds.lowerBound, proseWords(topic) / wordsPerCard))
    }

    /// Defined terms, formulas and the source's blocks before mined sentences; Basic before
    /// Cloze, since one sentence often makes both; then the topic's order.
    private static func shareRank(_ card: Flashcard) -> (Int, Int) {
        let origin: Int
        switch card.origin {
        case .glossary, .environment, .formula, .example, .statement: origin = 0
        case .keyTerm: origin = 1
        case .definition: origin = 2
        case .model: origin = 3
        case .objective: origin = 4
        }
        return (origin, card.noteType == .cloze ? 1 : 0)
    }

    /// Topics with at least this many words of prose get at least one card.
    static let fallbackWords = 150

    static func proseWords(_ topic: Topic) -> Int {
        topic.passages.filter { [.text, .list, .transcript].contains($0.kind) }.reduce(0) { $0 + WordTokenizer.words($1.text).count }
    }

    /// Carries the modification times of `previous` cards over to `cards`: unchanged notes
    /// keep theirs, changed ones get one later than both their old one and `now`, so Anki
    /// (which updates a note only from a newer one) takes the change.
    static func revise(_ cards: [Flashcard], previous: [Flashcard], now: Date = Date()) -> [Flashcard] {
        let before = Dictionary(previous.map { ($0.guid, $0) }, uniquingKeysWith: { first, _ in first })
        return cards.map { card in
            var card = card
            guard let old = before[card.guid] else { card.modifiedAt = now; return card }
            if old.contentKey == card.contentKey {
                card.modifiedAt = old.modifiedAt
            } else {
                // Anki compares whole seconds.
                card.modifiedAt = max(now, old.modifiedAt.addingTimeInterval(1))
            }
            return card
        }
    }
}
