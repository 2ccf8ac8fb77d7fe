import Foundation

/// Downloads an OCW course as the site publishes it: the course home page and every page it
/// links under `<course>/pages/` and `<course>/resources/`, laid out as a downloaded course
/// folder (`index.html`, `pages/<name>/index.html`, `resources/<name>/index.html`) for the OCW
/// reader. Requests go through the fetcher's per-host rate limit; the crawl never leaves the course.
struct OCWCourseCrawler {
    let fetcher: WebFetcher
    /// A course has some tens of pages; a crawl that finds more stops here.
    var maxPages = 400

    /// Returns how many pages were saved (the home page included).
    func download(home: String, into folder: String) throws -> Int {
        guard let base = URL(string: home) else { throw LecternError(.invalidInput, home, "not a URL") }
        let homePage = try page(home)
        try write(homePage, to: folder + "/index.html")
        var saved = 1
        var seen = Set<String>()
        for link in try links(in: homePage, base: base) {
            guard saved < maxPages else { break }
            let path = link.absoluteString.dropFirst(base.absoluteString.count)
            let parts = path.split(separator: "/")
            guard parts.count >= 2, parts[0] == "pages" || parts[0] == "resources" else { continue }
            let name = String(parts[1])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), name != ".", name != "..",
                  seen.insert("\(parts[0])/\(name)").inserted else { continue }
            let target = "\(folder)/\(parts[0])/\(name)/index.html"
            let url = base.absoluteString + "\(parts[0])/\(name)/"
            try write(try page(url), to: target)
            saved += 1
        }
        return saved
    }

    private func page(_ url: String) throws -> Data {
        switch try fetcher.fetch(url) {
        case .fetched(let response, _): return response.body
        case .notModified: throw LecternError(.http, Redaction.url(url), "HTTP 304 to a request that was not conditional")
        }
    }

    private func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Links of the page inside the course, resolved, without query or fragment, in page order.
    private func links(in data: Data, base: URL) throws -> [URL] {
        let document = try MarkupDocument.html(data, name: base.absoluteString)
        var result: [URL] = []
        for anchor in document.root?.all(where: { $0.name == "a" }) ?? [] {
            guard let href = anchor.attribute("href"), let url = URL(string: href, relativeTo: base)?.absoluteURL,
                  var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { continue }
            components.query = nil
            components.fragment = nil
            guard let clean = components.url, clean.absoluteString.hasPrefix(base.absoluteString) else { continue }
            result.append(clean)
        }
        return result
    }
}
