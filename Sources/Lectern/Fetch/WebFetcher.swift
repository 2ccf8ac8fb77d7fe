import Foundation

/// Fetches web sources politely and cheaply: one rate limiter per host across the whole run,
/// and conditional GET with the validators remembered in the library, so that an unchanged
/// page costs a 304 and nothing else.
public final class WebFetcher: Sendable {
    let client: HTTPClient
    let limiter: RateLimiter

    public init(settings: HTTPSettings = HTTPSettings()) {
        client = HTTPClient(settings: settings)
        limiter = RateLimiter(interval: settings.hostInterval)
    }

    enum Outcome: Sendable {
        /// 304: the page is what the library already holds.
        case notModified
        /// The body, the URL that answered and the validators to remember once it is stored.
        case fetched(HTTPResponse, FetchCacheEntry)
    }

    /// GET `url`, conditional on `cached` validators when given. Any status but success and 304
    /// is one clear error line; an oversized body is refused naming the limit.
    func fetch(_ url: String, cached: FetchCacheEntry? = nil) throws -> Outcome {
        var headers: [String: String] = [:]
        if let etag = cached?.etag { headers["If-None-Match"] = etag }
        if let modified = cached?.lastModified { headers["If-Modified-Since"] = modified }
        limiter.wait(for: url)
        let response = try client.get(url, headers: headers)
        if response.isNotModified {
            guard cached != nil else { throw LecternError(.http, Redaction.url(url), "HTTP 304 to a request that was not conditional") }
            return .notModified
        }
        // Remembered under the URL as the library records it, without its credentials.
        let entry = FetchCacheEntry(url: Redaction.url(url), etag: response.header("etag"), lastModified: response.header("last-modified"),
                                    contentType: response.header("content-type"), contentHash: ContentHash.sha256(response.body),
                                    fetchedAt: ISO8601DateFormatter().string(from: Date()))
        return .fetched(response, entry)
    }
}
