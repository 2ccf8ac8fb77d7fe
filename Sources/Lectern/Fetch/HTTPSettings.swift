/// How Lectern talks to web servers (`[http]` in configuration).
public struct HTTPSettings: Sendable, Equatable {
    /// Seconds to wait for a connection.
    public var connectTimeout: Double = 10
    /// Seconds a whole request (with its body) may take.
    public var timeout: Double = 60
    public var maxRedirects: Int = 5
    /// Bodies larger than this are refused, so that a hostile or broken server cannot fill memory.
    public var maxResponseBytes: Int = 64 << 20
    /// Retries after a connection error, a 429 or a 5xx (so at most `maxRetries + 1` attempts).
    public var maxRetries: Int = 3
    /// First back-off delay in seconds; doubled each retry, with jitter.
    public var retryBaseDelay: Double = 0.5
    /// The longest wait, whatever a `Retry-After` header asks for.
    public var maxRetryDelay: Double = 30
    /// A URL or e-mail address for the User-Agent, so that site operators can reach the user.
    public var contact: String? = nil
    /// Seconds between two requests to the same host when Lectern crawls or ingests URLs, so
    /// that a batch of pages stays polite (`http.host_interval`).
    public var hostInterval: Double = 1

    public init() {}
}
