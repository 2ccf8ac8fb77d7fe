import Foundation

/// What a server said about a URL when it was last fetched: the validators a conditional
/// GET sends back (`If-None-Match`, `If-Modified-Since`). The library keeps one a URL; its
/// coding keys are the columns it is kept in.
struct FetchCacheEntry: Codable, Sendable, Equatable {
    var url: String
    var etag: String?
    var lastModified: String?
    var contentType: String?
    var contentHash: String?
    var fetchedAt: String

    enum CodingKeys: String, CodingKey {
        case url, etag
        case lastModified = "last_modified"
        case contentType = "content_type"
        case contentHash = "content_hash"
        case fetchedAt = "fetched_at"
    }
}
