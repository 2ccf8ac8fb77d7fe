/// Placeholder until the HTTP client branch lands (same API).
public struct HTTPSettings: Sendable, Equatable {
    public var connectTimeout: Double = 10
    public var timeout: Double = 60
    public var maxRedirects: Int = 5
    public var maxResponseBytes: Int = 64 << 20
    public var maxRetries: Int = 3
    public var retryBaseDelay: Double = 0.5
    public var maxRetryDelay: Double = 30
    public var contact: String? = nil
    public init() {}
}
