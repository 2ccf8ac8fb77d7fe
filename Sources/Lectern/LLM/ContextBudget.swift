import Foundation

/// Fits prompt material into a model's context window, by token estimate: what is left after
/// the fixed part of the prompt and room for the answer (plus a margin, since the estimate is
/// not the model's own tokenizer).
struct ContextBudget: Sendable {
    var contextTokens: Int
    var answerTokens: Int
    var counter: any TokenCounter = ApproximateTokenCounter()
    /// Kept free for chat-template tokens and estimate error.
    var margin = 0.1

    init(contextTokens: Int, answerTokens: Int) {
        self.contextTokens = contextTokens
        self.answerTokens = answerTokens
    }

    /// Tokens left for material once `fixed` (instructions, question) is in.
    func available(besides fixed: String) -> Int {
        let usable = Int(Double(contextTokens) * (1 - margin)) - answerTokens - counter.count(fixed) - 16
        return max(0, usable)
    }

    /// The leading texts that fit in `tokens`, the last one cut at a word boundary when it
    /// does not fit whole (and dropped when less than 32 tokens of it would remain).
    func fit(_ texts: [String], within tokens: Int) -> [String] {
        var left = tokens
        var kept: [String] = []
        for text in texts {
            let cost = counter.count(text) + 4
            if cost <= left {
                kept.append(text)
                left -= cost
                continue
            }
            if left >= 32 { kept.append(truncate(text, to: left - 4)) }
            break
        }
        return kept
    }

    /// `text` cut to about `tokens` tokens at a word boundary, marked with "…".
    func truncate(_ text: String, to tokens: Int) -> String {
        guard counter.count(text) > tokens else { return text }
        var low = 0
        var high = text.count
        let chars = Array(text)
        while low < high {
            let mid = (low + high + 1) / 2
            if counter.count(String(chars[..<mid])) <= tokens { low = mid } else { high = mid - 1 }
        }
        var end = low
        while end > 0, !chars[end - 1].isWhitespace { end -= 1 }
        if end == 0 { end = low }
        return String(chars[..<end]).trimmingCharacters(in: .whitespaces) + " …"
    }
}
