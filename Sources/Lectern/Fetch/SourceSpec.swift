import Foundation

/// A source named on the command line that lives on the web rather than on disk:
/// `https://…`, `wikipedia:"Information theory"`, `openstax:<book-slug>`, `ocw:<course-id or URL>`.
/// Each maps to the service's documented endpoint; what comes back goes to the same readers as
/// a saved file.
enum SourceSpec: Equatable, Sendable {
    /// Any page, fetched as is.
    case url(String)
    /// A Wikipedia article through the Wikimedia REST API (Parsoid HTML).
    case wikipedia(title: String, language: String)
    /// An OpenStax book's source repository (books.xml, collections, CNXML modules), as the ZIP
    /// archive GitHub's REST API serves.
    case openstax(slug: String)
    /// An MIT OpenCourseWare course: its home page and the pages it links under `pages/`.
    case ocw(home: String)

    /// The spec an argument names, or nil for a local path (an existing file always wins) and
    /// for a spec that names nothing (`problem(with:)` says why).
    static func parse(_ argument: String) -> SourceSpec? {
        if FileManager.default.fileExists(atPath: argument) { return nil }
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .url(argument) }
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let scheme = lower[..<colon]
        let rest = Self.name(after: colon, in: argument)
        guard !rest.isEmpty else { return nil }
        switch scheme {
        case "wikipedia", "wiki":
            // `wikipedia:fr:Entropie` reads the French Wikipedia.
            if let (language, title) = Self.languageAndTitle(rest) {
                return title.isEmpty ? nil : .wikipedia(title: title, language: language)
            }
            return .wikipedia(title: rest, language: "en")
        case "openstax":
            return isSlug(rest) ? .openstax(slug: rest.lowercased()) : nil
        case "ocw":
            if rest.lowercased().hasPrefix("http://") || rest.lowercased().hasPrefix("https://") {
                return .ocw(home: rest.hasSuffix("/") ? rest : rest + "/")
            }
            let id = rest.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return isSlug(id) ? .ocw(home: "https://ocw.mit.edu/courses/\(id)/") : nil
        default:
            return nil
        }
    }

    /// Why an argument that is no file and looks like a web source names nothing to fetch
    /// (`wikipedia:""`, `openstax:` without a book, `ftp://…`); nil for anything else.
    static func problem(with argument: String) -> String? {
        if FileManager.default.fileExists(atPath: argument) { return nil }
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let scheme = argument[..<colon].lowercased()
        let rest = Self.name(after: colon, in: argument)
        switch scheme {
        case "wikipedia", "wiki":
            let title = Self.languageAndTitle(rest)?.title ?? rest
            return title.isEmpty ? "no article named: give its title, as in wikipedia:\"Information theory\"" : nil
        case "openstax":
            if rest.isEmpty { return "no book named: give its slug, as in openstax:introduction-philosophy-2e" }
            return isSlug(rest) ? nil
                : "'\(rest)' is not a book slug (letters, digits and hyphens), as in openstax:introduction-philosophy-2e"
        case "ocw":
            let id = rest.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if id.isEmpty { return "no course named: give its id or URL, as in ocw:8-01sc-classical-mechanics-fall-2016" }
            let lower = rest.lowercased()
            return lower.hasPrefix("http://") || lower.hasPrefix("https://") || isSlug(id) ? nil
                : "'\(rest)' is not a course id (letters, digits and hyphens) or URL, as in ocw:8-01sc-classical-mechanics-fall-2016"
        case "http", "https":
            return nil
        default:
            // `ftp://…`, `sftp://…`: a URL of a scheme Lectern does not fetch.
            guard argument[colon...].hasPrefix("://"), scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
                return nil
            }
            return "unsupported scheme \(scheme): Lectern fetches http:// and https:// URLs, and wikipedia:, openstax: and ocw: specs"
        }
    }

    /// An OpenStax book slug or an OCW course id: ASCII letters, digits and hyphens, as the
    /// services name them. They become a part of a URL's path, where `../` or `/` would reach
    /// another path of the server.
    static func isSlug(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
    }

    /// What follows `scheme:`, trimmed, without the quotes a shell may have left around it.
    static func name(after colon: String.Index, in argument: String) -> String {
        var rest = String(argument[argument.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        if rest.count >= 2, let first = rest.first, first == "\"" || first == "'", rest.last == first {
            rest = String(rest.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return rest
    }

    /// `fr:Entropie` → ("fr", "Entropie"); nil without a language prefix.
    static func languageAndTitle(_ rest: String) -> (language: String, title: String)? {
        guard let inner = rest.firstIndex(of: ":"), rest[..<inner].count <= 3, !rest[..<inner].isEmpty,
              rest[..<inner].allSatisfy({ $0.isLowercase }) else { return nil }
        let title = String(rest[rest.index(after: inner)...]).trimmingCharacters(in: .whitespaces)
        let unquoted = title.count >= 2 && (title.first == "\"" || title.first == "'") && title.last == title.first
            ? String(title.dropFirst().dropLast()) : title
        return (String(rest[..<inner]), unquoted)
    }

    /// The URL fetched first (the only one, except for a course's pages).
    var url: String {
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
    var display: String {
        switch self {
        case .url(let url): return Redaction.url(url)
        case .wikipedia(let title, let language): return language == "en" ? "wikipedia:\(title)" : "wikipedia:\(language):\(title)"
        case .openstax(let slug): return "openstax:\(slug)"
        case .ocw(let home): return "ocw:\(Redaction.url(home))"
        }
    }
}
