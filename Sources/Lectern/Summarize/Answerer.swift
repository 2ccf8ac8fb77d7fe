import Foundation

/// A passage an answer may cite, numbered as the model saw it.
public struct Citation: Codable, Sendable, Equatable {
    public var number: Int
    public var title: String
    /// `paper.pdf p.12 § Methods`, `lecture.srt @ 00:12:34`.
    public var location: String
    var documentId: String
    var passageId: Int64
    var page: Int?
    /// Seconds into a recording.
    var time: Double?
    public var text: String
}

/// What `lectern ask` found and answered.
public struct Answer: Codable, Sendable {
    var question: String
    /// Nil when no model is configured: the passages are the answer.
    public var answer: String?
    public var provider: String?
    public var model: String?
    /// The passages, numbered as in the answer's [n] citations.
    public var passages: [Citation]
    /// The passage numbers the answer cites, in order of first mention.
    public var cited: [Int]
    public var note: String?
}

/// Answers a question from the library: hybrid search picks passages, a model answers from
/// them alone with numbered citations. Without a model, the passages are returned.
public struct Answerer: Sendable {
    let searcher: Searcher
    let languageModel: (any LanguageModel)?
    var maxTokens: Int
    var temperature: Double

    static let template = "ask/1"

    public init(searcher: Searcher, languageModel: (any LanguageModel)?, maxTokens: Int = 512, temperature: Double = 0) {
        self.searcher = searcher
        self.languageModel = languageModel
        self.maxTokens = maxTokens
        self.temperature = temperature
    }

    static let instructions = """
        Answer the student's question using only the numbered passages below. After each claim, \
        cite the passages it comes from by number in square brackets, like [1] or [2][3]. If the \
        passages do not answer the question, say so briefly.
        """

    public func ask(_ question: String, k: Int = 8, filter: SearchFilter = SearchFilter()) throws -> Answer {
        let hits = try searcher.search(question, k: k, mode: .hybrid, filter: filter)
        var citations = hits.enumerated().map { index, hit in
            Citation(number: index + 1, title: hit.title, location: hit.location, documentId: hit.documentId, passageId: hit.passageId,
                     page: hit.pageStart, time: hit.time ?? hit.timeStart, text: hit.text)
        }
        guard let languageModel else {
            return Answer(question: question, answer: nil, provider: nil, model: nil, passages: citations, cited: [],
                          note: "no language model is configured (set llm.provider and llm.model): these are the best passages")
        }
        guard !citations.isEmpty else {
            return Answer(question: question, answer: nil, provider: languageModel.info.provider, model: languageModel.info.model,
                          passages: [], cited: [], note: "no passage in the library matches the question")
        }
        let question = question.trimmingCharacters(in: .whitespacesAndNewlines)
        let budget = ContextBudget(contextTokens: languageModel.info.contextTokens, answerTokens: maxTokens)
        let blocks = citations.map { "[\($0.number)] \($0.title) — \($0.location)\n\($0.text)" }
        let fitted = budget.fit(blocks, within: budget.available(besides: Self.instructions + question))
        // Only passages the model saw can be cited.
        citations = Array(citations.prefix(fitted.count))
        let request = ChatRequest(
            messages: [.system(Self.instructions), .user("Passages:\n\n" + fitted.joined(separator: "\n\n") + "\n\nQuestion: " + question)],
            maxTokens: maxTokens, temperature: temperature, template: Self.template)
        let response = try languageModel.complete(request)
        // A small model may cite a passage it was never shown: such a mark would send the
        // reader to nothing, so it goes (the answer's other words stay as written).
        let text = Self.withoutUnknownCitations(response.text, count: citations.count).trimmingCharacters(in: .whitespacesAndNewlines)
        return Answer(question: question, answer: text, provider: languageModel.info.provider, model: response.model,
                      passages: citations, cited: Self.citedNumbers(text, count: citations.count), note: nil)
    }

    static let citationMark = try? NSRegularExpression(pattern: #"\[(\d+(?:\s*[,–-]\s*\d+)*)\]"#)

    /// `text` with citation marks cut down to the passages 1…count: `[2, 9]` becomes `[2]` and
    /// a mark naming no such passage is removed with the space before it.
    static func withoutUnknownCitations(_ text: String, count: Int) -> String {
        guard let pattern = citationMark else { return text }
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            // Marks are rewritten from the last, so the text before each is still as matched.
            guard let whole = Range(match.range, in: result), let inner = Range(match.range(at: 1), in: result) else { continue }
            let numbers = result[inner].split(whereSeparator: { ",–-".contains($0) }).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let known = numbers.filter { count > 0 && (1...count).contains($0) }
            guard known.count < numbers.count else { continue }
            var range = whole
            if known.isEmpty, range.lowerBound > result.startIndex, result[result.index(before: range.lowerBound)] == " " {
                range = result.index(before: range.lowerBound)..<range.upperBound
            }
            result.replaceSubrange(range, with: known.isEmpty ? "" : "[" + known.map(String.init).joined(separator: ", ") + "]")
        }
        return result
    }

    /// The numbers in `[n]` (and `[n, m]`) marks that name a passage, in order of first mention.
    static func citedNumbers(_ text: String, count: Int) -> [Int] {
        var result: [Int] = []
        let range = NSRange(text.startIndex..., in: text)
        for match in citationMark?.matches(in: text, range: range) ?? [] {
            guard let inner = Range(match.range(at: 1), in: text) else { continue }
            for piece in text[inner].split(whereSeparator: { ",–-".contains($0) }) {
                if let n = Int(piece.trimmingCharacters(in: .whitespaces)), (1...max(1, count)).contains(n), !result.contains(n) {
                    result.append(n)
                }
            }
        }
        return result
    }
}
