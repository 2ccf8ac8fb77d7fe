import Foundation

/// Summaries from a language model: JSON constrained to a schema (validated, one repair),
/// the section text trimmed to the model's context window.
public struct ModelSummarizer: Summarizer {
    let languageModel: any LanguageModel
    var maxTokens: Int
    var temperature: Double

    /// Bump when the prompt changes, so that cached answers to the old prompt are not reused.
    static let template = "summary/1"

    /// The lengths bound what 3–5 sentences and short points need, so that a server which
    /// decodes by the schema (llama.cpp) closes a small model's looping string in time to finish
    /// its JSON within the default llm.max_tokens.
    static let schema = JSONSchema(name: "summary", [
        "type": "object",
        "properties": [
            "summary": ["type": "string", "minLength": 1, "maxLength": 1000],
            "key_points": ["type": "array", "items": ["type": "string", "minLength": 1, "maxLength": 120], "minItems": 1, "maxItems": 6],
        ],
        "required": ["summary", "key_points"],
        "additionalProperties": false,
    ])

    public init(_ languageModel: any LanguageModel, maxTokens: Int = 512, temperature: Double = 0) {
        self.languageModel = languageModel
        self.maxTokens = maxTokens
        self.temperature = temperature
    }

    public var provider: String { languageModel.info.provider }
    public var model: String { languageModel.info.model }

    static let instructions = """
        You summarise study material for a student. Use only the text given. Write a summary of \
        3 to 5 sentences and up to 6 short key points. Answer with JSON: \
        {"summary": "…", "key_points": ["…"]}.
        """

    public func summarize(_ input: SummaryInput) throws -> Summary {
        var heading = "Title: \(input.title)"
        if let section = input.section { heading += "\nSection: \(section)" }
        // Section summaries first: when the opening text is long, it is what gets trimmed.
        let material = input.sectionSummaries.map { "Section \"\($0.section)\": \($0.summary.text)" } + input.paragraphs
        let budget = ContextBudget(contextTokens: languageModel.info.contextTokens, answerTokens: maxTokens)
        let fitted = budget.fit(material, within: budget.available(besides: Self.instructions + heading))
        guard !fitted.isEmpty else {
            throw LecternError(.empty, input.section ?? input.title, "no text to summarise")
        }
        let request = ChatRequest(
            messages: [.system(Self.instructions), .user(heading + "\n\nText:\n" + fitted.joined(separator: "\n\n"))],
            maxTokens: maxTokens, temperature: temperature, template: Self.template,
            subject: input.section.map { "\(input.title) › \($0)" } ?? input.title)
        var summary = try languageModel.generate(Summary.self, request: request, schema: Self.schema).value
        summary.text = summary.text.trimmingCharacters(in: .whitespacesAndNewlines)
        summary.keyPoints = Summary.distinct(summary.keyPoints)
        // The schema's minLength counts spaces; a small model can satisfy it with nothing to read.
        guard !summary.text.isEmpty else {
            throw LecternError(.modelAnswer, languageModel.info.description, "the model's summary is blank (it wrote only spaces)")
        }
        return summary
    }
}
