import Foundation

/// The configured model as the library uses it: answers cached in the store (a re-run costs
/// nothing), every call recorded with its tokens and cost, and the run's totals counted
/// (`llm.calls`, `llm.cache_hits`, `llm.input_tokens`, `llm.output_tokens`, `llm.cost_microusd`).
public struct LibraryModel: LanguageModel {
    let base: any LanguageModel
    let store: any LibraryBackend
    let recorder: RunRecorder?
    /// Dollars per million tokens by model name; a model without a price costs nothing known.
    let prices: [String: ModelPrice]
    /// False for `--no-cache`: always ask (and refresh the cached answer).
    let useCache: Bool

    public init(_ base: any LanguageModel, store: LibraryStore, recorder: RunRecorder?, prices: [String: ModelPrice] = [:], useCache: Bool = true) {
        self.init(base, backend: store, recorder: recorder, prices: prices, useCache: useCache)
    }

    public init(_ base: any LanguageModel, library: Library, recorder: RunRecorder?, prices: [String: ModelPrice] = [:], useCache: Bool = true) {
        self.init(base, backend: library.backend, recorder: recorder, prices: prices, useCache: useCache)
    }

    init(_ base: any LanguageModel, backend store: any LibraryBackend, recorder: RunRecorder?, prices: [String: ModelPrice], useCache: Bool) {
        self.base = base
        self.store = store
        self.recorder = recorder
        self.prices = prices
        self.useCache = useCache
    }

    public var info: LanguageModelInfo { base.info }

    /// sha256 over provider, model, prompt-template version, schema and the whole input.
    func cacheKey(_ request: ChatRequest) -> String {
        let key: JSONValue = [
            "provider": .string(info.provider),
            "model": .string(info.model),
            "template": .string(request.template),
            "schema": request.schema?.value ?? .null,
            "messages": .array(request.messages.map { [.string($0.role.rawValue), .string($0.content)] }),
            "max_tokens": .number(Double(request.maxTokens)),
            "temperature": .number(request.temperature),
        ]
        return ContentHash.sha256(key.canonicalData)
    }

    public func complete(_ request: ChatRequest) throws -> ChatResponse {
        try answer(request) { try base.complete(request) }
    }

    /// A cached answer arrives whole; a new one piece by piece as the model writes it.
    public func stream(_ request: ChatRequest, onText: @escaping (String) -> Void) throws -> ChatResponse {
        let response = try answer(request) { try base.stream(request, onText: onText) }
        if response.cached, !response.text.isEmpty { onText(response.text) }
        return response
    }

    private func answer(_ request: ChatRequest, asking: () throws -> ChatResponse) throws -> ChatResponse {
        let key = cacheKey(request)
        if useCache, let hit = try store.cachedResponse(key: key) {
            account(hit, request: request, milliseconds: 0)
            return hit
        }
        let started = ContinuousClock.now
        let response = try asking()
        let elapsed = started.duration(to: .now).components
        try store.cacheResponse(key: key, provider: info.provider, template: request.template, response)
        account(response, request: request, milliseconds: Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000))
        return response
    }

    func price(for model: String) -> ModelPrice? {
        prices[model] ?? prices[info.model]
    }

    private func account(_ response: ChatResponse, request: ChatRequest, milliseconds: Int) {
        // A cache hit sends nothing, so it costs no tokens.
        let input = response.cached ? 0 : response.inputTokens
        let output = response.cached ? 0 : response.outputTokens
        let cost = price(for: response.model)?.cost(inputTokens: input, outputTokens: output)
        try? store.recordModelCall(ModelCallRecord(
            runId: recorder?.id, provider: info.provider, model: response.model, template: request.template,
            inputTokens: input, outputTokens: output, costUSD: cost, cached: response.cached,
            subject: request.subject, prompt: request.conversation.last(where: { $0.role == .user })?.content, response: response.text,
            finishReason: response.finishReason, durationMs: milliseconds))
        guard let recorder else { return }
        recorder.countModelCall(cached: response.cached, inputTokens: input, outputTokens: output,
                                costMicroUSD: cost.map { Int(($0 * 1_000_000).rounded()) })
    }
}
