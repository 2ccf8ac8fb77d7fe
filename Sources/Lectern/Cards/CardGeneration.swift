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
            let assessed = assess(grounded.kept, topic: chosen[index], checks: checks, minQuality: minQuality)
            return (assessed.kept, grounded.rejected + assessed.rejected)
        }
        var cards: [Flashcard] = []
        for case .success(let (kept, rejected)) in perTopic {
            report.candidates += kept.count + rejected.count
            cards += kept
            report.rejections += rejected
        }
        let deduplicated = CardDeduplication.deduplicate(cards)
        report.exactDuplicates = deduplicated.exact
        report.nearDuplicates = deduplicated.near
        report.kept = deduplicated.cards.count
        return (deduplicated.cards, report)
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
            let assessed = assess(grounded.kept, topic: topic, checks: checks, minQuality: minQuality)
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
        let deduplicated = CardDeduplication.deduplicate(cards)
        report.exactDuplicates = deduplicated.exact
        report.nearDuplicates = deduplicated.near
        report.kept = deduplicated.cards.count
        return (deduplicated.cards, report, failures)
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
            guard let passage = topic.passages.first(where: { $0.passageId == card.source.passageId }) else {
                reject(.unknownPassage, "passage \(card.source.passageId) is not one of topic \(topic.stableId)'s")
                continue
            }
            let passageStems = stems[passage.passageId] ?? CardGrounding.PassageStems(passage.text)
            stems[passage.passageId] = passageStems
            switch CardGrounding.check(answer: card.answer, in: passageStems) {
            case .supported:
                card.grounding = 1
                kept.append(card)
            case .empty:
                reject(.emptyAnswer, "the answer has no content word")
            case .unsupported(let missing, let share):
                card.grounding = share
                reject(.unsupported, "passage \(passage.passageId) lacks: " + missing.prefix(8).joined(separator: ", "))
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
        // A topic with explanatory text and no card keeps its best candidate that the source
        // states, as a term with a complete definition where it is one, and that the passage
        // grounds: what a learner reads on it is true, if not a card a teacher would polish.
        if kept.isEmpty, minQuality > 0, proseWords(topic) >= fallbackWords,
           let best = scored.filter(isTruthful).min(by: { fallbackRank($0) < fallbackRank($1) }) {
            kept.append(best)
            if let at = rejected.firstIndex(where: { $0.front == best.front && $0.answer == best.answer }) { rejected.remove(at: at) }
        }
        return (kept, rejected)
    }

    /// Topics with at least this many words of prose get at least one card.
    static let fallbackWords = 150

    static func proseWords(_ topic: Topic) -> Int {
        topic.passages.filter { [.text, .list, .transcript].contains($0.kind) }.reduce(0) { $0 + WordTokenizer.words($1.text).count }
    }

    /// Passes the checks that decide whether the card is true (the source asserts it, the
    /// passage states it, its subject is a term) and can be answered: a lecture's "And that's
    /// called X" cloze or an objective asking for work is no card even for an empty topic.
    static func isTruthful(_ card: Flashcard) -> Bool {
        guard card.origin != .objective else { return false }
        let truth: Set<String> = [CardCheck.sourceAssertion.rawValue, CardCheck.grounding.rawValue, CardCheck.subjectForm.rawValue,
                                  CardCheck.answerability.rawValue]
        return card.quality?.checks.allSatisfy { $0.passed || !truth.contains($0.name) } ?? false
    }

    /// Defined terms and statements first, Basic before Cloze, then the fewest failed checks.
    private static func fallbackRank(_ card: Flashcard) -> (Int, Int, Int) {
        let origin: Int
        switch card.origin {
        case .environment, .glossary: origin = 0
        case .keyTerm, .definition: origin = 1
        case .objective: origin = 2
        case .model: origin = 3
        }
        return (origin, card.noteType == .cloze ? 1 : 0, card.quality?.checks.filter { !$0.passed }.count ?? 6)
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
