import Foundation

/// Where `wikipedia:` and `ocw:` specs are fetched from (`[wikipedia]`, `[ocw]`), so that a
/// pipeline, a mirror or a test's loopback server can stand in for the public services.
public struct WebSourceSettings: Sendable, Equatable {
    /// The Wikimedia REST API's page-HTML endpoint; `{language}` becomes the article's language.
    public var wikipediaBase = WebSourceSettings.defaultWikipediaBase
    /// The folder under which OCW courses live; an `ocw:ID` spec is `<base>ID/`.
    public var ocwBase = WebSourceSettings.defaultOCWBase

    static let defaultWikipediaBase = "https://{language}.wikipedia.org/api/rest_v1/page/html/"
    static let defaultOCWBase = "https://ocw.mit.edu/courses/"

    public init() {}

    /// `spec` with its public address moved under these bases (a spec given as a URL is kept).
    func resolve(_ spec: SourceSpec) -> SourceSpec {
        switch spec {
        case .ocw(let home) where ocwBase != Self.defaultOCWBase && home.hasPrefix(Self.defaultOCWBase):
            return .ocw(home: Self.withSlash(ocwBase) + home.dropFirst(Self.defaultOCWBase.count))
        default:
            return spec
        }
    }

    /// The URL a spec is fetched from.
    func url(of spec: SourceSpec) -> String {
        guard case .wikipedia(_, let language) = spec, wikipediaBase != Self.defaultWikipediaBase else { return resolve(spec).url }
        let publicBase = Self.defaultWikipediaBase.replacingOccurrences(of: "{language}", with: language)
        let base = Self.withSlash(wikipediaBase.replacingOccurrences(of: "{language}", with: language))
        return base + spec.url.dropFirst(publicBase.count)
    }

    private static func withSlash(_ base: String) -> String { base.hasSuffix("/") ? base : base + "/" }
}
