/// "tokens 1,234 in / 210 out, 3 calls, 2 cached, cost $0.0012" from a run's counts.
enum UsageLine {
    static func make(_ counts: [String: Int]) -> String? {
        let calls = counts["llm.calls"] ?? 0
        let hits = counts["llm.cache_hits"] ?? 0
        guard calls + hits > 0 else { return nil }
        var parts = ["tokens \(counts["llm.input_tokens"] ?? 0) in / \(counts["llm.output_tokens"] ?? 0) out",
                     "\(calls) call\(calls == 1 ? "" : "s")", "\(hits) cached"]
        if let micro = counts["llm.cost_microusd"] { parts.append(String(format: "cost $%.4f", Double(micro) / 1_000_000)) }
        return parts.joined(separator: ", ")
    }
}
