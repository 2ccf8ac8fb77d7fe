import Foundation
import GRDB

extension FetchCacheEntry: FetchableRecord {}

extension LibraryStore {
    func fetchCache(url: String) throws -> FetchCacheEntry? {
        try read { db in try FetchCacheEntry.fetchOne(db, sql: "SELECT * FROM fetch_cache WHERE url = ?", arguments: [url]) }
    }

    /// Remembers a URL's validators, after its document was stored.
    func recordFetch(_ entry: FetchCacheEntry) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO fetch_cache(url, etag, last_modified, content_type, content_hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                    content_type = excluded.content_type, content_hash = excluded.content_hash, fetched_at = excluded.fetched_at
                """, arguments: [entry.url, entry.etag, entry.lastModified, entry.contentType, entry.contentHash, entry.fetchedAt])
        }
    }
}
