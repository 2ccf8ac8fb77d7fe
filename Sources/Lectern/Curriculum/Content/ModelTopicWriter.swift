import Foundation

/// A topic's title and learning objectives written by a language model, through a JSON
/// schema, from the topic's own passages. The offline methods (KeyPhrases, OfflineObjectives)
/// stay the default; a caller that has a model (wrapped in `LibraryModel`, whose cache makes a
/// rebuild with unchanged passages free) uses this instead and falls back on an error.
struct ModelTopicWriter: Sendable {
    let languageModel: any LanguageModel
    var maxTokens: Int
    var temperature: Double
    /// The most of the topic's text the model reads: a title and objectives need its opening
    /// and main terms, not all of it, and a small local model reads ~10 tokens a second.
    var materialTokens: Int

    /// Bump when the prompt or schema changes, so that cached answers to the old one are not reused.
    static let template = "topic/3"

    /// Verbs an objective may start with (measurable ones, after Bloom's taxonomy). The schema
    /// makes the verb an enum, so every provider, not only those that enforce patterns, returns
    /// an objective that starts with one.
    static let verbs = [
        "Explain", "Describe", "Define", "Identify", "Compare", "Distinguish", "Apply", "Calculate", "Analyse",
        "Evaluate", "Summarise", "Outline", "Interpret", "Use", "State", "List", "Discuss", "Predict", "Relate",
        "Recognise", "Classify", "Derive", "Solve", "Justify",
    ]

    /// Lengths sized for a small model, which fills a string to its bound: a short title, two or
    /// three objectives of one clause, all well within `maxTokens` (whitespace included).
    static let schema = JSONSchema(name: "topic", [
        "type": "object",
        "properties": [
            "title": ["type": "string", "minLength": 5, "maxLength": 60],
            "objectives": [
                "type": "array", "minItems": 2, "maxItems": 3,
                "items": [
                    "type": "object",
                    "properties": [
                        "verb": ["type": "string", "enum": .array(verbs.map { .string($0) })],
                        "rest": ["type": "string", "minLength": 20, "maxLength": 90],
                    ],
                    "required": ["verb", "rest"],
                    "additionalProperties": false,
                ],
            ],
        ],
        "required": ["title", "objectives"],
        "additionalProperties": false,
    ])

    /// Worded for small local models too: Gemma 3 270M copies any placeholder or example it
    /// is shown into its answer, so the prompt shows none; the schema gives the JSON's shape.
    static let instructions = """
        You write the title and the learning objectives of a lesson, from the lesson's text. The title \
        names the subject in at most 8 words. Each learning objective says what a student can do after \
        the lesson: a verb such as Explain, Describe or Define, then the rest of the sentence, about the \
        lesson's own subject.
        """

    /// What the model wrote, cleaned: the title without quotes or a closing full stop, each
    /// objective one sentence starting with its verb, no two alike; a title or objectives not
    /// about the text are left out (an empty title, no objectives).
    struct Written: Sendable, Equatable {
        var title: String
        var objectives: [String]
    }

    private struct Answer: Decodable, Sendable {
        struct Objective: Decodable, Sendable {
            var verb: String
            var rest: String
        }
        var title: String
        var objectives: [Objective]
    }

    init(_ languageModel: any LanguageModel, maxTokens: Int = 400, temperature: Double = 0, materialTokens: Int = 600) {
        self.languageModel = languageModel
        self.materialTokens = materialTokens
        self.maxTokens = maxTokens
        self.temperature = temperature
    }

