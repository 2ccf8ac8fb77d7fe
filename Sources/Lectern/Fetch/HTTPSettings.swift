/// How Lectern talks to web servers (`[http]` in configuration).
public struct HTTPSettings: Sendable, Equatable {
    /// Seconds to wait for a connection (`http.connect_timeout`).
    var connectTimeout: Double = 10
    /// Seconds a whole request may take, its redirects, retries and the waits between them
    /// included (`http.timeout`).
    var timeout: Double = 60
    /// Redirects followed (`http.max_redirects`); 0 returns a redirect as the response.
    var maxRedirects: Int = 5
    /// Bodies larger than this (after decoding gzip) are refused, so that a hostile or broken
    /// server cannot fill memory (`http.max_response_mb`).
    var maxResponseBytes: Int = 64 << 20
    /// Retries after a connection error, a 429 or a 5xx (so at most `maxRetries + 1` attempts;
    /// `http.retries`).
    var maxRetries: Int = 3
    /// First back-off delay in seconds; doubled each retry, with jitter (`http.retry_delay`).
    var retryBaseDelay: Double = 0.5
    /// The longest wait, whatever a `Retry-After` header asks for (`http.max_retry_delay`).
    var maxRetryDelay: Double = 30
    /// A URL or e-mail address for the User-Agent, so that site operators can reach the user
    /// (`http.contact`).
    var contact: String? = nil
    /// Seconds between two requests to the same host when Lectern crawls or ingests URLs, so
    /// that a batch of pages stays polite (`http.host_interval`).
    var hostInterval: Double = 1

    public init() {}
}
