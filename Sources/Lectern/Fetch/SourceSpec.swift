import Foundation

/// A source named on the command line that lives on the web rather than on disk:
/// `https://…`, `wikipedia:"Information theory"`, `openstax:<book-slug>`, `ocw:<course-id or URL>`.
/// Each maps to the service's documented endpoint; what comes back goes to the same readers as
/// a saved file.
public enum SourceSpec: Equatable, Sendable {
    /// Any page, fetched as is.
    case url(String)
    /// A Wikipedia article through the Wikimedia REST API (Parsoid HTML).
    case wikipedia(title: String, language: String)
    /// An OpenStax book's source repository (books.xml, collections, CNXML modules), as the ZIP
    /// archive GitHub's REST API serves.
    case openstax(slug: String)
    /// An MIT OpenCourseWare course: its home page and the pages it links under `pages/`.
    case ocw(home: String)

    /// The spec an argument names, or nil for a local path (an existing file always wins).
    public static func parse(_ argument: String) -> SourceSpec? {
        if FileManager.default.fileExists(atPath: argument) { return nil }
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .url(argument) }
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let scheme = lower[..<colon]
        var rest = String(argument[argument.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        if rest.count >= 2, let first = rest.first, first == "\"" || first == "'", rest.last == first {
            rest = String(rest.dropFirst().dropLast())
        }
        guard !rest.isEmpty else { return nil }
        switch scheme {
        case "wikipedia", "wiki":
            // `wikipedia:fr:Entropie` reads the French Wikipedia.
            if let inner = rest.firstIndex(of: ":"), rest[..<inner].count <= 3, rest[..<inner].allSatisfy({ $0.isLowercase }) {
                return .wikipedia(title: String(rest[rest.index(after: inner)...]), language: String(rest[..<inner]))
            }
            return .wikipedia(title: rest, language: "en")
        case "openstax":
            return .openstax(slug: rest.lowercased())
        case "ocw":
            if rest.lowercased().hasPrefix("http://") || rest.lowercased().hasPrefix("https://") {
                return .ocw(home: rest.hasSuffix("/") ? rest : rest + "/")
            }
            let id = rest.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return .ocw(home: "https://ocw.mit.edu/courses/\(id)/")
        default:
            return nil
        }
    }

    /// The URL fetched first (the only one, except for a course's pages).
    public var url: String {
        switch self {
        case .url(let url):
            return url
        case .wikipedia(let title, let language):
            // https://en.wikipedia.org/api/rest_v1/#/Page%20content/get_page_html__title_
            let normalized = title.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~()!*',;:@$")
            let encoded = normalized.addingPercentEncoding(withAllowedCharacters: allowed) ?? normalized
            return "https://\(language).wikipedia.org/api/rest_v1/page/html/\(encoded)"
        case .openstax(let slug):
            // https://docs.github.com/en/rest/repos/contents#download-a-repository-archive-zip
            return "https://api.github.com/repos/openstax/\(Self.openstaxRepository(slug))/zipball"
        case .ocw(let home):
            return home
        }
    }

    /// OpenStax keeps each book's source in `openstax/osbooks-<name>`, the slug without its
    /// edition suffix (`introduction-philosophy-2e` → `osbooks-introduction-philosophy`).
    static func openstaxRepository(_ slug: String) -> String {
        var name = slug.hasPrefix("osbooks-") ? String(slug.dropFirst(8)) : slug
        if let range = name.range(of: #"-\d+e$"#, options: .regularExpression) { name.removeSubrange(range) }
        return "osbooks-" + name
    }

    /// How messages name the source: what the user typed, normalised.
    public var display: String {
        switch self {
        case .url(let url): return Redaction.url(url)
        case .wikipedia(let title, let language): return language == "en" ? "wikipedia:\(title)" : "wikipedia:\(language):\(title)"
        case .openstax(let slug): return "openstax:\(slug)"
        case .ocw(let home): return "ocw:\(Redaction.url(home))"
        }
    }
}