    /// `context`: where the topic sits ("Introduction to Philosophy › Logic"), when known: it
    /// helps a model name the subject, and is part of what the cache keys on.
    func write(_ passages: [Passage], context: String? = nil) async throws -> Written {
        try await withCheckedThrowingContinuation { continuation in
            // The model call blocks on the network: off the cooperative pool.
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.writeNow(passages, context: context) })
            }
        }
    }

    func writeNow(_ passages: [Passage], context: String?) throws -> Written {
        let heading = context.map { "Course context: \($0)" } ?? ""
        // The teaching text, not the exercises: objectives say what the text teaches.
        let material = passages.filter { $0.kind != .exercise }.map(\.text)
        let budget = ContextBudget(contextTokens: languageModel.info.contextTokens, answerTokens: maxTokens)
        let fitted = budget.fit(material, within: min(materialTokens, budget.available(besides: Self.instructions + heading)))
        guard !fitted.isEmpty else { throw LecternError(.empty, context ?? "topic", "no text to write a title from") }
        let request = ChatRequest(
            messages: [.system(Self.instructions), .user((heading.isEmpty ? "" : heading + "\n\n") + "Lesson text:\n" + fitted.joined(separator: "\n\n"))],
            maxTokens: maxTokens, temperature: temperature, template: Self.template, subject: context)
        let answer = try languageModel.generate(Answer.self, request: request, schema: Self.schema).value
        let written = Self.grounded(Self.clean(answer), in: fitted)
        guard !written.title.isEmpty || !written.objectives.isEmpty else {
            throw LecternError(.modelAnswer, languageModel.info.description, "the model's title and objectives are not about the topic's text")
        }
        return written
    }

    /// What the model wrote that is about the text it read: a title or objective that uses
    /// none of the text's own words (an echo of the instructions, "Analyse 101, 102, 103 …")
    /// is dropped, and the caller keeps the offline one instead.
    static func grounded(_ written: Written, in material: [String]) -> Written {
        let text = contentStems(material.joined(separator: " "))
        let instructions = contentStems(Self.instructions)
        func usable(_ statement: String, skippingFirst: Bool) -> Bool {
            let words = statement.split(separator: " ").dropFirst(skippingFirst ? 1 : 0)
            let letters = words.filter { $0.contains(where: \.isLetter) }
            guard letters.count * 2 > words.count else { return false }
            let own = contentStems(words.joined(separator: " "))
            // Grounded in the text, and not mostly the instructions' words.
            return !own.isDisjoint(with: text) && own.subtracting(instructions).intersection(text).count * 2 >= own.subtracting(text).count
        }
        return Written(title: usable(written.title, skippingFirst: false) ? written.title : "",
                       objectives: written.objectives.filter { usable($0, skippingFirst: true) })
    }

    /// The words of a text that carry meaning, stemmed.
    static func contentStems(_ text: String) -> Set<String> {
        Set(TermMatcher.stems(text).filter { $0.count > 3 && !KeyPhrases.isStopword($0) && $0.contains(where: \.isLetter) })
    }

    private static func clean(_ answer: Answer) -> Written {
        let punctuation = CharacterSet(charactersIn: "\"'“”‘’`*#.:;").union(.whitespacesAndNewlines)
        var title = answer.title.trimmingCharacters(in: punctuation)
        if title.lowercased().hasPrefix("title ") { title = String(title.dropFirst(6)).trimmingCharacters(in: punctuation) }
        let words = title.split(separator: " ")
        if words.count > KeyPhrases.maximumWords + 2 { title = words.prefix(KeyPhrases.maximumWords).joined(separator: " ") }
        var objectives: [String] = []
        var seen = Set<String>()
        for objective in answer.objectives {
            var rest = objective.rest.trimmingCharacters(in: punctuation)
            // A small model often repeats the verb it was given ("Explain" + "explain how …").
            if rest.lowercased().hasPrefix(objective.verb.lowercased() + " ") { rest = String(rest.dropFirst(objective.verb.count + 1)) }
            // One sentence: a small model runs on into a second one.
            if let end = rest.range(of: #"[.!?;]\s"#, options: .regularExpression) { rest = String(rest[..<end.lowerBound]) }
            rest = rest.trimmingCharacters(in: punctuation)
            guard rest.split(separator: " ").count >= 2 else { continue }
            let statement = objective.verb + " " + rest
            if seen.insert(TermMatcher.stems(statement).joined(separator: " ")).inserted { objectives.append(statement) }
        }
        return Written(title: title, objectives: objectives)
    }
}
