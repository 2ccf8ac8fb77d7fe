import Foundation

/// Cards a language model writes from a topic's passages through a JSON schema, each citing
/// the passage it comes from by number; then the model is asked, card by card, whether that
/// passage supports the answer. The offline grounding check runs on them as on any card.
struct ModelCardGenerator: Sendable {
    let languageModel: any LanguageModel
    var maxTokens = 600
    var cardsPerTopic = 5

    /// Bump when a prompt changes, so cached answers to the old prompt are not reused.
    static let template = "cards/1"
    static let verifyTemplate = "cards-verify/1"

    /// At most `cardsPerTopic` cards of bounded strings: a server that decodes by the schema
    /// (llama.cpp) then closes a small model's looping string in time to finish its JSON.
    var schema: JSONSchema {
        JSONSchema(name: "flashcards", [
            "type": "object",
            "properties": [
                "cards": [
                    "type": "array", "minItems": 1, "maxItems": .number(Double(cardsPerTopic)),
                    "items": [
                        "type": "object",
                        "properties": [
                            "question": ["type": "string", "minLength": 3, "maxLength": 120],
                            "answer": ["type": "string", "minLength": 1, "maxLength": 120],
                            "passage": ["type": "integer", "minimum": 1],
                        ],
                        "required": ["question", "answer", "passage"],
                        "additionalProperties": false,
                    ],
                ],
            ],
            "required": ["cards"],
            "additionalProperties": false,
        ])
    }

    static let verifySchema = JSONSchema(name: "verdict", [
        "type": "object",
        "properties": ["supported": ["type": "boolean"]],
        "required": ["supported"],
        "additionalProperties": false,
    ])

    struct Written: Decodable, Sendable {
        struct Card: Decodable, Sendable {
            var question: String
            var answer: String
            var passage: Int
        }
        var cards: [Card]
    }

    struct Verdict: Decodable, Sendable { var supported: Bool }

    static let instructions = """
        You write flashcards for a student from numbered passages. Each card asks one question \
        whose short answer is stated in ONE passage, in that passage's own words; give that \
        passage's number. Write up to 5 cards. Answer with JSON: \
        {"cards": [{"question": "…", "answer": "…", "passage": 1}]}.
        """

    static let verifyInstructions = """
        You check flashcards. Say whether the passage states the answer to the question. \
        Answer with JSON: {"supported": true} or {"supported": false}.
        """

    /// The prose passages the model sees, fitted to its context window, numbered from 1.
    func material(_ topic: Topic) -> [Passage] {
        let prose = topic.passages.filter { [.text, .list, .transcript, .glossary].contains($0.kind) }
        let budget = ContextBudget(contextTokens: languageModel.info.contextTokens, answerTokens: maxTokens)
        let fitted = budget.fit(prose.enumerated().map { "[\($0.offset + 1)] \($0.element.text)" },
                                within: budget.available(besides: Self.instructions + topic.title))
        return Array(prose.prefix(fitted.count))
    }

    func request(_ topic: Topic, passages: [Passage]) -> ChatRequest {
        let text = passages.enumerated().map { "[\($0.offset + 1)] \($0.element.text)" }.joined(separator: "\n\n")
        return ChatRequest(messages: [.system(Self.instructions), .user("Topic: \(topic.title)\n\nPassages:\n\(text)")],
                           maxTokens: maxTokens, temperature: 0, template: Self.template, subject: "cards › \(topic.title)")
    }

    func verifyRequest(question: String, answer: String, passage: Passage, topic: Topic) -> ChatRequest {
        ChatRequest(messages: [.system(Self.verifyInstructions),
                               .user("Passage: \(passage.text)\n\nQuestion: \(question)\nAnswer: \(answer)")],
                    maxTokens: 20, temperature: 0, template: Self.verifyTemplate, subject: "cards verify › \(topic.title)")
    }

    /// The calls and tokens a run over `topics` would take: one writing call a topic and one
    /// verifying call for each card it may write.
    func estimate(_ topics: [Topic]) -> (calls: Int, inputTokens: Int, outputTokens: Int) {
        let counter = ApproximateTokenCounter()
        var calls = 0, input = 0, output = 0
        for topic in topics {
            let passages = material(topic)
            guard !passages.isEmpty else { continue }
            let ask = request(topic, passages: passages)
            calls += 1 + cardsPerTopic
            input += ask.messages.reduce(0) { $0 + counter.count($1.content) }
            output += maxTokens
            let longest = passages.map { counter.count($0.text) }.max() ?? 0
            input += cardsPerTopic * (longest + counter.count(Self.verifyInstructions) + 60)
            output += cardsPerTopic * 8
        }
        return (calls, input, output)
    }

    /// The model's cards for `topic`, with those it wrote outside the schema's promise or did
    /// not confirm on asking turned away with their reason.
    func candidates(for topic: Topic, in deck: CardDeckContext) throws -> (cards: [Flashcard], rejected: [CardRejection]) {
        let passages = material(topic)
        guard !passages.isEmpty else { return ([], []) }
        let written = try languageModel.generate(Written.self, request: request(topic, passages: passages), schema: schema).value
        var cards: [Flashcard] = []
        var rejected: [CardRejection] = []
        for card in written.cards.prefix(cardsPerTopic) {
            let question = card.question.trimmingCharacters(in: .whitespacesAndNewlines)
            let answer = card.answer.trimmingCharacters(in: .whitespacesAndNewlines)
            guard passages.indices.contains(card.passage - 1), !question.isEmpty, !answer.isEmpty else {
                rejected.append(CardRejection(topicStableId: topic.stableId, front: question, answer: answer, reason: .malformed,
                                              detail: "cites passage \(card.passage) of \(passages.count)"))
                continue
            }
            let passage = passages[card.passage - 1]
            // Only an answer off its schema rejects the card; a model that cannot be asked (a
            // wrong key, a timeout, 429) fails the topic, and the caller stops.
            let verdict: Verdict?
            do {
                verdict = try languageModel.generate(Verdict.self, request: verifyRequest(question: question, answer: answer, passage: passage, topic: topic),
                                                     schema: Self.verifySchema).value
            } catch let error as LecternError where error.code == .modelAnswer {
                verdict = nil
            }
            guard verdict?.supported == true else {
                rejected.append(CardRejection(topicStableId: topic.stableId, front: question, answer: answer, reason: .modelRejected,
                                              detail: verdict == nil ? "the verifying answer did not follow its schema" : "the model found passage \(passage.id) does not support it"))
                continue
            }
            cards.append(deck.card(topic: topic, type: .basic, front: question, back: answer, origin: .model, passage: passage))
        }
        return (cards, rejected)
    }
}
