import Foundation

/// What a model costs, in US dollars per million tokens.
public struct ModelPrice: Sendable, Equatable, Codable {
    var input: Double
    var output: Double

    init(input: Double, output: Double) {
        self.input = input
        self.output = output
    }

    func cost(inputTokens: Int, outputTokens: Int) -> Double {
        (Double(inputTokens) * input + Double(outputTokens) * output) / 1_000_000
    }

    /// `gpt-4o-mini=0.15/0.60,claude-3-5-haiku-latest=0.8/4` (the form for env and flags).
    static func parseList(_ text: String) throws -> [String: ModelPrice] {
        var prices: [String: ModelPrice] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            let numbers = parts.count == 2 ? parts[1].split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } : []
            guard parts.count == 2, numbers.count == 2 else {
                throw LecternError(.configuration, "llm.prices", "'\(entry)' is not MODEL=INPUT/OUTPUT (dollars per million tokens)")
            }
            prices[parts[0].trimmingCharacters(in: .whitespaces)] = ModelPrice(input: numbers[0], output: numbers[1])
        }
        return prices
    }
}
