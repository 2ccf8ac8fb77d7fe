import Foundation

/// Counts the tokens of a prompt the way the configured model will: by asking its server where
/// it has a tokenize endpoint (llama.cpp's `/tokenize`), else with the word-piece estimate, which
/// is not the model's tokenizer and so leaves a margin of the budget unused.
public struct PromptTokenCounter: Sendable {
    /// How tokens are counted, for the record (`llama.cpp /tokenize at http://…`, or the estimate).
    public let name: String
    /// The share of a budget kept free because the count is an estimate.
    public let margin: Double
    private let counting: @Sendable (String) throws -> Int

    init(name: String, margin: Double, counting: @escaping @Sendable (String) throws -> Int) {
        self.name = name
        self.margin = margin
        self.counting = counting
    }

    /// The word-piece estimate (`ApproximateTokenCounter`) with a 10% margin.
    public static let estimate: PromptTokenCounter = {
        let counter = ApproximateTokenCounter()
        return PromptTokenCounter(name: "\(counter.countingKey) (estimate, 10% margin)", margin: 0.1) { counter.count($0) }
    }()

    public func count(_ text: String) throws -> Int {
        try counting(text)
    }

    /// The tokens of `budget` that may be filled: all of them when the model counts, 90% when
    /// they are estimated.
    public func usable(_ budget: Int) -> Int {
        Int((Double(budget) * (1 - margin)).rounded(.down))
    }

    /// The configured model server's tokenizer when it answers `/tokenize` (llama.cpp does;
    /// OpenAI's API and Anthropic's do not), else the estimate. Asked once, briefly and without
    /// retries, so a server that is down costs a moment rather than the HTTP client's back-off.
    public static func make(for configuration: Configuration,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> PromptTokenCounter {
        let llm = configuration.llm
        guard llm.hasModel, llm.provider == "openai", let base = llm.baseURL, !base.isEmpty else { return estimate }
        var root = base
        while root.hasSuffix("/") { root.removeLast() }
        if root.hasSuffix("/v1") { root.removeLast(3) }
        let url = root + "/tokenize"
        let headers: [String: String] = llm.apiKeyEnv.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : ["Authorization": "Bearer \($0)"] } ?? [:]
        var settings = configuration.http
        settings.maxRetries = 0
        settings.connectTimeout = 2
        let client = HTTPClient(settings: settings)
        let ask: @Sendable (String) throws -> Int = { text in
            let body = JSONValue.object(["content": .string(text), "add_special": .bool(false)]).canonicalData
            let response = try client.send(HTTPRequest.json(url, body: body, headers: headers, timeout: 10))
            guard response.isSuccess, case .object(let fields)? = JSONValue.parse(response.body),
                  case .array(let tokens)? = fields["tokens"] else {
                throw LecternError(.languageModel, Redaction.url(url), "HTTP \(response.status): no token list")
            }
            return tokens.count
        }
        guard (try? ask("probe")) != nil else { return estimate }
        return PromptTokenCounter(name: "llama.cpp /tokenize at \(Redaction.url(url))", margin: 0, counting: ask)
    }
}
