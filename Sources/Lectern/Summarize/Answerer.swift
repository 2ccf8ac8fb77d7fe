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
    /// Why the model stopped: `stop`, or `length` when the answer was cut at `llm.max_tokens`.
    public var finishReason: String?
    public var inputTokens: Int?
    public var outputTokens: Int?
    /// True when the answer came from the library's cache (no request was sent).
    public var cached: Bool?

    /// True when the model stopped at `llm.max_tokens`, so the answer is cut off.
    public var truncated: Bool { finishReason == "length" }
}

/// Answers a question from the library: hybrid search picks passages, a model answers from
/// them alone with numbered citations. Without a model, the passages are returned.
public struct Answerer: Sendable {
    let searcher: Searcher
    let languageModel: (any LanguageModel)?
    var maxTokens: Int
    var temperature: Double
    /// True when `llm.provider` is `extractive`: no model by choice, which the note says.
    var extractive: Bool

    static let template = "ask/1"

    public init(searcher: Searcher, languageModel: (any LanguageModel)?, maxTokens: Int = 512, temperature: Double = 0,
                extractive: Bool = false) {
        self.searcher = searcher
        self.languageModel = languageModel
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.extractive = extractive
    }

    static let instructions = """
        Answer the student's question using only the numbered passages below. After each claim, \
        cite the passages it comes from by number in square brackets, like [1] or [2][3]. If the \
        passages do not answer the question, say so briefly.
        """

    /// `onText`, when given, receives the answer as the model writes it (citation marks that
    /// name no passage already left out, as in the returned answer).
    public func ask(_ question: String, k: Int = 8, filter: SearchFilter = SearchFilter(),
                    onText: ((String) -> Void)? = nil) throws -> Answer {
        let hits = try searcher.search(question, k: k, mode: .hybrid, filter: filter)
        var citations = hits.enumerated().map { index, hit in
            Citation(number: index + 1, title: hit.title, location: hit.location, documentId: hit.documentId, passageId: hit.passageId,
                     page: hit.pageStart, time: hit.time ?? hit.timeStart, text: hit.text)
        }
        guard let languageModel else {
            let note = extractive
                ? "llm.provider is extractive: ask shows the passages that best answer the question, without a written answer"
                : "no language model is configured (set llm.provider and llm.model): these are the best passages"
            return Answer(question: question, answer: nil, provider: extractive ? "extractive" : nil, model: nil, passages: citations,
                          cited: [], note: note)
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
            maxTokens: maxTokens, temperature: temperature, template: Self.template, subject: question)
        let response: ChatResponse
        if let onText {
            let filter = CitationFilter(count: citations.count, emit: onText)
            response = try languageModel.stream(request) { filter.add($0) }
            filter.finish()
        } else {
            response = try languageModel.complete(request)
        }
        // A small model may cite a passage it was never shown: such a mark would send the
        // reader to nothing, so it goes (the answer's other words stay as written).
        let text = Self.withoutUnknownCitations(response.text, count: citations.count).trimmingCharacters(in: .whitespacesAndNewlines)
        return Answer(question: question, answer: text, provider: languageModel.info.provider, model: response.model,
                      passages: citations, cited: Self.citedNumbers(text, count: citations.count), note: nil,
                      finishReason: response.finishReason ?? "stop", inputTokens: response.inputTokens,
                      outputTokens: response.outputTokens, cached: response.cached)
    }

    /// The streamed answer as the returned one will read: leading space dropped, and a citation
    /// mark held back until it is closed, so that one naming no passage never shows.
    final class CitationFilter {
        let count: Int
        let emit: (String) -> Void
        private var pending = ""
        private var started = false

        init(count: Int, emit: @escaping (String) -> Void) {
            self.count = count
            self.emit = emit
        }

        func add(_ piece: String) {
            pending += piece
            if !started {
                pending = String(pending.drop(while: \.isWhitespace))
                guard !pending.isEmpty else { return }
                started = true
            }
            var cut = pending.endIndex
            if let open = pending.lastIndex(of: "["), !pending[open...].contains("]"), pending.distance(from: open, to: cut) < 24 {
                cut = open
            }
            // Spaces wait too: removing a mark removes the space before it.
            while cut > pending.startIndex, pending[pending.index(before: cut)].isWhitespace { cut = pending.index(before: cut) }
            guard cut > pending.startIndex else { return }
            let ready = String(pending[..<cut])
            pending = String(pending[cut...])
            emit(Answerer.withoutUnknownCitations(ready, count: count))
        }

        func finish() {
            let rest = Answerer.withoutUnknownCitations(pending, count: count)
            pending = ""
            let trimmed = String(rest.reversed().drop(while: \.isWhitespace).reversed())
            if !trimmed.isEmpty { emit(trimmed) }
        }
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

extension Citation: PassageReferenced {
    var referencedPassage: Int64? { passageId }
    public func encode(to encoder: any Encoder) throws { try encodeWithPassageReference(to: encoder) }
}
