import Foundation
import GRDB

/// What a server said about a URL when it was last fetched: the validators a conditional
/// GET sends back (`If-None-Match`, `If-Modified-Since`).
public struct FetchCacheEntry: Codable, Sendable, Equatable, FetchableRecord {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    public var contentHash: String?
    public var fetchedAt: String

    public init(url: String, etag: String?, lastModified: String?, contentType: String?, contentHash: String?, fetchedAt: String) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.contentHash = contentHash
        self.fetchedAt = fetchedAt
    }

    enum CodingKeys: String, CodingKey {
        case url, etag
        case lastModified = "last_modified"
        case contentType = "content_type"
        case contentHash = "content_hash"
        case fetchedAt = "fetched_at"
    }
}

extension LibraryStore {
    public func fetchCache(url: String) throws -> FetchCacheEntry? {
        try read { db in try FetchCacheEntry.fetchOne(db, sql: "SELECT * FROM fetch_cache WHERE url = ?", arguments: [url]) }
    }

    /// Remembers a URL's validators, after its document was stored.
    public func recordFetch(_ entry: FetchCacheEntry) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO fetch_cache(url, etag, last_modified, content_type, content_hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                    content_type = excluded.content_type, content_hash = excluded.content_hash, fetched_at = excluded.fetched_at
                """, arguments: [entry.url, entry.etag, entry.lastModified, entry.contentType, entry.contentHash, entry.fetchedAt])
        }
    }
}
