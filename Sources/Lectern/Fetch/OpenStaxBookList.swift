import Foundation

/// OpenStax's approved book list (github.com/openstax/content-manager-approved-books): which
/// repository holds each book. Many repositories are bundles (`osbooks-calculus-bundle` holds
/// calculus-volume-1, -2 and -3), so the slug alone does not name the repository.
struct OpenStaxBookList {
    /// Book slug (lower case) → repository name.
    private var repositories: [String: String] = [:]

    /// The repository that holds the book `slug`, whatever its case.
    func repository(for slug: String) -> String? { repositories[slug.lowercased()] }

    /// Reads `approved-book-list.json`: `approved_books[].repository_name` with the slugs under
    /// `versions[].commit_metadata.books[]` (and the older `books[]`).
    init(json data: Data, name: String) throws {
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let books = top["approved_books"] as? [[String: Any]] else {
            throw LecternError(.corrupt, name, "not an approved book list (no approved_books)")
        }
        for entry in books {
            guard let repository = entry["repository_name"] as? String, !repository.isEmpty else { continue }
            var listed = entry["books"] as? [[String: Any]] ?? []
            for version in entry["versions"] as? [[String: Any]] ?? [] {
                listed += (version["commit_metadata"] as? [String: Any])?["books"] as? [[String: Any]] ?? []
            }
            for book in listed {
                if let slug = book["slug"] as? String { repositories[slug.lowercased()] = repository }
            }
        }
    }

    /// Fetches the list through the run's fetcher (its rate limit and size cap).
    static func fetch(_ url: String, fetcher: WebFetcher) throws -> OpenStaxBookList {
        switch try fetcher.fetch(url) {
        case .fetched(let response, _): return try OpenStaxBookList(json: response.body, name: Redaction.url(url))
        case .notModified: throw LecternError(.http, Redaction.url(url), "HTTP 304 to a request that was not conditional")
        }
    }
}
