/// Fits a tutoring context into a token budget: the heading always, then the topic's sections
/// item by item in the order a tutor needs them (within half the budget, so passages keep
/// room), then passages, most useful first, each whole or cut after its last sentence that
/// fits, never inside one. The rendered Markdown is counted at the end and trimmed until it fits.
struct ContextPacker {
    let counter: PromptTokenCounter
    /// What two blocks' blank line costs at most, in tokens.
    static let separator = 2
    /// Below this many tokens left, a passage's leading sentences are not worth offering.
    static let smallestCut = 24
    /// Candidates in a row that do not fit, not even their first sentence, after which the
    /// packer stops trying: what is left of the budget is too little for a passage of the
    /// kind this ranking holds, and each try reads a passage.
    static let triesWithoutFit = 8

    func pack(query: String?, topic: ContextTopic?, candidates: [ContextPassage], budget: Int) throws -> TutoringContext {
        try pack(query: query, topic: topic, candidateCount: candidates.count, candidate: { candidates[$0] }, budget: budget)
    }

    /// `pack` over `candidateCount` ranked passages, most useful first, each made by
    /// `candidate` only when the packer comes to it: once the budget is spent the rest are
    /// never read.
    func pack(query: String?, topic: ContextTopic?, candidateCount: Int, candidate passageAt: (Int) throws -> ContextPassage,
              budget: Int) throws -> TutoringContext {
        let usable = counter.usable(budget)
        var used = try counter.count(TutoringContext.heading(query: query, topic: topic))
        var packedTopic: ContextTopic?
        if let topic {
            let allowance = candidateCount == 0 ? usable - used : usable / 2 - used
            let (fitted, cost) = try packTopic(topic, within: max(0, allowance))
            packedTopic = fitted
            used += cost
        }
        var passages: [ContextPassage] = []
        let passagesHeading = try counter.count("## Passages") + Self.separator
        var misses = 0
        for index in 0..<candidateCount {
            let heading = passages.isEmpty ? passagesHeading : 0
            let left = usable - used - heading
            if left < Self.smallestCut || misses == Self.triesWithoutFit { break }
            guard let (fitted, cost) = try fit(try passageAt(index), number: passages.count + 1, within: left) else {
                misses += 1
                continue
            }
            misses = 0
            passages.append(fitted)
            used += cost + heading
        }
        var context = TutoringContext(query: query, topic: packedTopic, passages: passages, budget: budget, tokens: 0,
                                      counter: counter.name, omittedPassages: 0)
        // Block by block is an estimate of the whole (a tokenizer may merge across a join).
        context.tokens = try counter.count(context.markdown)
        while context.tokens > usable, !context.passages.isEmpty {
            context.passages.removeLast()
            context.tokens = try counter.count(context.markdown)
        }
        context.omittedPassages = candidateCount - context.passages.count
        return context
    }

    /// `passage` as block `number` whole, or its leading sentences, within `tokens`; nil when
    /// not even its first sentence fits.
    func fit(_ passage: ContextPassage, number: Int, within tokens: Int) throws -> (ContextPassage, Int)? {
        let whole = try counter.count(TutoringContext.passageBlock(passage, number: number)) + Self.separator
        if whole <= tokens { return (passage, whole) }
        let sentences = SentenceSplitter.split(passage.text)
        guard sentences.count > 1 else { return nil }
        // The longest run of leading sentences that fits (costs grow with the run: binary search).
        var low = 0
        var best: (ContextPassage, Int)?
        var high = sentences.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            var cut = passage
            cut.text = sentences[..<mid].map(\.text).joined(separator: " ")
            cut.complete = false
            let cost = try counter.count(TutoringContext.passageBlock(cut, number: number)) + Self.separator
            if cost <= tokens {
                low = mid
                best = (cut, cost)
            } else {
                high = mid - 1
            }
        }
        return best
    }

    /// The topic's items that fit in `tokens`, in order: objectives, prerequisites, what comes
    /// next, key terms, then the summary (whole, or left out).
    func packTopic(_ topic: ContextTopic, within tokens: Int) throws -> (ContextTopic, Int) {
        var packed = topic
        packed.objectives = []
        packed.prerequisites = []
        packed.next = []
        packed.keyTerms = []
        packed.summary = nil
        var used = 0
        func cost(of candidate: ContextTopic) throws -> Int {
            let blocks = TutoringContext.topicBlocks(candidate)
            return blocks.isEmpty ? 0 : try counter.count(blocks.joined(separator: "\n\n")) + Self.separator
        }
        func tryAdding(_ change: (inout ContextTopic) -> Void) throws -> Bool {
            var candidate = packed
            change(&candidate)
            let candidateCost = try cost(of: candidate)
            guard candidateCost <= tokens else { return false }
            packed = candidate
            used = candidateCost
            return true
        }
        for objective in topic.objectives where !(try tryAdding { $0.objectives.append(objective) }) { break }
        for link in topic.prerequisites where !(try tryAdding { $0.prerequisites.append(link) }) { break }
        for link in topic.next where !(try tryAdding { $0.next.append(link) }) { break }
        for term in topic.keyTerms where !(try tryAdding { $0.keyTerms.append(term) }) { break }
        // The summary whole or not at all: its first sentences alone can misstate it.
        if let summary = topic.summary, !summary.isEmpty { _ = try tryAdding { $0.summary = summary } }
        return (packed, used)
    }
}
