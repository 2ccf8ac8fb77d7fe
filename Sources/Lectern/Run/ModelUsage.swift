import Foundation

/// What a run asked of language models: calls, answers from the cache, tokens and cost.
public struct ModelUsage: Codable, Sendable, Equatable {
    public var calls = 0
    public var cacheHits = 0
    public var inputTokens = 0
    public var outputTokens = 0
    /// Millionths of a US dollar, when the model's price is known.
    public var costMicroUSD: Int?

    init() {}

    /// The usage kept in a run's counts (`llm.calls`, `llm.cache_hits`, …); nil for a run that made no call.
    init?(counts: [String: Int]) {
        calls = counts[Self.callsKey] ?? 0
        cacheHits = counts[Self.cacheHitsKey] ?? 0
        guard calls + cacheHits > 0 else { return nil }
        inputTokens = counts[Self.inputTokensKey] ?? 0
        outputTokens = counts[Self.outputTokensKey] ?? 0
        costMicroUSD = counts[Self.costKey]
    }

    /// As a run's counts keep it (the keys `runs --json` has always printed, each only when it
    /// is not zero: a run answered from the cache alone has no `llm.calls`).
    var counts: [String: Int] {
        guard calls + cacheHits > 0 else { return [:] }
        var counts = [Self.callsKey: calls, Self.cacheHitsKey: cacheHits, Self.inputTokensKey: inputTokens, Self.outputTokensKey: outputTokens]
        if let costMicroUSD { counts[Self.costKey] = costMicroUSD }
        return counts.filter { $0.value != 0 }
    }

    mutating func add(cached: Bool, inputTokens: Int, outputTokens: Int, costMicroUSD: Int?) {
        if cached { cacheHits += 1 } else { calls += 1 }
        self.inputTokens += inputTokens
        self.outputTokens += outputTokens
        if let costMicroUSD, costMicroUSD > 0 { self.costMicroUSD = (self.costMicroUSD ?? 0) + costMicroUSD }
    }

    /// Counts under this prefix are the model's, not a stage's.
    static let countPrefix = "llm."
    static let callsKey = "llm.calls", cacheHitsKey = "llm.cache_hits", inputTokensKey = "llm.input_tokens"
    static let outputTokensKey = "llm.output_tokens", costKey = "llm.cost_microusd"
}
